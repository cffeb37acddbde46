"""`python -m conformance run`: run the golden cases against an implementation and report."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from conformance.cases import CaseFileError, load_cases
from conformance.protocol import External, InProcess
from conformance.real import load_real_cases, quiet_losses
from conformance.run import (
    Implementation,
    load_expected_failures,
    matrix,
    report,
    run_cases,
    verdict,
)

HERE = Path(__file__).resolve().parent


def main(argv: list[str] | None = None) -> int:
    quiet_losses()
    parser = argparse.ArgumentParser(prog="python -m conformance", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("run", help="run the suite")
    run.add_argument(
        "--impl", help="command of an external implementation (default: Python, in-process)"
    )
    run.add_argument("--group", help="only cases whose group starts with this (e.g. gateway/paths)")
    run.add_argument("--format", help="only the conversion cases of this format (e.g. anthropic)")
    run.add_argument(
        "--expected-failures", type=Path, help="case ids this implementation is known to fail"
    )
    run.add_argument(
        "--report",
        type=Path,
        default=Path("build/conformance/report.json"),
        help="JSON report path",
    )
    run.add_argument(
        "--matrix",
        type=Path,
        default=Path("build/conformance/matrix.md"),
        help="Markdown matrix path",
    )
    run.add_argument(
        "--beside",
        type=Path,
        action="append",
        default=[],
        help="another implementation's JSON report, shown beside this run in the matrix",
    )
    run.add_argument("--strict", action="store_true", help="recommended cases must pass too")
    run.add_argument("--timeout", type=float, default=30.0, help="seconds to wait for each answer")
    args = parser.parse_args(argv)
    try:
        beside = [json.loads(path.read_text(encoding="utf-8")) for path in args.beside]
    except (OSError, ValueError) as exc:
        print(f"error: --beside: {exc}", file=sys.stderr)
        return 2

    try:
        cases = [
            c
            for c in [*load_cases(), *load_real_cases()]
            if (args.group is None or c.group.startswith(args.group))
            and (args.format is None or c.format == args.format)
        ]
    except CaseFileError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    implementation: Implementation
    if args.impl:
        try:
            implementation = External(args.impl, args.timeout)
        except (OSError, RuntimeError) as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        expected = args.expected_failures
    else:
        from interlingua.contract import FUNCTIONS, ContractError  # noqa: PLC0415 - in-process only

        implementation = InProcess(dict(FUNCTIONS), ContractError)
        expected = args.expected_failures or HERE / "expected-failures" / "python.txt"
    try:
        results = run_cases(implementation, cases, load_expected_failures(expected))
    finally:
        implementation.close()

    for path, text in (
        (args.report, json.dumps(report(implementation.name, results), indent=2)),
        (args.matrix, matrix(implementation.name, results, beside)),
    ):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text + ("" if text.endswith("\n") else "\n"), encoding="utf-8")
    for result in results:
        if result.status in ("fail", "xpass"):
            print(f"{result.status.upper()} {result.case.level} {result.case.id}: {result.detail}")
    summary = ", ".join(
        f"{n} {status}"
        for status, n in sorted(report(implementation.name, results)["summary"].items())
    )
    print(f"{len(results)} cases against {implementation.name}: {summary}")
    print(f"report: {args.report}  matrix: {args.matrix}")
    return 0 if verdict(results, args.strict) else 1


if __name__ == "__main__":
    sys.exit(main())
