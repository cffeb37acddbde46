"""Fused pair converters: the read side of one mapping file composed with the write side of
another into one pass, with no canonical document between them (issue 16).

For each pair in :data:`PAIRS` whose source keeps every role in its message list (OpenAI
Chat; a source that writes its turns as content blocks, Anthropic, is composed by
`generator/pairs_from_blocks.py`) this module reads the two mapping files and works out, at
generation time, everything the pass needs: the source's key names and roles, which source
request field lands where in the target, the target's part shapes (its wire templates compiled
into dict expressions), its roles, layout (system field and form, alternation, text shorthand),
id and name rules, and the losses the two-step path would report for what it does not carry.
`templates/python/pair.py.j2` writes that as straight-line code.

A fused converter covers a *shape*: the parts and fields listed here. Its generated guard sends
anything else (an unknown field or part type, a blank text, ids or names the target would
rewrite, results out of order) back to the two-step path, with the reason. A mapping whose
layout this composer does not know fails generation loudly rather than generating code that
might differ (tests/adapters/test_differential.py proves the generated pairs equal).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, cast

from generator.adapters import defaults_by_object, known_turn_keys, x_defaults
from generator.only_lists import word_lists
from generator.pair_checks import CheckError, SourceChecks, source_checks
from generator.paths import SCHEMAS
from generator.ranges import ranges_by_parameter
from generator.render import layout_defaults
from generator.wire_variants import refused

Json = Any

#: (source, target) of every fused converter, where users convert most.
PAIRS: tuple[tuple[str, str], ...] = (
    ("openai-chat", "anthropic"),
    ("openai-chat", "gemini"),
    ("openai-chat", "bedrock"),
    ("openai-chat", "openai-responses"),
    ("anthropic", "openai-chat"),
    ("openai-responses", "openai-chat"),
    ("bedrock", "openai-chat"),
    ("gemini", "openai-chat"),
)

#: Transforms whose encoding is the value itself when the pair's guard holds (the guard checks
#: what would make them differ: an id or name off the target's rules, a media type or URL
#: the target does not take).
#: `strict_by_schema` (Responses' tool declaration) writes the declaration inside as it is.
_IDENTITY = frozenset(
    {"tool_id", "tool_name", "one_of", "web_url", "media_kind", "base64", "strict_by_schema"}
)


class PairError(Exception):
    """A mapping uses something the pair composer cannot compile."""


def reads_blocks(source: Json) -> bool:
    """Whether a source format writes its turns as content blocks (a hoisted system prompt,
    tool results inside user turns): `generator/pairs_from_blocks.py` composes its pairs, this
    module those of a source that keeps every role in its message list."""
    layout = source["layout"]
    return (layout.get("system"), layout.get("tool_results")) == ("hoist", "user_blocks")


def reads_items(source: Json) -> bool:
    """Whether a source format lays its conversation out as items (`layout.items`: OpenAI
    Responses): `generator/pairs_from_items.py` composes its pairs."""
    return "items" in source["layout"]


def module_name(source: str, target: str) -> str:
    return f"{source}_to_{target}".replace("-", "_")


def variable_of(node: Json) -> str | None:
    if isinstance(node, str) and node.startswith("$"):
        return node[1:].rstrip("!?")
    return None


def variables_of(node: Json) -> set[str]:
    """Every variable a wire template mentions."""
    name = variable_of(node)
    if name is not None:
        return {name}
    if isinstance(node, dict):
        return {v for value in node.values() for v in variables_of(value)}
    if isinstance(node, list):
        return {v for value in node for v in variables_of(value)}
    return set()


def described_strict_exprs(
    template: Json, env: Mapping[str, str], description: str, strict: str
) -> dict[tuple[bool, bool], str | None]:
    """`wire_expr` of a tool-like template (a tool, a structured-output format) for each of
    the four ways its optional description and strict flag may be present: keyed by
    (described, strict), each present one written from the expression given for it."""
    found = {}
    for described in (False, True):
        for strict_given in (False, True):
            given = dict(env)
            if described:
                given["description"] = description
            if strict_given:
                given["strict"] = strict
            found[described, strict_given] = wire_expr(template, given)
    return found


def wire_expr(node: Json, env: Mapping[str, str]) -> str | None:
    """Python source building the wire value of a mapping's wire template, each variable
    replaced by the expression ``env`` gives it; None when the template is left out (every
    variable it needs is absent)."""
    name = variable_of(node)
    if name is not None:
        return env.get(name)
    if isinstance(node, dict):
        ops = [key for key in node if key.startswith("@")]
        if ops:
            return _op(ops[0], node[ops[0]], env)
        entries = []
        for key, value in node.items():
            text = wire_expr(value, env)
            if text is not None:
                entries.append(f"{key!r}: {text}")
        return "{" + ", ".join(entries) + "}"
    if isinstance(node, list):
        items = [wire_expr(value, env) for value in node]
        return "[" + ", ".join(i for i in items if i is not None) + "]"
    return repr(node)


def _op(op: str, arg: Json, env: Mapping[str, str]) -> str | None:
    present = variables_of(arg) & env.keys()
    if not present:
        return None  # an optional value this shape never has (a cache hint, citations)
    name = op[1:]
    args = arg if isinstance(arg, list) else [arg]
    if name in _IDENTITY:
        return wire_expr(next(a for a in args if variables_of(a)), env)
    if name == "only_item":
        return f"[{wire_expr(arg, env)}]"
    if name == "file_ref":  # [type key, uri key, kind, $media_type, $uri]: by URI alone
        _type_key, uri_key, _kind, media_type, uri = args
        if variable_of(media_type) in env:
            raise PairError("a file reference with a media type")
        return f"{{{uri_key!r}: {wire_expr(uri, env)}}}"
    if name == "parts":  # a result's content: the one text the shape allows (env's `content`)
        content, *extra = args  # [$content, {json: $structured}]: the structured value
        if any(variables_of(e) & env.keys() for e in extra):
            raise PairError("a result's content with a structured value")
        return wire_expr(content, env)
    if name.endswith("_format_word"):  # [$media_type]: its word, by the table of the pass
        return f"{_words_constant(name)}[{wire_expr(arg, env)}.lower()]"
    text = _value_op(name, arg, args, env)
    if text is not None:
        return text
    if name == "arguments_schema":  # a tool declared without a schema (None) takes no arguments
        return f"_or_no_arguments({wire_expr(arg, env)})"
    if name in ("object_schema", "flat_object_schema"):
        # A schema without a type gets `"type": "object"`; one the transform would rewrite
        # (reported) sends the body the two-step way (pair.py.j2, `plain_object`).
        return f"_{name}({wire_expr(arg, env)})"
    if name == "result_object":  # [$content, $structured, $is_error, ok key, error key, ...]
        content, _structured, _error, ok_key = args[:4]
        if (variables_of(args[1]) | variables_of(args[2])) & env.keys():
            raise PairError("a result object with structured content or an error flag")
        return f"{{{ok_key!r}: {wire_expr(content, env)}}}"
    raise PairError(f"the pair composer cannot compile @{name}")


def _value_op(name: str, arg: Json, args: list[Json], env: Mapping[str, str]) -> str | None:
    """The expression of a transform of one value (None: not one of these)."""
    if name == "json_string":  # a value as JSON text (Bedrock's response schema, arguments)
        return f"_json_text({wire_expr(arg, env)})"
    if name == "data_url":  # [$media_type, $data]: the `data:` URL of base64 data
        media_type, data = (wire_expr(a, env) for a in args)
        whole = env.get("@data_url")  # the URL both were read from, as it came
        if whole is not None and (media_type, data) == (env["media_type"], env["data"]):
            return whole  # not a copy of the data twice over (sliced, then joined)
        return f"'data:' + {media_type} + ';base64,' + {data}"
    if name == "or_null":  # a key written null when there is no value (a schema is None then)
        return wire_expr(arg, env)
    if name == "default":  # [$value, default]: the value, given always in this shape
        # (`_rf_expr` compiles it only for a field the source requires; the model is `_model`'s)
        return wire_expr(args[0], env)
    if name == "explicit_default":  # [$value, wire default, canonical default]
        value, wire_default, canonical_default = args
        if wire_default == canonical_default:
            raise PairError("@explicit_default with one default: written only when given")
        inner = wire_expr(value, env)
        return f"({inner} if {inner} is not None else {canonical_default!r})"
    if name == "non_empty":  # the guard refuses an empty value (a description) before
        return wire_expr(arg, env)
    return None


# The helpers of interlingua.conversion.transforms.schemas a pass's tool declaration calls.
# Imported by name (`_flat_object_schema`), not called through the module: compiled, a call
# of a function of the same build is a direct C call, where `module.f(...)` looked the name
# up and parsed its arguments on each call (about 2,500 instructions a tool, callgrind).
SCHEMA_HELPERS = ("flat_object_schema", "object_schema", "or_no_arguments")


def schema_helpers(expr: str) -> list[str]:
    """The schema helpers ``expr`` calls (`_name(`, not the tail of a longer name)."""
    return [name for name in SCHEMA_HELPERS if re.search(rf"(?<!\w)_{name}\(", expr)]


def written_tool(target: Json) -> Json:
    """The target's function tool as its writer writes it: the one variant of its `tool` codec
    that is not `reads_only` (a spelling the format also takes, read but never written: OpenAI
    Chat's tool without its `type`) and names no hosted tool (Anthropic's web search)."""
    (variant,) = [
        v
        for v in target["codecs"]["tool"]
        if not v.get("reads_only") and "hosted" not in v["canonical"]
    ]
    return cast(Json, variant)


def hosted_tool_tags(mapping: Json) -> list[str]:
    """The wire tags of the hosted tools a format reads (its `tool` variants that name one): a
    fused pass leaves a body offering one to the two-step path."""
    tags = []
    for variant in mapping["codecs"]["tool"]:
        wire = variant["wire"]
        if "hosted" in variant["canonical"] and isinstance(wire, dict) and "type" in wire:
            tags.append(str(wire["type"]))
    return sorted(tags)


def part_variant(
    mapping: Json, part: str, *, codec: bool = False, role: str = "user", **canonical: Json
) -> Json:
    """The first variant of ``part`` (a codec's, with ``codec``) whose canonical template has
    these constant fields, among those written in a message of ``role`` (a variant may name
    the roles it is for: Responses writes the model's text as `output_text`). A fused pass
    reads and writes the written spelling: a `reads_only` one goes the two-step way."""
    for variant in mapping["codecs" if codec else "parts"].get(part, []):
        if role not in variant.get("roles", [role]) or variant.get("reads_only"):
            continue
        template = variant["canonical"]
        if all(_matches(template.get(k), v) for k, v in canonical.items()):
            return variant
    raise PairError(f"{mapping['format']} has no {part} variant {canonical}")


def _matches(template: Json, want: Json) -> bool:
    if isinstance(want, dict):
        return isinstance(template, dict) and all(
            _matches(template.get(k), v) for k, v in want.items()
        )
    return bool(template == want)


def charset_rule(spec: Json) -> tuple[str, str, int] | None:
    if spec is None:
        return None
    return (spec["chars"], spec.get("first", spec["chars"]), spec["max_length"])


def rule_pattern(rule: tuple[str, str, int] | None) -> str | None:
    if rule is None:
        return None
    allowed, first, max_length = rule
    return f"[{first}][{allowed}]{{0,{max_length - 1}}}"


def word_rule(rule: tuple[str, str, int] | None) -> tuple[str, int] | None:
    """A rule whose every character, the first too, is an ASCII letter, a digit or one of a
    few marks: (the marks, the most characters), which `fused_checks.word` checks without a
    regex (a regex match took twice the instructions, callgrind); None for any other rule."""
    if rule is None:
        return None
    allowed, first, most = rule
    marks = allowed.removeprefix("a-zA-Z0-9")
    if first != allowed or marks == allowed or not re.fullmatch(r"[_.:]*-?", marks):
        return None
    return marks, most


@dataclass(frozen=True)
class Param:
    """A source request field that is a canonical parameter."""

    wire: str  # the source's key
    name: str  # the canonical parameter
    listed: bool  # read as a list (`@one_or_many`: one string or several)
    target: tuple[str, ...] | None  # where the target writes it (None: no place, reported)


def _source_params(source: Json) -> list[Param]:
    canonical = source["request"]["canonical"]["parameters"]
    by_var = {variable_of(v): k for k, v in canonical.items()}
    found = []
    for key, given in source["request"]["wire"].items():
        value = only_of(given)  # a word from a list: read as a value, then checked (`only_words`)
        listed = isinstance(value, dict) and list(value) == ["@one_or_many"]
        var = variable_of(value["@one_or_many"] if listed else value)
        if var in by_var:
            found.append(Param(key, by_var[var], listed, None))
    return found


def target_paths(target: Json) -> tuple[dict[str, tuple[str, ...]], dict[str, Json]]:
    """Where each canonical parameter goes in the target (plain variables only), and the
    placeholder a required parameter gets when it is absent."""
    by_var = {
        variable_of(v): k for k, v in target["request"]["canonical"].get("parameters", {}).items()
    }
    paths: dict[str, tuple[str, ...]] = {}
    defaults: dict[str, Json] = {}

    def walk(node: Json, path: tuple[str, ...]) -> None:
        if isinstance(node, dict) and list(node) == ["@merge"]:
            for member in node["@merge"]:
                walk(member, path)
            return
        if isinstance(node, dict) and list(node) == ["@default"]:
            var, default = node["@default"]
            if variable_of(var) in by_var and not isinstance(default, dict):
                paths[by_var[variable_of(var)]] = path
                defaults[by_var[variable_of(var)]] = default
            return
        if isinstance(node, dict) and list(node) == ["@explicit_default"]:
            var = variable_of(node["@explicit_default"][0])
            if var in by_var:  # the canonical default spelled out (`explicit_defaults`)
                paths[by_var[var]] = path
            return
        var = variable_of(only_of(node))  # a word from a list: the pass checks it (`only_words`)
        if var is not None:
            if var in by_var:
                paths[by_var[var]] = path
            return
        if isinstance(node, dict) and not any(k.startswith("@") for k in node):
            for key, value in node.items():
                walk(value, (*path, key))

    walk(target["request"]["wire"], ())
    return paths, defaults


def _written_alone(target: Json, path: tuple[str, ...]) -> None:
    """A parameter the pass writes three levels down (Bedrock's effort, in Claude's own
    `additionalModelRequestFields.output_config`) is written into the object it makes for it:
    refused where that object holds anything else the writer puts there (a constant, another
    parameter), which the pass would leave out, or where the path is deeper still."""
    if len(path) <= 2:
        return
    if len(path) > 3:
        raise PairError(f"{target['format']}: a parameter four levels down ({'/'.join(path)})")
    group = target["request"]["wire"].get(path[0])
    holder = group.get(path[1]) if isinstance(group, dict) else None
    if not isinstance(holder, dict) or list(holder) != [path[2]]:
        raise PairError(f"{target['format']}: {'/'.join(path)} beside other members")


def explicit_defaults(target: Json) -> dict[str, bool]:
    """The canonical parameters the target writes through `@explicit_default` whose canonical
    default differs from the target's own (OpenAI Responses keeps an answer unless told
    not to): left out, each is written as the canonical default."""
    by_var = {
        variable_of(v): k for k, v in target["request"]["canonical"].get("parameters", {}).items()
    }
    out: dict[str, bool] = {}
    for node in target["request"]["wire"].values():
        if isinstance(node, dict) and list(node) == ["@explicit_default"]:
            var, wire_default, canonical_default = node["@explicit_default"]
            if not isinstance(canonical_default, bool) or variable_of(var) not in by_var:
                raise PairError("an explicit default the passes do not write")
            if wire_default != canonical_default:
                out[by_var[variable_of(var)]] = canonical_default
    return out


def only_of(node: Json) -> Json:
    """The value a template reads or writes through `@only` (a setting the format takes only
    from a list of words); any other node as it is."""
    if isinstance(node, dict) and list(node) == ["@only"]:
        return node["@only"][0]
    return node


def only_words(*mappings: Json) -> dict[str, frozenset[str]]:
    """By canonical parameter, the words a pass between these formats carries of a parameter
    one of them reads or writes through `@only`: those every such list names. The pass checks
    the value is one of them; another goes the two-step way, which reports it (read, it has no
    canonical form; written, the target does not take it)."""
    found: dict[str, frozenset[str]] = {}
    for mapping in mappings:
        parameters = mapping["request"]["canonical"].get("parameters", {})
        by_var = {variable_of(v): k for k, v in parameters.items()}
        for _path, transform, var, listed in word_lists(mapping["request"]["wire"]):
            if transform != "only":
                continue  # a level transform: the pass sends its parameter the two-step way
            name, words = by_var[variable_of(var)], frozenset(listed)
            found[name] = found.get(name, words) & words
    return found


def _complex_params(target: Json, paths: Mapping[str, tuple[str, ...]]) -> frozenset[str]:
    """Canonical parameters the target writes through a transform or together with others,
    save those merged into its tool_choice: outside the fused shape."""
    by_var = {
        variable_of(v): k for k, v in target["request"]["canonical"].get("parameters", {}).items()
    }
    mentioned = {by_var[v] for v in variables_of(target["request"]["wire"]) if v in by_var}
    merged = {name for _key, name, _negated in _tool_choice_merge(target)[0]}
    return frozenset(mentioned - paths.keys() - merged)


def _model(target: Json) -> str:
    """How the target writes the model: `plain`, `default` (a placeholder when absent) or
    `none` (no place: reported)."""
    wire = target["request"]["wire"].get("model")
    if wire is None:
        return "none"
    if variable_of(wire) == "model":
        return "plain"
    if isinstance(wire, dict) and list(wire) == ["@default"]:
        return "default"
    raise PairError("a model written through a transform")


def tool_choices(target: Json) -> dict[str, str]:
    """Source tool_choice values (by canonical type) to target wire expressions (never a
    `reads_only` spelling: the target reads it, and is written the other)."""
    out: dict[str, str] = {}
    for variant in target["codecs"]["tool_choice"]:
        if variant.get("reads_only"):
            continue
        kind = variant["canonical"]["type"]
        text = wire_expr(variant["wire"], {"name": "name"})
        if text is not None:
            out.setdefault(kind, text)
    return out


def _source_tool_choices(source: Json) -> dict[str, str]:
    """The source's string tool_choice values, by canonical type (the named-tool form is read
    by its keys)."""
    return {
        variant["wire"]: variant["canonical"]["type"]
        for variant in source["codecs"]["tool_choice"]
        if isinstance(variant["wire"], str)
    }


def _tool_expr(target: Json, *, described: bool = True) -> tuple[str, str]:
    """The target's tool declaration (with and without a description) and, for targets that
    group them (`@grouped`), the key of the group."""
    variant = written_tool(target)
    wire = variant["wire"]
    members = wire["@merge"] if isinstance(wire, dict) and "@merge" in wire else [wire]
    env = {"name": "name", "schema": "schema"}
    if _strict_inline(target):
        env["strict"] = "strict"
    if described:
        env["description"] = "description"
    exprs = []
    for member in members:
        if isinstance(member, dict) and list(member) == ["@schema_member"]:
            key, _openapi, schema = member["@schema_member"]
            text = wire_expr(schema, env)
            if text is not None:  # no schema (None): the key is left out
                given = env["schema"]  # a schema transform keeps None as None
                exprs.append(f"({{{key!r}: {text}}} if {given} is not None else {{}})")
        else:
            text = wire_expr(member, env)
            if text is not None:
                exprs.append(text)
    return " | ".join(exprs) if len(exprs) > 1 else exprs[0], _tool_group(target)


def _strict_inline(target: Json) -> bool:
    """Whether the target's tool declaration writes `strict` through `@explicit_default` (in
    the declaration's expression, given or not: Responses reads no flag as strict)."""
    variant = written_tool(target)
    return "explicit_default" in _ops(variant["wire"])


