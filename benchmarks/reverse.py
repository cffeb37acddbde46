"""The reverse sections' one way of working: a client speaking another format, an OpenAI Chat
backend (``<source> → openai-chat``). Each ``reverse_<source>.py`` names its source, its
third-party baseline (if any) and how a body of its format counts what it carries; the rest is
here.

The corpora are ``convert.py``'s (``openai_corpus``: short bodies, long conversations), each
body written to the source's format by interlingua's two-step path, so the directions' numbers
compare. Every row is checked on every body before the timing (``convert.check_rows``: no
exception, no tool call, result or image lost, a slice of outputs valid OpenAI Chat requests),
then timed interleaved, medians over slices (``convert.time_rows``). A baseline that loses a
part is timed all the same and reported unchecked (the ratio is then against a translation
that does less); one that raises is reported and not timed.
"""

from __future__ import annotations

import argparse
import functools
import importlib
import importlib.metadata
import json
import os
from collections import Counter
from collections.abc import Callable
from typing import Any

import jsonschema_rs
import orjson
from convert import (
    FORMATS_DIR,
    LITELLM_OFFLINE,
    PARSED,
    SOURCE,
    Convert,
    Corpus,
    Json,
    TargetRows,
    check_rows,
    takes_fused,
    time_rows,
)

TARGET = "openai-chat"
# A baseline: (its version, its translation), or why there is none.
Baseline = tuple[str, Callable[[Json], Json]] | str
RowsOf = Callable[[Convert, list[Corpus], int], tuple[TargetRows, list[Corpus]]]


def baseline(module: str, row: str, make: Callable[[Any], Callable[[Json], Json]]) -> Baseline:
    """LiteLLM's translation, ``make`` given its ``module`` (run offline), with LiteLLM's
    version; or why there is none (the section's ``row`` then skipped)."""
    os.environ.update(LITELLM_OFFLINE)
    try:
        version = importlib.metadata.version("litellm")
        loaded = importlib.import_module(module)
    except ImportError as error:
        return f"LiteLLM is not importable ({error}): its {row} row is skipped"
    return version, make(loaded)


def carried_out_chat(output: Json) -> Counter[str]:
    """Tool calls, tool results and images in an OpenAI Chat request body."""
    counts: Counter[str] = Counter()
    for message in output["messages"]:
        counts["tool calls"] += len(message.get("tool_calls") or ())
        counts["tool results"] += message["role"] == "tool"
        content = message.get("content")
        if isinstance(content, list):
            counts["images"] += sum(part.get("type") == "image_url" for part in content)
    return counts


def written_in(source: str, convert: Convert, corpora: list[Corpus]) -> list[Corpus]:
    """The corpora in ``source``'s format: each OpenAI Chat body as interlingua's two-step
    path writes it (the same bodies, so the directions' numbers compare)."""
    found: list[Corpus] = []
    for label, bodies, _lines in corpora:
        written = [
            convert(body, source=SOURCE, target=source, fused=False).output for body in bodies
        ]
        found.append((label, written, [orjson.dumps(body) for body in written]))
    return found


def rows(
    source: str,
    convert: Convert,
    corpora: list[Corpus],
    check_slice: int,
    *,
    baseline: Baseline,
    baseline_name: str,
    carried_in: Callable[[Json], Counter[str]],
) -> tuple[TargetRows, list[Corpus]]:
    """The rows of ``source`` → openai-chat (interlingua fused and two-step, the baseline
    named ``LiteLLM <version> <baseline_name>`` when there is one) over the corpora written in
    ``source``'s format, each checked on every body first; and those corpora."""
    fused = functools.partial(convert, source=source, target=TARGET)
    candidates: list[tuple[str, str, Callable[[Json], Any]]] = [
        ("fused", f"interlingua {source} → {TARGET}", fused),
        (
            "two-step",
            f"interlingua {source} → {TARGET}, two-step",
            functools.partial(fused, fused=False),
        ),
    ]
    name = "" if isinstance(baseline, str) else f"LiteLLM {baseline[0]} {baseline_name}"
    if not isinstance(baseline, str):
        candidates.append(("litellm", name, baseline[1]))
    schema = json.loads((FORMATS_DIR / TARGET / "request.json").read_text("utf-8"))
    found = TargetRows(TARGET, [], {}, [baseline] if isinstance(baseline, str) else [], [])
    written = written_in(source, convert, corpora)
    checked = check_rows(
        found,
        candidates,
        written,
        check_slice,
        wire=jsonschema_rs.validator_for(schema),
        kind="OpenAI Chat",
        carried_in=carried_in,
        carried_out=carried_out_chat,
    )
    if not isinstance(baseline, str) and "litellm" not in checked.names:
        _baseline_noted(checked, name, baseline[1])
    return checked, written


def _baseline_noted(found: TargetRows, name: str, run: Callable[[Json], Json]) -> None:
    """The baseline's own failure is none of the section's: moved from ``failed`` to the
    notes; a translation that loses a part is timed all the same, unchecked."""
    (problem,) = [p for p in found.failed if p.startswith(name)]
    found.failed.remove(problem)
    if " drops " in problem:
        found.rows.append((f"{name} (unchecked)", run, PARSED))
        found.names["litellm"] = f"{name} (unchecked)"
        problem += ": timed unchecked, a translation that does less"
    found.notes.append(problem)


def section_report(pair: str, found: TargetRows, rates: dict[tuple[str, str], float]) -> str:
    """A pair section's report: `TargetRows.report` under the pair's own heading."""
    lines = found.report(rates).splitlines()
    lines[0] = f"## {pair}, dict → dict (the reverse direction)"
    return "\n".join([*lines, ""])


def section(
    source: str,
    rows_of: RowsOf,
    convert: Convert | str,
    corpora: list[Corpus],
    args: argparse.Namespace,
) -> list[str]:
    """Checks, times (its rows interleaved, medians) and prints the section of one pair (its
    rows from ``rows_of``); what failed. Skipped without an interlingua that has the fused
    pass."""
    pair = f"{source} → {TARGET}"
    if isinstance(convert, str) or not takes_fused(convert):
        print(f"## {pair}: skipped (no interlingua fused pass)\n")
        return []
    found, written = rows_of(convert, corpora, args.check_slice)
    rates = time_rows(found.rows, written, args.chunk, args.repeat)
    print(section_report(pair, found, rates))
    return found.failed
