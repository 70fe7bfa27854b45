"""Answers ticks 2 and 3 with lines of 1 MB (on tick 3 a move padded past
the limit): both invalid, recorded cut. Good moves otherwise."""
from common import good_move, observations, say

for obs in observations():
    if obs["tick"] == 2:
        say("x" * (1 << 20))
    elif obs["tick"] == 3:
        say(good_move(obs) + " " * (1 << 20))
    else:
        say(good_move(obs))
