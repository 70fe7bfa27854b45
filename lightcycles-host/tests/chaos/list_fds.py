"""Test bot: answers each observation with the descriptors it holds, from
/proc/self/fd, as a line `fds 0 1 2`. Its argument is a marker."""

import os
import sys

for line in sys.stdin:
    names = os.listdir("/proc/self/fd")
    # The descriptor listdir used is closed again by now: keep the open ones.
    fds = sorted(int(n) for n in names if os.path.exists("/proc/self/fd/" + n))
    sys.stdout.write("fds %s\n" % " ".join(str(fd) for fd in fds))
    sys.stdout.flush()
