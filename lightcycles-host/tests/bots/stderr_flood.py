"""Plays well while writing to stderr without end: 4 MB before its first
answer (so its log is sure to be cut), then a thread that never stops. Its
log is cut at the cap, and no tick is lost."""
import sys
import threading
from common import good_move, observations, say

LINE = "stderr without end " * 50 + "\n"


def flood():
    while True:
        sys.stderr.write(LINE)


for _ in range((4 << 20) // len(LINE)):
    sys.stderr.write(LINE)
sys.stderr.flush()
threading.Thread(target=flood, daemon=True).start()
for obs in observations():
    say(good_move(obs))
