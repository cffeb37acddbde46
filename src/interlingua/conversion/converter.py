"""Converting request and response bodies between formats, through the canonical form.

>>> from interlingua import convert
>>> body = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
>>> convert(body, source="openai-chat", target="canonical").output["messages"]
[{'role': 'user', 'content': [{'type': 'text', 'text': 'hi'}]}]

``canonical`` is a format name like any other: its documents are a Conversation (request)
and a Response (response). Every call returns a :class:`ConversionResult` with the output and
every loss; ``strict=True`` raises :class:`LossyConversionError` instead of losing anything.
Bad input raises :class:`ConversionError` with a stable code and a JSON pointer.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Callable, Mapping
from functools import cache, partial
from importlib.resources import files
from typing import Any, Literal

import jsonschema_rs
from referencing import Registry
from referencing.jsonschema import DRAFT202012

from interlingua.conversion import (
    Context,
    ConversionError,
    ConversionResult,
    Loss,
    LossyConversionError,
)
from interlingua.conversion.adapters import spellings
from interlingua.conversion.adapters.documents import (
    decode_request,
    decode_response,
    decode_stored,
    encode_request,
    encode_response,
    encode_stored,
)
from interlingua.conversion.adapters.runtime import Adapter
from interlingua.conversion.locating import locating_validator
from interlingua.conversion.reading import InputError, check_value
from interlingua.conversion.texts import TEXTS
from interlingua.documents.validation import validate
from interlingua.generated.adapters import ADAPTERS
from interlingua.generated.codes import REGISTRATION_ONLY
from interlingua.generated.pairs import PAIRS

CANONICAL = "canonical"
log = logging.getLogger("interlingua.conversion.converter")
# Set to 0 to convert every body the two-step way (the reference the fused pairs are proved
# equal to: tests/adapters/test_differential.py). Read once, when this module is imported: an
# environment lookup costs more than a small body's whole glue.
FUSED_ENV = "INTERLINGUA_FUSED"
_FUSED_ON = os.environ.get(FUSED_ENV) != "0"
Kind = Literal["request", "response"]
# The canonical type of each kind of document (`messages`: a list of them, or one).
DOCUMENT_TYPES = {"request": "Conversation", "response": "Response", "messages": "Message"}
KINDS = tuple(DOCUMENT_TYPES)


def formats() -> list[str]:
    """Every format name `convert` takes, `canonical` first."""
    return [CANONICAL, *sorted(ADAPTERS)]


def kinds(fmt: str) -> tuple[str, ...]:
    """The bodies a format has: request and response, or a request only (UMF)."""
    if fmt == CANONICAL:
        return KINDS
    known = adapter(fmt).schemas
    return tuple(kind for kind in KINDS if kind in known)


def adapter(name: str) -> Adapter:
    try:
        return ADAPTERS[name]
    except KeyError:
        known = ", ".join(formats())
        raise ConversionError(
            "unknown_format", "", f"no format {name!r} (known: {known})"
        ) from None


def _kind(kind: str) -> str:
    if kind not in DOCUMENT_TYPES:
        raise ConversionError(
            "unknown_document", "", f"kind is one of {', '.join(KINDS)}, not {kind!r}"
        )
    return kind


# --- validation of inputs ----------------------------------------------------------------------

_KEYWORD_CODES = {
    "type": "wrong_type",
    "required": "missing_field",
    "additionalProperties": "unknown_field",
    "unevaluatedProperties": "unknown_field",
    "enum": "not_in_enum",
    "const": "const_mismatch",
    "pattern": "pattern_mismatch",
    "minLength": "too_short",
    "maxLength": "too_long",
    "minItems": "too_few_items",
    "maxItems": "too_many_items",
    "minimum": "below_minimum",
    "maximum": "above_maximum",
    "uniqueItems": "duplicate_items",
}


@cache
def _wire_validator(schema_path: str) -> Any:
    root = files("interlingua.generated").joinpath("wire_schemas")
    relative = schema_path.removeprefix("formats/")
    schema = json.loads(root.joinpath(relative).read_text(encoding="utf-8"))
    registry: Registry[Any] = Registry().with_resource(
        schema.get("$id", schema_path), DRAFT202012.create_resource(schema)
    )
    return locating_validator(schema, registry)


def _pointer(parts: Any) -> str:
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


@cache
def _wire_checker(schema_path: str) -> Any:
    """jsonschema-rs for the yes/no answer (two orders of magnitude faster); python-jsonschema
    only to locate the error of an invalid body."""
    schema: Any = _wire_validator(schema_path).schema
    return jsonschema_rs.validator_for(schema)


def text_format(fmt: str) -> bool:
    """Whether ``fmt``'s documents are text (read through a framing in
    interlingua.conversion.texts)."""
    codec = ADAPTERS.get(fmt)
    return codec is not None and codec.text is not None


def from_text(payload: Any, fmt: str, kind: str) -> Any:
    """The JSON shape of a text format's document (``payload`` as it is when it is not text,
    or the format is not a text format); a coded error when the text breaks the framing."""
    framing = adapter(fmt).text if fmt != CANONICAL else None
    if framing is None or not isinstance(payload, str):
        return payload
    return TEXTS[framing].parse(payload, kind)


def to_text(document: Any, fmt: str, kind: str) -> Any:
    """A text format's document (in its JSON shape) as text; ``document`` as it is for a
    format whose documents are JSON."""
    framing = adapter(fmt).text if fmt != CANONICAL else None
    return document if framing is None else TEXTS[framing].render(document, kind)


def reading_schema(schema_path: str) -> str:
    """The reading schema the generator derives from a wire schema (generator/reading.py):
    the shape the mapping reads, open to what real traffic carries beyond it."""
    return schema_path.removesuffix(".json") + ".reading.json"


# The yes/no answer of a JSON format's schemas by (format, kind, strict): one lookup for a valid
# body, the common case (`_is_valid`).
_ACCEPTS: dict[tuple[str, str, bool], Callable[[Any], bool]] = {}


def _is_valid(fmt: str, kind: str, strict: bool) -> Callable[[Any], bool] | None:
    """The schema's yes/no check of a JSON format's body, or None for a text format (its
    text is parsed first) or a name or kind `check_wire` refuses with a coded error."""
    codec = ADAPTERS.get(fmt)
    if codec is None or codec.text is not None or kind not in codec.schemas:
        return None
    schema_path = codec.schemas[kind]
    accepts: Callable[[Any], bool] = _wire_checker(
        schema_path if strict else reading_schema(schema_path)
    ).is_valid
    _ACCEPTS[fmt, kind, strict] = accepts
    return accepts


def check_wire(payload: Any, fmt: str, kind: str, *, strict: bool = False) -> None:
    """Raise a coded error when ``payload`` breaks the format's reading schema (a text
    format's text: its framing, then the schema of the shape it reads as). ``strict``: the
    wire schema itself, the contract of what interlingua writes."""
    accepts = _ACCEPTS.get((fmt, kind, strict)) or _is_valid(fmt, kind, strict)
    if accepts is not None and accepts(payload):
        return  # valid: what follows only locates an error
    payload = from_text(payload, fmt, kind)
    schema_path = adapter(fmt).schemas[kind]
    if not strict:
        schema_path = reading_schema(schema_path)
    if _wire_checker(schema_path).is_valid(payload):
        return
    validator = _wire_validator(schema_path)
    error = min(
        validator.iter_errors(payload),
        key=lambda e: (len(list(e.absolute_path)), _pointer(e.absolute_path)),
        default=None,
    )
    if error is None:
        return
    # A oneOf failure hides the real problem one level down. When every member failed on its
    # tag, the tag is the problem (not_in_enum); otherwise report the deepest cause among the
    # members whose tag matched.
    while error.context:
        members: dict[Any, list[Any]] = {}
        for sub in error.context:
            members.setdefault(sub.relative_schema_path[0], []).append(sub)
        # The null an optional field may be on read (generator/reading.py) is not the member
        # meant by a value that is not null.
        members = _unless(members, _null_only)
        depth = len(list(error.absolute_path)) + 1

        def at_union(e: Any, keyword: str, depth: int = depth) -> bool:
            return bool(e.validator == keyword and len(e.absolute_path) == depth - 1)

        # A member of another JSON type (stored messages: a list, one turn or an object
        # holding the list) is not the one meant, when some member is of the body's type.
        members = _unless(members, lambda errs: any(at_union(e, "type") for e in errs))
        # The reading schema's member for blocks of unknown kinds fails by a `not` alone when
        # the body is of a known kind: on the object, it is not the member meant; on the tag,
        # not when another member's tag is the body's (that member is).
        members = _unless(members, lambda errs: all(at_union(e, "not") for e in errs))
        members = _unless_tagged(members, depth)
        chosen = _discriminated(error, members)
        if chosen:
            # The union names its member by a tag the body carries: that member is meant.
            error = max(chosen, key=lambda e: len(list(e.absolute_path)))
            continue

        keys = _tag_keys(members, depth)

        def tag(e: Any, depth: int = depth, keys: set[Any] = keys) -> bool:
            """A member's own key failed a constant: that member is not the one meant. (When
            members fail a `const` on a key, that key is the tag: a pattern another key of the
            member breaks is the member's problem, not a sign it is another member.)"""
            return (
                e.validator in ("const", "pattern", "enum")
                and len(e.absolute_path) == depth
                and (not keys or e.absolute_path[-1] in keys)
            )

        def missing_own(e: Any, depth: int = depth) -> bool:
            """A member's own key is absent from the object (members told apart by key)."""
            return e.validator == "required" and len(e.absolute_path) == depth - 1

        every = [e for errs in members.values() for e in errs]
        if not any(e.validator in ("const", "enum") and tag(e) for e in every) and any(
            missing_own(e) for e in every
        ):
            # Members told apart by their one key (`{"text": …}`, `{"image": …}`): the
            # members whose key is there are the ones meant.
            keyed = [errs for errs in members.values() if not any(missing_own(e) for e in errs)]
            if len(keyed) > 1:  # the keys of several members: the object is the problem
                error = min(
                    (e for errs in keyed for e in errs), key=lambda e: len(list(e.absolute_path))
                )
                break
            candidates = [e for errs in keyed for e in errs] or every
            error = max(candidates, key=lambda e: len(list(e.absolute_path)))
            continue
        tags = [e for e in every if tag(e)]
        matched = [errs for errs in members.values() if not any(tag(e) for e in errs)]
        if not matched and len({_pointer(e.absolute_path) for e in tags}) == 1:
            allowed = ", ".join(sorted({repr(e.validator_value) for e in tags}))
            at = _pointer(tags[0].absolute_path)
            raise ConversionError("not_in_enum", at, f"not a valid {fmt} {kind}: one of {allowed}")
        candidates = [e for errs in matched for e in errs] or list(error.context)
        error = max(candidates, key=lambda e: len(list(e.absolute_path)))
    code = _KEYWORD_CODES.get(str(error.validator), "unknown_variant")
    at = _pointer(error.absolute_path)
    if error.validator == "required":
        missing = str(error.message).split("'")[1] if "'" in str(error.message) else ""
        at = f"{at}/{missing}" if missing else at
    raise ConversionError(code, at, f"not a valid {fmt} {kind}: {error.message}")


