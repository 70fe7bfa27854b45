"""A numpy-only trainer for a LightCycles bot, and its export as a CodeClash main.py.

    python examples/rl/train.py --out /tmp/rl            # the full run, under ten minutes
    python examples/rl/train.py --out /tmp/rl --generations 2 --pop 4 --games 1   # a smoke run

The policy is linear over the hand-made features of features.py (a softmax
over the three moves, played at its most likely move). The cross-entropy
method trains it: each generation draws a population of weight vectors
around a mean (the mean itself is one of them), plays each in games against
`builtin:random` and `builtin:floodfill` in both seats through
`lightcycles.play` (the policy is a Python callable), and moves the mean and
spread to the best quarter. Every game seed is fixed by --seed and the
generation, so a run is the same run again.

It writes into --out: main.py (the bot, the weights embedded; it needs
numpy only), weights.json, curve.csv (one line a generation: the mean's
score and wins against each opponent on that generation's games) and
curve.png when matplotlib is installed.
"""

import argparse
import csv
import json
import multiprocessing
import os
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import features  # noqa: E402  (the file next to this one)

MARKER = "# ---- copied into main.py from here ----"
OPPONENTS = ("builtin:random", "builtin:floodfill")


def play_games(weights, opponent, rounds, seed, config=None):
    """Wins, draws, losses and ticks of the policy against opponent: rounds
    seeds from seed, each in both seats."""
    import lightcycles as lc

    def learner(obs):
        return features.choose(weights, obs)

    result = lc.play([learner, opponent], rounds=rounds, seed=seed, swap=True, config=config)
    wins = sum(g.winner == "learner" for g in result.games)
    draws = sum(g.winner is None for g in result.games)
    faults = sum(sum(g.faults[g.names.index("learner")].values()) for g in result.games)
    return wins, draws, len(result.games) - wins - draws, sum(g.ticks for g in result.games), faults


def evaluate(job):
    """The score (win 1, draw 1/2) of one weight vector on a generation's games."""
    weights, rounds, seed = job
    out = {}
    for k, opponent in enumerate(OPPONENTS):
        w, d, l, _, _ = play_games(weights, opponent, rounds, seed + 1000 * k)
        out[opponent] = (w, d, l)
    total = sum(w + d / 2 for w, d, _ in out.values())
    games = sum(w + d + l for w, d, l in out.values())
    return total / games, out


def export(weights, path):
    """Writes the CodeClash main.py: the features code verbatim, the weights, get_move."""
    source = (HERE / "features.py").read_text()
    code = source[source.index(MARKER) + len(MARKER) + 1:]
    text = (
        '"""A LightCycles bot trained by examples/rl/train.py: get_move(obs) -> str.\n\n'
        "A linear policy over hand-made features of the observation (the code of\n"
        "examples/rl/features.py, copied verbatim below), with its weights embedded.\n"
        "It needs numpy and nothing else.\n\n"
        "Play it:  lightcycles play main.py builtin:random\n"
        '"""\n\n'
        + code
        + "\n\nWEIGHTS = " + json.dumps([float(w) for w in weights]) + "\n\n\n"
        "def get_move(obs):\n"
        "    return choose(WEIGHTS, obs)\n"
    )
    Path(path).write_text(text)
    return path


def plot(rows, path):
    """curve.png from the curve's rows, if matplotlib is there; False if not."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    gens = [r["generation"] for r in rows]
    fig, ax = plt.subplots(figsize=(6, 3.5))
    for opponent in OPPONENTS:
        name = opponent.split(":")[1]
        ax.plot(gens, [r[f"win_{name}"] for r in rows], marker="o", label=f"wins vs {name}")
    ax.set_xlabel("generation")
    ax.set_ylabel("win rate of the mean policy")
    ax.set_ylim(-0.02, 1.02)
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return True


def train(out, generations=20, pop=12, games=2, seed=0, minutes=8.0, workers=2, log=print):
    """Runs the cross-entropy method; returns the final mean weights. Stops
    early once --minutes have gone (the last generation finishes first)."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    dim = len(features.FEATURES)
    mean, std = np.zeros(dim), np.ones(dim)
    elite = max(2, pop // 4)
    rows = []
    start = time.monotonic()
    ctx = multiprocessing.get_context("spawn")
    pool = ctx.Pool(workers) if workers > 1 else None
    try:
        for gen in range(generations):
            cand = [mean.copy()] + [mean + std * rng.standard_normal(dim) for _ in range(pop - 1)]
            game_seed = 10_000 + seed * 1_000_000 + gen * 10_000
            jobs = [(c.tolist(), games, game_seed) for c in cand]
            results = pool.map(evaluate, jobs) if pool else [evaluate(j) for j in jobs]
            fit = np.array([r[0] for r in results])
            order = np.argsort(-fit, kind="stable")[:elite]
            best = np.array([cand[i] for i in order])
            mean_result = results[0][1]
            row = {"generation": gen, "seconds": round(time.monotonic() - start, 1), "score": round(float(fit[0]), 4)}
            for opponent in OPPONENTS:
                w, d, l = mean_result[opponent]
                row[f"win_{opponent.split(':')[1]}"] = round(w / (w + d + l), 4)
            row["best_score"] = round(float(fit.max()), 4)
            rows.append(row)
            log(json.dumps(row))
            mean = best.mean(axis=0)
            std = best.std(axis=0) + 0.05
            if time.monotonic() - start > minutes * 60:
                break
    finally:
        if pool:
            pool.close()
            pool.join()
    with open(out / "curve.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    weights = [float(w) for w in mean]
    (out / "weights.json").write_text(json.dumps(dict(zip(features.FEATURES, weights)), indent=2) + "\n")
    export(weights, out / "main.py")
    plot(rows, out / "curve.png")
    log(f"wrote {out / 'main.py'} in {time.monotonic() - start:.0f} s")
    return weights


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", default="rl-out", help="folder for main.py, weights.json, curve.csv, curve.png")
    p.add_argument("--generations", type=int, default=20)
    p.add_argument("--pop", type=int, default=12, help="weight vectors a generation, the mean included")
    p.add_argument("--games", type=int, default=2, help="seeds a candidate plays per opponent, each in both seats")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--minutes", type=float, default=8.0, help="no generation starts after this")
    p.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1))
    a = p.parse_args()
    train(a.out, a.generations, a.pop, a.games, a.seed, a.minutes, a.workers)


if __name__ == "__main__":
    main()
