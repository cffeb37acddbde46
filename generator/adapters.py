"""Mapping files → adapter modules.

Reads `schemas/mappings/<format>.yaml`, checks each against `schemas/meta/mapping.json` and
against the canonical schemas (every canonical part type, role, stop reason and usage field
it names exists; every transform it calls is in `interlingua.conversion.transforms.TRANSFORMS`), and
compiles its templates into the functions `generated/python/adapters/<format>.py` is made of.
"""

from __future__ import annotations

import copy
import functools
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from jsonschema import Draft202012Validator
from referencing import Registry
from referencing.jsonschema import DRAFT202012

from generator.load import SchemaLoadError, read_yaml
from generator.paths import META, SCHEMAS
from generator.ranges import Below, Range, below_rules, narrower_ranges
from generator.templating import (
    Call,
    Compiler,
    Emitter,
    Side,
    TemplateError,
    Var,
    literals,
    parse,
    paths,
    variables,
    with_optional,
)
from generator.wire_variants import merge_refused

MAPPINGS = SCHEMAS / "mappings"
Json = Any

# The canonical type each named codec and envelope converts.
CODEC_TYPES = {
    "tool": "ToolDefinition",
    "tool_choice": "ToolChoice",
    "response_format": "ResponseFormat",
    "cache_hint": "CacheHint",
    "citation": "Citation",
    "caller": "ToolCaller",
    "request_envelope": "Conversation",
    "response_envelope": "Response",
}


@dataclass(frozen=True)
class Mapping:
    """One mapping file as written, with its path."""

    path: Path
    data: dict[str, Any]

    @property
    def format(self) -> str:
        name: str = self.data["format"]
        return name

    @property
    def module(self) -> str:
        return self.format.replace("-", "_")


def load_mappings() -> list[Mapping]:
    """Every mapping file, read and checked against the mapping meta-schema. A run asks four
    times (the adapters, the provider tables, OpenAPI, the lint); the same files are read and
    checked once, and each caller gets a copy of its own to change."""
    paths = sorted(MAPPINGS.glob("*.yaml"))
    try:
        texts = tuple((path, path.read_text(encoding="utf-8")) for path in paths)
    except OSError as exc:
        raise SchemaLoadError(f"{exc.filename}: {exc}") from exc
    meta = (META / "mapping.json").read_text(encoding="utf-8")
    conversion = (SCHEMAS / "v1" / "conversion.json").read_text(encoding="utf-8")
    return copy.deepcopy(_checked_mappings(meta, conversion, texts))


# (The last two sets of files: a run reads one; a test process that edits copies of the files
# goes through many, and an unbounded cache would keep every one.)
@functools.lru_cache(maxsize=2)
def _checked_mappings(
    meta_text: str, conversion_text: str, texts: tuple[tuple[Path, str], ...]
) -> list[Mapping]:
    meta = json.loads(meta_text)
    Draft202012Validator.check_schema(meta)
    conversion = json.loads(conversion_text)
    registry: Registry[Any] = Registry().with_resource(
        conversion["$id"], DRAFT202012.create_resource(conversion)
    )
    validator = Draft202012Validator(meta, registry=registry)
    found = []
    for path, text in texts:
        try:
            data = read_yaml(text)
        except yaml.YAMLError as exc:
            raise SchemaLoadError(f"{path}: {exc}") from exc
        problems = sorted(validator.iter_errors(data), key=lambda e: list(e.absolute_path))
        if problems:
            first = problems[0]
            pointer = "/" + "/".join(str(p) for p in first.absolute_path)
            raise SchemaLoadError(f"{path}#{pointer}: {first.message}")
        if data["format"] != path.stem:
            raise SchemaLoadError(f"{path}: `format` must be the file name, {path.stem!r}")
        found.append(Mapping(path.relative_to(SCHEMAS), data))
    return found


@dataclass
class Function:
    name: str
    source: str


@dataclass
class AdapterPlan:
    """Everything the adapter template needs, as Python source fragments and tables."""

    mapping: Mapping
    functions: list[Function] = field(default_factory=list)
    transforms: set[str] = field(default_factory=set)
    encode_parts: dict[str, str] = field(default_factory=dict)  # part type -> function
    decode_tags: dict[str, list[str]] = field(default_factory=dict)  # wire tag -> functions
    decode_keyed: list[tuple[str, str]] = field(default_factory=list)  # (key, function)
    slots: list[tuple[str, str, str]] = field(default_factory=list)  # field, kind, function
    tool_message: tuple[str, str] | None = None  # (encode, decode) for own-message results
    tables: dict[str, Any] = field(default_factory=dict)
    marker: tuple[str, str, list[str]] | None = None  # layout marker: field, kind, part types
    turn: tuple[str, str] | None = None  # (encode, decode) of the message fields a turn carries
    asks_carries: bool = False  # whether the module asks `carries` (a value slot, a constant)


def known_turn_keys(layout: dict[str, Any], slots: list[tuple[str, str, str]]) -> frozenset[str]:
    """The turn fields a format's reader takes (its role, content, slots and the field citing
    the turn's text); any other field of a turn it reports as not carried (``layout``: the
    mapping's layout with the meta-schema's defaults)."""
    citations = layout.get("text_citations")
    return frozenset(
        {layout["role"], layout["content"], *(f for f, _, _ in slots)}
        | ({citations} if citations else set())
    )


def _error(mapping: Mapping, where: str, message: str) -> SchemaLoadError:
    return SchemaLoadError(f"schemas/{mapping.path}#{where}: {message}")


CANONICAL_SIDE = Side(miss="return MISS", missing="return MISS", wrong="return MISS")


def _wire_side(last_of_its_kind: bool, strict_literals: bool = True) -> Side:
    missing = (
        'raise ConversionError("missing_field", {ptr}, "{name} is required here")'
        if last_of_its_kind
        else "return MISS"
    )
    return Side(
        miss="return MISS",
        missing=missing,
        wrong='raise ConversionError("wrong_type", {ptr}, "expected {what}")',
        strict_literals=strict_literals,
    )


