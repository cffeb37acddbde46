"""Header names as a server would read them, so a sensitive header cannot hide behind spelling.

``Authorization`` is stripped from every serialised view; an attacker (or a careless framework)
who writes ``" Authorization"``, ``"authorization:"``, ``"\\ufeffCookie"``, ``"X-API-Key\\x00"``
or ``"HTTP_X_API_KEY"`` must not get it through. :func:`header_key` reduces a name to the form
the comparison uses:

- Unicode format and control characters are dropped wherever they are (C0, DEL, C1, NUL, the
  BOM and zero-width characters: a server or proxy ignores or strips them);
- surrounding whitespace and a trailing ``:`` (a raw ``Name: value`` line split once) go;
- letters are case-folded, and ``_`` reads as ``-`` (CGI, WSGI and some proxies spell headers
  that way), with a leading ``http-`` (the CGI ``HTTP_`` prefix) removed.

Over-matching is the safe side here: a header that merely looks like a sensitive one is dropped
from what leaves, never from the message itself.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Collection
from typing import Any, Final

_CGI_PREFIX: Final = "http-"


def header_key(name: str) -> str:
    """The comparison form of a header name (see the module docstring)."""
    kept = "".join(c for c in name if unicodedata.category(c) not in ("Cc", "Cf"))
    kept = kept.strip().removesuffix(":").strip().casefold().replace("_", "-")
    return kept.removeprefix(_CGI_PREFIX)


def is_sensitive(name: object, sensitive: Collection[str]) -> bool:
    """Whether ``name`` (a key or a header-pair name) is one of the ``sensitive`` names."""
    return isinstance(name, str) and header_key(name) in sensitive


def _pair_name(item: Any) -> Any:
    """The name of a header given as a pair: ``["Name", "value"]`` or a
    ``{"name": …, "value": …}`` object (HAR, Fetch, OpenAPI); None for anything else."""
    if isinstance(item, list) and len(item) == 2:
        return item[0]
    if isinstance(item, dict) and {k.casefold() for k in item if isinstance(k, str)} == {
        "name",
        "value",
    }:
        return next(v for k, v in item.items() if k.casefold() == "name")
    return None


def scrub(value: Any, sensitive: Collection[str]) -> Any:
    """``value`` (plain JSON data, changed in place and returned) with every header-shaped
    entry named in ``sensitive`` removed at any depth: a mapping key, a ``[name, value]`` pair
    or a ``{"name", "value"}`` object in a list. Iterative, so any depth is safe."""
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            for key in [k for k in node if is_sensitive(k, sensitive)]:
                del node[key]
            stack.extend(node.values())
        elif isinstance(node, list):
            node[:] = [item for item in node if not is_sensitive(_pair_name(item), sensitive)]
            stack.extend(node)
    return value


__all__ = ["header_key", "is_sensitive", "scrub"]
