"""Fused pair converters whose source writes its turns as content blocks (Anthropic Messages:
the system prompt hoisted to a field of its own, tool results as blocks inside user turns),
to a target that keeps every role in its message list (OpenAI Chat: the system prompt as the
first message, each tool result a message of its own, tool calls in a field of the assistant
message with their arguments as JSON text). Issue 16: fused pairs both ways.

The pairs of :data:`generator.pairs.PAIRS` whose source has this layout are composed here, the
others by `generator/pairs.py`. As there, everything is worked out at generation time from the
two mapping files and the source's reading schema (generator/pair_checks.py), and
`templates/python/pair_from_blocks.py.j2` writes it as straight-line code. A layout, part or
transform this composer does not know fails generation (:class:`~generator.pairs.PairError`)
rather than generating code that might differ from the two-step path;
tests/adapters/test_differential.py proves the generated pairs equal.

The shape the pass covers: a system prompt (a string or text blocks), user turns of text, images
(base64 or a web URL) and tool results holding text, assistant turns of text then tool calls,
custom tools, every tool_choice, the sampling parameters. Anything else (cache hints, thinking,
documents, an error flag on a result, unknown keys, ids or names the target would rewrite)
sends the body the two-step way, with the reason.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from generator.pair_checks import BlockChecks, CheckError, block_checks
from generator.pairs import (
    PAIRS,
    PairError,
    charset_rule,
    mappings_by_format,
    module_name,
    one_of_types,
    part_variant,
    py_types,
    reads_blocks,
    rule_pattern,
    target_paths,
    tool_choices,
    variable_of,
    variables_of,
    wire_expr,
)

Json = Any


def _keys(wire: Json, **wanted: str) -> dict[str, str]:
    """The wire key of a part's template holding each variable named (``name=var``)."""
    found = {}
    for name, var in wanted.items():
        keys = [key for key, value in wire.items() if var in variables_of(value)]
        if len(keys) != 1:
            raise PairError(f"no single key holds ${var} in {wire}")
        found[name] = keys[0]
    return found


def _source_parts(source: Json) -> dict[str, Any]:
    """The source's part tags and keys, read from its mapping."""
    text = part_variant(source, "text")["wire"]
    base64 = part_variant(source, "image", source={"type": "base64"})["wire"]
    url = part_variant(source, "image", source={"type": "url"})["wire"]
    (box,) = [k for k, v in base64.items() if isinstance(v, dict) and "type" in v]
    call = source["parts"]["tool_call"][0]["wire"]
    result = source["parts"]["tool_result"][0]["wire"]
    (tool,) = source["codecs"]["tool"]
    tool_wire = tool["wire"]
    (tag_key,) = [k for k, v in tool_wire.items() if isinstance(v, dict) and "@optional_tag" in v]
    return {
        "s_text_tag": text["type"],
        "s_text_key": _keys(text, text="text")["text"],
        "s_image_tag": base64["type"],
        "s_image_box": box,
        "s_base64_tag": base64[box]["type"],
        "s_base64": _keys(base64[box], media_type="media_type", data="data"),
        "s_base64_kinds": one_of_types(base64[box]),
        "s_url_tag": url[box]["type"],
        "s_url_key": _keys(url[box], url="url")["url"],
        "s_call_tag": call["type"],
        "s_call": _keys(call, id="id", name="name", arguments="arguments"),
        "s_result_tag": result["type"],
        "s_result": _keys(result, id="id", content="content"),
        "s_tool_tag_key": tag_key,
        "s_tool_tag": tool_wire[tag_key]["@optional_tag"],
        "s_tool": _keys(
            tool_wire, name="name", description="description", schema="schema", strict="strict"
        ),
    }


def _source_choices(source: Json) -> tuple[str, dict[str, str], str]:
    """The source's tool_choice: its tag key, canonical type by wire tag, the named tool's key."""
    tag_key, by_tag, name_key = "", {}, ""
    for variant in source["codecs"]["tool_choice"]:
        wire = variant["wire"]
        if not isinstance(wire, dict):
            raise PairError("a tool_choice the block composer does not read")
        ((tag_key, tag),) = [(k, v) for k, v in wire.items() if isinstance(v, str)]
        by_tag[tag] = variant["canonical"]["type"]
        named = [k for k, v in wire.items() if "name" in variables_of(v)]
        if named:
            (name_key,) = named
    return tag_key, by_tag, name_key


