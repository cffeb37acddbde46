"""`interlingua convert` on a JSON Lines batch: time per line, peak memory, and the output
kept in step with the input.

A file of ``--lines`` OpenAI Chat request bodies (``benchmarks/openai_corpus.py``, one per
line, every ``--bad-every``-th line broken) is converted to Anthropic by the command, as a
user runs it (``--from openai-chat``, so no line goes through format detection), in a child
process. Reported: wall time per line (whole run, and the difference of the two runs per
extra line, which leaves the start-up out), the child's peak resident memory at the full length
and at a tenth of it (flat memory: the two are close), and checks that output line N answers
input line N, every bad line has its error record with its number, and the summary line
counts them.

    python benchmarks/batch.py [--lines 20000] [--bad-every 1000]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from openai_corpus import corpus

UNIQUE_BODIES = 500  # the corpus is generated once and cycled: generating 20,000 is slow


def write_batch(path: Path, lines: int, bad_every: int) -> set[int]:
    """The batch file; returns the numbers of the broken lines."""
    bodies = [json.dumps(body) for body in corpus(UNIQUE_BODIES)]
    bad: set[int] = set()
    with path.open("w", encoding="utf-8") as out:
        for number in range(1, lines + 1):
            if number % bad_every == 0:
                bad.add(number)
                out.write('{"model": "m", "messages": [\n')
            else:
                out.write(bodies[number % UNIQUE_BODIES] + "\n")
    return bad


def run(path: Path, output: Path) -> tuple[float, int, str]:
    """Wall seconds, the child's peak RSS in KiB, and its stderr's last line."""
    argv = [sys.executable, "-m", "interlingua", "convert", "--from", "openai-chat"]
    argv += ["--to", "anthropic", str(path)]
    start = time.perf_counter()
    with output.open("wb") as out:
        done = subprocess.run(argv, stdout=out, stderr=subprocess.PIPE, check=False)
    seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return seconds, peak, done.stderr.decode("utf-8").splitlines()[-1]


def check(output: Path, lines: int, bad: set[int], summary: str) -> None:
    written = output.read_text(encoding="utf-8").splitlines()
    assert len(written) == lines, (len(written), lines)
    for number, line in enumerate(written, start=1):
        record = json.loads(line)
        if number in bad:
            assert record["error"]["line"] == number and record["error"]["code"]
        else:
            assert "messages" in record and "error" not in record, number
    good = lines - len(bad)
    expected = f"summary: {lines} lines, {good} converted, {len(bad)} failed"
    assert summary.startswith(expected), summary


def measure(lines: int, bad_every: int, folder: Path) -> tuple[float, int]:
    batch, output = folder / f"batch-{lines}.jsonl", folder / f"out-{lines}.jsonl"
    bad = write_batch(batch, lines, bad_every)
    # Each size in its own child of a fresh process, so RUSAGE_CHILDREN is this run's peak.
    code = (
        "import sys, json; sys.path.insert(0, sys.argv[1]); import batch; from pathlib import Path;"
        "print(json.dumps(batch.run(Path(sys.argv[2]), Path(sys.argv[3]))))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(Path(__file__).parent), str(batch), str(output)],
        capture_output=True,
        text=True,
        check=True,
    )
    seconds, peak, summary = json.loads(done.stdout)
    check(output, lines, bad, summary)
    return seconds, peak


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=20_000)
    parser.add_argument("--bad-every", type=int, default=1000)
    args = parser.parse_args(argv)
    print(f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} CPUs")
    with tempfile.TemporaryDirectory() as folder:
        small = max(args.lines // 10, args.bad_every)
        results = {n: measure(n, args.bad_every, Path(folder)) for n in (small, args.lines)}
    for lines, (seconds, peak) in results.items():
        print(
            f"{lines:>7} lines: {seconds:7.2f} s, {seconds / lines * 1e6:7.1f} µs per line, "
            f"peak RSS {peak / 1024:6.1f} MiB"
        )
    (small_time, small_peak), (big_time, big_peak) = results.values()
    marginal = (big_time - small_time) / (args.lines - small) * 1e6
    print(f"per line, start-up excluded (difference of the two runs): {marginal:.1f} µs")
    print(f"peak memory, {args.lines} lines / a tenth of them: {big_peak / small_peak:.2f}x")
    print("output line N answers input line N; every bad line has its error record: checked")
    return 0


if __name__ == "__main__":
    sys.exit(main())
