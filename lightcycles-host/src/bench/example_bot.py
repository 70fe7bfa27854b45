"""A LightCycles bot for the CodeClash interface: get_move(obs) -> str.

Each tick it looks at the moves that do not crash at once and takes the one
that keeps the most room: the number of empty cells it could still reach
after the move (a flood fill). It stays clear of cells another cycle could
enter on the same tick (a head-on crashes both), unless there is nothing
else. Deterministic: the same observation always gets the same move.

Play it:  lightcycles play examples/python-bot/main.py builtin:random
"""

from collections import deque

MOVES = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}
EMPTY = -1


def room(grid, width, height, start, blocked):
    """Empty cells reachable from start, itself included, not entering blocked."""
    seen = {start}
    queue = deque([start])
    while queue:
        x, y = queue.popleft()
        for dx, dy in MOVES.values():
            nx, ny = x + dx, y + dy
            if 0 <= nx < width and 0 <= ny < height and (nx, ny) not in seen:
                if grid[ny][nx] == EMPTY and (nx, ny) not in blocked:
                    seen.add((nx, ny))
                    queue.append((nx, ny))
    return len(seen)


def get_move(obs):
    width, height, grid = obs["width"], obs["height"], obs["grid"]
    me = obs["players"][obs["you"]]
    # Cells a living opponent can reach this tick: a head-on there crashes both.
    contested = set()
    for p in obs["players"]:
        if p["alive"] and p["id"] != obs["you"]:
            for dx, dy in MOVES.values():
                contested.add((p["x"] + dx, p["y"] + dy))
    best, best_score = me["dir"], None
    for name, (dx, dy) in MOVES.items():
        if name == OPPOSITE[me["dir"]] and obs["tick"] > 1:
            continue  # a reversal into the neck is no move of its own
        x, y = me["x"] + dx, me["y"] + dy
        if not (0 <= x < width and 0 <= y < height) or grid[y][x] != EMPTY:
            continue
        safe = (x, y) not in contested
        score = (safe, room(grid, width, height, (x, y), contested - {(x, y)}), name == me["dir"])
        if best_score is None or score > best_score:
            best, best_score = name, score
    return best
