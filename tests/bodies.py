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
