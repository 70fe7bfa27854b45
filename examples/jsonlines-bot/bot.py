"""A LightCycles bot for the JSON-lines protocol (`cmd:COMMAND`), in any
language's place: one observation (docs/RULES.md section 5) per line on stdin,
one answer line (N, E, S or W) per observation on stdout, flushed.

It rides the free direction with the longest straight run ahead, staying
on course when that ties. Deterministic.

Play it:  lightcycles play "cmd:python3 examples/jsonlines-bot/bot.py" builtin:random
"""

import json
import sys

MOVES = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}


def run_ahead(obs, me, name):
    dx, dy = MOVES[name]
    x, y, n = me["x"] + dx, me["y"] + dy, 0
    while 0 <= x < obs["width"] and 0 <= y < obs["height"] and obs["grid"][y][x] == -1:
        n, x, y = n + 1, x + dx, y + dy
    return n


def choose(obs):
    me = obs["players"][obs["you"]]
    return max(MOVES, key=lambda name: (run_ahead(obs, me, name), name == me["dir"]))


for line in sys.stdin:
    sys.stdout.write(choose(json.loads(line)) + "\n")
    sys.stdout.flush()
