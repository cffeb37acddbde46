"""`interlingua convert` on a JSON Lines batch: every core, the output the same, memory flat.

A file of OpenAI Chat request bodies (``benchmarks/openai_corpus.py``, one per line, every
``--bad-every``-th line broken) is converted to Anthropic by the command, as a user runs it
(``--from openai-chat``, so no line goes through format detection), in a child process.

- Speed-up: ``--lines`` lines (default 100,000) through ``--jobs 1`` and ``--jobs N`` (N the
  cores, default all), as the ratio of the two wall times; the two outputs must be
  byte-identical.
- Flat memory: the peak resident memory of the whole process tree (the command and its
  workers, summed at the peak) at ``--small`` lines (10,000) and ``--large`` lines
  (1,000,000), both with ``--jobs N``; the ratio large / small.
- Every run checks that output line N answers input line N, every bad line has its error
  record with its number, and the summary line counts them.
- ``--part speed`` ends with a quick look at memory (``--small`` lines against ``--lines``
  lines, with ``--jobs N``) and one line with the three numbers the issue asks for.

Each run's command starts as an installed package does, from compiled bytecode (kept in a
temporary folder, ``PYTHONPYCACHEPREFIX``, and made by a warm-up run first): with
``PYTHONDONTWRITEBYTECODE`` set, every run would compile the package from source, a second of
one core that is the same for any ``--jobs`` and measures Python, not the batch.

Beside the wall times it prints what the load of a shared machine cannot change: the CPU time
of each run's process tree, the speed-up those allow on idle cores, and the share of the CPU
that the command process itself takes (from a file it converts and writes its share of the
blocks, as each worker does: with N jobs, about 1/N of the tree's). The load average is
printed with the numbers: the machine may be shared.

    python benchmarks/batch.py [--lines 100000] [--small 10000] [--large 1000000] [--jobs N]
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

UNIQUE_BODIES = 500  # the corpus is generated once and cycled: generating 100,000 is slow


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


def _tree_rss(root: int) -> int:
    """Resident KiB of ``root`` and every process under it (Linux /proc)."""
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            status = Path(f"/proc/{entry}/status").read_text()
        except OSError:
            continue
        fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
        pid = int(entry)
        children.setdefault(int(fields["PPid"]), []).append(pid)
        rss[pid] = int(fields.get("VmRSS", "0 kB").split()[0])
    total, todo = 0, [root]
    while todo:
        pid = todo.pop()
        total += rss.get(pid, 0)
        todo.extend(children.get(pid, []))
    return total


def _cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def _own_cpu(pid: int, last: float) -> float:
    """CPU seconds of process ``pid`` itself, every thread, not its children (Linux /proc);
    ``last`` once it has ended."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return last
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime


#: CPU seconds of each run's process tree (the command and the workers it forked and reaped).
CPU: dict[int, float] = {}
#: CPU seconds of each run's command process alone: it reads, hands out, gathers and writes.
MAIN: dict[int, float] = {}


#: The environment of each run's command: bytecode compiled once, in a temporary folder.
ENV = dict(os.environ)


def _compiled(folder: Path) -> None:
    ENV.pop("PYTHONDONTWRITEBYTECODE", None)
    ENV["PYTHONPYCACHEPREFIX"] = str(folder / "pycache")
    warm = folder / "warm.jsonl"
    write_batch(warm, 3, 1000)
    run(warm, folder / "warm-out.jsonl", 1)


def run(path: Path, output: Path, jobs: int) -> tuple[float, int, str]:
    """Wall seconds, the peak summed RSS of the command's process tree in KiB (sampled every
    50 ms), and its stderr's last line; the tree's CPU seconds go to ``CPU[jobs]``, the
    command's own (as last sampled, 50 ms before it ended at most) to ``MAIN[jobs]``."""
    before = _cpu()
    argv = [sys.executable, "-m", "interlingua", "convert", "--from", "openai-chat"]
    argv += ["--to", "anthropic", "--jobs", str(jobs), str(path)]
    peak, main = 0, 0.0
    with output.open("wb") as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        child = subprocess.Popen(argv, stdout=out, stderr=err, env=ENV)
        while child.poll() is None:
            peak = max(peak, _tree_rss(child.pid))
            main = _own_cpu(child.pid, main)
            time.sleep(0.05)
        seconds = time.perf_counter() - start
        CPU[jobs] = _cpu() - before
        MAIN[jobs] = main
        err.seek(0)
        last = err.read().decode("utf-8").splitlines()[-1]
    return seconds, peak, last


def check(output: Path, lines: int, bad: set[int], summary: str) -> None:
    good = lines - len(bad)
    expected = f"summary: {lines} lines, {good} converted, {len(bad)} failed"
    assert summary.startswith(expected), summary
    with output.open(encoding="utf-8") as written:
        count = 0
        for number, line in enumerate(written, start=1):
            count = number
            record = json.loads(line)
            if number in bad:
                assert record["error"]["line"] == number and record["error"]["code"]
            else:
                assert "messages" in record and "error" not in record, number
    assert count == lines, (count, lines)