def _tool_group(target: Json) -> str:
    tools = target["request"]["wire"].get("tools")  # None: nested (Bedrock: `toolConfig`)
    if isinstance(tools, dict) and list(tools) == ["@grouped"]:
        (key,) = tools["@grouped"][0]  # the group of declarations (a pass writes no hosted tool)
        return str(key)
    return ""


def _envelope_order(target: Json) -> list[str]:
    return list(target["request"]["wire"])


def _tool_choice_merge(target: Json) -> tuple[list[tuple[str, str, bool]], Json]:
    """What the target merges into its tool_choice beside the codec's value (Anthropic:
    `disable_parallel_tool_use`, the negated `parallel_tool_calls`): (wire key, canonical
    parameter, negated) each, and the constant base used when no tool_choice is given."""
    by_var = {
        variable_of(v): k for k, v in target["request"]["canonical"].get("parameters", {}).items()
    }
    found: list[tuple[str, str, bool]] = []
    base: Json = None

    def walk(node: Json) -> None:
        nonlocal base
        if not isinstance(node, dict):
            return
        if "@merge" in node and any(
            isinstance(m, dict) and m.get("@codec", [None])[0] == "tool_choice"
            for m in node["@merge"]
        ):
            for member in node["@merge"][1:]:
                if not variables_of(member):
                    base = member
                    continue
                ((key, value),) = member.items()
                negated = isinstance(value, dict) and list(value) == ["@negate"]
                var = variable_of(value["@negate"] if negated else value)
                if var not in by_var:
                    raise PairError(f"tool_choice merges {member}")
                found.append((key, by_var[var], negated))
            return
        for value in node.values():
            walk(value)

    walk(target["request"]["wire"])
    return found, base


