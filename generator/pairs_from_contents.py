"""Fused pair converters whose source writes its turns as content objects (Gemini
generateContent: `{role, parts}` turns whose role may be left out, the system prompt a content
object of its own, tool results as parts of user turns paired with their calls by name, the
tools grouped, the parameters in a group beside other settings), to a target that keeps every
role in its message list (OpenAI Chat). Issue 16: fused pairs both ways.

The block composer (`generator/pairs_from_blocks.py`) composes the other block sources; this
one shares its target side (`target_writes`) and, as there, works everything out at generation
time from the two mapping files and the source's reading schema
(`generator/pair_checks.content_checks`); `templates/python/pair_from_contents.py.j2` writes it.
What this composer does not know fails generation (:class:`~generator.pairs.PairError`).

The shape the pass covers: a system instruction of text parts, turns of the user (text, images
as base64 bytes of a type both formats take, function responses) and of the model (text, then
function calls), with or without ids (a call without one gets the id the two-step reader
gives it, a response is paired with its call as that reader pairs it), one group of function
declarations with a JSON Schema, every tool_choice mode (one allowed function: the named
tool; several: `required`, the list reported as the reader reports it), the sampling
parameters, structured output asked with a JSON Schema, thought signatures beside a model's
text or call (reported as reasoning the target cannot replay) and the generation settings the
format has no canonical home for (reported). Anything else (thoughts, other media, built-in
tools, the OpenAPI-subset schemas, thinking settings, nulls) sends the body the two-step way,
with the reason.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from generator.pair_checks import CheckError, content_checks
from generator.pairs import (
    PAIRS,
    PairError,
    mappings_by_format,
    module_name,
    only_words,
    parameter_defaults,
    part_variant,
    py_types,
    reads_blocks,
    unread_defaults,
    variable_of,
    variables_of,
    without_free_form,
    written_tool,
)
from generator.pairs_from_blocks import (
    format_expr,
    keys_holding,
    reads_contents,
    target_fields,
    target_model,
    target_writes,
)
from generator.ranges import ranges_by_parameter
from generator.spellings import plan_spellings

Json = Any


def _box(wire: Json) -> tuple[str, Json]:
    """An untagged part template's one key and the object under it."""
    if not isinstance(wire, dict) or len(wire) != 1:
        raise PairError(f"a part the content composer does not read: {wire}")
    ((key, inner),) = wire.items()
    return key, inner


def _op(node: Json, name: str) -> list[Json]:
    """The arguments of a template's transform ``@name`` (fails on another shape)."""
    if not isinstance(node, dict) or list(node) != [f"@{name}"]:
        raise PairError(f"the content composer reads no {node} here (expected @{name})")
    args = node[f"@{name}"]
    return list(args) if isinstance(args, list) else [args]


def _source_parts(source: Json) -> dict[str, Any]:
    """The keys of the source's parts the pass reads, from their wire templates."""
    from interlingua.conversion import Context  # noqa: PLC0415 (the generator runs without it otherwise)
    from interlingua.conversion.transforms import TRANSFORMS  # noqa: PLC0415

    text_key, text = _box(part_variant(source, "text")["wire"])
    if text != "$text":
        raise PairError(f"{source['format']}: a text part the content composer does not read")
    image_box, image = _box(part_variant(source, "image", source={"type": "base64"})["wire"])
    media = keys_holding(image, media_type="media_type", data="data")
    kind, _var = _op(image[media["media_type"]], "media_kind")
    (data_var,) = _op(image[media["data"]], "base64")
    if variable_of(data_var) != "data":
        raise PairError(f"{source['format']}: image data the content composer does not read")
    # The characters reading rewrites in the data (the URL-safe alphabet's): data holding one
    # goes the two-step way, so the pass writes the data as it read it.
    ctx = Context(adapter=source["format"])
    rewritten = "".join(
        c for c in map(chr, range(33, 127)) if TRANSFORMS["base64"].decode(ctx, c, "") != c
    )
    (call_variant,) = source["parts"]["tool_call"]
    call_box, call = _box(call_variant["wire"])
    call_keys = keys_holding(call, id="id", name="name", arguments="arguments")
    _op(call[call_keys["name"]], "tool_name")
    if variables_of(call[call_keys["id"]]) != {"id"} or call[call_keys["arguments"]] != (
        "$arguments"
    ):
        raise PairError(f"{source['format']}: a call the content composer does not read")
    (result_variant,) = source["parts"]["tool_result"]
    result_box, result = _box(result_variant["wire"])
    result_keys = keys_holding(result, id="id", name="name", response="content")
    _op(result[result_keys["name"]], "tool_name")
    _content, _structured, error, answer, failure, also = _op(
        result[result_keys["response"]], "result_object"
    )
    (error_field,) = [
        k for k, v in result_variant["canonical"].items() if variable_of(v) == variable_of(error)
    ]
    return {
        "s_text_key": text_key,
        "s_image_box": image_box,
        "s_image_kind": kind,
        "s_image": media,
        "s_rewritten": rewritten,
        "s_call_box": call_box,
        "s_call": call_keys,
        "s_result_box": result_box,
        "s_result": result_keys,
        "s_answer": answer,
        "s_failure": failure,
        "s_also": also,
        "s_error_field": error_field,
        "s_part_keys": [text_key, image_box, call_box, result_box],
    }


