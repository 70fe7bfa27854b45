"""A tiny bot for the protocol of the 2010 Google AI Challenge (Tron).

Each turn it reads the board ("W H", then H rows: '#' wall, ' ' empty, '1'
itself, '2' the other) and answers 1, 2, 3 or 4 (north, east, south, west):
the free neighbour with the most free neighbours of its own.

Play it:  lightcycles play "tron2010:python3 examples/tron2010-bot/bot.py" builtin:random
"""

import sys

STEPS = [(1, 0, -1), (2, 1, 0), (3, 0, 1), (4, -1, 0)]  # answer, dx, dy


def read_board(stream):
    header = stream.readline()
    if not header:
        return None
    width, height = map(int, header.split())
    rows = [stream.readline().rstrip("\n").ljust(width)[:width] for _ in range(height)]
    return rows


def free(rows, x, y):
    return 0 <= y < len(rows) and 0 <= x < len(rows[y]) and rows[y][x] == " "


def choose(rows):
    for y, row in enumerate(rows):
        x = row.find("1")
        if x >= 0:
            break
    best, best_score = 1, -1
    for answer, dx, dy in STEPS:
        nx, ny = x + dx, y + dy
        if not free(rows, nx, ny):
            continue
        score = sum(free(rows, nx + ex, ny + ey) for _, ex, ey in STEPS)
        if score > best_score:
            best, best_score = answer, score
    return best


def main():
    while True:
        rows = read_board(sys.stdin)
        if rows is None:
            return
        sys.stdout.write("%d\n" % choose(rows))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