def _within(written: Any, read: Any) -> bool:
    """Whether the canonical template ``written`` holds a subset of ``read``'s fields, with
    the same constants (a variable matches anything): what ``read`` reads, ``written``
    writes, its other fields reported."""
    if isinstance(written, str) and written.startswith("$"):
        return True
    if isinstance(written, dict):
        return isinstance(read, dict) and all(
            key in read and _within(value, read[key]) for key, value in written.items()
        )
    return bool(written == read)


def _unwritten(mapping: Mapping, where: str, entries: list[dict[str, Any]]) -> None:
    """Refuse a `reads_only` variant that no written variant of its group writes (its
    canonical template within the read-only one's): nothing read becomes unwritable."""
    written = [e["canonical"] for e in entries if not e.get("reads_only")]
    for i, entry in enumerate(entries):
        if "needs_round_trip" in entry:
            if not entry.get("reads_only"):
                raise _error(mapping, f"{where}/{i}", "needs_round_trip goes with reads_only")
            continue  # written back from round-trip data alone
        if entry.get("reads_only") and not any(_within(w, entry["canonical"]) for w in written):
            raise _error(
                mapping,
                f"{where}/{i}/reads_only",
                "no written variant holds a subset of its canonical template",
            )


def _function(name: str, params: str, body: Emitter) -> Function:
    return Function(name, f"def {name}({params}) -> Any:\n" + "\n".join(body.lines) + "\n")


def _canon_pointers(template: Any) -> dict[str, str]:
    out = {}
    for name, path in paths(template).items():
        suffix = "".join("/" + str(p) for p in path)
        out[name] = f'at + "{suffix}"' if suffix else "at"
    return out


def _check_template(mapping: Mapping, where: str, canonical: Any, wire: Any) -> None:
    names = {v.name for v in variables(canonical)}
    for var in variables(wire):
        if var.name not in names:
            raise _error(mapping, where, f"${var.name} is not bound by the canonical template")
    for node in _calls(canonical):
        raise _error(mapping, where, f"@{node.name}: calls belong in wire templates")


def _calls(node: Any) -> list[Call]:
    if isinstance(node, Call):
        return [node, *(c for a in node.args for c in _calls(a))]
    if isinstance(node, dict):
        return [c for v in node.values() for c in _calls(v)]
    if isinstance(node, list):
        return [c for v in node for c in _calls(v)]
    return []


def optional_variables(
    bundle: dict[str, Json],
    template: Any,
    type_name: str,
    nonempty: set[str] | None = None,
    objects: set[str] | None = None,
) -> set[str]:
    """Variables that sit (at any depth) in a field the canonical schema does not require.

    Also checks that the template names only fields the type has: a mapping cannot refer to
    a canonical field that does not exist. ``nonempty`` collects the variables that stand for
    a list the schema requires to have items or a string it requires to have characters (a
    wire list or string that is empty reads as absent). ``objects`` collects the variables
    that stand for an object.
    """
    defs = bundle["$defs"]
    optional: set[str] = set()

    def resolve(schema: Json) -> Json:
        while "$ref" in schema:
            schema = defs[schema["$ref"].rsplit("/", 1)[-1]]
        return schema

    def member(schema: Json, node: dict[str, Any], where: str) -> Json:
        schema = resolve(schema)
        if "oneOf" not in schema:
            return schema
        for candidate in map(resolve, schema["oneOf"]):
            props = candidate.get("properties", {})
            if all(k in props for k in node) and all(
                props[k].get("const", v) == v
                for k, v in node.items()
                if not isinstance(v, Var | Call | dict | list)
            ):
                return candidate
        raise TemplateError(f"{where or '/'}: no member of {schema.get('title')} has this shape")

    def walk(node: Any, schema: Json, above: bool, where: str) -> None:
        if isinstance(node, Var):
            if above:
                optional.add(node.name)
            found = resolve(schema)
            if nonempty is not None and (
                found.get("minItems", 0) >= 1 or found.get("minLength", 0) >= 1
            ):
                nonempty.add(node.name)
            if objects is not None and found.get("type") == "object":
                objects.add(node.name)
            return
        if isinstance(node, dict):
            chosen = member(schema, node, where)
            props = chosen.get("properties", {})
            required = set(chosen.get("required", []))
            # An open object (a call's arguments, a tool's input schema) takes any member:
            # a template may name members of it (a free-form call's `input`).
            open_object = chosen.get("additionalProperties") is True and "x-open" in chosen
            for key, sub in node.items():
                if key not in props and not open_object:
                    raise TemplateError(f"{where}/{key}: {chosen.get('title')} has no such field")
                inner = props.get(key, _WITHIN_OPEN)
                walk(sub, inner, above or key not in required, f"{where}/{key}")

    walk(template, {"$ref": f"#/$defs/{type_name}"}, False, "")
    return optional


# What a template may name inside an open object: anything, at any depth.
_WITHIN_OPEN: Json = {"additionalProperties": True, "x-open": "inside an open object"}


def strict_variants(groups: list[list[tuple[Any, bool]]]) -> set[Any]:
    """Of the variants in each group of the same literals (each ``(key, reads_only)``, in the
    order they are tried), the one that reports what a value of those literals lacks rather
    than leaving it to the next: the last written one. A `reads_only` spelling (OpenAI Chat's
    bare `{"name": …}` choice or `function` message, CMF's flat call) is only tried, so it
    comes before the written variant of its shape, or stands alone."""
    return {
        written[-1][0]
        for group in groups
        if (written := [variant for variant in group if not variant[1]])
    }


