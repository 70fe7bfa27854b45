"""A LightCycles bot trained by examples/rl/train.py: get_move(obs) -> str.

A linear policy over hand-made features of the observation (the code of
examples/rl/features.py, copied verbatim below), with its weights embedded.
It needs numpy and nothing else.

Play it:  lightcycles play main.py builtin:random
"""

from collections import deque

import numpy as np

DIRS = "NESW"
STEP = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
FEATURES = ("safe", "contested", "run", "area", "voronoi", "straight")
UNREACHED = 1 << 30


def _blocked(obs):
    """The board padded by a wall of one cell, flat: True where solid."""
    w, h, grid = obs["width"], obs["height"], obs["grid"]
    stride = w + 2
    blocked = [True] * (stride * (h + 2))
    for y, row in enumerate(grid):
        base = (y + 1) * stride + 1
        for x, v in enumerate(row):
            if v == -1:
                blocked[base + x] = False
    return blocked, stride


def _distances(blocked, stride, starts):
    """Breadth-first distances over empty cells from (cell, distance) starts."""
    dist = {}
    queue = deque()
    for cell, d in starts:
        if not blocked[cell] and dist.get(cell, UNREACHED) > d:
            dist[cell] = d
            queue.append(cell)
    steps = (1, -1, stride, -stride)
    while queue:
        cell = queue.popleft()
        d = dist[cell] + 1
        for s in steps:
            n = cell + s
            if not blocked[n] and n not in dist:
                dist[n] = d
                queue.append(n)
    return dist


def features(obs):
    """A (3, len(FEATURES)) array: one row per move straight, left, right."""
    blocked, stride = _blocked(obs)
    me = obs["players"][obs["you"]]
    steps = {d: dx + dy * stride for d, (dx, dy) in STEP.items()}
    free = max(1, blocked.count(False))
    scale = max(obs["width"], obs["height"])
    heads = [(p["y"] + 1) * stride + p["x"] + 1 for p in obs["players"] if p["alive"] and p["id"] != obs["you"]]
    contested = {h + s for h in heads for s in steps.values()}
    # An opponent reaches the cells next to its head at time 1.
    theirs = _distances(blocked, stride, [(c, 1) for c in contested])
    head = (me["y"] + 1) * stride + me["x"] + 1
    k = DIRS.index(me["dir"])
    rows = []
    for turn in (0, -1, 1):  # straight, left, right
        d = DIRS[(k + turn) % 4]
        cell = head + steps[d]
        if blocked[cell]:
            rows.append([0.0, 0.0, 0.0, 0.0, 0.0, 1.0 if turn == 0 else 0.0])
            continue
        run, n = 0, cell
        while not blocked[n]:
            run += 1
            n += steps[d]
        blocked[cell] = True  # the head now fills it
        mine = _distances(blocked, stride, [(cell + s, 2) for s in steps.values()])
        blocked[cell] = False
        ahead = behind = 0
        for c, t in mine.items():
            o = theirs.get(c, UNREACHED)
            if t < o:
                ahead += 1
            elif o < t:
                behind += 1
        rows.append([
            1.0,
            1.0 if cell in contested else 0.0,
            run / scale,
            (len(mine) + 1) / free,
            (ahead - behind) / free,
            1.0 if turn == 0 else 0.0,
        ])
    return np.asarray(rows, dtype=np.float64)


def scores(weights, feats):
    """The policy's logits: one per move; unsafe moves far below any safe one."""
    s = feats @ np.asarray(weights, dtype=np.float64)
    return np.where(feats[:, 0] > 0, s, s - 1e6)


def choose(weights, obs):
    """The move the policy plays: "N", "E", "S" or "W"."""
    k = DIRS.index(obs["players"][obs["you"]]["dir"])
    best = int(np.argmax(scores(weights, features(obs))))
    return DIRS[(k + (0, -1, 1)[best]) % 4]


WEIGHTS = [-1.2621898335881483, 0.9648591448550211, -0.8440156524810384, 1.281456716042519, -1.0099341280096503, -0.029639860070269152]


def get_move(obs):
    return choose(WEIGHTS, obs)
