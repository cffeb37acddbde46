"""Tool results paired with their calls by the tool's name, for formats whose call ids are
optional (the mapping's `layout.result_pairing: name`).

In such a format a call may come without an id and a result names the tool it answers; the
results of one turn's calls follow it in order. The canonical form always pairs by id, so:

Reading gives a call without an id a deterministic one, ``<format>_call_<seed>_<n>``: ``n``
counts the calls of the turn from 0 and ``seed`` is the turn's position in a request, or in a
response the first 8 hex digits of the SHA-256 of the response id, or of the field the mapping
names when the body has none (`response.call_seed`: Ollama's `created_at`; ``r`` without it), so
that calls read from successive responses of one conversation keep distinct ids. A result whose
id answers no open call is paired with the earliest unanswered call of its name (of any name,
when the result names none) and takes that call's id; a result with no call to answer is an
``orphan_result``. A result's name is left out when it only repeats the name of the call it
answers (the canonical form pairs by id; results read from any format then look alike). A
call read without arguments has none (``{}``).

Writing carries every id except the ones reading synthesized (the wire had none there), and
gives a result without a name the name of the call it answers, from the calls written before
it or, when re-encoding during a read, the calls read before it (``ctx.call_names``).
"""

from __future__ import annotations

import hashlib
import re
from functools import cache
from typing import Any

from interlingua.conversion import Context, ConversionError

Part = dict[str, Any]


def response_seed(response_id: Any) -> str:
    """The seed of the ids synthesized for a response's calls."""
    if not isinstance(response_id, str) or not response_id:
        return "r"
    return hashlib.sha256(response_id.encode("utf-8")).hexdigest()[:8]


@cache
def _synthesized(fmt: str) -> re.Pattern[str]:
    return re.compile(rf"{re.escape(fmt)}_call_(?:[0-9]+|[0-9a-f]{{8}}|r)_[0-9]+")


def synthesized_id(fmt: str, seed: str, n: int) -> str:
    """The id reading gives the ``n``-th call (from 0) of a turn or response without one."""
    return f"{fmt}_call_{seed}_{n}"


def synthesized(fmt: str, value: Any) -> bool:
    """Whether ``value`` is an id reading synthesized for a call of this format."""
    return isinstance(value, str) and _synthesized(fmt).fullmatch(value) is not None


class Reading:
    """The calls of one document read so far that no result answered yet.

    ``by_name`` (`result_pairing: name`) as the module says. Otherwise (`call_name`: ids
    pair) calls keep their ids, and a result only loses a name that repeats its call's; a
    result whose call is not in the document is left as it is. A call or a result read
    without an id (OpenAI Chat's deprecated `function_call` and `function` message) is
    paired as the module says either way.
    """

    def __init__(self, fmt: str, *, by_name: bool = True) -> None:
        self.fmt = fmt
        self.by_name = by_name
        self.open: list[tuple[str, str]] = []  # (id, name), oldest first

    def complete(self, ctx: Context, parts: list[Part], seed: str, pointers: list[str]) -> None:
        """Give the turn's calls and results their ids, in place. ``pointers[k]`` is where
        ``parts[k]`` was read (for errors)."""
        n = 0
        for k, part in enumerate(parts):
            kind = part.get("type")
            if kind == "tool_call":
                if "arguments" not in part:
                    part["arguments"] = {}
                if "id" not in part:
                    part["id"] = synthesized_id(self.fmt, seed, n)
                n += 1
                self.open.append((part["id"], part["name"]))
                ctx.call_names[part["id"]] = part["name"]
            elif kind == "tool_result":
                wanted = part.get("tool_call_id")
                found = next((i for i, (cid, _) in enumerate(self.open) if cid == wanted), None)
                if found is None and not self.by_name and wanted is not None:
                    continue  # ids pair: a result whose call is not in the document stays
                if found is None and "name" not in part:
                    found = 0 if self.open else None  # nameless: the earliest open call
                elif found is None:
                    name = part.get("name")
                    found = next((i for i, (_, nm) in enumerate(self.open) if nm == name), None)
                if found is None:
                    at = pointers[k] if k < len(pointers) else ""
                    raise ConversionError(
                        "orphan_result",
                        at,
                        f"no earlier call of {part.get('name')!r} is waiting for this result",
                    )
                call_id, call_name = self.open.pop(found)
                part["tool_call_id"] = call_id
                if part.get("name") == call_name:
                    del part["name"]  # the call says it


def reading(fmt: str, result_pairing: str) -> Reading | None:
    """What pairs the results of a document read in a format, if its results need it."""
    if result_pairing == "id":
        return None
    return Reading(fmt, by_name=result_pairing == "name")


class Writing:
    """The names of the calls written so far, by id.

    ``by_name`` (`result_pairing: name`): synthesized ids are left out and a result must get
    a name. Otherwise (`call_name`: ids pair, names are only filled in) every id is written
    and a result whose call is unknown keeps no name, for its variant to settle.
    """

    def __init__(self, fmt: str, *, by_name: bool = True) -> None:
        self.fmt = fmt
        self.by_name = by_name
        self.names: dict[str, str] = {}

    def parts(self, ctx: Context, parts: list[Part], at: str) -> list[Part]:
        """The message's parts as the format takes them: synthesized ids left out, results
        named after their calls."""
        out: list[Part] = []
        for j, given in enumerate(parts):
            part = given
            kind = part.get("type")
            if kind == "tool_call" and isinstance(part.get("id"), str):
                self.names[part["id"]] = part.get("name", "")
                if self.by_name and synthesized(self.fmt, part["id"]):
                    part = {k: v for k, v in part.items() if k != "id"}
            elif kind == "tool_result" and isinstance(part.get("tool_call_id"), str):
                call_id = part["tool_call_id"]
                if "name" not in part:
                    name = self.names.get(call_id) or ctx.call_names.get(call_id)
                    if not name and not self.by_name:
                        out.append(part)
                        continue
                    if not name:
                        raise ConversionError(
                            "orphan_result",
                            f"{at}/{j}/tool_call_id",
                            f"{ctx.adapter} needs the tool's name on a result, and no earlier "
                            f"call has the id {call_id!r}",
                        )
                    part = {**part, "name": name}
                if self.by_name and synthesized(self.fmt, call_id):
                    part = {k: v for k, v in part.items() if k != "tool_call_id"}
            out.append(part)
        return out
