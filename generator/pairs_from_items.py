"""Fused pair converters whose source lays its conversation out as items (OpenAI Responses:
`input` a string or a flat list of message items and items of their own for each function
call and each call's output, the system prompt hoisted to `instructions`), to a target that
keeps every role in its message list (OpenAI Chat). Issue 16: fused pairs both ways.

The pairs of :data:`generator.pairs.PAIRS` whose source has an item layout are composed here.
As for the other composers, everything is worked out at generation time from the two mapping
files and the source's reading schema (generator/item_checks.py), and
`templates/python/pair_from_items.py.j2` writes it as straight-line code. A layout, part or
transform this composer does not know fails generation (:class:`~generator.pairs.PairError`).

The pass groups the items as the two-step reader does (`interlingua.conversion.adapters.items`,
`layout.items.owners`): a message item starts a message; a function call joins the model's
message before it (its text first), or starts one; each call's output is a tool message of its
own. The shape it covers: instructions, message items of the roles both formats have (text,
and images in user messages), function calls and their text outputs, function tools, every
tool_choice but the hosted ones, structured output, the sampling parameters and the reasoning
effort, and reasoning items: a reasoning item joins the model's message as a call does (or
starts one, which a text of the model may then join); the target cannot replay it, so the pass
reports it where that message holds it (thinking="drop", the only policy fused passes serve),
and a message of reasoning alone is dropped, reported. Anything else (hosted-tool and other
items, files, audio, refusals, citations, a text after a call in one message, reasoning beside
an empty text, ids or names the target would rewrite, blank text) sends the body the two-step
way, with the reason.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from generator.item_checks import ItemChecks, item_checks
from generator.pair_checks import CheckError
from generator.pairs import (
    PAIRS,
    PairError,
    described_strict_exprs,
    hosted_tool_tags,
    mappings_by_format,
    module_name,
    one_of_types,
    only_of,
    only_words,
    parameter_defaults,
    part_variant,
    py_types,
    reads_items,
    unread_defaults,
    variable_of,
    variables_of,
    wire_expr,
    without_free_form,
    written_tool,
)
from generator.pairs_from_blocks import keys_holding, target_fields, target_writes
from generator.ranges import ranges_by_parameter

Json = Any

# The canonical roles of the message items the pass converts (a system prompt is the
# hoisted field's; a tool message is a function call's output item).
_MESSAGE_ROLES = ("user", "developer", "assistant")


def _op_args(node: Json, op: str) -> list[Json]:
    """The arguments of a transform (`{"@op": [...]}`), or a PairError."""
    if not isinstance(node, dict) or list(node) != [f"@{op}"]:
        raise PairError(f"expected @{op}, found {node!r}")
    args = node[f"@{op}"]
    return args if isinstance(args, list) else [args]


def _key_of(wire: Json, op: str) -> str:
    """The one key of a wire template whose value is a transform ``op``."""
    keys = [k for k, v in wire.items() if isinstance(v, dict) and f"@{op}" in v]
    if len(keys) != 1:
        raise PairError(f"no single key holds @{op} in {wire}")
    return str(keys[0])


def _source_texts(source: Json) -> list[tuple[str, str, str | None]]:
    """Each text part the source reads: its tag, its text key, its citations key (None: it
    has none)."""
    found = []
    for variant in source["parts"]["text"]:
        canonical, wire = variant["canonical"], variant["wire"]
        if set(canonical) - {"type", "text", "citations"}:
            raise PairError(f"{source['format']}: a text part the item composer does not read")
        text_key = keys_holding(wire, text="text")["text"]
        cites = [k for k, v in wire.items() if "citations" in variables_of(v)]
        found.append((wire["type"], text_key, cites[0] if cites else None))
    return found


def _source_image(source: Json) -> dict[str, Any]:
    """The source's image part: its tag, the key holding its URL (a data URL or a web URL),
    the key of its detail, the media types it reads."""
    base64 = part_variant(source, "image", source={"type": "base64"})["wire"]
    url = part_variant(source, "image", source={"type": "url"})["wire"]
    key = _key_of(base64, "data_url")
    if _key_of(url, "web_url") != key or base64["type"] != url["type"]:
        raise PairError(f"{source['format']}: images the item composer does not read")
    return {
        "s_image_tag": base64["type"],
        "s_image_key": key,
        "s_detail_key": keys_holding(base64, detail="detail")["detail"],
        "s_image_kinds": one_of_types(base64),
    }


def _source_items(source: Json) -> dict[str, Any]:
    """The source's function call and output items, by their tags and keys."""
    owners = source["layout"]["items"]["owners"]
    call = source["parts"]["tool_call"][0]["wire"]
    result = source["parts"]["tool_result"][0]["wire"]
    if owners.get(call["type"]) != "assistant" or owners.get(result["type"]) != "tool":
        raise PairError(f"{source['format']}: calls and outputs owned otherwise")
    arguments = keys_holding(call, arguments="arguments")["arguments"]
    _op_args(call[arguments], "json_string")
    output = keys_holding(result, content="content")["content"]
    _op_args(result[output], "parts")
    return {
        "s_call_tag": call["type"],
        "s_call": keys_holding(call, id="id", name="name", arguments="arguments"),
        "s_result_tag": result["type"],
        "s_result": keys_holding(result, id="id", content="content"),
        # The canonical part each is read as (the part type of what reading reports of it).
        "s_call_part": source["parts"]["tool_call"][0]["canonical"]["type"],
        "s_result_part": source["parts"]["tool_result"][0]["canonical"]["type"],
        # What reading takes of each item: anything else is reported (a call's item id).
        "s_call_known": sorted(call),
        "s_result_known": sorted(result),
        # The values of their other fields that tell nothing (never reported).
        "s_call_defaults": _defaults(source["parts"]["tool_call"][0]),
        "s_result_defaults": _defaults(source["parts"]["tool_result"][0]),
    }


