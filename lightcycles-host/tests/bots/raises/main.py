"""A CodeClash bot that raises in get_move on ticks 2 and 3: a crash on
those ticks only, with the traceback in its log."""
MOVES = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}


def get_move(obs):
    if obs["tick"] in (2, 3):
        raise ValueError("raised on tick %d" % obs["tick"])
    me = obs["players"][obs["you"]]

    def run(name):
        dx, dy = MOVES[name]
        x, y, n = me["x"] + dx, me["y"] + dy, 0
        while 0 <= x < obs["width"] and 0 <= y < obs["height"] and obs["grid"][y][x] == -1:
            n, x, y = n + 1, x + dx, y + dy
        return n

    return max(MOVES, key=lambda name: (run(name), name == me["dir"]))
