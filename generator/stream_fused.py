"""Fused stream paths: one wire chunk of a source format straight to the framed text of a
target format, for the chunks that only continue a part (a delta of text, reasoning, a
refusal or a call's arguments), without canonical events or chunk objects in between.

Both halves come from the mapping files, as the streams do: the source's read rules that
continue a keyed part (`streams.hot_rules`) and the target's delta text (`a_*` in its stream
module). The engine (`adapters.stream_writer.delta_text` / `call_text`) decides whether the state
allows the shortcut: the part known and of that kind, the target's block for it open,
nothing held back, neither side done. Anything else — a chunk no hot rule takes, a state the
shortcut does not cover — returns None, and `StreamTranslator` reads the chunk the general
way; it counts the chunks each path took. The output is the same either way
(tests/streams/test_fused.py holds the two paths to it).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from generator.streams import HOT_ACTIONS, HotRule, StreamPlan
from generator.templating import Emitter


@dataclass(frozen=True)
class FusedPair:
    source: str
    target: str
    function: str  # the function's name
    source_code: str  # the function's source


def _fusable_target(plan: StreamPlan) -> bool:
    """A target whose deltas the text writers say alone: no chunk numbering, no whole
    blocks or response folded as the stream passes."""
    return (
        plan.sequence is None
        and not plan.whole_response
        and not plan.whole_blocks
        and bool(plan.arounds)
    )


def fused_pairs(plans: list[StreamPlan]) -> Iterator[FusedPair]:
    for source in plans:
        if not source.hot or source.grounding:
            continue  # (a reader that keeps its text for grounding takes every chunk itself)
        for target in plans:
            if not _fusable_target(target):
                continue
            pair = _pair(source, target)
            if pair is not None:
                yield pair


def _pair(source: StreamPlan, target: StreamPlan) -> FusedPair | None:
    rules = [r for r in source.hot if HOT_ACTIONS[r.action] in target.arounds]
    if not rules:
        return None
    name = f"{source.mapping.module}__{target.mapping.module}"
    em = Emitter()
    em.line("d = c")
    reads: dict[str, str] = {}
    for rule in rules:
        reads.update(rule.reads)
    # Rules grouped by their first test (the event type, mostly): a chunk is tested against
    # the rest of one group's only. The rules exclude each other, so a group that takes no
    # chunk passes it on to the next.
    groups: dict[str, list[HotRule]] = {}
    for rule in rules:
        groups.setdefault(rule.conditions[0], []).append(rule)
    first = [var for var in reads if any(_uses(c, var) for c in groups)]
    for var in first:
        em.line(f"{var} = {reads[var]}")
    for test, members in groups.items():
        em.line(f"if {test}:")
        with em.block():
            rest = [c for rule in members for c in rule.conditions[1:]]
            for var, expression in reads.items():
                if var not in first and any(_uses(c, var) for c in rest):
                    em.line(f"{var} = {expression}")
            for rule in members:
                _branch(em, rule, target)
    em.line("return None")
    head = (
        f"def {name}(r: StreamReader, w: StreamWriter, c: dict[str, Any]) -> str | None:\n"
        f'    """{source.mapping.format} → {target.mapping.format}."""\n'
    )
    return FusedPair(source.mapping.format, target.mapping.format, name, head + "\n".join(em.lines))


def _uses(condition: str, var: str) -> bool:
    return re.search(rf"\b{var}\b", condition) is not None


def _branch(em: Emitter, rule: HotRule, target: StreamPlan) -> None:
    """One rule: the engine's say, then the target's text."""
    rest = rule.conditions[1:]
    if rest:
        em.line(f"if {' and '.join(rest)}:")
        em.depth += 1
    around = f"{target.mapping.module}.{target.arounds[HOT_ACTIONS[rule.action]]}"
    if rule.action == "call_delta":
        em.line(f"return call_text(r, w, {rule.part}, {rule.value}, around={around})")
    else:
        em.line(
            f"return delta_text(r, w, {rule.action!r}, {rule.part}, {rule.value}, around={around})"
        )
    if rest:
        em.depth -= 1


def fused_module(inputs: Any) -> Iterator[tuple[dict[str, str], dict[str, Any]]]:
    """The manifest's producer: the fused paths of every pair that has one."""
    plans: list[StreamPlan] = inputs.stream_plans
    pairs = list(fused_pairs(plans))
    targets = sorted({p.target for p in pairs})
    modules = [plan.mapping.module for plan in plans if plan.mapping.format in targets]
    yield {}, {"pairs": pairs, "modules": modules}