def _defaults(variant: Json) -> dict[str, tuple[Any, ...]]:
    """A part variant's `defaults`: the values of its block's other fields that tell nothing."""
    return {key: tuple(values) for key, values in variant.get("defaults", {}).items()}


#: The keys of one paragraph of a text the `@paragraphs` transform reads (its tag, its text):
#: the transform's own (interlingua/conversion/transforms/shapes.py, PARAGRAPHS).
PARAGRAPH_KEYS = ("type", "text")


def _source_reasoning(source: Json) -> dict[str, Any]:
    """The source's reasoning item: its tag, the key of its summary (paragraphs of one tag),
    the keys reading takes, and the canonical part it reads as. The target cannot replay
    another format's reasoning, so the pass only reports it (thinking="drop")."""
    owners = source["layout"]["items"]["owners"]
    (variant,) = source["parts"]["thinking"]
    wire = variant["wire"]
    summary = _key_of(wire, "paragraphs")
    paragraph_tag, text = _op_args(wire[summary], "paragraphs")
    if variable_of(text) != "text" or owners.get(wire["type"]) != "assistant":
        raise PairError(f"{source['format']}: reasoning the item composer does not read")
    return {
        "s_reasoning_tag": wire["type"],
        "s_reasoning_summary": summary,
        "s_paragraph_tag": paragraph_tag,
        "s_paragraph_keys": PARAGRAPH_KEYS,
        "s_reasoning_signature": keys_holding(wire, signature="signature")["signature"],
        "s_reasoning_known": sorted(wire),
        "s_reasoning_defaults": _defaults(variant),
        "s_reasoning_part": variant["canonical"]["type"],
    }


def _source_tool(source: Json) -> dict[str, Any]:
    """The source's function tool: its tag, its keys, and the keys its strict flag is read
    from when it leaves it out (`@strict_by_schema`: decided by the schema)."""
    tool = written_tool(source)
    flag_key, schema_key, inner = _op_args(tool["wire"], "strict_by_schema")
    keys = keys_holding(
        inner, name="name", description="description", schema="schema", strict="strict"
    )
    if _op_args(inner[keys["strict"]], "explicit_default")[1:] != [True, False]:
        raise PairError(f"{source['format']}: a strict flag the item composer does not read")
    if (flag_key, schema_key) != (keys["strict"], keys["schema"]):
        raise PairError(f"{source['format']}: strictness read from other keys")
    (tag_key,) = [k for k, v in inner.items() if isinstance(v, str) and not variable_of(v)]
    return {"s_tool_tag_key": tag_key, "s_tool_tag": inner[tag_key], "s_tool": keys}


