"""Whether two model names name one model: reasoning signatures are bound to the model that
issued them, and names come in several spellings (the canonical `<provider>:<model>`, a
resource path `models/<model>`, the provider's own)."""

from __future__ import annotations

import re

# A canonical provider prefix (`anthropic:`), or the path before a resource name (`models/`).
_PREFIX = re.compile(r"^[a-z][a-z0-9_-]*:(?=[^:]+$)|^.*/")


def spellings(model: str) -> set[str]:
    """``model`` as given and without a provider prefix or resource path."""
    return {model, _PREFIX.sub("", model)}


def same_model(issued: str | None, target: str | None) -> bool:
    """Whether reasoning ``issued`` by one model may go to ``target``; an unknown side (None)
    cannot be told apart, and is taken as the same."""
    if issued is None or target is None:
        return True
    return bool(spellings(issued) & spellings(target))
