"""Answers ticks 1 and 2, then sleeps 3 s before every answer: every tick
from 3 on is a timeout, and the late answers must never count."""
import time
from common import good_move, observations, say

for obs in observations():
    if obs["tick"] >= 3:
        time.sleep(3)
        say("late")
    else:
        say(good_move(obs))
