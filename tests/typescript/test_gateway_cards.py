"""The Node harness counts cl100k_base tokens and builds cards as the Python gateway does,
beyond the conformance vectors: scripts, special-token strings, whitespace runs, hard cuts
inside a multi-byte character, the 50,000-character window, `%g` costs, tag capping.

One harness process answers every case (tests/typescript/differential.py); the outcomes must
equal Python's.
"""

from __future__ import annotations

from typing import Any

from tests.typescript.differential import outcomes

TEXTS = [
    "",
    "hello world",
    "<|endoftext|> and <|fim_prefix|> are plain text here",
    "I'll say DON'T, we've 12345678 items; x=3.14159",
    "東京都の天気予報を取得して返します。明日は晴れ!",
    "naïve café — 😀😀😀 family: 👨‍👩‍👧 flags 🇳🇴",
    "\ufffd" * 12,
    "tabs\t\tand\n\n\nnewlines   and    spaces  ",
    "A. B! C? D. Then a much longer closing sentence without any end",
    "Version 1.5 adds e.g. streaming. It works.Really? Yes!",
    "Ünïcödé " * 40,
    "x" * 300,
]
LONG = "Searching documents. " * 2500 + "tail"  # past the 50,000-character window

SCHEMA = {"type": "object", "properties": {"q": {"type": "string"}}}


def _tool(**fields: Any) -> dict[str, Any]:
    definition = {"name": "search.query", "input_schema": SCHEMA, **fields.pop("definition", {})}
    return {"definition": definition, **fields}


TOOLS: list[dict[str, Any]] = [
    {"tool": _tool(definition={"description": TEXTS[4] * 3}), "score": 0.5},
    {"tool": _tool(definition={"description": TEXTS[5] * 4, "side_effects": "read"})},
    {
        "tool": _tool(
            tags=["b", "a", "a", "x://y", "has space", "{x}", "c", "d", "e", "f"],
            annotations={"destructiveHint": True, "readOnlyHint": True, "title": "  \n "},
            cost_hint=1234567.0,
        )
    },
    {"tool": _tool(cost_hint=0.00001234, annotations={"title": "Find\tthings"}), "score": -1},
    {"tool": _tool(definition={"name": "ping", "input_schema": {}, "description": LONG})},
]
COSTS = [0.5, 2.0, 0.0001, 0.00001234, 100000.0, 1234567.0, 123456.7, 1.5e300, 3.0e-7]
CARD = {
    "id": "search:query#fc020b06", "name": "search.query", "description": "Find things.",
    "tags": [], "kind": "tool", "namespace": "search", "has_schema": True,
    "side_effects": False, "safety": "",
}  # fmt: skip


def test_node_counts_tokens_and_builds_cards_as_python_does() -> None:
    rows: list[tuple[str, dict[str, Any]]] = [("count_tokens", {"text": t}) for t in [*TEXTS, LONG]]
    rows += [
        ("truncate_description", {"text": t, "budget": b})
        for t in [*TEXTS, LONG]
        for b in (1, 2, 3, 5, 8, 13)
    ]
    rows += [("build_card", tool) for tool in TOOLS]
    rows += [("render_card", {"card": {**CARD, "cost_hint": cost}}) for cost in COSTS]
    rows += [("card_tokens", {"card": {**CARD, "cost_hint": cost}}) for cost in COSTS]
    rows.append(
        (
            "order_cards",
            {"cards": [{"id": "b", "score": 1}, {"id": "c"}, {"id": "a", "score": 1}, {"id": "B"}]},
        )
    )
    ours, differences = outcomes(rows)
    assert differences == []
    # The cases mean something: hard cuts (`…`) and sentence cuts both happen.
    cuts = [v[1] for v in ours if v[0] == "ok" and isinstance(v[1], str)]
    assert any(c.endswith("\u2026") and len(c) > 1 for c in cuts)
    assert any(c.endswith((".", "!", "?")) and c not in TEXTS for c in cuts)
