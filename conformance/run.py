"""Running cases against an implementation, judging the outcomes, and reporting them."""

from __future__ import annotations

import fnmatch
import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from conformance import real
from conformance.cases import Case
from conformance.compare import same
from conformance.protocol import Outcome


class Implementation(Protocol):
    name: str

    def run(self, case: Case) -> Outcome: ...

    def close(self) -> None: ...


@dataclass(frozen=True)
class Result:
    case: Case
    status: str  # pass | fail | xfail (listed, failed) | xpass (listed, passed: the list is stale)
    detail: str = ""


def judge(case: Case, outcome: Outcome) -> tuple[bool, str]:
    """Whether the outcome is what the case expects, and if not, why."""
    if case.kind == "real":
        return real.judge(case, outcome)
    if outcome.broken:
        return False, f"implementation error: {outcome.broken}"
    if outcome.skipped:
        return False, f"skipped: {outcome.skipped}"
    if case.expected_error is not None:
        if outcome.error is None:
            return (
                False,
                f"expected error {case.expected_error['code']}, "
                f"got output {json.dumps(outcome.output)[:200]}",
            )
        if outcome.error.get("code") != case.expected_error["code"]:
            return (
                False,
                f"expected error {case.expected_error['code']}, got {outcome.error.get('code')}",
            )
        details = outcome.error.get("details") or {}
        for key, value in case.expected_error.get("details", {}).items():
            if not same(details.get(key), value):
                return (
                    False,
                    f"error detail {key!r}: expected {json.dumps(value)}, "
                    f"got {json.dumps(details.get(key))}",
                )
        return True, ""
    if outcome.error is not None:
        return False, f"expected output, got error {outcome.error.get('code')}"
    if not same(outcome.output, case.expected):
        return (
            False,
            f"expected {json.dumps(case.expected)[:200]}, got {json.dumps(outcome.output)[:200]}",
        )
    return True, ""


def load_expected_failures(path: Path | None) -> list[str]:
    """Case ids (with `*` wildcards) an implementation is known to fail; `#` starts a comment."""
    if path is None or not path.exists():
        return []
    lines = (
        line.split("#", 1)[0].strip() for line in path.read_text(encoding="utf-8").splitlines()
    )
    return [line for line in lines if line]


def run_cases(
    implementation: Implementation, cases: list[Case], expected_failures: list[str]
) -> list[Result]:
    results = []
    for case in cases:
        passed, detail = judge(case, implementation.run(case))
        listed = any(fnmatch.fnmatchcase(case.id, pattern) for pattern in expected_failures)
        if listed:
            status = "xpass" if passed else "xfail"
            detail = (
                "listed as an expected failure but passed: remove it from the list"
                if passed
                else detail
            )
        else:
            status = "pass" if passed else "fail"
        results.append(Result(case, status, detail))
    return results


def verdict(results: list[Result], strict: bool) -> bool:
    """Fails on any unlisted required failure, any stale expected failure, and, when strict,
    on recommended failures too."""
    for result in results:
        if result.status == "xpass":
            return False
        if result.status == "fail" and (strict or result.case.level == "required"):
            return False
    return True


def report(implementation: str, results: list[Result]) -> dict[str, Any]:
    return {
        "implementation": implementation,
        "summary": dict(Counter(r.status for r in results)),
        "cases": [
            {
                "id": r.case.id,
                "group": r.case.group,
                "level": r.case.level,
                "status": r.status,
                "detail": r.detail,
            }
            for r in results
        ],
    }


def _counts(cases: list[tuple[str, str, str]]) -> dict[str, Counter[str]]:
    """Per group: passed and total at each level, and the expected failures; from
    (group, level, status) triples."""
    counts: dict[str, Counter[str]] = {}
    for group, level, status in cases:
        bucket = counts.setdefault(group, Counter())
        bucket[f"{level}_total"] += 1
        bucket[f"{level}_pass"] += status in ("pass", "xpass")
        bucket["expected"] += status == "xfail"
    return counts


def _cells(c: Counter[str] | None) -> str:
    if c is None:  # that implementation did not run the group
        return " — | — | — |"
    return (
        f" {c['required_pass']}/{c['required_total']} "
        f"| {c['recommended_pass']}/{c['recommended_total']} | {c['expected']} |"
    )


def matrix(
    implementation: str, results: list[Result], beside: Sequence[dict[str, Any]] = ()
) -> str:
    """A Markdown table: per group, passed over total at each level, and how many cases are
    listed as expected failures; then the real-traffic corpus in bodies. ``beside`` are the
    JSON reports of other implementations' runs, shown in columns of their own."""
    counts = _counts([(r.case.group, r.case.level, r.status) for r in results])
    others = [
        (
            str(other["implementation"]),
            _counts([(c["group"], c["level"], c["status"]) for c in other["cases"]]),
        )
        for other in beside
    ]
    columns = "| group | required | recommended | expected failures |"
    columns += "".join(
        f" {name}: required | {name}: recommended | {name}: expected failures |"
        for name, _ in others
    )
    lines = [
        f"# Conformance: {' beside '.join([implementation, *(name for name, _ in others)])}",
        "",
        columns,
        "|---|" + "---:|" * (3 * (1 + len(others))),
    ]
    for group in sorted(set(counts).union(*(c for _, c in others))):
        row = f"| {group} |" + _cells(counts.get(group))
        lines.append(row + "".join(_cells(c.get(group)) for _, c in others))
    bodies: dict[str, set[str]] = {"all": set(), "xfail": set(), "unread": set()}
    for r in results:
        if r.case.kind != "real":
            continue
        body = r.case.id.rsplit(".", 1)[0]
        bodies["all"].add(body)
        if r.status == "xfail":
            bodies["xfail"].add(body)
            if r.case.check == "read":
                bodies["unread"].add(body)
    if bodies["all"]:
        lines += [
            "",
            f"Real-traffic corpus (`conformance/real/`): {len(bodies['all'])} bodies, "
            f"{len(bodies['xfail'])} with at least one expected failure, "
            f"{len(bodies['unread'])} of them listed as not reading.",
        ]
    return "\n".join(lines) + "\n"