class Planner:
    def __init__(
        self,
        mapping: Mapping,
        bundle: dict[str, Json],
        transforms: dict[str, int],
        reads_literals: frozenset[str] | set[str] = frozenset(),
        *,
        fills: frozenset[str] = frozenset(),
        reads_absent: frozenset[str] | set[str] = frozenset(),
        member_keys: frozenset[str] | set[str] = frozenset(),
    ):
        self.mapping = mapping
        self.bundle = bundle
        self.known_transforms = transforms
        self.fills = fills  # transforms that write a value for absent variables
        self.plan = AdapterPlan(mapping)
        self.compiler = Compiler()
        self.compiler.reads_literals = set(reads_literals)
        self.compiler.reads_absent = set(reads_absent)
        self.compiler.member_keys = set(member_keys)
        self.compiler.block_tag = mapping.data["layout"].get("block_tag")

    def _use_calls(self, where: str, template: Any) -> None:
        codecs = set(self.mapping.data.get("codecs", {})) | {"usage"}
        for call in _calls(template):
            if call.name in ("each", "codec"):
                if call.args[0] not in codecs:
                    raise _error(self.mapping, where, f"no codec named {call.args[0]!r}")
            elif call.name == "table":
                if call.args[0] != "stop_reasons":
                    raise _error(self.mapping, where, f"no table named {call.args[0]!r}")
            elif call.name == "parts":
                if len(call.args) not in (1, 2) or not isinstance(call.args[0], Var):
                    raise _error(self.mapping, where, "@parts takes $parts and maybe one block")
            elif call.name in ("merge", "grouped"):
                pass  # `@grouped`'s arguments are checked where it compiles
            elif call.name == "messages":
                if len(call.args) != 1 or not isinstance(call.args[0], Var):
                    raise _error(self.mapping, where, "@messages takes one $variable")
            elif call.name not in self.known_transforms:
                raise _error(
                    self.mapping,
                    where,
                    f"@{call.name}: no such transform in interlingua.conversion.transforms "
                    f"(known: {', '.join(sorted(self.known_transforms))})",
                )
            else:
                arity = self.known_transforms[call.name]
                if len(call.args) != arity:
                    raise _error(self.mapping, where, f"@{call.name} takes {arity} argument(s)")
                self.plan.transforms.add(call.name)

    def variant_functions(
        self,
        name: str,
        where: str,
        canonical: Any,
        wire: Any,
        *,
        last_of_its_kind: bool,
        part_type: str | None,
        drop_code: str,
        type_name: str,
        strict_literals: bool = True,
        loss: dict[str, str] | None = None,
        extra_known: dict[tuple[str | int, ...], set[str]] | None = None,
        block_tag: str | None = None,
        canonical_known: dict[tuple[str | int, ...], set[str]] | None = None,
        whole: bool = False,
        reads_only: bool = False,
        clamps: list[Range] | None = None,
        below: list[Below] | None = None,
    ) -> tuple[str, str]:
        """Compile one variant into an encoder and a decoder; return their names (a variant
        that only reads has no encoder, a lossy one no decoder)."""
        _check_template(self.mapping, where, canonical, wire)
        try:
            nonempty: set[str] = set()
            objects: set[str] = set()
            optional = optional_variables(self.bundle, canonical, type_name, nonempty, objects)
            self.compiler.nonempty = nonempty
        except TemplateError as exc:
            raise _error(self.mapping, f"{where}/canonical", str(exc)) from None
        # `$name?` in either template: optional on both sides, the layout completes it.
        optional |= {v.name for v in (*variables(canonical), *variables(wire)) if v.loose}
        # `$name!` anywhere makes the variable required on both sides.
        optional -= {v.name for v in (*variables(canonical), *variables(wire)) if v.forced}
        canonical = with_optional(canonical, optional)
        wire = with_optional(wire, optional, self.fills)
        self.compiler.whole = id(wire) if whole else None
        self._use_calls(where, wire)
        self.compiler.part_type = part_type
        self.compiler.drop_code = drop_code
        self.compiler.canonical_defaults = self._defaults(type_name)
        self.compiler.dispatched = "type" if part_type is not None else None
        self.compiler.decode_dispatched = block_tag
        try:
            enc = Emitter()
            for key in self.compiler.refuses:
                enc.line(f"if {key!r} in c:")
                with enc.block():
                    enc.line("return MISS  # another variant's (it pins this field)")
            self.compiler.extra_known = canonical_known or {}
            self.compiler.pending.append([])
            self.compiler.match(enc, canonical, "c", CANONICAL_SIDE, ("at", ()), decode=False)
            self.compiler.extra_known = {}
            _clamp(enc, clamps, _canon_pointers(canonical))
            if below:
                _keep_below(enc, below, _canon_pointers(canonical))
            expr = self.compiler.build(enc, wire, _canon_pointers(canonical), True, "at")
            self.compiler.flush_drops(enc)  # only once the variant is sure to be used
            if loss is not None:
                enc.line(
                    f"ctx.loss(at, {loss['code']!r}, ctx.adapter + ': ' + {loss['reason']!r}, "
                    f"{part_type!r})"
                )
            enc.line(f"return {expr}")
            dec = Emitter()
            side = _wire_side(last_of_its_kind, strict_literals)
            self.compiler.extra_known = extra_known or {}
            self.compiler.pending.append([])
            if isinstance(wire, Var) and wire.name in objects:
                # A variant that is its value alone (Ollama's `format` holding a schema) reads
                # only an object: another value (`format: ""`) is no schema.
                dec.line("if type(w) is not dict:")
                with dec.block():
                    dec.line("return MISS")
            self.compiler.match(dec, wire, "w", side, ("at", ()), decode=True)
            # An optional canonical variable the wire never holds (the id of OpenAI's
            # deprecated `function_call`, which has none) reads as absent.
            read = {v.name for v in variables(wire)}
            for var in variables(canonical):
                if var.name in read:
                    continue
                if not (reads_only and var.optional):
                    raise TemplateError(f"${var.name} is not in the wire template")
                dec.line(f"v_{var.name} = ABSENT")
                read.add(var.name)
            # A part read is a part even when none of its optional fields came (a compaction
            # block with no summary yet): only nested optional objects may read as absent.
            self.compiler.whole = id(canonical) if whole or part_type is not None else None
            expr = self.compiler.build(dec, canonical, {}, False, "at")
            self.compiler.flush_drops(dec, decode=True)
            self.compiler.extra_known = {}
            dec.line(f"return {expr}")
        except TemplateError as exc:
            raise _error(self.mapping, where, str(exc)) from None
        params = "ctx: Context, c: Any, at: str"
        if not reads_only:  # another variant writes what it reads (`_unwritten`)
            self.plan.functions.append(_function(f"enc_{name}", params, enc))
        if loss is None:  # a lossy variant is written, never read
            self.plan.functions.append(
                _function(f"dec_{name}", "ctx: Context, w: Any, at: str", dec)
            )
        return f"enc_{name}", f"dec_{name}"

    def dispatcher(self, name: str, members: list[str], argument: str) -> str:
        em = Emitter()
        for member in members:
            em.line(f"r = {member}(ctx, {argument}, at)")
            em.line("if r is not MISS:")
            with em.block():
                em.line("return r")
        em.line("return MISS")
        self.plan.functions.append(_function(name, f"ctx: Context, {argument}: Any, at: str", em))
        return name

    # --- sections --------------------------------------------------------------------------

    def marker(self) -> None:
        """`layout.marker`: a canonical field written as a block of its own after the block
        of the part (or list item) carrying it, by the codec of the same name."""
        name = self.mapping.data["layout"].get("marker")
        if name is None:
            return
        entries = self.mapping.data.get("codecs", {}).get(name)
        if not entries:
            raise _error(self.mapping, "/layout/marker", f"needs a codec named {name!r}")
        try:
            kinds = {self.compiler.block_kind(parse(e["wire"])) for e in entries}
        except TemplateError as exc:
            raise _error(self.mapping, f"/codecs/{name}", str(exc)) from None
        if len(kinds) != 1:
            raise _error(self.mapping, f"/codecs/{name}", "marker blocks must be of one kind")
        defs = self.bundle["$defs"]
        members = defs["Part"]["discriminator"]["mapping"]
        types = sorted(
            t
            for t, ref in members.items()
            if name in defs[ref.rsplit("/", 1)[-1]].get("properties", {})
        )
        if not types:
            raise _error(self.mapping, "/layout/marker", f"no canonical part has {name!r}")
        self.plan.marker = (name, kinds.pop(), types)
        self.compiler.each_marker = {
            codec
            for codec, type_name in CODEC_TYPES.items()
            if name in defs.get(type_name, {}).get("properties", {})
        }

    def _block_keys(self, slot: str) -> dict[tuple[str | int, ...], set[str]] | None:
        """Wire keys the layout reads around a part's template: a result message's role, the
        signature any content block may carry (`layout.signature_field`)."""
        layout = self.mapping.data["layout"]
        if slot == "message":
            return {(): {layout["role"]}}
        if slot == "content" and layout.get("signature_field"):
            return {(): {layout["signature_field"]}}
        return None

    def parts(self) -> None:  # noqa: C901 - one pass settles each variant's kinds, roles, tag, slot and marker together
        part_defs = {
            t: ref.rsplit("/", 1)[-1]
            for t, ref in self.bundle["$defs"]["Part"]["discriminator"]["mapping"].items()
        }
        part_types = set(part_defs)
        by_literals: dict[str, list[tuple[str, int, Any, Any, str]]] = {}
        variants: list[tuple[str, int, Any, Any, str]] = []
        lossy: set[int] = set()
        losses: dict[int, dict[str, str]] = {}
        for part_type, entries in self.mapping.data["parts"].items():
            if part_type not in part_types:
                raise _error(self.mapping, f"/parts/{part_type}", "not a canonical part type")
            _unwritten(self.mapping, f"/parts/{part_type}", entries)
            for i, entry in enumerate(entries):
                canonical, wire = parse(entry["canonical"]), parse(entry["wire"])
                slot = entry.get("slot", "content")
                variants.append((part_type, i, canonical, wire, slot))
                if "loss" in entry:
                    lossy.add(id(canonical))
                    losses[id(canonical)] = entry["loss"]
                    continue  # written, never read: the block reads back as its own kind
                key = json.dumps([slot, sorted(map(str, literals(wire)))])
                by_literals.setdefault(key, []).append((part_type, i, canonical, wire, slot))
        last = strict_variants(
            [
                [
                    (id(v[2]), bool(self.mapping.data["parts"][v[0]][v[1]].get("reads_only")))
                    for v in group
                ]
                for group in by_literals.values()
            ]
        )
        Encoder = tuple[str, str, tuple[str, ...] | None, tuple[str, ...] | None]
        encoders: dict[str, list[Encoder]] = {}
        block_tag = self.mapping.data["layout"].get("block_tag")
        slot_decoders: dict[str, list[str]] = {}
        slot_kinds: dict[str, str] = {}
        message_encoders: list[str] = []
        message_decoders: list[str] = []
        for part_type, i, canonical, wire, slot in variants:
            variant = self.mapping.data["parts"][part_type][i]
            reads_only = variant.get("reads_only", False)
            # The block's fields that tell nothing at these values (read, never reported).
            self.compiler.unread_defaults = unread_defaults(variant.get("defaults", {}))
            enc, dec = self.variant_functions(
                f"{part_type}_{i}",
                f"/parts/{part_type}/{i}",
                canonical,
                wire,
                last_of_its_kind=id(canonical) in last,
                part_type=part_type,
                drop_code="field_dropped",
                type_name=part_defs[part_type],
                loss=losses.get(id(canonical)),
                extra_known=self._block_keys(slot),
                block_tag=block_tag if slot == "content" and id(canonical) not in lossy else None,
                reads_only=reads_only,
            )
            self.compiler.unread_defaults = {}
            roles, kinds = variant.get("roles"), variant.get("kinds")
            if not reads_only:
                encoders.setdefault(part_type, []).append(
                    (slot, enc, tuple(roles) if roles else None, tuple(kinds) if kinds else None)
                )
            if id(canonical) in lossy:
                continue
            if slot == "content" and self.mapping.data["layout"].get("text_shorthand") == "always":
                if not isinstance(wire, Var):
                    raise _error(
                        self.mapping,
                        f"/parts/{part_type}/{i}/wire",
                        "content is one string here: a content variant's wire is a variable",
                    )
                continue  # read from the string itself, never as a block
            if slot == "content":
                if block_tag:
                    if not isinstance(wire, dict) or not isinstance(wire.get(block_tag), str):
                        raise _error(
                            self.mapping,
                            f"/parts/{part_type}/{i}/wire",
                            f"a content block needs a literal `{block_tag}`",
                        )
                    self.plan.decode_tags.setdefault(wire[block_tag], []).append(dec)
                else:
                    if not isinstance(wire, dict) or not wire:
                        raise _error(
                            self.mapping, f"/parts/{part_type}/{i}/wire", "expected an object"
                        )
                    self.plan.decode_keyed.append((next(iter(wire)), dec))
            elif slot == "message":
                # Result messages: written ones tried in order (Responses answers a free-form
                # call otherwise than a function's); others (OpenAI's deprecated `function`
                # message) are only read.
                if part_type != "tool_result":
                    raise _error(
                        self.mapping,
                        f"/parts/{part_type}/{i}",
                        "only tool_result variants are written as a message of their own",
                    )
                if not reads_only:
                    message_encoders.append(enc)
                    message_decoders.append(dec)
                else:  # tried first: it is never the one that refuses (`strict_variants`)
                    message_decoders.insert(0, dec)
            else:
                slot_decoders.setdefault(slot, []).append(dec)
                many = self.mapping.data["parts"][part_type][i].get("slot_list")
                if many is None:
                    many = isinstance(wire, dict)
                slot_kinds[slot] = "list" if many else "value"
        if message_decoders:
            if not message_encoders:
                raise _error(self.mapping, "/parts/tool_result", "no result message is written")
            message_encoder = message_encoders[0]
            if len(message_encoders) > 1:
                message_encoder = self.dispatcher("encode_result_message", message_encoders, "c")
            decode = message_decoders[0]
            if len(message_decoders) > 1:
                decode = self.dispatcher("decode_result_message", message_decoders, "w")
            self.plan.tool_message = (message_encoder, decode)
        for part_type, encs in encoders.items():
            em = Emitter()
            for slot, enc, roles, kinds in encs:
                slot_value = "None" if slot == "content" else repr(slot)
                # Written only in messages of these roles (`roles`), in documents of these
                # kinds (`kinds`: a response that cannot hold an image).
                conditions = [f"ctx.role in {roles!r}"] if roles is not None else []
                conditions += [f"ctx.kind in {kinds!r}"] if kinds is not None else []
                if conditions:
                    em.line(f"if {' and '.join(conditions)}:")
                    with em.block():
                        em.line(f"r = {enc}(ctx, c, at)")
                        em.line("if r is not MISS:")
                        with em.block():
                            em.line(f"return ({slot_value}, r)")
                    continue
                em.line(f"r = {enc}(ctx, c, at)")
                em.line("if r is not MISS:")
                with em.block():
                    em.line(f"return ({slot_value}, r)")
            em.line("return MISS")
            name = f"encode_{part_type}"
            self.plan.functions.append(_function(name, "ctx: Context, c: Any, at: str", em))
            self.plan.encode_parts[part_type] = name
        for tag, decs in self.plan.decode_tags.items():
            if len(decs) > 1:
                safe = "".join(ch if ch.isalnum() else "_" for ch in tag)
                self.plan.decode_tags[tag] = [self.dispatcher(f"decode_tag_{safe}", decs, "w")]
        for slot, decs in slot_decoders.items():
            name = self.dispatcher(f"decode_slot_{slot}", decs, "w")
            self.plan.slots.append((slot, slot_kinds[slot], name))

    def codecs(self) -> None:
        for codec, entries in self.mapping.data.get("codecs", {}).items():
            if codec not in CODEC_TYPES or codec.endswith("_envelope"):
                raise _error(self.mapping, f"/codecs/{codec}", f"codecs are {sorted(CODEC_TYPES)}")
            names = []
            parsed = [(parse(e["canonical"]), parse(e["wire"])) for e in entries]
            by_literals: dict[str, list[tuple[int, bool]]] = {}
            for i, ((_, wire), entry) in enumerate(zip(parsed, entries, strict=True)):
                key = json.dumps(sorted(map(str, literals(wire))))
                by_literals.setdefault(key, []).append((i, bool(entry.get("reads_only"))))
            strict = strict_variants(list(by_literals.values()))
            _unwritten(self.mapping, f"/codecs/{codec}", entries)
            pinned = self._pinned(CODEC_TYPES[codec])
            for i, (canonical, wire) in enumerate(parsed):
                reads_only = entries[i].get("reads_only", False)
                # A pinned field this variant does not name is another variant's (`x-pinned`:
                # a function tool's spelling writes no hosted tool).
                named = set(canonical) if isinstance(canonical, dict) else set()
                self.compiler.refuses = sorted(pinned - named)
                enc, dec = self.variant_functions(
                    f"{codec}_{i}",
                    f"/codecs/{codec}/{i}",
                    canonical,
                    wire,
                    last_of_its_kind=i in strict,
                    part_type=None,
                    drop_code="field_dropped",
                    type_name=CODEC_TYPES[codec],
                    reads_only=reads_only,
                )
                names.append((None if reads_only else enc, dec))
            self.compiler.refuses = []
            self.compiler.codec_keys[codec] = {
                key for _, wire in parsed if isinstance(wire, dict) for key in wire
            }
            self.dispatcher(f"enc_{codec}", [e for e, _ in names if e is not None], "c")
            self.dispatcher(f"dec_{codec}", [d for _, d in names], "w")

    def _defaults(self, type_name: str) -> dict[tuple[str | int, ...], str]:
        """The values of a canonical type's fields that say what their absence says
        (`x-default`), by the template path of the object holding them: a format without
        the field loses nothing at those values."""
        defs = self.bundle["$defs"]
        properties = defs.get(type_name, {}).get("properties", {})
        found: dict[tuple[str | int, ...], str] = {}
        for path, fields in [((), properties)] + [
            ((name,), defs[schema["$ref"].rsplit("/", 1)[-1]].get("properties", {}))
            for name, schema in properties.items()
            if schema.get("$ref", "").startswith("#/$defs/")
        ]:
            said = x_defaults({"properties": fields})
            if said:
                found[path] = repr(said)
        return found

    def _pinned(self, type_name: str) -> set[str]:
        """The fields of a canonical type only variants that name them write (`x-pinned`)."""
        properties = self.bundle["$defs"].get(type_name, {}).get("properties", {})
        return {name for name, schema in properties.items() if schema.get("x-pinned")}

    def envelope(self, kind: str) -> None:
        section = self.mapping.data[kind]
        canonical, wire = parse(section["canonical"]), parse(section["wire"])
        layout = self.mapping.data["layout"]
        extra: dict[tuple[str | int, ...], set[str]]
        if kind == "request":
            extra = {
                (): {
                    layout["messages"],
                    *([layout["system_field"]] if "system_field" in layout else []),
                }
            }
        elif section["message"]:
            path = tuple(section["message"])
            extra = {path[:-1]: {str(path[-1])}}
        else:
            extra = {(): {layout["role"], layout["content"]}}
        ranges: list[Range] = []
        self.compiler.unread_defaults = unread_defaults(section.get("defaults", {}))
        if kind == "request":
            self.compiler.merge_refused = merge_refused(
                self.mapping.data["format"], section["wire"]
            )
            params = self.bundle["$defs"]["GenerationParameters"]["properties"]
            ranges = narrower_ranges(self.mapping.data, params)
        self.variant_functions(
            f"{kind}_envelope",
            f"/{kind}",
            canonical,
            wire,
            last_of_its_kind=True,
            part_type=None,
            drop_code="parameter_dropped",
            type_name=CODEC_TYPES[f"{kind}_envelope"],
            strict_literals=False,
            extra_known=extra,
            clamps=ranges,
            below=below_rules(self.mapping.data, {r.name: r for r in ranges})
            if kind == "request"
            else None,
        )
        self.compiler.unread_defaults = {}

    def turn(self) -> None:
        """`turn`: the fields of a canonical message beside its role and content (a channel,
        extensions) that a wire turn carries, as one template pair over the message. Writing
        reports every other message field; reading reports every turn field nobody reads."""
        section = self.mapping.data.get("turn")
        if section is None:
            return
        layout = self.mapping.data["layout"]
        read = {layout["role"], layout["content"], *(field for field, _, _ in self.plan.slots)}
        # The turn's fields that tell nothing at these values (read, never reported).
        self.compiler.unread_defaults = unread_defaults(layout.get("turn_defaults", {}))
        self.plan.turn = self.variant_functions(
            "turn",
            "/turn",
            parse(section["canonical"]),
            parse(section["wire"]),
            last_of_its_kind=True,
            part_type=None,
            drop_code="field_dropped",
            type_name="Message",
            strict_literals=False,
            extra_known={(): read},
            canonical_known={(): {"role", "content"}},
            whole=True,
        )
        self.compiler.unread_defaults = {}

    def usage(self) -> None:
        table: dict[str, Any] = self.mapping.data.get("usage", {})
        usage_fields = set(self.bundle["$defs"]["Usage"]["properties"])
        required_fields = set(self.bundle["$defs"]["Usage"].get("required", ()))
        omits_zero = bool(self.mapping.data.get("usage_omits_zero", False))
        direct: dict[str, str] = {}
        for name, spec in table.items():
            if name not in usage_fields:
                raise _error(self.mapping, f"/usage/{name}", "not a field of Usage")
            if isinstance(spec, str):
                direct[spec] = name
        # The top-level wire keys the usage codec reads (so a `@merge` beside it knows them).
        self.compiler.codec_keys["usage"] = {
            _segments(path)[0]
            for spec in table.values()
            for path in ([spec] if isinstance(spec, str) else spec)
        }
        enc, dec = Emitter(), Emitter()
        enc.line("out: dict[str, Any] = {}")
        dec.line("if type(w) is not dict:")
        with dec.block():
            dec.line('raise ConversionError("wrong_type", at, "expected an object")')
        dec.line("out: dict[str, Any] = {}")
        for name, spec in table.items():
            wire_paths = [spec] if isinstance(spec, str) else list(spec)
            primary, others = wire_paths[0], wire_paths[1:]
            for other in others:
                if other not in direct:
                    raise _error(
                        self.mapping,
                        f"/usage/{name}",
                        f"{other!r} must also map a canonical field on its own",
                    )
            value = f"c[{name!r}]"
            if others:
                parts = ", ".join(f"c.get({direct[other]!r}, 0)" for other in others)
                value = f"remainder(c[{name!r}], {parts})"
            target = _segments(primary)
            derived = "c['input_tokens'] + c['output_tokens']"
            if omits_zero:
                # Zero counts are left out, as the format itself does.
                enc.line(
                    f"n = {value} if {name!r} in c else "
                    + (derived if name == "total_tokens" else "0")
                )
                enc.line("if n:")
                with enc.block():
                    enc.line(f"put(out, {target!r}, n)")
            else:
                enc.line(f"if {name!r} in c:")
                with enc.block():
                    enc.line(f"put(out, {target!r}, {value})")
            if name == "total_tokens" and not omits_zero:
                # The canonical meaning of a total, when the input had none: nothing invented.
                enc.line("else:")
                with enc.block():
                    enc.line(f"put(out, {target!r}, {derived})")
            terms = [f"get(w, {_segments(p)!r})" for p in wire_paths]
            if omits_zero:
                # An absent count is a zero one; a field the canonical form requires is always set.
                total = " + ".join(f"number_or_zero({t}, at)" for t in terms)
                if name in required_fields:
                    dec.line(f"out[{name!r}] = check_count({total}, at)")
                else:
                    present = " or ".join(f"{t} is not ABSENT" for t in terms)
                    dec.line(f"if {present}:")
                    with dec.block():
                        dec.line(f"out[{name!r}] = check_count({total}, at)")
                continue
            dec.line(f"v = {terms[0]}")
            dec.line("if v is not ABSENT:")
            with dec.block():
                # Each term is checked before the sum: a wrong type is a coded error, not a crash.
                first = "check_count(v, at)" if len(terms) > 1 else "v"
                total = " + ".join([first, *(f"number_or_zero({t}, at)" for t in terms[1:])])
                dec.line(f"out[{name!r}] = check_count({total}, at)")
        self._usage_leftovers(dec, table)
        known = self.compiler.key_set(set(table))
        if "total_tokens" not in table:
            # A total that is the sum of its parts says nothing a reader cannot add up.
            enc.line(
                "if c.get('total_tokens') == c.get('input_tokens', 0) + c.get('output_tokens', 0):"
            )
            with enc.block():
                enc.line("c = {k: v for k, v in c.items() if k != 'total_tokens'}")
        # A count the format has no place for loses nothing at the value its absence means
        # (a zero part of a total the format carries: `x-default`).
        said = x_defaults(self.bundle["$defs"]["Usage"])
        given = f", defaults={said!r}" if said else ""
        enc.line(f"if not {known}.issuperset(c):")
        with enc.block():
            enc.line(f"dropped(ctx, c, {known}, at, part_type=None, code='field_dropped'{given})")
        enc.line("return out")
        if not omits_zero:
            # No count at all (OpenTelemetry's usage attributes are each optional): no usage.
            dec.line("return out if out else MISS")
        else:
            dec.line("return out")
        self.plan.functions.append(_function("enc_usage", "ctx: Context, c: Any, at: str", enc))
        self.plan.functions.append(_function("dec_usage", "ctx: Context, w: Any, at: str", dec))

    def _usage_leftovers(self, dec: Emitter, table: dict[str, Any]) -> None:
        """What else the wire's usage holds (a breakdown by modality, a service tier) has no
        canonical home: reported when the conversion crosses formats."""
        read: dict[str, Any] = {}
        for spec in table.values():
            for path in [spec] if isinstance(spec, str) else spec:
                *outer, last = _segments(path)
                level = read
                for key in outer:
                    level = level.setdefault(key, {})
                level.setdefault(last, None)
        checks = [("w", read, "at")] if table else []
        # Merged into a wider object (Ollama's response, OpenTelemetry's attributes), the
        # usage shares its top level with other fields: the object's reading reports those.
        if _merged_codec(self.mapping.data, "usage"):
            checks = [
                (f"w.get({key!r})", inner, f"at + {'/' + key!r}")
                for key, inner in read.items()
                if inner is not None
            ]
        # Values of the usage's other fields that tell nothing (the default service tier).
        said = {k: tuple(v) for k, v in self.mapping.data.get("usage_defaults", {}).items()}
        if said and len(checks) != 1:
            raise _error(self.mapping, "/usage_defaults", "a merged usage has no defaults")
        # Splits of a count that only repeat it (Gemini's prompt count, all text).
        splits = self.mapping.data.get("usage_breakdowns")
        if splits and len(checks) != 1:
            raise _error(self.mapping, "/usage_breakdowns", "a merged usage has no breakdowns")
        broken = (
            (*(splits["entry"][k] for k in ("kind", "count", "plain")), splits["counts"])
            if splits
            else None
        )
        # Counts that repeat another under another name (Converse's `…TokenCount`).
        said_repeats: dict[str, str] = self.mapping.data.get("usage_repeats", {})
        if said_repeats and len(checks) != 1:
            raise _error(self.mapping, "/usage_repeats", "a merged usage has no repeats")
        read_paths = {
            p for spec in table.values() for p in ([spec] if isinstance(spec, str) else spec)
        }
        for key, repeated in said_repeats.items():
            if repeated not in read_paths:
                raise _error(self.mapping, f"/usage_repeats/{key}", "repeats no count read")
        repeats = {key: _segments(path) for key, path in said_repeats.items()}
        if checks:
            dec.line("if not ctx.fidelity:")
            with dec.block():
                for value, known_keys, where in checks:
                    given = f", defaults={said!r}" if said else ""
                    given += f", breakdowns={broken!r}" if broken else ""
                    given += f", repeats={repeats!r}" if repeats else ""
                    dec.line(f"unread_counts(ctx, {value}, {known_keys!r}, {where}{given})")

    def stop_reasons(self) -> None:
        table = self.mapping.data["stop_reasons"]
        canonical = set(self.bundle["$defs"]["StopReason"]["enum"])
        to_c: dict[str, str] = table["to_canonical"]
        from_c: dict[str, str] = table["from_canonical"]
        infer_call = bool(table.get("infer_call", False))
        for wire_value, value in to_c.items():
            if value not in canonical:
                raise _error(self.mapping, f"/stop_reasons/to_canonical/{wire_value}", "unknown")
        if set(from_c) != canonical:
            raise _error(
                self.mapping,
                "/stop_reasons/from_canonical",
                f"must map every stop reason; differs on {sorted(set(from_c) ^ canonical)}",
            )
        detail = table.get("detail", {})
        for wire_value, value in detail.get("to_canonical", {}).items():
            if value not in canonical:
                raise _error(
                    self.mapping, f"/stop_reasons/detail/to_canonical/{wire_value}", "unknown"
                )
        for value in detail.get("from_canonical", {}):
            if value not in canonical:
                raise _error(
                    self.mapping, f"/stop_reasons/detail/from_canonical/{value}", "unknown"
                )

        def reads_back(c: str, w: str) -> bool:
            refined = detail.get("from_canonical", {}).get(c)
            if refined is not None:
                return bool(detail["to_canonical"].get(refined) == c)
            return to_c.get(w) == c or (infer_call and c == "call" and to_c.get(w) == "end")

        approximate = {c for c, w in from_c.items() if not reads_back(c, w)}
        read = dict[str | int, str](to_c.items())
        for number, wire_value in table.get("numbers", {}).items():
            if wire_value not in to_c:
                raise _error(
                    self.mapping, f"/stop_reasons/numbers/{number}", "not a to_canonical value"
                )
            read[int(number)] = to_c[wire_value]
        self.plan.tables["STOP_REASONS_TO_CANONICAL"] = read
        self.plan.tables["STOP_REASONS_FROM_CANONICAL"] = from_c
        self.plan.tables["STOP_REASONS_APPROXIMATE"] = frozenset(approximate)

    def roles(self) -> None:
        roles: dict[str, str] = self.mapping.data["roles"]
        canonical = set(self.bundle["$defs"]["Role"]["enum"])
        if set(roles) != canonical:
            raise _error(
                self.mapping, "/roles", f"must map every canonical role: {sorted(canonical)}"
            )
        back: dict[str, str] = {}
        for role, wire in roles.items():
            back.setdefault(wire, role)  # the first canonical role a wire role maps is its home
        back.update(self.mapping.data.get("roles_in", {}))
        self.plan.tables["ROLES_TO_WIRE"] = roles
        self.plan.tables["ROLES_FROM_WIRE"] = back