def _source_tools(source: Json) -> dict[str, Any]:
    """Where the source keeps its tools (a list of groups, the declarations under a key of
    each), a tool's keys, and its tool_choice (a group's object tagged by a mode)."""
    wire = source["request"]["wire"]
    tools_keys = [k for k, v in wire.items() if "tools" in variables_of(v)]
    if len(tools_keys) != 1:
        raise PairError(f"{source['format']}: tools the content composer does not read")
    (tools_key,) = tools_keys
    # The group of declarations; a group holding a hosted tool is not the pass's shape.
    group = _op(wire[tools_key], "grouped")[0]
    if not isinstance(group, dict) or len(group) != 1:
        raise PairError(f"{source['format']}: tool groups the content composer does not read")
    ((group_key, each),) = group.items()
    if _op(each, "each")[0] != "tool":
        raise PairError(f"{source['format']}: tools the content composer does not read")
    tool = written_tool(source)
    members = _op(tool["wire"], "merge")
    plain = members[0]
    keys = keys_holding(plain, name="name", description="description")
    _op(plain[keys["name"]], "tool_name")
    schema_key = openapi_key = None
    for member in members[1:]:
        (args,) = [v for k, v in member.items() if k == "@schema_member"]
        json_key, openapi, value = args
        if "schema" in variables_of(value):
            _op(value, "object_schema")
            schema_key, openapi_key = json_key, openapi
    if schema_key is None or len(plain) != 2:
        raise PairError(f"{source['format']}: a tool the content composer does not read")
    (choice_key,) = [k for k, v in wire.items() if "tool_choice" in variables_of(v)]
    ((choice_inner, codec),) = wire[choice_key].items()
    if _op(codec, "codec")[0] != "tool_choice":
        raise PairError(f"{source['format']}: a tool_choice the content composer does not read")
    return {
        "s_tools": tools_key,
        "s_tools_group": group_key,
        # The schema's key, and the key of its OpenAPI form (read as JSON Schema: `json_schema`).
        "s_tool": {
            **keys,
            "schema": schema_key,
            **({"openapi": openapi_key} if openapi_key else {}),
        },
        "s_choice_key": choice_key,
        "s_choice_inner": choice_inner,
        **_source_choices(source),
    }


def _source_choices(source: Json) -> dict[str, Any]:
    """The tool_choice's mode key, each plain mode's canonical type, and the mode that names
    its tools (by the list of allowed names: one is the named tool, any other number the
    type of the variant without it, the list then reported)."""
    mode_key = ""
    plain: dict[str, str] = {}
    listing: tuple[str, str] | None = None
    for variant in source["codecs"]["tool_choice"]:
        wire, kind = variant["wire"], variant["canonical"]["type"]
        tags = [(k, v) for k, v in wire.items() if isinstance(v, str) and variable_of(v) is None]
        if len(tags) != 1 or (mode_key and tags[0][0] != mode_key):
            raise PairError(f"{source['format']}: a tool_choice the content composer does not read")
        (mode_key, mode), rest = tags[0], {k: v for k, v in wire.items() if k != tags[0][0]}
        if rest:
            ((names_key, names),) = rest.items()
            (inner,) = _op(names, "only_item")
            _op(inner, "tool_name")
            if kind != "tool":
                raise PairError(f"{source['format']}: a tool_choice the composer does not read")
            listing = (mode, names_key)
        elif mode not in plain:
            plain[mode] = kind
    if listing is None or listing[0] not in plain:
        raise PairError(f"{source['format']}: a tool_choice the content composer does not read")
    return {
        "s_mode_key": mode_key,
        "s_modes": plain,
        "s_named_mode": listing[0],
        "s_names_key": listing[1],
    }