def _source_choices(source: Json) -> dict[str, Any]:
    """The source's tool_choice: its string values (by canonical type) and the named tool's
    tag key, tag and name key."""
    strings, named = {}, None
    for variant in source["codecs"]["tool_choice"]:
        wire, kind = variant["wire"], variant["canonical"]["type"]
        if variant.get("reads_only") and not variable_of(variant["canonical"].get("name")):
            continue  # a built-in tool chosen by its type: not the pass's tag, the two-step way
        if isinstance(wire, str):
            strings[wire] = kind
        elif kind == "tool" and named is None:
            ((tag_key, tag),) = [(k, v) for k, v in wire.items() if isinstance(v, str)]
            (name_key,) = [k for k, v in wire.items() if "name" in variables_of(v)]
            named = (tag_key, tag, name_key)
        else:
            raise PairError(f"{source['format']}: a tool_choice the item composer does not read")
    if named is None:
        raise PairError(f"{source['format']}: no named tool_choice")
    return {"s_choice_strings": strings, "s_choice_named": named}


def _source_request(source: Json) -> dict[str, Any]:
    """The source's request fields: the parameters read as plain values ((wire key, canonical
    name), in the canonical order), those read from an object ((key, setting, name); the
    object's other settings, read by a transform, by key), and the fields read otherwise
    (outside the pass's shape)."""
    canonical = source["request"]["canonical"]["parameters"]
    by_var = {variable_of(v): k for k, v in canonical.items()}
    order = list(canonical)
    plain, nested, other = [], [], []
    outside: dict[str, list[str]] = {}  # of a nested object, the settings read otherwise
    fields = {}
    explicit: dict[str, tuple[Json, bool]] = {}
    for key, value in source["request"]["wire"].items():
        var = variable_of(only_of(value))  # a word from a list: checked (`only_words`)
        names = variables_of(value)
        if var in by_var:
            plain.append((key, by_var[var]))
        elif isinstance(value, dict) and list(value) == ["@explicit_default"]:
            # Left out, the format's own default; the canonical default reads as none.
            inner, wire_default, canonical_default = value["@explicit_default"]
            if variable_of(inner) not in by_var or not isinstance(canonical_default, bool):
                raise PairError(f"{source['format']}: a default the item composer does not read")
            plain.append((key, by_var[variable_of(inner)]))
            explicit[key] = (wire_default, canonical_default)
        elif "model" in names:
            fields["s_model"] = key
        elif isinstance(value, dict) and value.get("@each", [""])[0] == "tool":
            fields["s_tools"] = key
        elif "tool_choice" in names:
            fields["s_tool_choice"] = key
        elif (
            isinstance(value, dict)
            and len(value) == 1
            and next(iter(value.values())) == {"@codec": ["response_format", "$response_format"]}
        ):
            fields["s_rf"] = (key, next(iter(value)))
        elif isinstance(value, dict) and [
            s for s, inner in value.items() if variable_of(only_of(inner)) in by_var
        ] == [next(iter(value))]:
            # An object of settings: the pass reads its first, a plain or listed word; a body
            # holding one of the others (read by a transform) goes the two-step way.
            setting, *others = value
            nested.append((key, setting, by_var[variable_of(only_of(value[setting]))]))
            if others:
                outside[key] = others
        else:
            other.append(key)
    if sorted(fields) != ["s_model", "s_rf", "s_tool_choice", "s_tools"]:
        raise PairError(f"{source['format']}: a request the item composer does not read")
    plain.sort(key=lambda p: order.index(p[1]))
    wire_order = list(source["request"]["wire"])
    if any(wire_order.index(key) < wire_order.index(fields["s_rf"][0]) for key, *_ in nested):
        raise PairError(f"{source['format']}: a setting read before the structured output")
    return {
        **fields,
        "s_params": plain,
        "s_explicit": explicit,
        "s_nested": nested,
        "s_nested_outside": outside,
        "s_other": other,
    }


