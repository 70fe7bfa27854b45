"""Runs a command under a pseudo-terminal, as a person at a terminal would,
and types keys into it: waits for PROMPT in its output, then sends each
key of KEYS after a pause, and reads until the command exits.

    python3 drive.py PROMPT PAUSE_S KEYS... -- COMMAND...

KEYS are Python string escapes ("\\x1b[B" is the down arrow). Prints the
command's exit code on stdout; its output goes to stderr.
"""

import codecs
import os
import pty
import select
import sys
import time


def main() -> int:
    sep = sys.argv.index("--")
    prompt, pause, keys = sys.argv[1].encode(), float(sys.argv[2]), sys.argv[3:sep]
    command = sys.argv[sep + 1 :]
    pid, fd = pty.fork()
    if pid == 0:
        os.execv(command[0], command)
    seen = b""
    deadline = time.monotonic() + 60

    def read(until: float) -> bool:
        nonlocal seen
        while time.monotonic() < until:
            ready, _, _ = select.select([fd], [], [], 0.02)
            if ready:
                try:
                    chunk = os.read(fd, 65536)
                except OSError:
                    return False
                if not chunk:
                    return False
                seen += chunk
        return True

    while prompt not in seen and time.monotonic() < deadline:
        if not read(time.monotonic() + 0.05):
            break
    for key in keys:
        os.write(fd, codecs.decode(key, "unicode_escape").encode("latin-1"))
        read(time.monotonic() + pause)
    while read(time.monotonic() + 0.2) and time.monotonic() < deadline:
        pass
    _, status = os.waitpid(pid, 0)
    sys.stderr.buffer.write(seen)
    print(os.waitstatus_to_exitcode(status))
    return 0


if __name__ == "__main__":
    sys.exit(main())