def _unless(
    members: dict[Any, list[Any]], excluded: Callable[[list[Any]], bool]
) -> dict[Any, list[Any]]:
    """The union members whose errors ``excluded`` does not rule out; all of them when it rules
    out every one (nothing better to point at)."""
    return {k: errs for k, errs in members.items() if not excluded(errs)} or members


def _tag_keys(members: dict[Any, list[Any]], depth: int) -> set[Any]:
    """The keys of the union's object on which some member failed a `const`: its tag."""
    return {
        e.absolute_path[-1]
        for errs in members.values()
        for e in errs
        if e.validator == "const" and len(e.absolute_path) == depth
    }


def _unless_tagged(members: dict[Any, list[Any]], depth: int) -> dict[Any, list[Any]]:
    """The union members less the one for kinds the format does not list (it fails by a `not`
    on the tag key alone: the body's kind is listed), when another member's tag took the body
    (no `const` of that member failed on the tag key)."""
    tags = _tag_keys(members, depth)

    def on_tag(e: Any) -> bool:
        return len(e.absolute_path) == depth and e.absolute_path[-1] in tags

    unknown = [
        k for k, errs in members.items() if all(e.validator == "not" and on_tag(e) for e in errs)
    ]
    tagged = [
        k
        for k, errs in members.items()
        if k not in unknown and not any(e.validator == "const" and on_tag(e) for e in errs)
    ]
    if not unknown or not tagged:
        return members
    return {k: errs for k, errs in members.items() if k not in unknown}


