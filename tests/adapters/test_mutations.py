"""Every conversion input of the conformance cases, broken node by node: each conversion either
succeeds or fails with a coded ConversionError, whatever the damage (never another exception).

The inputs skip the schema check (`validate_input=False`), so the damage reaches every branch
of the compiled adapters: the variants that do not match, the fields that are missing or of
the wrong type, the transforms that refuse a value.
"""

from __future__ import annotations

import copy
import json
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conformance.cases import load_cases
from interlingua.conversion import ConversionError
from interlingua.conversion.converter import convert, text_format
from interlingua.generated.adapters import ADAPTERS
from tests.mutants import REMOVED, replaced

pytestmark = pytest.mark.untraced

REPLACEMENTS: tuple[Any, ...] = (None, "x", 7, [], {}, True)


def _inputs() -> list[tuple[str, str, str, Any]]:
    """(case id, source format, kind, document) for every input the cases convert."""
    out = []
    for case in load_cases():
        if case.function == "roundtrip":
            args = case.input
            out.append((case.id, args["format"], args["kind"], args["wire"]))
            out.append((case.id, "canonical", args["kind"], case.expected["canonical"]))
        elif case.function == "convert":
            args = case.input
            out.append((case.id, args["source"], args["kind"], args["payload"]))
    return out


def _paths(node: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    if path:
        yield path
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _paths(value, (*path, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _paths(value, (*path, i))


def _text_mutants(text: str) -> Iterator[str]:
    """A text format's input cut short, with a character left out, or with text where the
    framing expects none."""
    for k in range(len(text)):
        yield text[:k]
        yield text[:k] + text[k + 1 :]
        if k % 7 == 0:
            yield text[:k] + "<|im_end|>" + text[k:]


def _mutants(document: Any) -> Iterator[Any]:
    if isinstance(document, str):
        yield from _text_mutants(document)
        return
    for n, path in enumerate([(), *_paths(document)]):
        node = document
        for step in path:
            node = node[step]
        if isinstance(node, dict):  # a field nobody knows: reported, never a crash
            yield replaced(document, path, {**node, "x_unknown": n})
        if not path:
            continue
        for k, replacement in enumerate((*REPLACEMENTS, REMOVED)):
            if (n + k) % 2:  # every node, half the replacements each: enough to reach the branches
                continue
            fresh = replacement if replacement is REMOVED else copy.deepcopy(replacement)
            yield replaced(document, path, fresh)


def _examples() -> list[tuple[str, str, str, Any]]:
    """Every schema example of a part, tool, choice or format, in a conversation of its own
    (and every Conversation and Response example): all the optional fields the cases lack."""
    root = Path(__file__).resolve().parents[2] / "schemas" / "examples"
    out: list[tuple[str, str, str, Any]] = []
    for path in sorted(root.glob("*/*.json")):
        value = json.loads(path.read_text(encoding="utf-8"))
        name = path.parent.name
        base = {"schema_version": 1, "model": "m", "messages": []}
        role = {"ToolResultPart": "tool", "ToolCallPart": "assistant", "ThinkingPart": "assistant"}
        if name.endswith("Part"):
            message = {"role": role.get(name, "user"), "content": [value]}
            document = {
                **base,
                "messages": [{"role": "user", "content": [{"type": "text", "text": "x"}]}, message],
            }
        elif name in ("ToolDefinition", "ToolChoice", "ResponseFormat", "GenerationParameters"):
            key = {
                "ToolDefinition": "tools",
                "ToolChoice": "tool_choice",
                "ResponseFormat": "response_format",
                "GenerationParameters": "parameters",
            }[name]
            document = {
                **base,
                "messages": [{"role": "user", "content": [{"type": "text", "text": "x"}]}],
                key: [value] if key == "tools" else value,
            }
        elif name in ("Conversation", "Response"):
            document = value
        else:
            continue
        kind = "response" if name == "Response" else "request"
        out.append((f"example {name}/{path.stem}", "canonical", kind, document))
    return out


INPUTS = _inputs() + _examples()
#: The canonical inputs convert to every format (≈ 56,000 mutants × 11 targets, minutes): cut into
#: shards of inputs (every SHARDS-th input), so that no single test holds a worker that long.
SHARDS = 4


def _runs() -> list[tuple[str, int]]:
    """(source format, shard): one shard for each format, SHARDS for canonical."""
    formats = sorted({source for _, source, _, _ in INPUTS})
    return [(fmt, shard) for fmt in formats for shard in range(SHARDS if fmt == "canonical" else 1)]


@pytest.mark.parametrize(("fmt", "shard"), _runs(), ids=[f"{f}-{s}" for f, s in _runs()])
def test_broken_inputs_get_a_coded_error_or_a_result(fmt: str, shard: int) -> None:
    logging.disable(logging.WARNING)
    # Another format too: reading for it reports the fields it leaves behind.
    other = "openai-chat" if fmt != "openai-chat" else "anthropic"
    targets = sorted(ADAPTERS) if fmt == "canonical" else ["canonical", other]
    shards = SHARDS if fmt == "canonical" else 1
    mine = [entry for entry in INPUTS if entry[1] == fmt]
    # The same document, byte for byte in key order, converts the same way: once is enough
    # (cases share documents, and a replacement can equal the value it replaces).
    seen: set[tuple[str, str]] = set()
    tried = 0
    try:
        for case_id, source, kind, document in mine[shard::shards]:
            before = json.dumps(document)
            for mutant in _mutants(document):
                key = (kind, json.dumps(mutant))
                if key in seen:
                    continue
                seen.add(key)
                for target in targets:
                    tried += 1
                    try:
                        result = convert(mutant, source, target, kind, validate_input=False)
                    except ConversionError as exc:
                        assert exc.code and isinstance(exc.pointer, str), case_id
                    else:
                        # Stored messages keep their container: a list stays a list; a text
                        # format writes text.
                        shape: Any = (dict, list) if kind == "messages" else dict
                        shape = str if text_format(target) else shape
                        assert isinstance(result.output, shape), case_id
            # The mutants share the document's untouched nodes: no conversion wrote into one.
            assert json.dumps(document) == before, case_id
    finally:
        logging.disable(logging.NOTSET)
    assert tried > 500