def plan_adapter(mapping: Mapping, bundle: dict[str, Json]) -> AdapterPlan:
    # The runtime's registry is the one list of transforms a mapping may name.
    from interlingua.conversion.transforms import TRANSFORMS  # noqa: PLC0415 (the generator runs without it otherwise)

    planner = Planner(
        mapping,
        bundle,
        {n: t.arity for n, t in TRANSFORMS.items()},
        reads_literals={n for n, t in TRANSFORMS.items() if t.literals},
        fills=frozenset(n for n, t in TRANSFORMS.items() if t.fills),
        reads_absent={n for n, t in TRANSFORMS.items() if t.reads_absent},
        member_keys={n for n, t in TRANSFORMS.items() if t.member_keys},
    )
    planner.roles()
    planner.marker()
    planner.parts()
    planner.codecs()
    planner.turn()
    planner.usage()
    if "stop_reasons" in mapping.data:  # a response's, or an extension's (CMF completion)
        planner.stop_reasons()
    planner.envelope("request")
    if "response" in mapping.data:
        planner.envelope("response")
    for keys, name in planner.compiler.key_sets.items():
        planner.plan.tables[name] = keys
    for (_, pairs), name in planner.compiler.tables.items():
        planner.plan.tables[name] = dict(pairs)
    # The turn template asks it of a value slot; the compiled functions, of what they say.
    planner.plan.asks_carries = planner.compiler.asks_carries or any(
        kind == "value" for _, kind, _ in planner.plan.slots
    )
    return planner.plan


