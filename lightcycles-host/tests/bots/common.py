"""Shared by the test bots: the JSON-lines protocol and a move that does not
crash soon (the free direction with the longest straight run ahead)."""

import json
import sys

MOVES = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}


def run_ahead(obs, name):
    me = obs["players"][obs["you"]]
    dx, dy = MOVES[name]
    x, y, n = me["x"] + dx, me["y"] + dy, 0
    while 0 <= x < obs["width"] and 0 <= y < obs["height"] and obs["grid"][y][x] == -1:
        n, x, y = n + 1, x + dx, y + dy
    return n


def good_move(obs):
    me = obs["players"][obs["you"]]
    return max(MOVES, key=lambda name: (run_ahead(obs, name), name == me["dir"]))


def say(text):
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def observations():
    """Each observation sent on stdin, in order."""
    for line in sys.stdin:
        yield json.loads(line)
