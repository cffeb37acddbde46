"""Browse requests and the path grammar (seed 002 §3): PATH_INVALID versus PATH_NOT_FOUND.

The grammar lives in the schema (``BrowsePath``): ``/`` alone, or ``/``-separated lower-case
segments, no empty segment, no trailing ``/``, the first segment a namespace (starting with a
letter). ``*`` is reserved for "all children at this level" and is equivalent to omitting it;
the seed's grammar lets it appear anywhere but gives it a meaning only as the last segment, so
a ``*`` anywhere else is PATH_INVALID here (a choice, so that later filtered forms such as
``*?tag=…`` cannot change the meaning of paths clients already send).

The choice graph is a nested mapping: a node maps child names to nodes, and a leaf (one card)
is ``None``. Walking past a leaf, or to a name that is not there, is PATH_NOT_FOUND.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final, TypeAlias

from pydantic import TypeAdapter
from pydantic import ValidationError as PydanticError

from interlingua.documents.validation import is_error, validate
from interlingua.gateway._text import shown
from interlingua.gateway.errors import GatewayError
from interlingua.generated.models import BrowsePath, BrowseRequest, PathResolution

WILDCARD: Final = "*"
ChoiceGraph: TypeAlias = Mapping[str, "ChoiceGraph | None"]
_BROWSE_PATH: Final[TypeAdapter[str]] = TypeAdapter(BrowsePath)


def _why(path: str) -> tuple[str, str]:
    """A reason code and sentence for a path outside the grammar."""
    if not path.startswith("/"):
        return "leading_slash", "a path starts with '/'"
    if path.endswith("/"):
        return "trailing_slash", "a trailing '/' is not allowed"
    segments = path[1:].split("/")
    if "" in segments:
        return "empty_segment", "empty segments ('//') are not allowed"
    if WILDCARD in segments[:-1]:
        return "misplaced_wildcard", "'*' may only be the last segment"
    return "bad_segment", (
        "segments are 1-64 lower-case letters, digits, '_' and '-', starting with a letter or "
        "digit (the first, a namespace, with a letter)"
    )


def parse_path(path: object) -> list[str]:
    """The segments of a browse path, a trailing ``*`` removed; PATH_INVALID if malformed."""
    if not isinstance(path, str):
        raise GatewayError("PATH_INVALID", f"a path is a string, not {shown(path)}")
    try:
        _BROWSE_PATH.validate_python(path)
    except PydanticError:
        reason, sentence = _why(path)
        raise GatewayError(
            "PATH_INVALID",
            f"path {shown(path)} is malformed: {sentence}",
            path=path,
            details={"reason": reason},
        ) from None
    segments = [s for s in path.split("/") if s]
    return segments[:-1] if segments and segments[-1] == WILDCARD else segments


def resolve_path(path: object, graph: ChoiceGraph) -> PathResolution:
    """What ``path`` addresses in ``graph``; PATH_INVALID or PATH_NOT_FOUND otherwise."""
    segments = parse_path(path)
    node: ChoiceGraph | None = graph
    for depth, segment in enumerate(segments):
        if node is None or segment not in node:
            where = "/" + "/".join(segments[: depth + 1])
            raise GatewayError("PATH_NOT_FOUND", f"no node at {shown(where)}", path=str(path))
        node = node[segment]
    return PathResolution(
        path="/" + "/".join(segments),
        leaf=node is None,
        children=sorted(node) if node is not None else [],
    )


def parse_browse_request(args: object) -> BrowseRequest:
    """Checked tool_browse arguments: exactly one of ``query`` and ``path`` (ARGS_INVALID
    otherwise), and a ``path`` in the grammar (PATH_INVALID otherwise)."""
    errors = [f for f in validate(args, "BrowseRequest") if is_error(f)]
    messages = [f"{f.path or '/'}: {f.message}" for f in errors]
    details: dict[str, object] = {}
    if errors:
        details["findings"] = [f.model_dump(mode="json", exclude_none=True) for f in errors]
    if messages:
        raise GatewayError("ARGS_INVALID", "; ".join(messages), details=details)
    request = BrowseRequest.model_validate(args)
    if request.path is not None:
        parse_path(request.path)
    return request
