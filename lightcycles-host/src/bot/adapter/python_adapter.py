"""LightCycles adapter for CodeClash bots: runs `get_move(obs) -> str` of a
main.py, unchanged, for the lightcycles host.

The host starts `python3 -c <this script> PATH/main.py` and speaks on the
descriptors that were stdin and stdout when the script started. The bot
never sees them: its stdin is /dev/null, and its stdout (`print`) goes with
its stderr (tracebacks) to its log. What it writes through sys.stdout and
sys.stderr is also kept here (up to SAID_CAP bytes) and sent with the next
answer as "said" ("said_cut": true when some was left out), so the host
knows which tick it was written on; what is written to the descriptors
themselves is in the log only.

  host -> adapter   "<seq> <observation JSON>\\n"           the whole observation
                    "<seq> +<what changed, JSON>\\n"         or what changed since the last
  adapter -> host   {"seq": <seq>, "move": "<what get_move returned>"[, "said": "<output>"]}
                    {"seq": <seq>, "error": "<the exception>"[, "said": "<output>"]}

What changed is {"tick": T, "players": [...], "cells": [x, y, v, ...]}: the
adapter keeps the board and rebuilds the observation the whole JSON would
give, key for key, with a fresh dict and fresh rows each tick (a bot may
change what it is given). When several requests are waiting, every one is
applied in order and only the newest is answered: the host gave up on the
others already. A `get_move` that returns something
other than a string answers "<type>: <repr>", never a move. An exception in
`get_move` is reported as an error for that tick and the bot plays on;
an exception while loading main.py, or a `get_move` that calls sys.exit,
ends the process.
"""

import fcntl
import importlib.util
import io
import json
import os
import select
import sys
import traceback

MAX_ANSWER_BYTES = 1025  # one more than the rules read: longer is invalid
SAID_CAP = 4096  # the host's cap of one tick's output (bot/said.rs TICK_CAP)


class Captured(io.RawIOBase):
    """The bot's sys.stdout and sys.stderr: every byte goes to the log (fd 2)
    and, up to SAID_CAP bytes, to what the next answer says."""

    def __init__(self):
        super().__init__()
        self.kept = bytearray()
        self.cut = False

    def writable(self):
        return True

    def write(self, data):
        data = bytes(data)
        view = data
        while view:
            try:
                view = view[os.write(2, view):]
            except InterruptedError:
                continue
            except OSError:
                break
        room = SAID_CAP - len(self.kept)
        if len(data) > room:
            self.cut = True
        self.kept += data[:max(room, 0)]
        return len(data)

    def take(self):
        """What was written since the last take, as the answer's keys."""
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:
                pass
        said = {}
        if self.kept or self.cut:
            said["said"] = bytes(self.kept).decode("utf-8", "replace")
            if self.cut:
                said["said_cut"] = True
        self.kept = bytearray()
        self.cut = False
        return said


CAPTURED = Captured()


def take_protocol_descriptors():
    """Moves the protocol off stdin and stdout, out of the bot's reach: to
    close-on-exec descriptors above 100 (not 3 and 4, where a bot would
    look first), so no program the bot starts inherits them. The bot runs
    in this process and can still find them (/proc/self/fd); what it could
    write there gains it nothing (the host reads only answers to requests
    it has sent, by number), and what it reads there it takes from its own
    adapter."""
    proto_in = fcntl.fcntl(0, fcntl.F_DUPFD_CLOEXEC, 100 + os.getpid() % 500)
    proto_out = fcntl.fcntl(1, fcntl.F_DUPFD_CLOEXEC, proto_in + 1)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.close(devnull)
    os.dup2(2, 1)
    sys.stdout = io.TextIOWrapper(CAPTURED, encoding="utf-8", errors="backslashreplace", write_through=True)
    sys.stderr = io.TextIOWrapper(CAPTURED, encoding="utf-8", errors="backslashreplace", write_through=True)
    return proto_in, proto_out


def load_bot(path):
    path = os.path.abspath(path)
    sys.argv = [path]
    sys.path.insert(0, os.path.dirname(path))
    spec = importlib.util.spec_from_file_location("main", path)
    if spec is None:
        sys.exit("lightcycles adapter: cannot load %s as a Python module" % path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["main"] = module
    spec.loader.exec_module(module)
    get_move = getattr(module, "get_move", None)
    if not callable(get_move):
        sys.exit("lightcycles adapter: %s has no get_move(obs) function" % path)
    return get_move


def waiting_requests(fd):
    """Yields the complete request lines waiting, as a list, each time at
    least one is."""
    buf = b""
    while True:
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            return
        buf += chunk
        while select.select([fd], [], [], 0)[0]:
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                break
            buf += chunk
        *complete, buf = buf.split(b"\n")
        if complete:
            yield complete


class Observations:
    """The observations of one game, from whole ones and from what changed."""

    def __init__(self):
        self.base = None  # the last whole observation: its keys and constants
        self.grid = None  # the board as last sent, this adapter's own

    def read(self, body):
        """The observation of a request body: a fresh dict."""
        if body[:1] != b"+":
            obs = json.loads(body)
            self.base = obs
            self.grid = [row[:] for row in obs["grid"]]
            return obs
        change = json.loads(body[1:])
        grid = self.grid
        cells = change["cells"]
        for i in range(0, len(cells), 3):
            grid[cells[i + 1]][cells[i]] = cells[i + 2]
        obs = {}
        for key in self.base:
            if key == "grid":
                obs[key] = [row[:] for row in grid]
            elif key in change:
                obs[key] = change[key]
            else:
                obs[key] = self.base[key]
        return obs


def send(fd, reply):
    data = (json.dumps(reply) + "\n").encode("ascii")
    while data:
        data = data[os.write(fd, data):]


def answer_text(result):
    if isinstance(result, str):
        text = result
    else:
        text = "%s: %r" % (type(result).__name__, result)
    data = text.encode("utf-8", "replace")[:MAX_ANSWER_BYTES]
    return data.decode("utf-8", "replace")


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: python3 -c <lightcycles adapter> PATH/main.py")
    proto_in, proto_out = take_protocol_descriptors()
    get_move = load_bot(sys.argv[1])
    observations = Observations()
    for lines in waiting_requests(proto_in):
        for line in lines:
            seq_text, _, body = line.partition(b" ")
            obs = observations.read(body)
        seq = int(seq_text)
        try:
            result = get_move(obs)
        except Exception as e:
            print("lightcycles adapter: get_move raised on tick %s:" % obs.get("tick"), file=sys.stderr)
            traceback.print_exc()
            sys.stderr.flush()
            reply = {"seq": seq, "error": "%s: %s" % (type(e).__name__, e)}
            reply.update(CAPTURED.take())
            send(proto_out, reply)
            continue
        reply = {"seq": seq, "move": answer_text(result)}
        reply.update(CAPTURED.take())
        send(proto_out, reply)


main()