def _clamp(em: Emitter, ranges: list[Range] | None, pointers: dict[str, str]) -> None:
    """Bring each parameter the format takes only within a narrower range to the nearest value
    it takes, reported: what the wire schema bounds is never written past its bound."""
    for r in ranges or ():
        value, at = f"v_{r.var}", pointers[r.var]
        if r.nonempty:
            em.line(f"if type({value}) is list and not {value}:")
            with em.block():
                em.line(f"{value} = ABSENT  # an empty list carries nothing")
        if r.max_items is not None:
            em.line(f"if type({value}) is list and len({value}) > {r.max_items}:")
            with em.block():
                reason = (
                    f" takes at most {r.max_items} `{r.name}`; the first {r.max_items} went out"
                )
                em.line(f"ctx.loss({at}, 'parameter_clamped', ctx.adapter + {reason!r})")
                em.line(f"{value} = {value}[:{r.max_items}]")
        if r.max_items is not None or r.nonempty:
            continue
        for bound, compare, word in ((r.minimum, "<", "from"), (r.maximum, ">", "up to")):
            if bound is None:
                continue
            em.line(f"if {value} is not ABSENT and {value} {compare} {bound!r}:")
            with em.block():
                reason = f" takes `{r.name}` {word} {bound!r}; sent {bound!r}"
                em.line(f"ctx.loss({at}, 'parameter_clamped', ctx.adapter + {reason!r})")
                em.line(f"{value} = {bound!r}")


