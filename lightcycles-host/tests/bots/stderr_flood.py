"""Plays well while a thread writes to stderr without end: its log is cut
at its cap, and no tick is lost."""
import sys
import threading
from common import good_move, observations, say


def flood():
    line = "stderr without end " * 50 + "\n"
    while True:
        sys.stderr.write(line)


threading.Thread(target=flood, daemon=True).start()
for obs in observations():
    say(good_move(obs))
