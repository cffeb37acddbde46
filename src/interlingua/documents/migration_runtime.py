"""What the generated migrations (``interlingua.generated.migrations``) call: walking lists and
maps, moving a field, and dropping what the older version cannot hold, with its loss.

Every helper changes only the dict it is given, which the generated code has copied first.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from interlingua.conversion import Loss

Step = Callable[[Any, str, list[Loss]], Any]


def _escape(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


def same(node: Any, at: str, losses: list[Loss]) -> Any:
    """A type no change touches."""
    return node


def each(items: Any, at: str, losses: list[Loss], step: Step) -> Any:
    """Every item of a list through ``step``; anything else as it is."""
    if not isinstance(items, list):
        return items
    return [step(item, f"{at}/{i}", losses) for i, item in enumerate(items)]


def values(table: Any, at: str, losses: list[Loss], step: Step) -> Any:
    """Every value of a map through ``step``; anything else as it is."""
    if not isinstance(table, dict):
        return table
    return {key: step(value, f"{at}/{_escape(key)}", losses) for key, value in table.items()}


def respell(node: dict[str, Any], key: str, value: Any) -> dict[str, Any]:
    """``node`` with ``key`` holding ``value``, in the same place among its keys."""
    return {k: (value if k == key else v) for k, v in node.items()}


def _pointer(at: str, path: tuple[str, ...]) -> str:
    return at + "".join(f"/{_escape(step)}" for step in path)


def move(
    node: dict[str, Any],
    source: tuple[str, ...],
    target: tuple[str, ...],
    at: str,
    losses: list[Loss],
) -> None:
    """Move the value at ``source`` (fields from ``node`` down) to ``target``, making the
    objects on the way. A value that cannot be placed stays a loss, never a silent drop."""
    holder: Any = node
    for step in source[:-1]:
        holder = holder.get(step) if isinstance(holder, dict) else None
    if not isinstance(holder, dict) or source[-1] not in holder:
        return
    holder = holder if holder is node else dict(holder)  # copy before changing a nested object
    _replace(node, source[:-1], holder)
    value = holder.pop(source[-1])
    place: dict[str, Any] = node
    for step in target[:-1]:
        inner = place.get(step, {})
        if not isinstance(inner, dict):
            reason = f"{_pointer(at, target[:-1])} is not an object; the value has no place"
            losses.append(Loss(_pointer(at, source), "field_dropped", reason))
            return
        place[step] = dict(inner)
        place = place[step]
    if target[-1] in place:
        reason = f"{_pointer(at, target)} is set already; this value was not moved there"
        losses.append(Loss(_pointer(at, source), "field_dropped", reason))
        return
    place[target[-1]] = value


def _replace(node: dict[str, Any], path: tuple[str, ...], value: dict[str, Any]) -> None:
    for step in path[:-1]:
        node[step] = dict(node[step])
        node = node[step]
    if path:
        node[path[-1]] = value


def emptied(node: dict[str, Any], path: tuple[str, ...]) -> bool:
    """Whether ``path`` holds an empty object before anything is moved out of it."""
    holder: Any = node
    for step in path:
        holder = holder.get(step) if isinstance(holder, dict) else None
    return isinstance(holder, dict) and not holder


def prune(
    node: dict[str, Any], path: tuple[str, ...], at: str, losses: list[Loss], was_empty: bool
) -> None:
    """Drop the object at ``path`` once the moves out of it left it empty: the older version
    has no place for it. One that held nothing to begin with is reported, as it is dropped."""
    holder = node
    for step in path[:-1]:
        inner = holder.get(step)
        if not isinstance(inner, dict):
            return
        copied = dict(inner)  # copy before changing a nested object
        holder[step] = copied
        holder = copied
    if holder.get(path[-1]) != {}:
        return
    del holder[path[-1]]
    if was_empty:
        reason = "an empty object the older version has no field for"
        losses.append(Loss(_pointer(at, path), "field_dropped", reason))


def drop(node: dict[str, Any], key: str, default: Any, at: str, losses: list[Loss]) -> None:
    """Drop a field the older version does not have: silently when it holds the value older
    documents are given (migrating up gives it back), as a loss otherwise."""
    if key not in node:
        return
    value = node.pop(key)
    if value != default or type(value) is not type(default):
        reason = f"the older version has no field {key!r}; its value {value!r} is lost"
        losses.append(Loss(_pointer(at, (key,)), "field_dropped", reason))