def _null_only(errors: list[Any]) -> bool:
    """A union member's errors are those of the null alternative alone."""
    (only,) = errors if len(errors) == 1 else (None,)
    return only is not None and only.validator == "type" and only.validator_value == "null"


def _discriminated(error: Any, members: dict[Any, list[Any]]) -> list[Any]:
    """The errors of the union member the body's tag selects, when the union declares a
    discriminator and the body carries a tag it maps (empty otherwise)."""
    schema = error.schema
    union = str(error.validator)
    if union not in ("oneOf", "anyOf") or type(schema) is not dict:
        return []
    discriminator = schema.get("discriminator")
    if type(discriminator) is not dict or type(error.instance) is not dict:
        return []
    value = error.instance.get(discriminator.get("propertyName"))
    target = discriminator.get("mapping", {}).get(value) if isinstance(value, str) else None
    for index, member in enumerate(schema.get(union, [])):
        if target is not None and member == {"$ref": target}:
            return members.get(index, [])
    return []


def check_data(payload: Any) -> None:
    """Raise a coded error unless ``payload`` is JSON data (see `reading.check_value`): a
    caller's Python objects meet the limits a file read meets (nesting, lone surrogates,
    numbers JSON cannot carry, values JSON has no type for)."""
    try:
        check_value(payload)
    except InputError as exc:
        raise ConversionError(exc.code, exc.path, exc.message) from None


