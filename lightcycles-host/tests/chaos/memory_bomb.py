"""Chaos bot: allocates (and touches) memory without end before it answers
anything. Under the host's address-space limit it dies of MemoryError.
Its argument is a marker the test finds in the process table."""

import sys

hoard = []
while True:
    hoard.append(bytearray(32 << 20))
    sys.stderr.write("%d MiB\n" % (32 * len(hoard)))