def _source_params(source: Json) -> dict[str, Any]:
    """The group holding the source's parameters: its key, the plain parameters in it ((wire
    key, canonical name), in the canonical order), and the keys of it that hold other
    settings (a nested setting, the structured-output format: outside the shape)."""
    canonical = source["request"]["canonical"]["parameters"]
    by_var = {variable_of(v): k for k, v in canonical.items()}
    wire = source["request"]["wire"]
    groups = [k for k, v in wire.items() if isinstance(v, dict) and "@merge" in v]
    if len(groups) != 1:
        raise PairError(f"{source['format']}: parameters the content composer does not read")
    (key,) = groups
    plain: list[tuple[str, str]] = []
    other: set[str] = set()
    for member in wire[key]["@merge"]:
        for name, value in member.items():
            var = variable_of(value)
            if var in by_var:
                plain.append((name, by_var[var]))
            elif name == "@codec":
                for variant in source["codecs"][value[0]]:
                    other.update(variant["wire"])
            else:
                other.add(name)
    plain.sort(key=lambda p: list(canonical).index(p[1]))
    return {"s_params_key": key, "s_params": plain, "s_param_others": sorted(other)}


def _source_formats(source: Json, target: Json, others: list[str]) -> list[dict[str, Any]]:
    """The structured-output formats the pass reads, in the order the two-step reader tries
    them (the first that matches wins): each a variant of constants and at most one schema
    taken as it is, with the keys it holds, and the target's expression and loss for it (its
    variant of the same canonical type). A variant that reads its schema through a transform
    (the OpenAPI subset) is left out: a body holding it goes the two-step way."""
    (canonical_key,) = [
        k for k, v in target["request"]["canonical"].items() if "response_format" in variables_of(v)
    ]
    found = []
    for variant in source["codecs"].get("response_format", []):
        wire, canonical = variant["wire"], variant["canonical"]
        if not set(wire) <= set(others) or not all(isinstance(v, str) for v in wire.values()):
            continue  # (read through a transform: the two-step path's)
        tags = {k: v for k, v in wire.items() if variable_of(v) is None}
        held = {k: variable_of(v) for k, v in wire.items() if variable_of(v) is not None}
        if any(canonical.get(var) != f"${var}" for var in held.values()) or len(held) > 1:
            raise PairError(f"{source['format']}: a format the content composer does not read")
        (chosen,) = [
            v
            for v in target["codecs"]["response_format"]
            if v["canonical"]["type"] == canonical["type"]
        ]
        losses: list[tuple[str, str, str]] = []
        expr = format_expr(
            chosen["wire"],
            given=dict.fromkeys(held.values(), "format_value"),
            fmt=target["format"],
            at=f"/{canonical_key}",
            where={variable_of(v): k for k, v in chosen["canonical"].items()},
            losses=losses,
        )
        if len(losses) > 1:
            raise PairError(f"{target['format']}: a format the content composer does not write")
        found.append(
            {
                "keys": sorted(wire),
                "tags": sorted(tags.items()),
                "value": next(iter(held), None),
                "expr": expr,
                "loss": losses[0] if losses else None,
            }
        )
    return found


def _signature_loss(values: dict[str, Any], source: Json, target: Json) -> tuple[str, str, str]:
    """How the target reports the signature-only thinking part the source's reader makes of a
    signature beside a model's text (code, reason, part type): asked of the two-step path at
    generation time, with a body built from the keys the composer found."""
    from interlingua.conversion.converter import convert  # noqa: PLC0415 (the generator runs without it otherwise)

    text = values["s_text_key"]
    turn = {values["s_role"]: values["s_assistant"]}
    turn[values["s_content"]] = [{text: "x", values["s_signature"]: ""}]
    body = {values["s_messages"]: [turn]}
    result = convert(body, source["format"], target["format"], fused=False)
    (loss,) = [x for x in result.losses if x.pointer.endswith("/content/0")]
    if loss.part_type is None:
        raise PairError(f"{target['format']}: a signature reported without its part")
    return loss.code, loss.reason, loss.part_type