def canonical_messages(document: Any) -> list[Any]:
    """The messages of a canonical `messages` document: a list of Messages, one Message, or a
    Conversation holding them."""
    if type(document) is list:
        return document
    if type(document) is dict and "messages" in document:
        messages: list[Any] = document["messages"]
        return messages
    return [document]


def check_canonical(document: Any, kind: str) -> None:
    if kind == "messages":
        if type(document) is dict and "messages" in document:
            check_canonical(document, "request")  # a Conversation (of stored turns)
            return
        for i, message in enumerate(canonical_messages(document)):
            try:
                check_canonical(message, "_message")
            except ConversionError as exc:
                where = f"/{i}" if type(document) is list else ""
                raise ConversionError(exc.code, where + exc.pointer, exc.message) from None
        return
    type_name = "Message" if kind == "_message" else DOCUMENT_TYPES[kind]
    # A rule about defining a document (a tool schema outside the portable subset) is
    # `validate`'s to report: a conversion carries what the source provider already took.
    findings = [
        f
        for f in validate(document, type_name)
        if f.severity != "warning" and f.code not in REGISTRATION_ONLY
    ]
    if findings:
        first = findings[0]
        raise ConversionError(first.code, first.path, first.message)


_DECODERS: dict[str, Any] = {
    "request": decode_request,
    "response": decode_response,
    "messages": decode_stored,
}
_ENCODERS: dict[str, Any] = {
    "request": encode_request,
    "response": encode_response,
    "messages": encode_stored,
}


# --- the three entry points ----------------------------------------------------------------


def convert(
    payload: Any,
    source: str,
    target: str,
    kind: str = "request",
    *,
    strict: bool = False,
    thinking: str = "drop",
    source_endpoint: str | None = None,
    target_endpoint: str | None = None,
    validate_input: bool = True,
    id_map: Mapping[str, str] | None = None,
    name_map: Mapping[str, str] | None = None,
    fused: bool = True,
    _data_checked: bool = False,
) -> ConversionResult:
    """Convert ``payload`` (a parsed JSON body in ``source`` format) to ``target``.

    A text format (ChatML) takes its text as a ``str`` (or the JSON shape it reads as) and
    gives its output as text.

    ``thinking`` says what becomes of reasoning another provider issued: ``drop`` or
    ``text``. ``source_endpoint`` / ``target_endpoint`` name where the payload came from and
    where the output goes when a provider serves its format at several endpoints whose
    signatures differ (`gemini-api` / `vertex`): reasoning read is bound to the first, and
    replayed only when the second is unknown or the same. ``id_map`` / ``name_map`` (from an
    earlier result) map ids and tool names in a ``source`` payload back to the values they
    stood for. ``validate_input=False`` skips the schema check of the input, for callers whose
    input is known to be valid.
    ``fused=False`` (or ``INTERLINGUA_FUSED=0`` in the environment when interlingua is
    imported) skips the one-pass converter of a pair (`interlingua.generated.pairs`), which
    gives what the two-step path gives.

    ``_data_checked`` is internal: the caller read ``payload`` with `reading.read_json` (or
    `reading.read_text`), which refuses all that `check_data` refuses, so the data check is
    not made twice (the command line and the service).
    """
    # A fused pair exists only for two formats that have requests: first, before the checks
    # of the format names and kind it would pass anyway.
    # (The passes drop reasoning another provider issued, as the default `thinking` does.)
    if fused and kind == "request" and not id_map and not name_map and _FUSED_ON:
        pair = PAIRS.get((source, target)) if thinking == "drop" else None
        if pair is not None:
            # The pair checks the data as it reads it (what check_data asks; not again of
            # data read_json read) and, when it says so, all the reading schema asks of what
            # it read (generator/pair_checks.py); only a field it drops whose schema is more
            # than a type leaves the schema check to run. Any other body goes on below (the
            # reason logged at debug level).
            try:
                got = pair(payload, _data_checked)
            except (KeyError, TypeError, AttributeError, IndexError, ValueError) as exc:
                got = f"{exc!r}"  # only with validate_input=False on invalid input
            if type(got) is tuple:
                output, losses, checked = got
                if validate_input and not checked:
                    check_wire(payload, source, kind)
                if strict and losses:
                    raise LossyConversionError(list(losses))
                return ConversionResult(
                    output, tuple(losses), source, target, "request", {}, {}, True
                )
            log.debug("%s -> %s: two-step path: %s", source, target, got)
    return _two_step(
        payload,
        source,
        target,
        _kind(kind),
        strict=strict,
        thinking=thinking,
        source_endpoint=source_endpoint,
        target_endpoint=target_endpoint,
        validate_input=validate_input,
        id_map=id_map,
        name_map=name_map,
        data_checked=_data_checked,
    )