@dataclass(frozen=True)
class ResponseFormat:
    """A structured-output request, read from the source and written by the target."""

    box: str  # the source's key holding a schema request's fields (`json_schema`)
    fields: tuple[tuple[str, str], ...]  # (canonical field, source key), canonical order
    default_name: Json  # the name the source reads as none given (`@default`)
    written: dict[str, tuple[str, frozenset[str]]]  # canonical type -> (target expr, fields)
    path: tuple[str, ...]  # where the target writes it
    merged: bool  # merged into the object at ``path`` (Gemini's generationConfig)
    plain: tuple[str, ...]  # the source's requests that are a type alone (`text`, `json_object`)
    # Canonical types the target writes in a way the pass does not compile (Bedrock's schema
    # as JSON text, with its name and description): such bodies take the two-step path.
    unwritten: frozenset[str] = frozenset()
    # By canonical type: where the written value holds a field the request may leave out (a
    # schema's description), each removed when the request gives none.
    optional: Mapping[str, tuple[tuple[str, ...], ...]] | None = None


def _defaulted(wire: Json) -> set[str]:
    """The variables a wire template writes through `@default` (a placeholder when absent)."""
    if isinstance(wire, dict):
        if list(wire) == ["@default"]:
            return variables_of(wire["@default"][0])
        return set().union(*(_defaulted(value) for value in wire.values()))
    return set()