def pair_values(source: Json, target: Json) -> dict[str, Any]:
    """Everything `pair_from_contents.py.j2` needs for one pair."""
    source, target = without_free_form(source), without_free_form(target)
    if not reads_contents(source):
        raise PairError(f"{source['format']}: not a content source")
    layout = source["layout"]
    if layout.get("result_pairing") != "name" or layout.get("block_tag") is not None:
        raise PairError(f"{source['format']}: a layout the content composer does not read")
    values: dict[str, Any] = {
        "source": source["format"],
        "target": target["format"],
        "s_messages": layout["messages"],
        "s_role": layout["role"],
        "s_content": layout["content"],
        "s_system": layout["system_field"],
        "s_user": source["roles"]["user"],
        "s_assistant": source["roles"]["assistant"],
        "s_role_optional": bool(layout.get("role_optional")),
        "s_signature": layout["signature_field"],
        **_source_parts(source),
        **_source_tools(source),
        **_source_params(source),
    }
    written = target_writes(target)
    values["s_signature_loss"] = _signature_loss(values, source, target)
    values["s_formats"] = _source_formats(source, target, values["s_param_others"])
    values["s_format_keys"] = sorted({k for f in values["s_formats"] for k in f["keys"]})
    unknown = set(values["s_modes"].values()) | {"tool"}
    if unknown - written["t_tool_choices"].keys():
        raise PairError(f"{target['format']}: no tool_choice for {unknown}")
    paths = written["t_paths"]
    given = {name: f"p_{key}" for key, name in values["s_params"]}
    if given.keys() & only_words(source, target).keys():  # the pass would not check the word
        raise PairError(f"{source['format']}: a parameter read or written through @only")
    by_key = {path: name for name, path in paths.items()}
    fields = target_fields(target)
    envelope = []
    for key in written["t_envelope"]:
        if key in fields:
            envelope.append((key, fields[key]))
        elif by_key.get(key) in given:
            envelope.append((key, given[by_key[key]]))
    dropped = sorted((name, var) for name, var in given.items() if name not in paths)
    try:
        checks = content_checks(source, values)
    except CheckError as exc:
        raise PairError(str(exc)) from None
    top = sorted(
        {values["s_messages"], values["s_system"], values["s_tools"], values["s_choice_key"]}
        | {values["s_params_key"]}
    )
    return {
        "param_defaults": parameter_defaults(),
        **values,
        **written,
        **target_model(target, None),
        **_spelt(source, values["s_params_key"]),
        "s_top": top,
        "envelope": envelope,
        "dropped": dropped,
        "checks": checks,
        "py_types": py_types,
        "t_ranges": ranges_by_parameter(target),
        "s_defaults": unread_defaults(source, values["s_params_key"]),
        "s_tag": None,  # (pair_texts.py.j2: a text part is its one key)
        # How deep in the body the pass finds what it carries without reading (the depth
        # `fused_checks.opaque` checks it at): the body, its turns, a turn, its parts, a part,
        # the object under its key, then the value; a tool's schema under its group's list.
        "depth": {"arguments": 6, "response": 6, "schema": 5},
        "t_result_message": "{"
        + f"{written['t_role']!r}: {written['t_tool']!r}, "
        + written["t_result"][1:],
    }


def _spelt(source: Json, params_key: str) -> dict[str, Any]:
    """The other spellings (the mapping's `spellings`) of the request's fields and of its
    parameter group's, which the pass leaves to the two-step reader (it reads them as the
    schema's spelling: generator/spellings.py) rather than report them unread."""
    plan = plan_spellings(source)
    if plan is None:
        return {"s_spelt": [], "s_spelt_group": [], "s_speller": None}
    objects = {obj.name: obj for obj in plan.objects}
    root = objects[plan.root]
    group = root.children.get(params_key)
    return {
        "s_spelt": sorted(root.renames),
        "s_spelt_group": sorted(objects[group[0]].renames) if group else [],
        "s_speller": (source["format"].replace("-", "_"), f"spell_{plan.root}"),
    }


def pair_modules(inputs: Any) -> Iterator[tuple[dict[str, str], dict[str, Any]]]:
    """The manifest's producer: the values of each pair module whose source reads contents."""
    mappings = mappings_by_format(inputs)
    for source, target in PAIRS:
        if reads_blocks(mappings[source]) and reads_contents(mappings[source]):
            yield (
                {"module": module_name(source, target)},
                pair_values(mappings[source], mappings[target]),
            )
