"""Query and path parameters, read against the operation's schemas in the document.

The names a parameter takes (formats, kinds, capabilities, types) are the enums the generator
wrote into the document, so the service and its contract cannot disagree on them. A missing,
unknown or malformed value is a 400 problem naming the parameter (an unknown value with the
closest known one, as the CLI does).
"""

from __future__ import annotations

import difflib
import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

from interlingua.service.contract import Operation, component
from interlingua.service.problems import ProblemError

_BOOLEANS = {"true": True, "false": False}


def _schema(schema: Mapping[str, Any]) -> Mapping[str, Any]:
    ref = schema.get("$ref")
    return component(ref.rsplit("/", 1)[-1]) if isinstance(ref, str) else schema


def _closest(name: str, known: Sequence[str]) -> str:
    close = [k for k in known if name and k.startswith(name)] or difflib.get_close_matches(
        name, known, n=1, cutoff=0.5
    )
    return f" (did you mean {close[0]}?)" if close else ""


def _value(name: str, raw: str, schema: Mapping[str, Any], status: int) -> Any:
    schema = _schema(schema)
    known = schema.get("enum")
    if known is not None:
        if raw not in known:
            raise ProblemError(
                status,
                "not_in_enum",
                f"unknown {name} {raw!r}{_closest(raw, known)}; known: {', '.join(known)}",
                parameter=name,
            )
        return raw
    if schema.get("type") == "boolean":
        if raw not in _BOOLEANS:
            raise ProblemError(
                status, "wrong_type", f"{name} must be true or false, not {raw!r}", parameter=name
            )
        return _BOOLEANS[raw]
    if schema.get("type") == "string":  # a named string type: its pattern says what fits
        pattern = schema.get("pattern")
        if pattern is not None and re.search(pattern, raw) is None:
            raise ProblemError(
                status,
                "pattern_mismatch",
                f"{name} {raw!r} does not match {pattern}",
                parameter=name,
            )
        return raw
    # The document's other parameters are numbers.
    try:
        number = float(raw)
    except ValueError:
        number = math.nan
    if not math.isfinite(number):
        raise ProblemError(
            status, "wrong_type", f"{name} must be a finite number, not {raw!r}", parameter=name
        )
    return number


def read_query(query: Any, operation: Operation) -> dict[str, Any]:
    """The operation's query parameters (``query``: Starlette's QueryParams), checked."""
    out: dict[str, Any] = {}
    for param in operation.parameters:
        if param["in"] != "query":
            continue
        name, schema = param["name"], param["schema"]
        values: list[str] = query.getlist(name)
        if not values:
            if param["required"]:
                raise ProblemError(
                    400, "missing_field", f"the query parameter {name} is required", parameter=name
                )
            continue
        if schema.get("type") == "array":
            # Every item is checked, an empty one too: `capabilities=` names no capability.
            items = [v.strip() for raw in values for v in raw.split(",")]
            out[name] = [_value(name, item, schema["items"], 400) for item in items]
        else:
            out[name] = _value(name, values[-1], schema, 400)
    return out


def read_path(values: Mapping[str, Any], operation: Operation) -> dict[str, Any]:
    """The operation's path parameters, checked: an unknown value is not there (404)."""
    return {
        param["name"]: _value(param["name"], str(values[param["name"]]), param["schema"], 404)
        for param in operation.parameters
        if param["in"] == "path"
    }