def same(a: Path, b: Path) -> bool:
    with a.open("rb") as left, b.open("rb") as right:
        while True:
            x, y = left.read(1 << 20), right.read(1 << 20)
            if x != y:
                return False
            if not x:
                return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=100_000, help="lines of the speed-up runs")
    parser.add_argument("--small", type=int, default=10_000, help="lines of the small memory run")
    parser.add_argument("--large", type=int, default=1_000_000, help="lines of the large one")
    parser.add_argument("--jobs", type=int, default=len(os.sched_getaffinity(0)))
    parser.add_argument("--bad-every", type=int, default=1000)
    parser.add_argument(
        "--part", choices=("all", "speed", "memory"), default="all", help="which runs to make"
    )
    parser.add_argument(
        "--no-bytecode-cache",
        action="store_true",
        help="run the command in this environment as it is (with PYTHONDONTWRITEBYTECODE set, "
        "each run compiles the package first, as the runs before this option did)",
    )
    args = parser.parse_args(argv)
    print(f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} CPUs")
    print("load average before: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        if not args.no_bytecode_cache:
            _compiled(folder)
        if args.part in ("all", "speed"):
            speed(args, folder)
        if args.part in ("all", "memory"):
            memory(args, folder)
    print("load average after: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    print("output line N answers input line N; every bad line has its error record: checked")
    return 0


def speed(args: argparse.Namespace, folder: Path) -> None:
    """--lines lines through --jobs 1 and --jobs N: the ratio of the wall times."""
    batch = folder / "batch.jsonl"
    bad = write_batch(batch, args.lines, args.bad_every)
    times, peaks = {}, {}
    for jobs in (1, args.jobs):
        out = folder / f"out-{jobs}.jsonl"
        seconds, peak, summary = run(batch, out, jobs)
        check(out, args.lines, bad, summary)
        times[jobs], peaks[jobs] = seconds, peak
        print(
            f"{args.lines} lines, --jobs {jobs}: {seconds:7.2f} s, "
            f"{seconds / args.lines * 1e6:6.1f} µs per line, peak RSS {peak / 1024:6.1f} MiB"
        )
    assert same(folder / "out-1.jsonl", folder / f"out-{args.jobs}.jsonl")
    print(f"output of --jobs 1 and --jobs {args.jobs}: byte-identical")
    print(f"speed-up --jobs {args.jobs} / --jobs 1: {times[1] / times[args.jobs]:.2f}x")
    # What the load of a shared machine cannot change: the CPU each run spent. With N idle
    # cores, --jobs N can go at most this much faster than --jobs 1.
    bound = CPU[1] / (CPU[args.jobs] / args.jobs)
    print(
        f"CPU seconds of the process tree: --jobs 1 {CPU[1]:.1f}, --jobs {args.jobs} "
        f"{CPU[args.jobs]:.1f}; the speed-up on {args.jobs} idle cores is at most {bound:.2f}x"
    )
    # The command process converts and writes its share of the blocks, as each worker does
    # (datasets/relay.py): about 1 / N of the tree's CPU when the work is evenly spread.
    share = MAIN[args.jobs] / CPU[args.jobs]
    print(
        f"CPU seconds of the command process with --jobs {args.jobs}: {MAIN[args.jobs]:.1f} "
        f"({share:.1%} of the tree's; the workers' {CPU[args.jobs] - MAIN[args.jobs]:.1f})"
    )
    batch.unlink()
    # A quick look at memory (the full check, to --large lines, is --part memory).
    small, out = folder / "small.jsonl", folder / "out-small.jsonl"
    small_bad = write_batch(small, args.small, args.bad_every)
    _, peak, summary = run(small, out, args.jobs)
    check(out, args.small, small_bad, summary)
    flat = peaks[args.jobs] / peak
    print(
        f"peak RSS with --jobs {args.jobs}, {args.small} lines {peak / 1024:.1f} MiB, "
        f"{args.lines} lines {peaks[args.jobs] / 1024:.1f} MiB: {flat:.2f}x"
    )
    speedup = times[1] / times[args.jobs]
    print(
        f"must show: speed-up {speedup:.2f}x (>= 1.8x: {'yes' if speedup >= 1.8 else 'NO'}), "
        f"output identical: yes, peak RSS {flat:.2f}x (<= 1.5x: {'yes' if flat <= 1.5 else 'NO'})"
    )


def memory(args: argparse.Namespace, folder: Path) -> None:
    """Peak RSS of the process tree at --small and --large lines, with --jobs N."""
    batch = folder / "batch.jsonl"
    peaks = {}
    for lines in (args.small, args.large):
        bad = write_batch(batch, lines, args.bad_every)
        out = folder / "out-memory.jsonl"
        seconds, peaks[lines], summary = run(batch, out, args.jobs)
        check(out, lines, bad, summary)
        out.unlink()
        batch.unlink()
        print(
            f"{lines:>9} lines, --jobs {args.jobs}: {seconds:7.2f} s, "
            f"peak RSS of the process tree {peaks[lines] / 1024:6.1f} MiB"
        )
    ratio = peaks[args.large] / peaks[args.small]
    print(f"peak memory, {args.large} lines / {args.small} lines: {ratio:.2f}x")


if __name__ == "__main__":
    sys.exit(main())