def _keep_below(em: Emitter, rules: list[Below], pointers: dict[str, str]) -> None:
    """A parameter the format takes only below another (`below`): one below it, reported; or,
    under its own minimum then, none, reported."""
    for rule in rules:
        value, limit, at = f"v_{rule.var}", f"_below_{rule.var}", pointers[rule.var]

        def clamp(value: str = value, limit: str = limit, at: str = at, rule: Below = rule) -> None:
            reason = f" takes `{rule.name}` only below `{rule.limit}`; sent one below it"
            em.line(f"ctx.loss({at}, 'parameter_clamped', ctx.adapter + {reason!r})")
            em.line(f"{value} = {limit} - 1")

        em.line(f"{limit} = v_{rule.limit_var}")
        present = f"{value} is not ABSENT"
        if rule.default is None:
            present += f" and {limit} is not ABSENT"  # no limit given, none written
        else:
            em.line(f"if {limit} is ABSENT:")
            with em.block():
                em.line(f"{limit} = {rule.default!r}  # the placeholder written in its place")
        em.line(f"if {present} and {value} >= {limit}:")
        with em.block():
            if rule.minimum is None:
                clamp()
                continue
            em.line(f"if {limit} - 1 < {rule.minimum!r}:")
            with em.block():
                reason = (
                    f" takes `{rule.name}` only below `{rule.limit}` and from {rule.minimum!r}; "
                    "left out"
                )
                em.line(f"ctx.loss({at}, 'parameter_dropped', ctx.adapter + {reason!r})")
                em.line(f"{value} = ABSENT")
            em.line("else:")
            with em.block():
                clamp()


