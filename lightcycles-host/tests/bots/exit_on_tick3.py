"""Plays ticks 1 and 2, then exits when it reads tick 3: a crash from tick 3 on."""
import sys
from common import good_move, observations, say

for obs in observations():
    if obs["tick"] == 3:
        sys.exit(0)
    say(good_move(obs))