def _response_format(source: Json, target: Json, required: frozenset[str]) -> ResponseFormat:
    """``required``: the keys of the source's json_schema box its reading schema requires (a
    target's `@default` of one is always given; of another, the two-step path writes it)."""
    s_variant = part_variant(source, "response_format", type="json_schema", codec=True)
    canonical, wire = s_variant["canonical"], s_variant["wire"]
    (box,) = [k for k in wire if k != "type"]
    by_var = {variable_of(v): k for k, v in canonical.items()}
    fields, default_name = [], None
    for key, value in wire[box].items():
        read = value
        if isinstance(value, dict) and list(value) == ["@default"]:
            read, default_name = value["@default"]
        fields.append((by_var[variable_of(read)], key))
    order = list(canonical)
    fields.sort(key=lambda f: order.index(f[0]))
    written: dict[str, tuple[str, frozenset[str]]] = {}
    unwritten: set[str] = set()
    optional: dict[str, tuple[tuple[str, ...], ...]] = {}
    # The fields beside the schema, from the request's box (`box` in the pass, read and checked
    # where the request's json_schema is read).
    env = {field: f"box.get({key!r})" for field, key in fields if field != "schema"}
    env["schema"] = "rf_schema"
    given = {field for field, key in fields if key in required}
    for variant in target["codecs"].get("response_format", []):
        kind = variant["canonical"]["type"]
        if kind in written or kind in unwritten:
            continue  # the first variant of a type is the one written
        defaulted = _defaulted(variant["wire"])
        text = _rf_expr(variant["wire"], env) if defaulted <= given else ""
        if text == "":
            unwritten.add(kind)
            continue
        paths = _var_paths(variant["wire"], env.keys() - {"schema"} - defaulted)
        if paths:
            optional[kind] = paths
        if text is not None:
            written[kind] = (text, frozenset(variant["canonical"]) - {"type"})
    path, merged = _codec_path(target["request"]["wire"], "response_format")
    if len(path) > 2:
        raise PairError("a response_format nested deeper than one object")
    plain = tuple(
        v["wire"]["type"]
        for v in source["codecs"]["response_format"]
        if not variables_of(v["wire"]) and v["canonical"] == {"type": v["wire"]["type"]}
    )
    return ResponseFormat(
        box,
        tuple(fields),
        default_name,
        written,
        path,
        merged,
        plain,
        frozenset(unwritten),
        optional or None,
    )


def _rf_expr(wire: Json, env: Mapping[str, str]) -> str | None:
    """A response_format variant's wire expression (None: left out); "" when the pass cannot
    write it (a field the source does not give, a transform the composer does not compile)."""
    if variables_of(wire) - env.keys():
        return ""
    try:
        return wire_expr(wire, env)
    except PairError:
        return ""


