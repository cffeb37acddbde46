"""Call arguments that stream as typed pieces at JSON paths (Vertex's streamed function-call
arguments), folded back into one arguments object.

Each piece names where its value goes with a JSON Path (RFC 9535, the normalized subset: `$`
then `.name`, `['name']` or `[n]` steps) and carries one typed value. A string piece that says
more follows at the same path is extended by the next piece at that path (other paths may
stream in between); every other piece sets its value, creating the objects and lists on the
way. Anything else (a path outside the subset, a piece with no value or two, a step into a
value of another type, a list index past the end) is a coded error.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from itertools import pairwise
from typing import Any

from interlingua.conversion import ConversionError

_STEP = re.compile(
    r"""\.(?P<name>[^.\[\]'"]+)"""  # .name
    r"""|\[(?P<index>0|[1-9][0-9]*)\]"""  # [n]
    r"""|\['(?P<single>(?:[^'\\]|\\.)*)'\]"""  # ['name']
    r"""|\["(?P<double>(?:[^"\\]|\\.)*)"\]"""  # ["name"]
)
_ESCAPE = re.compile(r"\\(.)")

Step = str | int


def parse_path(path: Any, ptr: str) -> tuple[Step, ...]:
    """The steps of a JSON Path below `$` (keys and list indices)."""
    if type(path) is not str or not path.startswith("$"):
        raise ConversionError("wrong_type", ptr, "an argument path is a JSON Path starting at $")
    steps: list[Step] = []
    at = 1
    while at < len(path):
        found = _STEP.match(path, at)
        if found is None:
            raise ConversionError(
                "pattern_mismatch", ptr, f"{path[:80]!r}: not a JSON Path this reader follows"
            )
        if found.group("index") is not None:
            steps.append(int(found.group("index")))
        else:
            name = found.group("name") or found.group("single") or found.group("double") or ""
            steps.append(_ESCAPE.sub(r"\1", name))
        at = found.end()
    if not steps:
        raise ConversionError("wrong_type", ptr, "an argument path names no argument")
    return tuple(steps)


class ArgumentPieces:
    """One call's arguments, built piece by piece. ``keys`` names the fields of a piece:
    `path`, `more`, and the value fields `string`, `number`, `boolean`, `null`."""

    def __init__(self, keys: Mapping[str, str]) -> None:
        self.keys = keys
        self.arguments: dict[str, Any] = {}
        self._continued: set[tuple[Step, ...]] = set()  # paths of strings that go on

    def add(self, piece: Any, ptr: str) -> None:
        if type(piece) is not dict:
            raise ConversionError("wrong_type", ptr, "an argument piece is an object")
        steps = parse_path(piece.get(self.keys["path"]), ptr)
        kinds = [k for k in ("string", "number", "boolean", "null") if self.keys[k] in piece]
        if len(kinds) != 1:
            raise ConversionError("wrong_type", ptr, "an argument piece carries exactly one value")
        kind = kinds[0]
        value = piece[self.keys[kind]]
        if kind == "null":
            value = None
        elif kind == "string" and type(value) is not str:
            raise ConversionError("wrong_type", ptr, "a string piece holds a string")
        elif kind == "number" and (type(value) not in (int, float)):
            raise ConversionError("wrong_type", ptr, "a number piece holds a number")
        elif kind == "boolean" and type(value) is not bool:
            raise ConversionError("wrong_type", ptr, "a boolean piece holds true or false")
        container, last = self._parent(steps, ptr)
        if kind == "string" and steps in self._continued:
            value = container[last] + value  # the same string, continued
        self._put(container, last, value, ptr)
        if kind == "string" and piece.get(self.keys["more"]) is True:
            self._continued.add(steps)
        else:
            self._continued.discard(steps)

    def _parent(self, steps: tuple[Step, ...], ptr: str) -> tuple[Any, Step]:
        node: Any = self.arguments
        if type(steps[0]) is not str:
            raise ConversionError("wrong_type", ptr, "the arguments are an object, not a list")
        for step, following in pairwise(steps):
            fresh: Any = [] if type(following) is int else {}
            if type(node) is dict:
                child = node.setdefault(step, fresh) if type(step) is str else None
            else:
                self._put(node, step, fresh, ptr, keep=True)
                child = node[step] if type(step) is int else None
            if type(child) is not type(fresh):
                raise ConversionError(
                    "wrong_type", ptr, f"the argument path steps into a {type(child).__name__}"
                )
            node = child
        return node, steps[-1]

    @staticmethod
    def _put(node: Any, step: Step, value: Any, ptr: str, *, keep: bool = False) -> None:
        """Set ``step`` of ``node`` (`_parent` made it an object for a name, a list for a
        number); ``keep`` leaves an item that is there already."""
        if type(step) is str:
            node[step] = value
            return
        assert type(step) is int
        if step == len(node):
            node.append(value)
        elif step < len(node):
            if not keep:
                node[step] = value
        else:
            raise ConversionError(
                "stream_out_of_order", ptr, f"item {step} of a list of {len(node)} items"
            )