def x_defaults(definition: Json) -> dict[str, Any]:
    """A canonical object's fields whose value says what their absence says (`x-default`): a
    format without the field loses nothing at that value."""
    return {
        name: field["x-default"]
        for name, field in definition.get("properties", {}).items()
        if "x-default" in field
    }


def defaults_by_object(defaults: dict[str, list[Any]]) -> dict[tuple[str, ...], dict[str, Any]]:
    """A request's `defaults` (values by dotted wire path) by the path of the object holding
    them: each key's values as a tuple."""
    by_object: dict[tuple[str, ...], dict[str, Any]] = {}
    for dotted, values in defaults.items():
        *outer, key = dotted.split(".")
        by_object.setdefault(tuple(outer), {})[key] = tuple(values)
    return by_object


def unread_defaults(defaults: dict[str, list[Any]]) -> dict[tuple[str | int, ...], str]:
    """A request's `defaults` as the Python literal each object's reading passes `unread`, by
    the object's path."""
    return {path: repr(values) for path, values in defaults_by_object(defaults).items()}


def _merged_codec(data: Any, codec: str) -> bool:
    """Whether a mapping writes the named codec as a member of a `@merge`, sharing its
    object's top level with other fields, rather than as an object of its own."""
    if isinstance(data, dict):
        members = data.get("@merge")
        if isinstance(members, list) and any(
            isinstance(m, dict) and isinstance(m.get("@codec"), list) and m["@codec"][:1] == [codec]
            for m in members
        ):
            return True
        return any(_merged_codec(value, codec) for value in data.values())
    if isinstance(data, list):
        return any(_merged_codec(item, codec) for item in data)
    return False


def _segments(path: str) -> tuple[str, ...]:
    """A usage table's wire path as keys: dotted (`usage.input_tokens`), or a JSON pointer
    (`/gen_ai.usage.input_tokens`) for keys that hold dots themselves."""
    if path.startswith("/"):
        return tuple(k.replace("~1", "/").replace("~0", "~") for k in path[1:].split("/"))
    return tuple(path.split("."))
