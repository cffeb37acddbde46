"""Start-up time of the command line and the package, as ratios to a bare interpreter.

Each command runs as a fresh process ``--repeat`` times; the best wall time is kept, and
reported beside ``python -c pass`` on the same interpreter:

* ``python -c "import interlingua"``: the package's names are imported on first use, so this
  loads no model, validator or adapter;
* ``python -m interlingua --help`` and ``--version``: the parser names no format list, so
  building it imports nothing the commands use;
* ``python -m interlingua formats``: a command that does load the adapters, for scale.

The aim is ``--help`` within 5x of ``python -c pass``.

    python benchmarks/startup.py [--repeat 15]
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import time

COMMANDS = {
    "python -c pass": ["-c", "pass"],
    "import interlingua": ["-c", "import interlingua"],
    "interlingua --version": ["-m", "interlingua", "--version"],
    "interlingua --help": ["-m", "interlingua", "--help"],
    "interlingua formats": ["-m", "interlingua", "formats"],
}


def best_time(argv: list[str], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run([sys.executable, *argv], stdout=subprocess.DEVNULL, check=True)
        best = min(best, time.perf_counter() - start)
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15, help="runs of each; the best counts")
    args = parser.parse_args(argv)
    print(f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} CPUs")
    times = {name: best_time(command, args.repeat) for name, command in COMMANDS.items()}
    floor = times["python -c pass"]
    for name, seconds in times.items():
        print(f"{name:<24} {seconds * 1000:7.1f} ms  {seconds / floor:5.1f}x python -c pass")
    ratio = times["interlingua --help"] / floor
    print(f"--help / python -c pass = {ratio:.1f}x (aim: <= 5x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
