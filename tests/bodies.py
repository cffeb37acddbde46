"""Request bodies more than one test directory uses: one copy each, imported where needed."""

from __future__ import annotations

from typing import Any

# Signed reasoning in a Gemini conversation: bound to the endpoint it is read from (Vertex
# replays it whole; the Gemini API gets it reported, not sent).
SIGNED_GEMINI: dict[str, Any] = {
    "contents": [
        {"role": "user", "parts": [{"text": "hi"}]},
        {
            "role": "model",
            "parts": [{"text": "plan", "thought": True, "thoughtSignature": "Cq"}, {"text": "ok"}],
        },
        {"role": "user", "parts": [{"text": "go"}]},
    ]
}


def signed_gemini_stream() -> list[dict[str, Any]]:
    """The chunks of a Gemini stream whose reasoning Vertex signed: a thought with its
    signature, then the answer (a new list each call: tests change them)."""
    chunks: list[dict[str, Any]] = [
        {"candidates": [{"content": {"role": "model", "parts": [part]}, "index": 0}]}
        for part in (
            {"text": "Hm.", "thought": True, "thoughtSignature": "Q2lZQg=="},
            {"text": "Hi."},
        )
    ]
    chunks[-1]["candidates"][0]["finishReason"] = "STOP"
    return chunks
