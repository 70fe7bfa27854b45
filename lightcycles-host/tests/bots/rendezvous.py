"""Answers a tick only once the other player has been sent the same tick:
it marks its own arrival in the folder argv[1] and waits (up to 4 s) for
the other's mark. Two of these answer at once when a host asks every bot
before it waits for any; a host that asked them one after the other would
see the first one time out."""
import os
import sys
import time
from common import good_move, observations, say

folder = sys.argv[1]
for obs in observations():
    me, other = obs["you"], 1 - obs["you"]
    open(os.path.join(folder, "tick-%d-seat-%d" % (obs["tick"], me)), "w").close()
    theirs = os.path.join(folder, "tick-%d-seat-%d" % (obs["tick"], other))
    deadline = time.monotonic() + 4
    while not os.path.exists(theirs) and time.monotonic() < deadline:
        time.sleep(0.005)
    say(good_move(obs))