def _var_paths(wire: Json, names: Iterable[str]) -> tuple[tuple[str, ...], ...]:
    """Where in a wire template (plain objects only) each of these variables sits."""
    wanted = set(names)
    found: list[tuple[str, ...]] = []

    def walk(node: Json, path: tuple[str, ...]) -> None:
        if variable_of(node) in wanted:
            found.append(path)
        elif isinstance(node, dict):
            if any(key.startswith("@") for key in node) and variables_of(node) & wanted:
                raise PairError("an optional response_format field inside a transform")
            for key, value in node.items():
                walk(value, (*path, key))

    walk(wire, ())
    return tuple(found)


def _codec_path(wire: Json, codec: str) -> tuple[tuple[str, ...], bool]:
    """Where a request writes a codec's value, and whether it merges into the object there."""

    def find(node: Json, path: tuple[str, ...]) -> tuple[tuple[str, ...], bool] | None:
        if not isinstance(node, dict):
            return None
        if list(node) == ["@codec"] and node["@codec"][0] == codec:
            return path, False
        if list(node) == ["@merge"]:
            for member in node["@merge"]:
                if isinstance(member, dict) and member.get("@codec", [None])[0] == codec:
                    return path, True
                got = find(member, path)
                if got is not None:
                    return got
            return None
        for key, value in node.items():
            if not key.startswith("@"):
                got = find(value, (*path, key))
                if got is not None:
                    return got
        return None

    found = find(wire, ())
    if found is None:
        raise PairError(f"no {codec} in the target's request")
    return found


def _tools_path(target: Json) -> tuple[str, ...]:
    """Where the target writes its tool declarations (Bedrock: inside `toolConfig`, beside the
    tool choice)."""

    def find(node: Json, path: tuple[str, ...]) -> tuple[str, ...] | None:
        if not isinstance(node, dict) or "tools" not in variables_of(node):
            return None
        if any(key.startswith("@") for key in node):
            return path
        for key, value in node.items():
            got = find(value, (*path, key))
            if got is not None:
                return got
        return None

    found = find(target["request"]["wire"], ())
    if found is None or len(found) > 2:
        raise PairError("tools declared deeper than one object")
    return found


def _grouped_tools(target: Json) -> None:
    """Tools nested in an object (Bedrock's `toolConfig`) are written with the tool choice
    beside them: the two must share the object, and nothing be merged into the choice."""
    tools = _tools_path(target)
    if len(tools) == 2 and (
        _tool_choice_key(target)[:1] != tools[:1] or _tool_choice_merge(target)[0]
    ):
        raise PairError("tools nested apart from the tool choice")


def _result_variant(target: Json) -> Json:
    """The tool result variant a result with text content only is written by: the first whose
    canonical template fixes nothing but the type (Bedrock's first ones fix `is_error`)."""
    for variant in target["parts"]["tool_result"]:
        fixed = {
            k for k, v in variant["canonical"].items() if k != "type" and variable_of(v) is None
        }
        if not fixed:
            return variant
    raise PairError(f"{target['format']} has no tool result variant for text alone")


def _result_content(target: Json) -> str:
    """The expression of a result's one text as the target writes it: as parts (`@parts`), a
    list of one text block, unless the target writes one text as a string (`text_shorthand`);
    else the text (what a result object wraps)."""
    if target["layout"].get("text_shorthand") in (True, "request") or "parts" not in _ops(
        _result_variant(target)["wire"]
    ):
        return "result_text"
    block = wire_expr(part_variant(target, "text")["wire"], {"text": "result_text"})
    return f"[{block}]"


def _web_image(target: Json) -> str | None:
    """The target's block of an image by web URL; None when no variant takes one (Bedrock's
    URL variants take `s3://` locations only: the two-step path drops the part, reported)."""
    wire = part_variant(target, "image", source={"type": "url"})["wire"]
    for scheme in _url_schemes(wire):
        if scheme not in ("http", "https"):
            return None
    return wire_expr(wire, {"url": "url"})


def _detail_key(target: Json) -> str | None:
    """The key of an image block holding the source's `detail` (None: the target has no place
    for it, reported): the same key in every image variant the pass writes."""
    keys = set()
    for source in ("base64", "url"):
        wire = part_variant(target, "image", source={"type": source})["wire"]
        keys.add(next((k for k, v in wire.items() if variable_of(v) == "detail"), None))
    if len(keys) > 1:
        raise PairError("image variants that hold `detail` apart")
    return keys.pop()


def _items_layout(target: Json) -> bool:
    """Whether the target lays its conversation out as items (Responses' `input`: messages,
    and each call and each result an item of its own). The pass writes that layout only as
    this composer knows it: the system prompt hoisted (system messages only) to one string,
    a developer message kept in the list, no alternation, each result a message of its own,
    calls and results tags the items own; anything else fails generation."""
    layout = target["layout"]
    items = layout.get("items")
    if not items:
        return False
    owners = items["owners"]
    call_tag = target["parts"]["tool_call"][0]["wire"]["type"]
    result_tag = _result_variant(target)["wire"]["type"]
    known = (
        layout.get("system"),
        layout.get("hoist_roles"),
        layout.get("tool_results"),
        layout.get("alternate"),
        owners.get(call_tag),
        owners.get(result_tag),
        layout.get("tools_for_history", False),
        target["roles"].get("developer") not in (None, target["roles"].get("system")),
    )
    if known != ("hoist", ["system"], "own_message", False, "assistant", "tool", False, True):
        raise PairError(f"{target['format']}: an item layout the pair composer does not know")
    result = _result_variant(target)["wire"]
    if "name" in variables_of(result):  # results stand alone, unpaired
        raise PairError(f"{target['format']}: an item layout whose results name their tool")
    if "parts" not in _ops(result):  # its texts written as the target's text blocks
        raise PairError(f"{target['format']}: an item layout whose results are not parts")
    return True


def _url_schemes(node: Json) -> list[str]:
    if isinstance(node, dict):
        if "@url_scheme" in node:
            return [str(node["@url_scheme"][0])]
        return [s for value in node.values() for s in _url_schemes(value)]
    return []


#: What could make a pattern that matches the opening of a URL fail on the whole of it.
_CONTEXT_SENSITIVE = re.compile(r"\$|\\[ZbB]|\(\?[=!<]")


def implied_url_pattern(pattern: str, kinds: Iterable[str]) -> None:
    """Fail unless an image URL meets ``pattern`` (the reading schema's) whenever it opens as
    ``https://``, ``http://`` or ``data:<kind>;base64,`` for a media type the pass takes, as
    spelled (`pair.py.j2` then asks the pattern only of another spelling: a regex search cost
    a fifth of an image's part of the pass, callgrind). A match inside that opening stands in
    the whole URL when the pattern looks at nothing after it: no end anchor, word boundary or
    lookaround."""
    openings = ["https://", "http://", *(f"data:{kind};base64," for kind in sorted(kinds))]
    found = _CONTEXT_SENSITIVE.search(pattern)
    if found is not None:
        raise PairError(f"an image URL pattern that looks past a match ({found.group()})")
    for opening in openings:
        if opening.lower() != opening:  # the pass's fallback asks the lower-cased type
            raise PairError(f"a media type not in lower case: {opening!r}")
        if re.search(pattern, opening) is None:
            raise PairError(f"an image URL pattern that refuses {opening!r}")


