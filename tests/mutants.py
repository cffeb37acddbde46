"""Documents broken one node at a time, for the mutation tests (tests/schemas and
tests/adapters): a mutant copies only the containers along the path to its broken node and
shares the rest with the document it breaks, which nothing may write into."""

from __future__ import annotations

from typing import Any

#: ``replaced``'s value that removes the node instead.
REMOVED: Any = object()


def replaced(document: Any, path: tuple[Any, ...], value: Any) -> Any:
    """``document`` with the node at ``path`` (keys and indexes) replaced by ``value``, or
    removed for `REMOVED`. ``document`` stays as it was."""
    if not path:
        return value
    head, *rest = path
    copied = list(document) if isinstance(document, list) else dict(document)
    if rest:
        copied[head] = replaced(document[head], tuple(rest), value)
    elif value is REMOVED:
        del copied[head]
    else:
        copied[head] = value
    return copied