def _two_step(
    payload: Any,
    source: str,
    target: str,
    kind: str,
    *,
    strict: bool,
    thinking: str,
    source_endpoint: str | None,
    target_endpoint: str | None,
    validate_input: bool,
    id_map: Mapping[str, str] | None,
    name_map: Mapping[str, str] | None,
    data_checked: bool,
) -> ConversionResult:
    """`convert` through the canonical form: the source's reader, then the target's writer."""
    for name in (source, target):
        if kind not in kinds(name):
            raise ConversionError("unknown_document", "", f"{name} has no {kind} body")
    if not data_checked:
        check_data(payload)
    reading = Context(
        source,
        kind=kind,
        known_ids=id_map or {},
        known_names=name_map or {},
        thinking=thinking,
        endpoint=source_endpoint,
        # Round-trip data is for coming back to the source; on the way to another format,
        # what reading leaves behind is reported instead (and costs a third of the time).
        fidelity=target in (source, CANONICAL),
    )
    try:
        if source == CANONICAL:
            if validate_input:
                check_canonical(payload, kind)
            document = payload
        else:
            payload = from_text(payload, source, kind)
            codec = adapter(source)
            reading.id_rule, reading.name_rule = codec.id_rule, codec.name_rule
            # Fields under another spelling the format takes are read as its schema's.
            document = spellings.read(
                reading,
                codec,
                payload,
                kind,
                decode=_DECODERS[kind],
                check=partial(check_wire, fmt=source, kind=kind) if validate_input else None,
            )
        writing = Context(
            target,
            kind=kind,
            strict=strict,
            thinking=thinking,
            endpoint=target_endpoint,
            losses=reading.losses,
        )
        if target == CANONICAL:
            output = document
        else:
            codec = adapter(target)
            writing.id_rule, writing.name_rule = codec.id_rule, codec.name_rule
            output = _ENCODERS[kind](writing, codec, document)
            if codec.text is not None:
                output = TEXTS[codec.text].render(output, kind)
    except ConversionError:
        raise
    except (KeyError, TypeError, AttributeError, IndexError, ValueError) as exc:
        # Only reachable with validate_input=False on invalid input.
        raise ConversionError("wrong_type", "", f"malformed {source} {kind}: {exc!r}") from None
    losses: list[Loss] = writing.losses
    if strict and losses:
        raise LossyConversionError(losses)
    return ConversionResult(
        output, tuple(losses), source, target, kind, writing.id_map, writing.name_map
    )


def to_canonical(
    payload: Any, source: str, kind: str = "request", **options: Any
) -> ConversionResult:
    """Read a ``source``-format body into its canonical document."""
    return convert(payload, source, CANONICAL, kind, **options)


def from_canonical(
    document: Any, target: str, kind: str = "request", **options: Any
) -> ConversionResult:
    """Write a canonical document as a ``target``-format body."""
    return convert(document, CANONICAL, target, kind, **options)