def _response_formats(source: Json, target: Json) -> dict[str, Any]:
    """A structured-output request: the source's variants that are a tag alone (each with the
    target's value), its schema variant's tag and keys, and the target's expressions of it (by
    whether a description and a strict flag are given) and its request key."""
    plain, schema = {}, None
    targets = {v["canonical"]["type"]: v["wire"] for v in target["codecs"]["response_format"]}
    for variant in source["codecs"]["response_format"]:
        kind, wire = variant["canonical"]["type"], variant["wire"]
        if kind not in targets:
            raise PairError(f"{target['format']}: no response_format {kind}")
        if not variables_of(wire):
            plain[wire["type"]] = wire_expr(targets[kind], {})
        elif kind == "json_schema":
            keys: dict[str, str] = {}
            for key, value in wire.items():
                read = (
                    value["@default"][0]
                    if isinstance(value, dict) and "@default" in value
                    else value
                )
                var = variable_of(read)
                if var is not None:
                    keys[var] = key
            schema = (wire["type"], keys, sorted(wire))
        else:
            raise PairError(
                f"{source['format']}: a response_format the item composer does not read"
            )
    if schema is None or sorted(schema[1]) != ["description", "name", "schema", "strict"]:
        raise PairError(f"{source['format']}: no json_schema response_format")
    exprs = described_strict_exprs(
        targets["json_schema"],
        {"name": "rf_name", "schema": "rf_schema"},
        "rf_description",
        "rf_strict",
    )
    (key,) = [
        k for k, v in target["request"]["wire"].items() if "response_format" in variables_of(v)
    ]
    return {
        "s_rf_plain": plain,
        "s_rf_schema": schema,
        "t_rf": exprs,
        "t_rf_key": key,
    }


def _source_roles(source: Json) -> dict[str, str]:
    """Each wire role of a message item the pass converts, to its canonical role."""
    by_wire = {wire: canonical for canonical, wire in source["roles"].items()}
    by_wire.update(source.get("roles_in", {}))
    return {w: c for w, c in sorted(by_wire.items()) if c in _MESSAGE_ROLES}


def _images(target: Json) -> dict[str, Any]:
    """The target's image parts, with and without a detail."""
    out = {}
    for kind, env in (
        ("data", {"media_type": "media_type", "data": "data"}),
        ("url", {"url": "url"}),
    ):
        wire = part_variant(target, "image", source={"type": "base64" if kind == "data" else kind})
        out[f"t_image_{kind}"] = wire_expr(wire["wire"], env)
        out[f"t_image_{kind}_detail"] = wire_expr(wire["wire"], {**env, "detail": "detail"})
        if out[f"t_image_{kind}"] == out[f"t_image_{kind}_detail"]:
            raise PairError(f"{target['format']}: no place for an image's detail")
    return out