def _source_request(source: Json) -> tuple[list[tuple[str, str]], list[str], str, str]:
    """The source's parameters read as plain values ((wire key, canonical name), in the
    canonical order), the fields it reads otherwise (nested: outside the pass's shape), the
    key merged into its tool_choice and the parameter it gives (negated)."""
    canonical = source["request"]["canonical"]["parameters"]
    by_var = {variable_of(v): k for k, v in canonical.items()}
    order = list(canonical)
    plain, nested = [], []
    merged_key = merged_param = ""
    for key, value in source["request"]["wire"].items():
        if isinstance(value, dict) and list(value) == ["@default"]:
            value = value["@default"][0]  # noqa: PLW2901 (a required value: read as given)
        var = variable_of(value)
        if var in by_var:
            plain.append((key, by_var[var]))
        elif var is None and isinstance(value, dict) and "@merge" in value:
            for member in value["@merge"][1:]:
                for k, v in member.items():
                    if isinstance(v, dict) and list(v) == ["@negate"]:
                        merged_key, merged_param = k, by_var[variable_of(v["@negate"])]
        elif var is None and key not in ("model", "tools", "tool_choice"):
            nested.append(key)
    plain.sort(key=lambda p: order.index(p[1]))
    if not merged_key:
        raise PairError("the block composer reads parallel tool use from the tool_choice")
    return plain, nested, merged_key, merged_param


def _source_fields(source: Json) -> dict[str, str]:
    """The source's request keys of the model, the tools and the tool_choice."""
    wire = source["request"]["wire"]
    model = [k for k, v in wire.items() if "model" in variables_of(v)]
    tools = [
        k for k, v in wire.items() if isinstance(v, dict) and v.get("@each", [""])[0] == "tool"
    ]
    choice = [k for k, v in wire.items() if "tool_choice" in variables_of(v)]
    if len(model) != 1 or len(tools) != 1 or len(choice) != 1:
        raise PairError(f"{source['format']}: a request the block composer does not read")
    return {"s_model": model[0], "s_tools": tools[0], "s_tool_choice": choice[0]}


def _target_fields(target: Json) -> dict[str, str]:
    """The target's request keys of the model, the tools and the tool_choice, each with the
    pass's variable holding what it writes."""
    wire = target["request"]["wire"]
    found = {}
    for key, value in wire.items():
        if "model" in variables_of(value):
            found[key] = "model"
        elif isinstance(value, dict) and value.get("@each", [""])[0] == "tool":
            found[key] = "declarations"
        elif "tool_choice" in variables_of(value):
            found[key] = "tool_choice"
    if sorted(found.values()) != ["declarations", "model", "tool_choice"]:
        raise PairError(f"{target['format']}: a request the block composer does not write")
    return found


def _target_writes(target: Json) -> dict[str, Any]:
    """What the target writes, compiled from its mapping."""
    layout, roles = target["layout"], target["roles"]
    known = (
        layout.get("system"),
        layout.get("tool_results"),
        layout.get("alternate"),
        layout.get("text_shorthand"),
        layout.get("empty_content", "absent"),
    )
    if known != ("inline", "own_message", False, True, None):
        raise PairError(f"{target['format']}: a layout the block composer does not write")
    call = target["parts"]["tool_call"][0]
    result = target["parts"]["tool_result"][0]
    (tool,) = target["codecs"]["tool"]
    tool_exprs = {}
    for described in (False, True):
        for strict in (False, True):
            env = {"name": "name", "schema": "schema"}
            if described:
                env["description"] = "description"
            if strict:
                env["strict"] = "strict"
            tool_exprs[described, strict] = wire_expr(tool["wire"], env)
    paths, _defaults = target_paths(target)
    canonical = target["request"]["canonical"].get("parameters", {})
    by_var = {variable_of(v): k for k, v in canonical.items()}
    for key, value in target["request"]["wire"].items():
        # A list parameter written as one value or several: a list is written as it is.
        if isinstance(value, dict) and list(value) == ["@one_or_many"]:
            paths[by_var[variable_of(value["@one_or_many"])]] = (key,)
    if any(len(path) != 1 for path in paths.values()):
        raise PairError(f"{target['format']}: nested parameters")
    return {
        "t_messages": layout["messages"],
        "t_role": layout["role"],
        "t_content": layout["content"],
        "t_system": roles["system"],
        "t_user": roles["user"],
        "t_assistant": roles["assistant"],
        "t_tool": roles["tool"],
        "t_text": wire_expr(part_variant(target, "text")["wire"], {"text": "text"}),
        "t_image_data": wire_expr(
            part_variant(target, "image", source={"type": "base64"})["wire"],
            {"media_type": "media_type", "data": "data"},
        ),
        "t_image_url": wire_expr(
            part_variant(target, "image", source={"type": "url"})["wire"], {"url": "url"}
        ),
        "t_image_kinds": one_of_types(
            part_variant(target, "image", source={"type": "base64"})["wire"]
        ),
        "t_calls": call["slot"],
        "t_call": wire_expr(
            call["wire"], {"id": "call_id", "name": "call_name", "arguments": "arguments"}
        ),
        "t_result": wire_expr(result["wire"], {"id": "result_id", "content": "result_content"}),
        "t_tool_decl": tool_exprs,
        "t_tool_choices": tool_choices(target),
        "t_paths": {name: path[0] for name, path in paths.items()},
        "t_envelope": list(target["request"]["wire"]),
        "t_name_rule": rule_pattern(charset_rule(target.get("ids", {}).get("tool_name"))),
        "t_id_rule": rule_pattern(charset_rule(target.get("ids", {}).get("tool_call"))),
    }


