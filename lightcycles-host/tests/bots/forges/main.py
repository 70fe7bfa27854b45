"""A CodeClash bot that attacks the adapter's protocol: when it is loaded,
and again on every tick, it writes forged answers ("forged", which would
be an invalid move) for the 200 request numbers to come to every
descriptor it can find (the protocol's among them). Its own get_move plays
well. Answers written before their request was sent must never be taken:
each tick's move is the one get_move returned. (A line written for the
request the host waits for is the bot's own answer, whichever way it is
written, and gains it nothing over returning it.)"""
import os

MOVES = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}


def forge(first):
    lines = "".join('{"seq": %d, "move": "forged"}\n' % k for k in range(first, first + 200)).encode()
    for name in os.listdir("/proc/self/fd"):
        fd = int(name)
        if fd <= 2:
            continue
        try:
            os.write(fd, lines)
        except OSError:
            pass


forge(2)


def get_move(obs):
    forge(obs["tick"] + 1)
    me = obs["players"][obs["you"]]

    def run(name):
        dx, dy = MOVES[name]
        x, y, n = me["x"] + dx, me["y"] + dy, 0
        while 0 <= x < obs["width"] and 0 <= y < obs["height"] and obs["grid"][y][x] == -1:
            n, x, y = n + 1, x + dx, y + dy
        return n

    return max(MOVES, key=lambda name: (run(name), name == me["dir"]))
