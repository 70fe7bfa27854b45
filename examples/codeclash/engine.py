"""A stand-in for the CodeClash LightCycles engine.py that runs `lightcycles play`.

    python engine.py a.py b.py -r 10 -o logs/

takes the arguments of `lightcycles play` (bots, then -r ROUNDS, -s SEED,
-o DIR, ...) and hands them over unchanged: the games, the replays
DIR/sim_<g>.json and the FINAL_RESULTS block at the end of stdout are those
of `lightcycles play`, and so is the exit code.

The binary is, in this order: the program named by $LIGHTCYCLES_BIN; the
`lightcycles` on the PATH; or, in a clone of the repository, the one that
`cargo run --release` builds from the workspace two folders up.
"""

import os
import shutil
import sys

REPO = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))


def command(args):
    explicit = os.environ.get("LIGHTCYCLES_BIN")
    if explicit:
        return [explicit, "play", *args]
    on_path = shutil.which("lightcycles")
    if on_path:
        return [on_path, "play", *args]
    manifest = os.path.join(REPO, "Cargo.toml")
    cargo = shutil.which("cargo")
    if cargo and os.path.exists(manifest):
        return [cargo, "run", "--release", "--quiet", "--manifest-path", manifest,
                "-p", "lightcycles-host", "--bin", "lightcycles", "--", "play", *args]
    sys.exit("engine.py: no lightcycles binary: set LIGHTCYCLES_BIN, put lightcycles on the PATH "
             "(cargo install --path lightcycles-host), or run from a clone with cargo installed")


def main():
    argv = command(sys.argv[1:])
    sys.stdout.flush()
    os.execv(argv[0], argv)


if __name__ == "__main__":
    main()