def pair_values(source: Json, target: Json) -> dict[str, Any]:
    """Everything `pair_from_items.py.j2` needs for one pair."""
    source, target = without_free_form(source), without_free_form(target)
    if not reads_items(source):
        raise PairError(f"{source['format']}: not an item source")
    layout = source["layout"]
    if (layout.get("system"), layout.get("system_form")) != ("hoist", "string"):
        raise PairError(f"{source['format']}: a system prompt the item composer does not read")
    message = dict(layout["items"]["message"])
    message_tag = message.pop(layout["block_tag"])
    values = target_writes(target)
    values.update(_images(target))
    request = _source_request(source)
    choices = _source_choices(source)
    unknown = set(choices["s_choice_strings"].values()) - values["t_tool_choices"].keys()
    if unknown:
        raise PairError(f"{target['format']}: no tool_choice for {unknown}")
    roles = _source_roles(source)
    formats = _response_formats(source, target)
    parts = {
        "s_texts": _source_texts(source),
        **_source_image(source),
        **_source_items(source),
        **_source_reasoning(source),
        **_source_tool(source),
    }
    checks = _checks(source, request, {**parts, **formats}, choices, roles)
    given = {name: f"p_{key}" for key, name in request["s_params"]}
    given.update({name: f"p_{key}" for key, _setting, name in request["s_nested"]})
    by_key = {path: name for name, path in values["t_paths"].items()}
    written = target_fields(target)
    written[formats["t_rf_key"]] = "rf_out"
    envelope = []
    for key in values["t_envelope"]:
        if key in written:
            envelope.append((key, written[key]))
        elif by_key.get(key) in given:
            envelope.append((key, given[by_key[key]]))
    dropped = sorted((name, var) for name, var in given.items() if name not in values["t_paths"])
    if dropped:
        # The pass reports the reasoning it drops after the writer's other losses; where the
        # writer puts the parameters it drops among them is not worked out here.
        raise PairError(f"{target['format']}: parameters dropped beside reasoning: {dropped}")
    return {
        "param_defaults": parameter_defaults(),
        "source": source["format"],
        "target": target["format"],
        "s_input": layout["messages"],
        "s_role": layout["role"],
        "s_content": layout["content"],
        "s_tag": layout["block_tag"],
        "s_system": layout["system_field"],
        "s_message_tag": message_tag,
        "s_message_constants": message,
        "s_roles": roles,
        **request,
        **formats,
        **choices,
        **parts,
        **values,
        "image_kinds": sorted(set(parts["s_image_kinds"]) & set(values["t_image_kinds"])),
        "t_roles": {canonical: target["roles"][canonical] for canonical in _MESSAGE_ROLES},
        "envelope": envelope,
        "dropped": dropped,
        "only": only_words(source, target),
        "checks": checks,
        "py_types": py_types,
        "t_ranges": ranges_by_parameter(target),
        "s_hosted_tools": frozenset(hosted_tool_tags(source)),
        "s_defaults": unread_defaults(source, of_parts=True),
    }


def _checks(
    source: Json,
    request: dict[str, Any],
    parts: dict[str, Any],
    choices: dict[str, Any],
    roles: dict[str, str],
) -> ItemChecks:
    """What the pass checks of its source in place of the reading schema (item_checks.py):
    of the fields it reads, the branches of the tags it converts."""
    layout = source["layout"]
    params = [key for key, _name in request["s_params"]]
    read = {
        request["s_rf"][0],
        request["s_model"],
        request["s_tools"],
        request["s_tool_choice"],
        layout["messages"],
        layout["system_field"],
        *params,
        *(key for key, _setting, _name in request["s_nested"]),
    }
    tags = {
        *(tag for tag, _key, _cites in parts["s_texts"]),
        parts["s_image_tag"],
        parts["s_call_tag"],
        parts["s_result_tag"],
        parts["s_reasoning_tag"],
        parts["s_paragraph_tag"],
        parts["s_tool_tag"],
        choices["s_choice_named"][1],
        *parts["s_rf_plain"],
        parts["s_rf_schema"][0],
    }
    try:
        checks = item_checks(
            source,
            read_keys=read,
            params=params,
            nested={key: setting for key, setting, _name in request["s_nested"]},
            formats=request["s_rf"],
            kinds={
                "message": None,
                parts["s_call_tag"]: parts["s_call_tag"],
                parts["s_result_tag"]: parts["s_result_tag"],
                parts["s_reasoning_tag"]: parts["s_reasoning_tag"],
                "tool": parts["s_tool_tag"],
            },
            taken={layout["role"]: set(roles), layout["block_tag"]: tags},
        )
    except CheckError as exc:
        raise PairError(str(exc)) from None
    return checks


def pair_modules(inputs: Any) -> Iterator[tuple[dict[str, str], dict[str, Any]]]:
    """The manifest's producer: the values of each pair module whose source reads items."""
    mappings = mappings_by_format(inputs)
    for source, target in PAIRS:
        if reads_items(mappings[source]):
            values = pair_values(mappings[source], mappings[target])
            yield {"module": module_name(source, target)}, values