def _words_constant(transform: str) -> str:
    """The generated module's constant holding a format-word table (`IMAGE_FORMAT_WORDS`)."""
    return transform.upper() + "S"


def _image_words(target: Json) -> tuple[dict[str, dict[str, str]], list[str]]:
    """The format-word tables the target's base64 image block uses, by constant name, each for
    the media types the pass lets through; and those media types (the ones with a word).

    The tables live with their transforms (interlingua.conversion.transforms.media): each is
    asked, at generation time, the word of every media type the pass takes."""
    from interlingua.conversion import Context  # noqa: PLC0415 (the generator runs without it otherwise)
    from interlingua.conversion.transforms import TRANSFORMS  # noqa: PLC0415
    from interlingua.conversion.transforms.base import Mismatch  # noqa: PLC0415

    wire = part_variant(target, "image", source={"type": "base64"})["wire"]
    kinds = one_of_types(wire)
    tables: dict[str, dict[str, str]] = {}
    for name in sorted(_ops(wire)):
        if not name.endswith("_format_word"):
            continue
        table: dict[str, str] = {}
        for kind in kinds:
            ctx = Context(adapter=target["format"])
            try:
                word = TRANSFORMS[name].encode(ctx, "", kind)
            except Mismatch:
                continue
            if not ctx.losses:
                table[kind] = word
        tables[_words_constant(name)] = table
        kinds = [kind for kind in kinds if kind in table]
    return tables, kinds


def _ops(node: Json) -> set[str]:
    """The transforms a wire template uses, by name."""
    if isinstance(node, dict):
        found = {key[1:] for key in node if key.startswith("@")}
        return found.union(*(_ops(value) for value in node.values()))
    if isinstance(node, list):
        return set().union(*(_ops(value) for value in node))
    return set()


def _tool_choice_key(target: Json) -> tuple[str, ...]:
    """Where the target writes tool_choice (a path: Gemini nests it)."""

    def find(node: Json, path: tuple[str, ...]) -> tuple[str, ...] | None:
        if isinstance(node, dict):
            if "@codec" in node and node["@codec"][0] == "tool_choice":
                return path
            if "@merge" in node:
                for member in node["@merge"]:
                    got = find(member, path)
                    if got is not None:
                        return got
                return None
            for key, value in node.items():
                if not key.startswith("@"):
                    got = find(value, (*path, key))
                    if got is not None:
                        return got
        return None

    found = find(target["request"]["wire"], ())
    if found is None:
        raise PairError("no tool_choice in the target")
    return found


def _image_data(target: Json) -> tuple[str | None, bool]:
    """The target's block of a data-URL image, and whether it needs the data sliced out of
    the URL. The pass reads the media type and the data out of `url`, which is that URL: a
    target that takes a data URL is given it as it came, not sliced and joined again."""
    wire = part_variant(target, "image", source={"type": "base64"})["wire"]
    env = {"media_type": "media_type", "data": "data", "@data_url": "url"}
    expr = wire_expr(wire, env)
    return expr, expr != wire_expr(wire, env | {"data": "renamed"})  # does it name the data?


def canonical_definitions(name: str) -> dict[str, Json]:
    """The definitions of one canonical schema file (schemas/v1/<name>.json): what a composer,
    which is given the mapping files and not the bundle, reads of the canonical form."""
    path = SCHEMAS / "v1" / f"{name}.json"
    defs: dict[str, Json] = json.loads(path.read_text(encoding="utf-8"))["$defs"]
    return defs


def parameter_defaults() -> dict[str, bool | None]:
    """The canonical parameters whose value says what their absence says (`x-default`): a
    target without the parameter loses nothing at it. The passes test them by identity, so
    each is a boolean or null."""
    found = x_defaults(canonical_definitions("envelope")["GenerationParameters"])
    for name, value in found.items():
        if value is not None and type(value) is not bool:
            raise PairError(f"parameters.{name}: a default the passes do not test ({value!r})")
    return found


