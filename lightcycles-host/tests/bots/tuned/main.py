"""A CodeClash bot with one tunable parameter, for tests/tune.rs: it reads X
from LIGHTCYCLES_PARAM_X (as `lightcycles tune` hands it over) and plays
well only when X is at least 0.5: it then takes the free direction with the
longest straight run ahead; below 0.5 it rides straight into the wall."""

import os

X = float(os.environ.get("LIGHTCYCLES_PARAM_X", "0"))
MOVES = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}


def run_ahead(obs, name):
    me = obs["players"][obs["you"]]
    dx, dy = MOVES[name]
    x, y, n = me["x"] + dx, me["y"] + dy, 0
    while 0 <= x < obs["width"] and 0 <= y < obs["height"] and obs["grid"][y][x] == -1:
        n, x, y = n + 1, x + dx, y + dy
    return n


def get_move(obs):
    me = obs["players"][obs["you"]]
    if X < 0.5:
        return me["dir"]
    return max(MOVES, key=lambda name: (run_ahead(obs, name), name == me["dir"]))