def pair_values(source: Json, target: Json) -> dict[str, Any]:
    """Everything `pair_from_blocks.py.j2` needs for one pair."""
    if not reads_blocks(source):
        raise PairError(f"{source['format']}: not a block source")
    layout = source["layout"]
    if source["roles"]["tool"] != source["roles"]["user"]:
        raise PairError(f"{source['format']}: tool results outside user turns")
    parts = _source_parts(source)
    plain, nested, merged_key, merged_param = _source_request(source)
    choice_key, choices, choice_name = _source_choices(source)
    values = _target_writes(target)
    unknown = set(choices.values()) - values["t_tool_choices"].keys()
    if unknown:
        raise PairError(f"{target['format']}: no tool_choice for {unknown}")
    if merged_param not in values["t_paths"]:
        raise PairError(f"{target['format']}: no place for {merged_param}")
    checks = _checks(source, plain, nested, parts, choices)
    # A result's fields the target has no place for (its error flag): dropped, reported.
    result = source["parts"]["tool_result"][0]
    kept = variables_of(target["parts"]["tool_result"][0]["wire"])
    result_dropped = sorted(
        (key, var, checks.result_fields[key][0])
        for key, value in result["wire"].items()
        for var in [variable_of(value)]
        if var is not None and var not in kept and var not in ("id", "content")
    )
    # Where the target writes what the pass reads (its envelope order: `model`, `tools`,
    # `tool_choice`, then each parameter), and the parameters it has no place for (the
    # writer reports them in the order of their names).
    given = {name: f"p_{key}" for key, name in plain}
    given[merged_param] = "parallel"
    by_key = {path: name for name, path in values["t_paths"].items()}
    written = _target_fields(target)
    envelope = []
    for key in values["t_envelope"]:
        if key in written:
            envelope.append((key, written[key]))
        elif by_key.get(key) in given:
            envelope.append((key, given[by_key[key]]))
    dropped = sorted((name, var) for name, var in given.items() if name not in values["t_paths"])
    return {
        "source": source["format"],
        "target": target["format"],
        "s_messages": layout["messages"],
        "s_role": layout["role"],
        "s_content": layout["content"],
        "s_tag": layout["block_tag"],
        "s_system": layout["system_field"],
        "s_user": source["roles"]["user"],
        "s_assistant": source["roles"]["assistant"],
        "s_params": plain,
        **_source_fields(source),
        "s_nested": nested,
        "s_choice_key": choice_key,
        "s_choices": choices,
        "s_choice_name": choice_name,
        "s_merged_key": merged_key,
        "s_merged_param": merged_param,
        "image_kinds": sorted(set(parts["s_base64_kinds"]) & set(values["t_image_kinds"])),
        **parts,
        **values,
        "envelope": envelope,
        "s_result_dropped": result_dropped,
        "s_result_part": result["canonical"]["type"],
        "dropped": dropped,
        "t_result_message": "{"
        + f"{values['t_role']!r}: {values['t_tool']!r}, "
        + values["t_result"][1:],
        "checks": checks,
        "py_types": py_types,
    }


def _checks(
    source: Json,
    plain: list[tuple[str, str]],
    nested: list[str],
    parts: dict[str, Any],
    choices: dict[str, str],
) -> BlockChecks:
    """What the pass checks of its source in place of the reading schema (pair_checks.py): of
    the fields it reads, the branches of the roles and tags it converts."""
    layout = source["layout"]
    read = {
        "model",
        "tools",
        "tool_choice",
        layout["messages"],
        layout["system_field"],
        *(key for key, _name in plain),
        *nested,
    }
    roles = {source["roles"]["user"], source["roles"]["assistant"]}
    tags = {
        parts["s_text_tag"],
        parts["s_image_tag"],
        parts["s_base64_tag"],
        parts["s_url_tag"],
        parts["s_call_tag"],
        parts["s_result_tag"],
        *choices,
    }
    params = [key for key, _name in plain if key != "model"]
    try:
        return block_checks(
            source, read - set(nested), params, {layout["role"]: roles, "type": tags}
        )
    except CheckError as exc:
        raise PairError(str(exc)) from None


def pair_modules(inputs: Any) -> Iterator[tuple[dict[str, str], dict[str, Any]]]:
    """The manifest's producer: the values of each pair module whose source reads blocks."""
    mappings = mappings_by_format(inputs)
    for source, target in PAIRS:
        if reads_blocks(mappings[source]):
            values = pair_values(mappings[source], mappings[target])
            yield {"module": module_name(source, target)}, values
