"""Starts a child that sleeps for ten minutes with the bot's pipes, plays
ticks 1 and 2, and exits on tick 3: a crash from tick 3 on (the child keeps
the pipe open, so the host must see the exit itself), and the child must
not outlive the game. argv[1] is a marker the test looks for in the
process table."""
import subprocess
import sys
from common import good_move, observations, say

marker = sys.argv[1] if len(sys.argv) > 1 else "orphan"
subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)", marker])
for obs in observations():
    if obs["tick"] == 3:
        sys.exit(0)
    say(good_move(obs))
