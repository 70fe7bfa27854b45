"""Answers tick 2 late (3 s, with the line "late"), every other tick at
once: tick 2 is a timeout, and tick 3 must be answered by tick 3's line."""
import time
from common import good_move, observations, say

for obs in observations():
    if obs["tick"] == 2:
        time.sleep(3)
        say("late")
    else:
        say(good_move(obs))
