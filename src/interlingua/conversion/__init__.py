"""The vocabulary every conversion shares: its context, its losses, its errors, its result.

A conversion never mutates its input and never drops anything silently: every projection
that cannot be carried becomes a :class:`Loss` (JSON pointer into the input, part type, stable
code, reason), returned in the result, and in strict mode the conversion fails with
:class:`LossyConversionError` instead of returning. Each loss is also one DEBUG record on the
``interlingua.conversion.converter`` logger (a trace for who turns it on: the result is the report,
and a
loss is an expected outcome, not a warning), formatted only when that level is enabled.

The package around it: :mod:`~interlingua.conversion.converter` (``convert``, ``to_canonical``,
``from_canonical``), :mod:`~interlingua.conversion.detector` (``detect``),
:mod:`~interlingua.conversion.reading` (untrusted bytes read as JSON),
:mod:`~interlingua.conversion.adapters` (the runtime the generated adapters run on),
:mod:`~interlingua.conversion.transforms` (the named transforms mapping files call) and
:mod:`~interlingua.conversion.texts` (text framings such as ChatML).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from interlingua.generated.codes import DESCRIPTION

log = logging.getLogger("interlingua.conversion.converter")


class Loss(NamedTuple):
    """One thing the output does not carry (schema: `Loss`). A named tuple: one is made per
    loss, and a tuple is the cheapest immutable record to make (half a frozen dataclass)."""

    pointer: str
    code: str
    reason: str
    part_type: str | None = None

    def as_json(self) -> dict[str, str]:
        out = {"pointer": self.pointer, "code": self.code, "reason": self.reason}
        if self.part_type is not None:
            out["part_type"] = self.part_type
        return out


class ConversionError(Exception):
    """The input cannot be converted: a stable code (an `ErrorCode`), where, and why."""

    def __init__(self, code: str, pointer: str, message: str) -> None:
        assert code in DESCRIPTION, code  # codes are the schema's, never invented here
        super().__init__(f"{code} at {pointer or '/'}: {message}")
        self.code = code
        self.pointer = pointer
        self.message = message

    @property
    def details(self) -> dict[str, str]:
        return {"path": self.pointer}

    def as_json(self) -> dict[str, str]:
        return {"code": self.code, "path": self.pointer, "message": self.message}


class LossyConversionError(ConversionError):
    """Strict mode: the conversion would have lost something; every loss is attached."""

    def __init__(self, losses: list[Loss]) -> None:
        first = losses[0]
        super().__init__(
            "lossy_conversion",
            first.pointer,
            f"{len(losses)} loss(es) in strict mode, first: {first.code}: {first.reason}",
        )
        self.losses = losses


@dataclass(slots=True)  # read on every part: slots make each attribute read cheaper
class Context:
    """The state of one conversion: options in, losses and id maps out.

    ``id_map`` and ``name_map`` map an id (or tool name) as written in the output to the one
    in the input, so a reply in the target format can be mapped back.
    """

    adapter: str
    strict: bool = False
    thinking: str = "drop"  # what becomes of reasoning another provider issued: drop | text
    # Reading: the model the body names; writing: the model the document is for.
    model: str | None = None
    model_written: bool = False  # writing: the output names ``model`` (read back, it is known)
    # Reading: the endpoint the body came from; writing: the one it goes to (`gemini-api`,
    # `vertex` …). Bodies do not name it, and reasoning signed at one is refused at another.
    endpoint: str | None = None
    kind: str = "request"  # the document converted: request | response
    losses: list[Loss] = field(default_factory=list)
    id_map: dict[str, str] = field(default_factory=dict)
    name_map: dict[str, str] = field(default_factory=dict)
    # The same rewrites the other way (input → output), so a repeated id is found at once.
    id_sent: dict[str, str] = field(default_factory=dict)
    name_sent: dict[str, str] = field(default_factory=dict)
    # Reverse maps given by the caller (from an earlier conversion's result): wire → canonical.
    known_ids: Mapping[str, str] = field(default_factory=dict)
    known_names: Mapping[str, str] = field(default_factory=dict)
    # Set by the adapter: how ids and names must look in its format (None: anything goes).
    id_rule: tuple[str, str, int] | None = None
    name_rule: tuple[str, str, int] | None = None
    # Record what the canonical form does not model, so the same format round-trips exactly.
    fidelity: bool = True
    # Parts a tool result cannot hold in this format, waiting for the user turn after it.
    displaced: list[tuple[dict[str, Any], str]] = field(default_factory=list)
    # Tool names of the calls read so far, by id: what a format whose results name their tool
    # needs to write back a result read without its (redundant) name.
    call_names: dict[str, str] = field(default_factory=dict)
    # The free-form tools and calls written so far (by name, by id): a format that spells a
    # choice of such a tool, or the result of such a call, its own way (transforms/free_form.py).
    free_form_tools: set[str] = field(default_factory=set)
    free_form_calls: set[str] = field(default_factory=set)
    # The canonical role of the message being written: part variants may be bound to roles.
    role: str | None = None
    # Reading a body respelt to its wire schema's spelling (adapters/spellings.py): each respelt
    # object's original, by the id of its copy, for the round-trip data to give it back.
    given: dict[int, Any] | None = None

    def scratch(self) -> Context:
        """A context for re-encoding during decoding: same rules and maps, losses discarded."""
        return Context(
            self.adapter,
            model=self.model,
            endpoint=self.endpoint,
            kind=self.kind,
            known_ids=self.known_ids,
            known_names=self.known_names,
            id_rule=self.id_rule,
            name_rule=self.name_rule,
            fidelity=False,
            quiet=True,
            call_names=self.call_names,
            free_form_tools=self.free_form_tools,
            free_form_calls=self.free_form_calls,
        )

    quiet: bool = False  # a scratch context: losses are neither kept nor logged

    def loss(self, pointer: str, code: str, reason: str, part_type: str | None = None) -> None:
        if self.quiet:
            return
        self.losses.append(Loss(pointer, code, reason, part_type))
        if log.isEnabledFor(logging.DEBUG):  # the result reports it; the log is a trace
            log.debug("%s: %s at %s: %s", self.adapter, code, pointer or "/", reason)


class ConversionResult(NamedTuple):
    """The converted document and everything it does not carry. A named tuple (immutable,
    no per-object dict): one is made per conversion, and a tuple is the cheapest to make."""

    output: Any
    losses: tuple[Loss, ...]
    source: str
    target: str
    kind: str
    # Output → input ids and tool names. The default is shared by every result that takes
    # it: read it, never change it (a Mapping, not a dict).
    id_map: Mapping[str, str] = {}
    name_map: Mapping[str, str] = {}
    # Whether a fused pair converter (interlingua.generated.pairs) made it in one pass; False
    # when the body took the two-step path (the reason is logged at debug level).
    fused: bool = False

    def report(self) -> dict[str, Any]:
        """The loss report as `ConversionReport` JSON."""
        out: dict[str, Any] = {
            "source": self.source,
            "target": self.target,
            "kind": self.kind,
            "losses": [loss.as_json() for loss in self.losses],
        }
        if self.id_map:
            out["id_map"] = dict(self.id_map)
        if self.name_map:
            out["name_map"] = dict(self.name_map)
        return out
