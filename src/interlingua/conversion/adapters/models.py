"""Whether two model names name one model: reasoning signatures are bound to the model that
issued them, and names come in several spellings — the canonical `<provider>:<model>`, a
resource path (`models/<model>`), a cloud's vendor prefix and version suffix
(`us.anthropic.<model>-v1:0`), and an alias beside its dated snapshot (`claude-sonnet-4-5`
and `claude-sonnet-4-5-20250929`, `gpt-5` and `gpt-5-2025-08-07`, `gemini-2.0-flash-001`)."""

from __future__ import annotations

import re

# Peeled off in this order, each when present: a canonical provider prefix (`anthropic:`;
# not an Ollama name before its tag, `qwen3:8b`, `llama3:latest`), a resource path, vendor
# prefixes (`us.anthropic.`), a cloud version suffix (`-v1:0`), a snapshot date or number
# (`-20250929`, `-2025-08-07`, `-001`, `-latest`).
_PEEL = (
    re.compile(r"^[a-z][a-z0-9_-]*:(?=[a-z][^:]*[-\d][^:]*$)"),
    re.compile(r"^.*/"),
    re.compile(r"^(?:[a-z]+\.)+(?=[a-z])"),
    re.compile(r"-v\d+(?::\d+)?$"),
    re.compile(r"-(?:\d{8}|\d{4}-\d{2}-\d{2}|\d{3}|latest)$"),
)


def base_name(model: str) -> str:
    """``model`` without its provider prefix, path, vendor prefix and version suffixes."""
    for pattern in _PEEL:
        model = pattern.sub("", model)
    return model


def same_model(issued: str | None, target: str | None) -> bool:
    """Whether reasoning ``issued`` by one model may go to ``target``; an unknown side (None)
    cannot be told apart, and is taken as the same."""
    if issued is None or target is None:
        return True
    return issued == target or base_name(issued) == base_name(target)


def same_endpoint(issued: str | None, target: str | None) -> bool:
    """Whether reasoning signed at endpoint ``issued`` may go to endpoint ``target`` (Vertex
    and the Gemini API refuse each other's signatures); an unknown side is taken as the same."""
    return issued is None or target is None or issued == target
