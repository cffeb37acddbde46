"""The fused stream paths (`generated/python/streams/fused.py`) against the general path: the
same text, the same losses (pointer, code, reason, part type, in order), the same end, on every
stream case, every recorded real stream, and those streams disordered (each chunk twice, the
chunks shuffled), for every pair that has a fused path."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from interlingua.generated.streams.fused import FUSED
from interlingua.streams.engine import StreamTranslator
from tests.streams.helpers import ROOT, STREAM_CASES, framed

SOURCES = sorted({source for source, _ in FUSED})
REAL = sorted(
    path
    for source in SOURCES
    for path in (ROOT / "conformance" / "real" / source / "stream").glob("*")
    if path.suffix in (".sse", ".ndjson")
)


def _chunk_streams() -> list[tuple[str, str, list[Any]]]:
    """(id, source, chunks) of each stream case, and of the same chunks disordered."""
    streams = []
    for case in STREAM_CASES:
        source = case.input["format"]
        if source not in SOURCES:
            continue
        chunks = list(case.input["chunks"])
        shuffled = list(chunks)
        random.Random(case.id).shuffle(shuffled)
        streams += [
            (case.id, source, chunks),
            (f"{case.id}/twice", source, [c for chunk in chunks for c in (chunk, chunk)]),
            (f"{case.id}/shuffled", source, shuffled),
        ]
    return streams


def _translate(source: str, target: str, lines: list[str], *, fused: bool) -> dict[str, Any]:
    translator = StreamTranslator(source, target, fused=fused)
    text = "".join(translator.feed(line) for line in lines) + translator.close()
    return {
        "text": text,
        "losses": [
            (loss.pointer, loss.code, loss.reason, loss.part_type) for loss in translator.losses
        ],
        "failed": translator.failed,
        "ended": translator.ended,
        "fused": translator.fused_chunks,
        "chunks": translator.fused_chunks + translator.general_chunks,
    }


def _same(source: str, target: str, lines: list[str]) -> int:
    """Assert both paths agree; the number of chunks the fused one took."""
    fused = _translate(source, target, lines, fused=True)
    general = _translate(source, target, lines, fused=False)
    assert general["fused"] == 0
    assert fused["chunks"] == general["chunks"]
    taken = fused.pop("fused")
    general.pop("fused")
    assert fused == general
    return int(taken)


CHUNK_STREAMS = _chunk_streams()
CASES = [(s, t) for s in CHUNK_STREAMS for t in sorted({t for f, t in FUSED if f == s[1]})]


@pytest.mark.parametrize(("stream", "target"), CASES, ids=[f"{s[0]}->{t}" for s, t in CASES])
def test_fused_and_general_paths_agree_on_the_stream_cases(
    stream: tuple[str, str, list[Any]], target: str
) -> None:
    _, source, chunks = stream
    _same(source, target, framed(source, chunks))


REAL_CASES = [
    (p, t) for p in REAL for t in sorted({t for f, t in FUSED if f == p.parent.parent.name})
]


@pytest.mark.parametrize(
    ("path", "target"),
    REAL_CASES,
    ids=[f"{p.parent.parent.name}/{p.stem}->{t}" for p, t in REAL_CASES],
)
def test_fused_and_general_paths_agree_on_the_recorded_streams(path: Path, target: str) -> None:
    source = path.parent.parent.name
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    _same(source, target, lines)


def _long_anthropic_stream(texts: int, fragments: int) -> list[str]:
    """The lines of an Anthropic stream: a text block of ``texts`` deltas, then a call whose
    arguments come in ``fragments`` pieces (as benchmarks/stream.py times)."""
    chunks: list[Any] = [
        {
            "type": "message_start",
            "message": {"id": "msg_1", "model": "claude", "usage": {"input_tokens": 9}},
        },
        {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
        *(
            {
                "type": "content_block_delta",
                "index": 0,
                "delta": {"type": "text_delta", "text": f"w{n} "},
            }
            for n in range(texts)
        ),
        {"type": "content_block_stop", "index": 0},
        {
            "type": "content_block_start",
            "index": 1,
            "content_block": {"type": "tool_use", "id": "toolu_1", "name": "record", "input": {}},
        },
        *(
            {
                "type": "content_block_delta",
                "index": 1,
                "delta": {"type": "input_json_delta", "partial_json": p},
            }
            for p in ['{"items": [', *(["1, "] * (fragments - 2)), "1]}"]
        ),
        {"type": "content_block_stop", "index": 1},
        {
            "type": "message_delta",
            "delta": {"stop_reason": "tool_use"},
            "usage": {"output_tokens": 9},
        },
        {"type": "message_stop"},
    ]
    return framed("anthropic", chunks)


def test_the_fused_path_takes_the_deltas_and_nothing_else() -> None:
    """A long Anthropic stream to OpenAI Chat: every text and argument delta goes the fused
    way; the starts, stops and ends (7 chunks) the general way."""
    taken = _same("anthropic", "openai-chat", _long_anthropic_stream(150, 40))
    assert taken == 150 + 40


def _delta(index: int, text: str) -> dict[str, Any]:
    return {
        "type": "content_block_delta",
        "index": index,
        "delta": {"type": "text_delta", "text": text},
    }


def _text_block(index: int) -> dict[str, Any]:
    return {
        "type": "content_block_start",
        "index": index,
        "content_block": {"type": "text", "text": ""},
    }


# What changes the text around a delta in the middle of a block: usage (Gemini writes it on
# every chunk), a new block right after the last (Anthropic and Bedrock write its index).
MID_BLOCK: list[Any] = [
    {
        "type": "message_start",
        "message": {"id": "msg_1", "model": "claude", "usage": {"input_tokens": 9}},
    },
    _text_block(0),
    _delta(0, "a"),
    {"type": "message_delta", "delta": {"stop_reason": None}, "usage": {"output_tokens": 3}},
    _delta(0, "b"),
    {"type": "message_delta", "delta": {"stop_reason": None}, "usage": {"output_tokens": 5}},
    _delta(0, "c"),
    {"type": "content_block_stop", "index": 0},
    _text_block(1),
    _delta(1, "d"),
    {"type": "content_block_stop", "index": 1},
    {
        "type": "content_block_start",
        "index": 2,
        "content_block": {"type": "thinking", "thinking": ""},
    },
    {
        "type": "content_block_delta",
        "index": 2,
        "delta": {"type": "thinking_delta", "thinking": "e"},
    },
    {
        "type": "content_block_delta",
        "index": 2,
        "delta": {"type": "signature_delta", "signature": "s"},
    },
    {
        "type": "content_block_delta",
        "index": 2,
        "delta": {"type": "thinking_delta", "thinking": "f"},
    },
    {"type": "content_block_stop", "index": 2},
    {"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {"output_tokens": 9}},
    {"type": "message_stop"},
]


@pytest.mark.parametrize("target", sorted({t for s, t in FUSED if s == "anthropic"}))
def test_what_changes_in_the_middle_of_a_block_reaches_the_fused_text(target: str) -> None:
    assert _same("anthropic", target, framed("anthropic", MID_BLOCK)) > 0


def test_every_fused_pair_takes_some_chunk_of_the_cases() -> None:
    """A pair whose fused path never fires would test nothing."""
    taken: dict[tuple[str, str], int] = dict.fromkeys(FUSED, 0)
    for stream_id, source, chunks in CHUNK_STREAMS:
        if "/" in stream_id:
            continue
        for target in sorted({t for f, t in FUSED if f == source}):
            taken[(source, target)] += _same(source, target, framed(source, chunks))
    assert [pair for pair, n in taken.items() if n == 0] == []