def pair_values(source: Json, target: Json) -> dict[str, Any]:
    """Everything `pair.py.j2` needs for one pair."""
    source, target = without_free_form(source), without_free_form(target)
    s_layout, t_layout = source["layout"], target["layout"]
    if (s_layout.get("system"), s_layout.get("tool_results")) != ("inline", "own_message"):
        raise PairError(f"{source['format']}: only inline system and own tool messages read")
    items = _items_layout(target)
    image_data = _image_data(target)
    if not items and (
        t_layout.get("system"),
        t_layout.get("tool_results"),
        t_layout.get("alternate"),
    ) != ("hoist", "user_blocks", True):
        raise PairError(f"{target['format']}: only hoisted system and user result blocks written")
    paths, defaults = target_paths(target)
    params = [Param(p.wire, p.name, p.listed, paths.get(p.name)) for p in _source_params(source)]
    for param in params:
        if param.target is not None:
            _written_alone(target, param.target)
    explicit = explicit_defaults(target)
    if not explicit.keys() <= {p.name for p in params}:
        raise PairError(f"{target['format']}: a default spelled out that the source does not read")
    s_text = part_variant(source, "text")["wire"]
    s_image = part_variant(source, "image", source={"type": "url"})["wire"]
    (image_tag,) = [k for k in s_image if k != "type"]
    s_call = source["parts"]["tool_call"][0]
    s_result = source["parts"]["tool_result"][0]["wire"]
    call_fn = next(k for k, v in s_call["wire"].items() if isinstance(v, dict) and "name" in v)
    t_roles = target["roles"]
    tool_expr, tool_group = _tool_expr(target)
    system_form = t_layout.get("system_form")
    if system_form not in (("string",) if items else ("string_or_blocks", "content", "blocks")):
        raise PairError(f"system form {system_form}")
    aliases = param_aliases(source, params)
    checks = _checks(source, params, aliases, s_text, s_image, s_call["wire"])
    complex_params = _complex_params(target, paths)
    implied_url_pattern(checks.image_url_pattern, _image_words(target)[1])
    _grouped_tools(target)
    thinking = [
        variant
        for variant in source["parts"].get("thinking", [])
        if "slot" in variant and variant["wire"] == "$text"
    ]
    return {
        "source": source["format"],
        "target": target["format"],
        "param_defaults": parameter_defaults(),
        "s_messages": s_layout["messages"],
        "s_role": s_layout["role"],
        "s_content": s_layout["content"],
        "s_tag": s_layout["block_tag"],
        "s_roles": {wire: canon for canon, wire in source["roles"].items()},
        "s_text_tag": s_text["type"],
        "s_text_key": next(k for k in s_text if k != "type"),
        "s_image_tag": s_image["type"],
        "s_image_box": image_tag,
        "s_image_url": next(iter(s_image[image_tag])),
        "s_image_keys": frozenset(s_image[image_tag]),
        "s_calls": s_call["slot"],
        # The fields the source reads as the model's reasoning (a thinking part each, in this
        # order, before its text): the target cannot replay it, so the pass reports it.
        "s_thinking_slots": [variant["slot"] for variant in thinking],
        "s_thinking_part": thinking[0]["canonical"]["type"] if thinking else None,
        "s_call_id": "id",
        "s_call_fn": call_fn,
        "s_call_keys": frozenset(s_call["wire"]),
        "s_call_type": s_call["wire"]["type"],
        "s_fn_keys": frozenset(s_call["wire"][call_fn]),
        "s_result_id": next(k for k in s_result if k != "content"),
        "s_result_content": "content",
        "s_tool_choices": _source_tool_choices(source),
        "s_tool_type": written_tool(source)["wire"]["type"],
        "s_tool_fn": next(
            k for k, v in written_tool(source)["wire"].items() if isinstance(v, dict)
        ),
        "s_tool_read": sorted(
            {key for variant in source["codecs"]["tool"] for key in variant["wire"]}
            - set(written_tool(source)["wire"])
        ),
        "s_tool_fn_keys": sorted(
            next(v for v in written_tool(source)["wire"].values() if isinstance(v, dict))
        ),
        "s_aliases": aliases,
        "s_read_keys": frozenset(
            [
                *source["request"]["wire"],
                *source["request"].get("aliases", {}),
                s_layout["messages"],
            ]
        ),
        "s_id_rule": rule_pattern(charset_rule(source.get("ids", {}).get("tool_call"))),
        "params": params,
        "defaults": defaults,
        "explicit": explicit,
        "complex_params": complex_params,
        "only": {k: v for k, v in only_words(source, target).items() if k not in complex_params},
        "model": _model(target),
        "envelope": _envelope_order(target),
        "t_messages": t_layout["messages"],
        "t_role": t_layout["role"],
        "t_content": t_layout["content"],
        "t_user": t_roles["user"],
        "t_assistant": t_roles["assistant"],
        "t_system_field": t_layout["system_field"],
        "t_system_form": system_form,
        "t_shorthand": t_layout.get("text_shorthand") in (True, "request"),
        "t_developer_is_system": t_roles.get("developer") == t_roles.get("system"),
        "t_text": wire_expr(part_variant(target, "text")["wire"], {"text": "text"}),
        "t_text_assistant": wire_expr(
            part_variant(target, "text", role="assistant")["wire"], {"text": "text"}
        ),
        "t_items": items,
        # Blank text written as it is (Responses), or left out, reported (the pass then sends
        # the body the two-step way).
        "t_keep_blank": t_layout.get("blank_text", layout_defaults()["blank_text"]) == "keep",
        "t_developer": t_roles.get("developer"),
        "t_image_detail": _detail_key(target),
        "t_image_data": image_data[0],
        "t_image_sliced": image_data[1],
        "t_image_url": _web_image(target),
        "t_image_kinds": frozenset(_image_words(target)[1]),
        "t_words": _image_words(target)[0],
        "t_image_by_extension": _uses(target, "image", "file_ref"),
        "t_call": wire_expr(
            target["parts"]["tool_call"][0]["wire"],
            {"id": "call_id", "name": "call_name", "arguments": "arguments"},
        ),
        "t_result": wire_expr(
            _result_variant(target)["wire"],
            {"id": "call_id", "name": "result_name", "content": _result_content(target)},
        ),
        "t_tools_path": _tools_path(target),
        "t_tools_for_history": bool(t_layout.get("tools_for_history")),
        "t_tool": tool_expr,
        "t_schema_helpers": schema_helpers(tool_expr),
        "t_tool_bare": _tool_expr(target, described=False)[0],
        "t_tool_group": tool_group,
        "t_tool_choices": tool_choices(target),
        "t_tool_choice_path": _tool_choice_key(target),
        "t_choice_merge": _tool_choice_merge(target)[0],
        # By merged key: the tag key and the tool_choice variants that do not take it.
        "t_choice_refused": {
            key: refused(target["format"], _tool_choice_key(target)[0], key)
            for key, _name, _negated in _tool_choice_merge(target)[0]
        },
        "rf": _response_format(source, target, checks.rf_required),
        "t_choice_base": _tool_choice_merge(target)[1],
        "t_name_rule": rule_pattern(charset_rule(target.get("ids", {}).get("tool_name"))),
        "t_id_rule": rule_pattern(charset_rule(target.get("ids", {}).get("tool_call"))),
        "t_name_word": word_rule(charset_rule(target.get("ids", {}).get("tool_name"))),
        "t_id_word": word_rule(charset_rule(target.get("ids", {}).get("tool_call"))),
        "checks": checks,
        "py_types": py_types,
        "t_ranges": ranges_by_parameter(target),
        "s_defaults": unread_defaults(source, of_turns=True),
        "s_turn_defaults": {
            key: tuple(values) for key, values in source["layout"].get("turn_defaults", {}).items()
        },
    }


def unread_defaults(
    source: Json, group: str | None = None, *, of_parts: bool = False, of_turns: bool = False
) -> dict[str, dict[str, tuple[Any, ...]]]:
    """The source's request `defaults` (values never reported though nothing reads them) by
    the object holding them: `""` the body, else ``group`` (the object of its parameters). A
    pass reports what reading leaves of those two only, so a default anywhere else is an error
    here rather than a report the two-step path would not give; so are a part variant's
    `defaults` and the layout's `turn_defaults` where the pass does not read them (``of_parts``,
    ``of_turns``: it does)."""
    if not of_parts:
        for part_type, variants in source["parts"].items():
            if any("defaults" in variant for variant in variants):
                raise PairError(f"`defaults` of a {part_type} block: outside what the pass reports")
    if not of_turns and source["layout"].get("turn_defaults"):
        raise PairError("`turn_defaults`: outside what the pass reports")
    out: dict[str, dict[str, tuple[Any, ...]]] = {}
    for outer, keys in defaults_by_object(source["request"].get("defaults", {})).items():
        holder = ".".join(outer)
        if holder not in ("", group):
            raise PairError(f"a default in {holder}: outside what the pass reports")
        out[holder] = keys
    return out


