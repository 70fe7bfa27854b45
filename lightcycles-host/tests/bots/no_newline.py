"""From tick 2 on, writes its move without a newline: never a whole line,
so every such tick is a timeout."""
import sys
from common import good_move, observations, say

for obs in observations():
    if obs["tick"] >= 2:
        sys.stdout.write(good_move(obs))
        sys.stdout.flush()
    else:
        say(good_move(obs))