def param_aliases(source: Json, params: list[Param]) -> dict[str, str]:
    """The source's aliases of the parameters the pass reads. An alias of another field (OpenAI
    Chat's deprecated `functions` for `tools`) is outside the pass: such a body goes two-step."""
    wires = {p.wire for p in params}
    aliases: dict[str, str] = source["request"].get("aliases", {})
    return {alias: wire for alias, wire in aliases.items() if wire in wires}


def _checks(
    source: Json, params: list[Param], aliases: dict[str, str], *parts: Json
) -> SourceChecks:
    """What the pass checks of its source in place of the reading schema (pair_checks.py)."""
    layout = source["layout"]
    listed = {p.wire: p.listed for p in params}
    listed.update({alias: listed[wire] for alias, wire in aliases.items()})
    read = {"model", layout["messages"], "tools", "tool_choice", "response_format", *listed}
    handled = ("user", "assistant", "tool", "system", "developer")
    roles = {wire for canonical, wire in source["roles"].items() if canonical in handled}
    tags = {part["type"] for part in parts if isinstance(part, dict) and "type" in part}
    tags |= {written_tool(source)["wire"]["type"]}
    tags |= {v["wire"]["type"] for v in source["codecs"]["response_format"]}
    try:
        checks = source_checks(source, read, listed, {layout["role"]: roles, "type": tags})
    except CheckError as exc:
        raise PairError(str(exc)) from None
    for alias, wire in aliases.items():
        if checks.param_types[alias] != checks.param_types[wire]:
            raise PairError(f"{alias} and {wire} take different types")
    modes = set(_source_tool_choices(source))
    if not modes <= checks.tool_choice_modes:
        raise PairError(
            f"tool_choice values the schema refuses: {modes - checks.tool_choice_modes}"
        )
    return checks


def py_types(types: tuple[str, ...]) -> str:
    """Python source of the tuple of types a value is checked against (`type(v) in ...`)."""
    names = ["type(None)" if name == "None" else name for name in types]
    return "(" + ", ".join(names) + ("," if len(names) == 1 else "") + ")"


def one_of_types(wire: Json) -> list[str]:
    """The media types a target's `@one_of` lists (every image type when there is none)."""
    found: list[str] = []

    def walk(node: Json) -> None:
        if isinstance(node, dict):
            if "@one_of" in node:
                found.extend(str(node["@one_of"][1]).split())
            for value in node.values():
                walk(value)

    walk(wire)
    return found or ["image/jpeg", "image/png", "image/gif", "image/webp"]


def _uses(target: Json, part: str, op: str) -> bool:
    return any(f"@{op}" in repr(v["wire"]) for v in target["parts"].get(part, []))


def mappings_by_format(inputs: Any) -> dict[str, Json]:
    """Each format's mapping as the passes see it: without its free-form tools' variants."""
    return {
        plan.mapping.data["format"]: without_free_form(plan.mapping.data)
        for plan in inputs.adapter_plans
    }


# What marks a variant of a free-form (custom) tool, call, choice or result: a body holding one
# is outside every pass's shape (its tag is none the pass reads), so it goes the two-step way.
_FREE_FORM_FIELDS = frozenset({"free_form", "input_format"})  # of the canonical template
_FREE_FORM_TRANSFORMS = frozenset(  # of the wire template (transforms/free_form.py)
    {"@free_form_tool", "@free_form_choice", "@free_form_call", "@free_form_answer"}
)


def _free_form(variant: Json) -> bool:
    canonical = variant["canonical"]
    if isinstance(canonical, dict) and _FREE_FORM_FIELDS & set(canonical):
        return True
    return bool(_FREE_FORM_TRANSFORMS & _call_names(variant["wire"]))


def _call_names(template: Any) -> set[str]:
    """The transforms and built-ins a template calls, at any depth."""
    if isinstance(template, dict):
        return {k for k in template if k.startswith("@")}.union(
            *map(_call_names, template.values())
        )
    if isinstance(template, list):
        return set().union(*map(_call_names, template))
    return set()


def without_free_form(mapping: Json) -> dict[str, Any]:
    """``mapping`` without the variants that write or read free-form tools."""
    out = dict(mapping)
    for section in ("parts", "codecs"):
        out[section] = {
            name: [v for v in variants if not _free_form(v)]
            for name, variants in mapping.get(section, {}).items()
        }
    return out


def _tool_fields(target: Json) -> dict[str, Any]:
    """How the target declares a tool's `strict` flag and an empty description: where its
    declaration holds the flag (None: it has no place for it, reported as the writer reports
    it); whether it leaves an empty description out (`@non_empty`: it refuses one)."""
    variant = written_tool(target)
    wire = variant["wire"]
    members = wire["@merge"] if isinstance(wire, dict) and "@merge" in wire else [wire]
    inline = _strict_inline(target)
    paths = [
        p for m in members if isinstance(m, dict) and not inline for p in _var_paths(m, {"strict"})
    ]
    if len(paths) > 1:
        raise PairError("a tool's strict flag written twice")
    return {
        "t_strict_path": paths[0] if paths else None,
        "t_strict_inline": inline,
        # The target refuses an empty description: the pass leaves it out (it carries nothing,
        # and the transform reports nothing either).
        "t_empty_description": "non_empty" in _ops(wire),
    }


def pair_modules(inputs: Any) -> Iterator[tuple[dict[str, str], dict[str, Any]]]:
    """The manifest's producer: the values of each pair module, by the module's name."""
    mappings = mappings_by_format(inputs)
    plans = {plan.mapping.data["format"]: plan for plan in inputs.adapter_plans}
    for source, target in PAIRS:
        if reads_blocks(mappings[source]) or reads_items(mappings[source]):
            continue  # generator/pairs_from_blocks.py, generator/pairs_from_items.py
        values = pair_values(mappings[source], mappings[target])
        plan = plans[source]
        layout = {**layout_defaults(), **plan.mapping.data["layout"]}
        values["s_turn_keys"] = known_turn_keys(layout, plan.slots)
        values.update(_tool_fields(mappings[target]))
        yield {"module": module_name(source, target)}, values


def pairs_index(inputs: Any) -> Iterator[tuple[dict[str, str], dict[str, Any]]]:
    """The manifest's producer of the package's index: every pair, by (source, target)."""
    yield {}, {"pairs": [(s, t, module_name(s, t)) for s, t in PAIRS]}
