"""Fused pair converters whose source writes its turns as content blocks (Anthropic Messages,
Bedrock Converse: the system prompt hoisted to a field of its own, tool results as blocks inside
user turns), to a target that keeps every role in its message list (OpenAI Chat: the system
prompt as the first message, each tool result a message of its own, tool calls in a field of
the assistant message with their arguments as JSON text). Issue 16: fused pairs both ways.

The pairs of :data:`generator.pairs.PAIRS` whose source has this layout are composed here, the
others by `generator/pairs.py`. As there, everything is worked out at generation time from the
two mapping files and the source's reading schema (generator/pair_checks.py), and
`templates/python/pair_from_blocks.py.j2` writes it as straight-line code. A layout, part or
transform this composer does not know fails generation (:class:`~generator.pairs.PairError`)
rather than generating code that might differ from the two-step path;
tests/adapters/test_differential.py proves the generated pairs equal.

A source's blocks are tagged (`{"type": "text", "text": ...}`: the layout's `block_tag`) or
untagged (`{"text": ...}`, `{"toolUse": {...}}`: a block is its one key, the part's fields in
the object under it). Its parameters are request fields or fields of a group
(`inferenceConfig`), its tools a field or a group's (`toolConfig`); an image's media type is a
field or a format word (`png`); a result's flag a field (`is_error`) or a constant of its
variants (`status`); a result may hold a structured value (`{"json": ...}`). All of it is read
from the mapping's templates.

The shape the pass covers: a system prompt (a string or text blocks), user turns of text, images
(base64 or a web URL) and tool results holding text (or a structured value alone), assistant
turns of text then tool calls, custom tools, every tool_choice, the sampling parameters
(those in a group, and those in a setting of a tag: Anthropic's `thinking: {type: enabled}`),
a structured-output format the source writes as its canonical form (Anthropic's
`output_config.format`). What the two-step path drops whole, the pass drops as it does and
reports alike (`_dropped_parts`, asked of the schemas and the runtime at generation time): a
tool of another kind (a server tool) and a tool's keys reading leaves; reasoning the source
issued, which the target does not replay, and the blocks of the model's turns the target has
no block for (a server tool's call and results). Anything else (cache hints, documents, media
in tool results, other unknown keys, ids or names the target would rewrite) sends the body the
two-step way, with the reason.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from generator.adapters import x_defaults
from generator.pair_checks import (
    UNTAGGED,
    BlockChecks,
    BlockPaths,
    CheckError,
    Step,
    block_checks,
    format_checks,
    group_settings,
    unknown_tags,
)
from generator.pairs import (
    PAIRS,
    PairError,
    canonical_definitions,
    charset_rule,
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
    reads_blocks,
    rule_pattern,
    target_paths,
    tool_choices,
    unread_defaults,
    variable_of,
    variables_of,
    wire_expr,
    without_free_form,
    written_tool,
)
from generator.ranges import ranges_by_parameter

Json = Any


def keys_holding(wire: Json, **wanted: str) -> dict[str, str]:
    """The wire key of a part's template holding each variable named (``name=var``)."""
    found = {}
    for name, var in wanted.items():
        keys = [key for key, value in wire.items() if var in variables_of(value)]
        if len(keys) != 1:
            raise PairError(f"no single key holds ${var} in {wire}")
        found[name] = keys[0]
    return found


def _path_to(wire: Json, var: str) -> list[str]:
    """The keys from a template down to the value holding ``$var`` (a transform's object
    ends the path: the value it decodes)."""
    path: list[str] = []
    node = wire
    while isinstance(node, dict) and not any(key.startswith("@") for key in node):
        keys = [k for k, v in node.items() if var in variables_of(v)]
        if len(keys) != 1:
            raise PairError(f"no single key holds ${var} in {wire}")
        path.append(keys[0])
        node = node[keys[0]]
    return path


class _Blocks:
    """How the source tags its blocks: by a field (``tag``) or by their one key."""

    def __init__(self, tag: str | None) -> None:
        self.tag = tag

    def split(self, wire: Json) -> tuple[str, Json]:
        """A block template's tag and the object holding its fields (the block itself when
        tagged, the object under its one key when not)."""
        if self.tag is not None:
            return wire[self.tag], wire
        (key,) = wire
        return key, wire[key]

    def steps(self, wire: Json, var: str) -> list[Step]:
        """The schema walk (pair_checks.schema_at) from a block to the value of ``$var``:
        the tags on the way, then the keys."""
        steps: list[Step] = []
        node = wire
        while isinstance(node, dict) and not any(key.startswith("@") for key in node):
            if self.tag is not None and isinstance(node.get(self.tag), str):
                steps.append((self.tag, node[self.tag]))
            (key,) = [k for k, v in node.items() if var in variables_of(v)]
            steps.append(key)
            node = node[key]
        return steps


def _image_words(source: Json, target: Json, name: str) -> dict[str, str]:
    """The media type of each format word (`@<name>`) the source writes an image's type as,
    for the image types the target takes: asked of the transform at generation time (the
    word it writes, and that reading it gives the type back)."""
    from interlingua.conversion import Context  # noqa: PLC0415 (the generator runs without it otherwise)
    from interlingua.conversion.transforms import TRANSFORMS  # noqa: PLC0415
    from interlingua.conversion.transforms.base import Mismatch  # noqa: PLC0415

    transform = TRANSFORMS[name]
    words = {}
    for kind in one_of_types(part_variant(target, "image", source={"type": "base64"})["wire"]):
        ctx = Context(adapter=source["format"])
        try:
            word = transform.encode(ctx, "", kind)
        except Mismatch:
            continue
        if not ctx.losses and transform.decode(ctx, word, "") == kind:
            words[word] = kind
    return words


def _source_parts(source: Json, target: Json, blocks: _Blocks) -> dict[str, Any]:
    """The source's part tags and keys, read from its mapping."""
    text_tag, text = blocks.split(part_variant(source, "text")["wire"])
    base64_wire = part_variant(source, "image", source={"type": "base64"})["wire"]
    image_tag, base64 = blocks.split(base64_wire)
    media = _path_to(base64, "media_type")
    data = _path_to(base64, "data")
    if len(data) != 2 or len(media) not in (1, 2) or media[:-1] not in ([], data[:1]):
        raise PairError(f"{source['format']}: an image the block composer does not read")
    box = data[0]
    word = base64[media[0]] if len(media) == 1 else None
    if word is not None and not (isinstance(word, dict) and len(word) == 1):
        raise PairError(f"{source['format']}: a media type the block composer does not read")
    values: dict[str, Any] = {
        "s_text_tag": text_tag,
        # (an untagged text block's text is the value of its one key)
        "s_text_key": keys_holding(text, text="text")["text"]
        if isinstance(text, dict)
        else text_tag,
        "s_image_tag": image_tag,
        "s_image_box": box,
        # the keys of an image the pass reads: its tag and those holding its type and data
        "s_image_keys": len(
            [
                k
                for k, v in base64.items()
                if k == blocks.tag or variables_of(v) & {"media_type", "data"}
            ]
        ),
        "s_base64": {"media_type": media[-1], "data": data[-1]},
        "s_base64_tag": base64[box].get(blocks.tag) if blocks.tag else None,
        "s_base64_kinds": one_of_types(base64[box]),
        "s_words": None,
        "s_url_tag": None,
        "s_url_key": None,
    }
    if word is not None:  # a format word beside the source (Bedrock's `format: png`)
        (op,) = word
        values["s_words"] = _image_words(source, target, op[1:])
        values["s_base64_kinds"] = sorted(values["s_words"].values())
    url_wire = part_variant(source, "image", source={"type": "url"})["wire"]
    url = blocks.split(url_wire)[1][box]
    url_path = _path_to(url, "url")
    if blocks.tag and isinstance(url.get(blocks.tag), str) and len(url_path) == 1:
        if not isinstance(url[url_path[0]], dict) or "@web_url" not in url[url_path[0]]:
            raise PairError(f"{source['format']}: an image URL the block composer does not read")
        values["s_url_tag"] = url[blocks.tag]
        values["s_url_key"] = url_path[0]
    # (an image by another URL, an S3 location: outside the shape, the two-step path's)
    return values


def _source_calls(source: Json, blocks: _Blocks) -> dict[str, Any]:
    """The source's tool call and result blocks and its tool declaration."""
    call_tag, call = blocks.split(source["parts"]["tool_call"][0]["wire"])
    results = source["parts"]["tool_result"]
    result_tag, result = blocks.split(results[0]["wire"])
    s_result = keys_holding(result, id="id", content="content")
    content = result[s_result["content"]]
    structured = None
    if isinstance(content, dict) and "@parts" in content and isinstance(content["@parts"], list):
        # [$content, {key: $structured}]: a block of the result's content holds its value
        _, holder = content["@parts"]
        ((structured, var),) = holder.items()
        if variable_of(var) != "structured":
            raise PairError(f"{source['format']}: a result content the composer does not read")
    tool = written_tool(source)
    tool_wire = tool["wire"]
    tags = [k for k, v in tool_wire.items() if isinstance(v, dict) and "@optional_tag" in v]
    tool_box = None
    if not tags and len(tool_wire) == 1:  # an untagged tool: its fields under its one key
        ((tool_box, tool_wire),) = tool_wire.items()
    schema_path = _path_to(tool_wire, "schema")
    return {
        "s_call_tag": call_tag,
        "s_call": keys_holding(call, id="id", name="name", arguments="arguments"),
        "s_call_keys": 3 + (blocks.tag is not None),
        "s_result_tag": result_tag,
        "s_result": s_result,
        "s_result_keys": 2 + (blocks.tag is not None),
        "s_result_json": structured,
        "s_tool_tag_key": tags[0] if tags else None,
        "s_tool_tag": tool_wire[tags[0]]["@optional_tag"] if tags else None,
        "s_tool_box": tool_box,
        "s_tool_schema": schema_path,
        "s_tool": {
            **keys_holding(tool_wire, name="name", description="description", strict="strict"),
            "schema": schema_path[0],
        },
    }


def part_defaults(part_type: str) -> dict[str, Json]:
    """The fields of a canonical part whose value says what their absence says (`x-default`):
    a format without the field loses nothing at it."""
    (found,) = [d for d in canonical_definitions("parts").values() if _tag_of(d) == part_type]
    return x_defaults(found)


def _tag_of(definition: Json) -> Json:
    return definition.get("properties", {}).get("type", {}).get("const")


def _result_flags(source: Json, blocks: _Blocks, target: Json) -> list[tuple[str, str, Json]]:
    """A result's fields the target has no place for, reported dropped: by key, the canonical
    field and the wire values that give it (None: any value, the field's own)."""
    kept = variables_of(target["parts"]["tool_result"][0]["wire"])
    variants = [
        (blocks.split(v["wire"])[1], v["canonical"]) for v in source["parts"]["tool_result"]
    ]
    flags: dict[str, tuple[str, Json]] = {}
    for wire, canonical in variants:
        for key, value in wire.items():
            var = variable_of(value)
            if var is not None and var not in kept and var not in ("id", "content"):
                flags[key] = (var, None)
            elif isinstance(value, str) and var is None and key != blocks.tag:
                # a constant of one variant: the canonical field whose constant differs
                # among the variants (or that some lack)
                (name,) = [
                    k
                    for k, v in canonical.items()
                    if variable_of(v) is None and any(c.get(k) != v for _, c in variants)
                ]
                if name in kept:
                    raise PairError(f"{source['format']}: a result flag the target keeps")
                values = dict((flags.get(key) or (name, {}))[1] or {})
                values[value] = canonical[name]
                flags[key] = (name, values)
    return sorted((key, name, values) for key, (name, values) in flags.items())


def _said_by_default(name: str, values_by_wire: Json, defaults: dict[str, Json]) -> list[Json]:
    """The wire values of a dropped result field that say its canonical default: those
    mapped to it, or the default itself for a field written as it is; none without one."""
    if name not in defaults:
        return []
    default = defaults[name]
    if values_by_wire is None:
        return [default]
    return sorted(wire for wire, canonical in values_by_wire.items() if canonical == default)


def _source_format(source: Json, target: Json) -> dict[str, Any] | None:
    """The request field holding the source's structured-output format (Anthropic's
    `output_config: {format: ...}`), when the pass takes it: a variant the source writes as its
    canonical form (constants and values, one level), which the target writes by its variant
    of the same constants. None: the source has none, or writes it otherwise (Bedrock's schema
    as JSON text), and a body holding one goes the two-step way."""
    held = [
        (key, inner)
        for key, value in source["request"]["wire"].items()
        if isinstance(value, dict)
        for inner, v in value.items()
        if isinstance(v, dict) and list(v) == ["@codec"] and v["@codec"][0] == "response_format"
    ]
    variants = source["codecs"].get("response_format", [])
    if len(held) != 1 or len(variants) != 1 or variants[0]["wire"] != variants[0]["canonical"]:
        return None
    ((key, inner),) = held
    wire = variants[0]["wire"]
    if not all(isinstance(v, str) for v in wire.values()):
        return None
    tags = {k: v for k, v in wire.items() if variable_of(v) is None}
    given = {variable_of(v): f"format_{k}" for k, v in wire.items() if variable_of(v) is not None}
    (canonical_key,) = [
        k for k, v in target["request"]["canonical"].items() if "response_format" in variables_of(v)
    ]
    chosen = [
        v
        for v in target["codecs"]["response_format"]
        if all(v["canonical"].get(k) == c for k, c in tags.items())
    ]
    if len(chosen) != 1 or not tags:
        raise PairError(f"{target['format']}: no single response_format for {tags}")
    (variant,) = chosen
    where = {variable_of(v): k for k, v in variant["canonical"].items()}
    losses: list[tuple[str, str, str]] = []
    expr = format_expr(
        variant["wire"],
        given=given,
        fmt=target["format"],
        at=f"/{canonical_key}",
        where=where,
        losses=losses,
    )
    if len(losses) > 1:
        raise PairError(f"{target['format']}: a response_format the block composer does not write")
    return {
        "key": key,
        "inner": inner,
        "tags": sorted(tags.items()),
        "fields": sorted((k, f"format_{k}") for k in wire if k not in tags),
        "size": len(wire),
        "expr": expr,
        "loss": losses[0] if losses else None,
    }


def format_expr(
    node: Json,
    *,
    given: dict[str | None, str],
    fmt: str,
    at: str,
    where: dict[str | None, str],
    losses: list[tuple[str, str, str]],
) -> str:
    """Python source writing the target's format template: a value the source gives as its
    variable, one it lacks left out or, under `@default`, the default (its loss asked of
    the transform at generation time)."""
    from interlingua.conversion.transforms.base import ABSENT  # noqa: PLC0415

    if isinstance(node, str):
        var = variable_of(node)
        return repr(node) if var is None else given.get(var, "")
    if not isinstance(node, dict):
        raise PairError(f"{fmt}: a response_format the block composer does not write")
    if list(node) == ["@default"]:
        var, default = variable_of(node["@default"][0]), node["@default"][1]
        if var in given:
            return given[var]
        value, loss = _asked("default", fmt, f"{at}/{where[var]}", ABSENT, default)
        losses.append(loss)
        return repr(value)
    if any(k.startswith("@") for k in node):
        raise PairError(f"{fmt}: a response_format the block composer does not write")
    entries = [
        (k, format_expr(v, given=given, fmt=fmt, at=at, where=where, losses=losses))
        for k, v in node.items()
    ]
    return "{" + ", ".join(f"{k!r}: {text}" for k, text in entries if text) + "}"


def _source_choices(source: Json, blocks: _Blocks) -> tuple[str, dict[str, str], str]:
    """The source's tool_choice: its tag key ("" when a choice is its one key), canonical type
    by wire tag, the named tool's key."""
    tag_key, by_tag, name_key = "", {}, ""
    for variant in source["codecs"]["tool_choice"]:
        wire = variant["wire"]
        if not isinstance(wire, dict):
            raise PairError("a tool_choice the block composer does not read")
        tagged = [(k, v) for k, v in wire.items() if isinstance(v, str)]
        if blocks.tag is not None and len(tagged) == 1:
            ((tag_key, tag),) = tagged
            fields = wire
        elif blocks.tag is None and len(wire) == 1 and not tagged:
            ((tag, fields),) = wire.items()  # a choice is its one key, as a block is
        else:
            raise PairError("a tool_choice the block composer does not read")
        by_tag[tag] = variant["canonical"]["type"]
        named = [k for k, v in fields.items() if "name" in variables_of(v)]
        if named:
            (name_key,) = named
    return tag_key, by_tag, name_key


def _source_request(
    source: Json,
) -> tuple[list[tuple[str, str]], dict[str, list[str]], list[str], str, str]:
    """The source's parameters read as plain values ((wire key, canonical name), in the
    canonical order), the groups holding some of them (by the group's key, their keys), the
    fields it reads otherwise (nested: outside the pass's shape), the key merged into its
    tool_choice and the parameter it gives (negated; "" when none)."""
    canonical = source["request"]["canonical"]["parameters"]
    by_var = {variable_of(v): k for k, v in canonical.items()}
    order = list(canonical)
    plain, nested = [], []
    groups: dict[str, list[str]] = {}
    merged_key = merged_param = ""
    for key, value in source["request"]["wire"].items():
        if isinstance(value, dict) and list(value) == ["@default"]:
            value = value["@default"][0]  # noqa: PLW2901 (a required value: read as given)
        value = only_of(value)  # noqa: PLW2901 (a word from a list: read, then checked)
        var = variable_of(value)
        if var in by_var:
            plain.append((key, by_var[var]))
        elif var is None and isinstance(value, dict) and "@merge" in value:
            for member in value["@merge"][1:]:
                for k, v in member.items():
                    if isinstance(v, dict) and list(v) == ["@negate"]:
                        merged_key, merged_param = k, by_var[variable_of(v["@negate"])]
        elif (
            isinstance(value, dict)
            and any(variable_of(only_of(v)) in by_var for v in value.values())
            and all(
                variable_of(only_of(v)) in by_var or _tag(v) or _format_codec(v)
                for v in value.values()
            )
        ):
            # parameters grouped in a field (`inferenceConfig`; `output_config` beside the
            # structured-output format, `_source_format`'s), or in a setting of a tag
            # (`thinking: {type: enabled, budget_tokens: ...}`; the schema's other settings
            # of the tag, `group_settings`)
            groups[key] = list(value)
            plain.extend(
                (k, by_var[variable_of(only_of(v))])
                for k, v in value.items()
                if not _tag(v) and not _format_codec(v)
            )
        elif (
            var is None and key not in ("model", "tools", "tool_choice") and not _tools_group(value)
        ):
            nested.append(key)
    plain.sort(key=lambda p: order.index(p[1]))
    return plain, groups, nested, merged_key, merged_param


def _format_codec(value: Json) -> bool:
    """Whether a template's value is the structured-output format (`_source_format`)."""
    return (
        isinstance(value, dict)
        and list(value) == ["@codec"]
        and value["@codec"][0] == "response_format"
    )


def _settings(
    source: Json, key: str, keys: list[str], plain: list[tuple[str, str]]
) -> list[tuple[str | None, list[str], dict[str, Any], bool]]:
    """The settings of a group the pass takes (`group_settings`): its tag's constant (None: a
    group of one form), the keys it requires, the checks of the keys reading reports dropped,
    and whether it is the mapping's setting (another holds none of its parameters: reading
    one would give a value the mapping does not read there; such a body goes two-step)."""
    tags = group_tags(source, key)
    if len(tags) > 1:
        raise PairError(f"{source['format']}: a setting of {key} of several tags")
    tag_key = tags[0][0] if tags else None
    try:
        found = group_settings(source, key, tag_key, keys)
    except CheckError as exc:
        raise PairError(str(exc)) from None
    params = {k for k, _name in plain if k in keys}
    out = []
    for tag, required, fields in found:
        own = tag_key is None or tag == tags[0][1]
        if not own and set(required) & params:
            raise PairError(f"{source['format']}: a setting of {key} requiring a parameter")
        checks = {"types": fields.unread_types, "checked": sorted(fields.unread_checked)}
        out.append((tag, list(required), checks, own))
    out.sort(key=lambda s: not s[3])  # the mapping's setting first
    if not out[0][3]:
        raise PairError(f"{source['format']}: no setting of {key} the mapping reads")
    return out


def _tag(value: Json) -> bool:
    """Whether a template's value is a constant string (a tag the body must hold)."""
    return isinstance(value, str) and variable_of(value) is None


def group_tags(source: Json, key: str) -> list[tuple[str, str]]:
    """The tags a group of the source's request holds (its constant strings), by key."""
    return sorted((k, v) for k, v in source["request"]["wire"][key].items() if _tag(v))


def _tools_group(value: Json) -> bool:
    return isinstance(value, dict) and any(
        isinstance(v, dict) and v.get("@each", [""])[0] == "tool" for v in value.values()
    )


def _source_fields(source: Json) -> dict[str, Any]:
    """Where the source's request keeps the model (None: the body names none), the tools and
    the tool_choice (paths: a group's key first)."""
    wire = source["request"]["wire"]
    model = [k for k, v in wire.items() if "model" in variables_of(v)]
    tools = [
        k for k, v in wire.items() if isinstance(v, dict) and v.get("@each", [""])[0] == "tool"
    ]
    choice = [k for k, v in wire.items() if "tool_choice" in variables_of(v)]
    if len(model) > 1 or len(choice) != 1:
        raise PairError(f"{source['format']}: a request the block composer does not read")
    tools_path = [tools[0]] if len(tools) == 1 else None
    choice_path = [choice[0]]
    if tools_path is None and _tools_group(wire[choice[0]]):
        group = wire[choice[0]]
        (inner,) = [k for k, v in group.items() if isinstance(v, dict) and "@each" in v]
        (chosen,) = [k for k, v in group.items() if "tool_choice" in variables_of(v)]
        tools_path, choice_path = [choice[0], inner], [choice[0], chosen]
    if tools_path is None:
        raise PairError(f"{source['format']}: tools the block composer does not read")
    return {
        "s_model": model[0] if model else None,
        "s_tools": tools_path,
        "s_tool_choice": choice_path,
    }


def target_fields(target: Json) -> dict[str, str]:
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
        elif "response_format" in variables_of(value):
            found[key] = "response_format"
    written = set(found.values()) - {"response_format"}  # (a format: when the source has one)
    if sorted(written) != ["declarations", "model", "tool_choice"]:
        raise PairError(f"{target['format']}: a request the block composer does not write")
    return found


def _asked(transform: str, fmt: str, at: str, *args: Json) -> tuple[Json, tuple[str, str, str]]:
    """What a transform writes of ``args`` and the one loss it reports, asked at generation
    time (the loss's pointer, code and reason stay the transform's)."""
    from interlingua.conversion import Context  # noqa: PLC0415 (the generator runs without it otherwise)
    from interlingua.conversion.transforms import TRANSFORMS  # noqa: PLC0415

    ctx = Context(adapter=fmt)
    value = TRANSFORMS[transform].encode(ctx, at, *args)
    ((pointer, code, reason, _part),) = ctx.losses
    return value, (pointer, code, reason)


def target_model(target: Json, source_model: str | None) -> dict[str, Any]:
    """What the target writes for the model when the source's body names none (Bedrock's is in
    the URL): its placeholder and the loss its `@default` reports."""
    if source_model is not None:
        return {"t_model_default": None, "t_model_loss": None}
    from interlingua.conversion.transforms.base import ABSENT  # noqa: PLC0415

    ((key, wire),) = [
        (k, v) for k, v in target["request"]["wire"].items() if "model" in variables_of(v)
    ]
    if not (isinstance(wire, dict) and list(wire) == ["@default"]):
        raise PairError(f"{target['format']}: a model the block composer does not write")
    default, loss = _asked("default", target["format"], f"/{key}", ABSENT, wire["@default"][1])
    return {"t_model_default": default, "t_model_loss": loss}


def structured_loss(target: Json) -> tuple[str, str, str] | None:
    """How the target reports a result's structured value it writes as JSON text (None: it
    has a place for the value, which the pass does not write), asked of the runtime that
    carries it (interlingua.conversion.adapters.carry) at generation time."""
    from interlingua.conversion import Context  # noqa: PLC0415 (the generator runs without it otherwise)
    from interlingua.conversion.adapters.carry import structured_as_text  # noqa: PLC0415
    from interlingua.conversion.transforms.values import json_text  # noqa: PLC0415

    if any("structured_content" in v["canonical"] for v in target["parts"]["tool_result"]):
        return None
    ctx = Context(adapter=target["format"])
    value = {"a": [1, "é"]}
    part = structured_as_text(ctx, {"type": "tool_result", "structured_content": value}, "")
    if part["content"] != [{"type": "text", "text": json_text(value)}]:
        raise PairError("a structured value written otherwise than as its JSON text")
    ((pointer, code, reason, _part),) = ctx.losses
    return pointer, code, reason


def target_writes(target: Json) -> dict[str, Any]:
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
    tool = written_tool(target)
    tool_exprs = described_strict_exprs(
        tool["wire"], {"name": "name", "schema": "schema"}, "description", "strict"
    )
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
        "t_structured": structured_loss(target),
    }


def reads_contents(source: Json) -> bool:
    """Whether a block source writes its turns as content objects (Gemini: the system prompt
    a content too, roles optional, calls paired with their results by name):
    `generator/pairs_from_contents.py` composes its pairs."""
    return bool(source["layout"].get("system_form") == "content")


def pair_values(
    source: Json,
    target: Json,
    bound: frozenset[str] | None = None,
    part_types: frozenset[str] | None = None,
) -> dict[str, Any]:
    """Everything `pair_from_blocks.py.j2` needs for one pair. ``bound``: the canonical part
    types bound to the format that issued them (reasoning), and ``part_types``: all canonical
    part types, as generation works them out from the schemas (`pair_modules`); None: as last
    generated (generated/python/parts.py)."""
    source, target = without_free_form(source), without_free_form(target)
    if bound is None:
        from interlingua.generated.parts import BOUND_PART_TYPES  # noqa: PLC0415

        bound = BOUND_PART_TYPES
    if not reads_blocks(source):
        raise PairError(f"{source['format']}: not a block source")
    layout = source["layout"]
    if source["roles"]["tool"] != source["roles"]["user"]:
        raise PairError(f"{source['format']}: tool results outside user turns")
    system_form = layout.get("system_form")
    if system_form not in ("string_or_blocks", "blocks"):
        raise PairError(f"{source['format']}: a system prompt the block composer does not read")
    blocks = _Blocks(layout["block_tag"])
    parts = _source_parts(source, target, blocks)
    parts.update(_source_calls(source, blocks))
    plain, groups, nested, merged_key, merged_param = _source_request(source)
    s_format = _source_format(source, target)
    if s_format is not None and s_format["key"] in nested:
        nested.remove(s_format["key"])
    fields = _source_fields(source)
    choice_key, choices, choice_name = _source_choices(source, blocks)
    values = target_writes(target)
    unknown = set(choices.values()) - values["t_tool_choices"].keys()
    if unknown:
        raise PairError(f"{target['format']}: no tool_choice for {unknown}")
    if merged_param and merged_param not in values["t_paths"]:
        raise PairError(f"{target['format']}: no place for {merged_param}")
    if parts["s_result_json"] and values["t_structured"] is None:
        raise PairError(f"{target['format']}: a result's structured value kept apart")
    dropped = _dropped_parts(source, target, blocks, parts, bound)
    media = _source_media(source, target, blocks, parts, part_types)
    settings = {key: _settings(source, key, keys, plain) for key, keys in groups.items()}
    order = list(source["request"]["wire"])
    if groups and any(order.index(k) < order.index(fields["s_tools"][0]) for k in groups):
        # (the pass reports a group's leftovers after the tools', as reading does here)
        raise PairError(f"{source['format']}: a group read before the tools")
    checks = _checks(
        source,
        blocks,
        (plain, groups, nested),
        parts=parts,
        fields=fields,
        choices=choices,
        dropped=dropped,
        media=media,
        setting_tags={t for found in settings.values() for t, *_ in found if t is not None},
    )
    if s_format is not None:
        _check_format(source, s_format)
        # The format's field is read: no longer among those the pass drops.
        fields_read = checks.fields
        checks = replace(
            checks,
            fields=replace(
                fields_read,
                unread_types={
                    k: v for k, v in fields_read.unread_types.items() if k != s_format["key"]
                },
                unread_checked=fields_read.unread_checked - {s_format["key"]},
            ),
        )
    # Each with what says the field's default (the writer reports no loss there): the wire
    # values giving it, or the value itself (a field of its own); none without a default.
    defaults = part_defaults(source["parts"]["tool_result"][0]["canonical"]["type"])
    flags = [
        (
            key,
            name,
            checks.result_fields[key][0],
            values_by_wire,
            _said_by_default(name, values_by_wire, defaults),
        )
        for key, name, values_by_wire in _result_flags(source, blocks, target)
    ]
    # Where the target writes what the pass reads (its envelope order: `model`, `tools`,
    # `tool_choice`, then each parameter), and the parameters it has no place for (the
    # writer reports them in the order of their names).
    given = {name: f"p_{key}" for key, name in plain}
    if merged_param:
        given[merged_param] = "parallel"
    # A parameter read or written through `@only`: the pass checks the word is one both
    # formats take (another goes the two-step way, which reports it).
    words = {k: v for k, v in only_words(source, target).items() if k in given}
    by_key = {path: name for name, path in values["t_paths"].items()}
    written = target_fields(target)
    envelope = []
    for key in values["t_envelope"]:
        if key in written and (written[key] != "response_format" or s_format):
            envelope.append((key, written[key]))
        elif by_key.get(key) in given:
            envelope.append((key, given[by_key[key]]))
    params_dropped = sorted(
        (name, var) for name, var in given.items() if name not in values["t_paths"]
    )
    in_groups = {key for keys in groups.values() for key in keys}
    return {
        "param_defaults": parameter_defaults(),
        "source": source["format"],
        "target": target["format"],
        "s_messages": layout["messages"],
        "s_role": layout["role"],
        "s_content": layout["content"],
        "s_tag": layout["block_tag"],
        "s_shorthand": layout.get("text_shorthand") in (True, "request"),
        "s_system": layout["system_field"],
        "s_system_form": system_form,
        "s_user": source["roles"]["user"],
        "s_assistant": source["roles"]["assistant"],
        "s_params": plain,
        "s_words_of": {key: sorted(words[name]) for key, name in plain if name in words},
        "s_top_params": [(k, n) for k, n in plain if k not in in_groups],
        "s_groups": [
            (
                key,
                f"group_{n}",
                sorted(keys),
                sorted(checks.group_required.get(key, ())),
                group_tags(source, key),
                settings[key],
            )
            for n, (key, keys) in enumerate(groups.items())
        ],
        "s_param_group": {k: f"group_{n}" for n, keys in enumerate(groups.values()) for k in keys},
        **fields,
        "s_tools_group": _tools_group_values(fields["s_tools"], len(groups), checks),
        "s_nested": nested,
        "s_format": s_format,
        "s_media": media,
        "s_choice_key": choice_key,
        "s_choices": choices,
        "s_choice_name": choice_name,
        "s_merged_key": merged_key,
        "s_merged_param": merged_param,
        "image_kinds": sorted(set(parts["s_base64_kinds"]) & set(values["t_image_kinds"])),
        **parts,
        **values,
        **target_model(target, fields["s_model"]),
        "envelope": envelope,
        "s_result_dropped": flags,
        "s_result_part": source["parts"]["tool_result"][0]["canonical"]["type"],
        "dropped": params_dropped,
        "s_dropped": [
            (tag, part_type, kind, sorted(keys), *checks.dropped[tag])
            for tag, (part_type, kind, keys) in sorted(dropped.items())
        ],
        "s_tool_extra": checks.tool_extra,
        "s_tool_template": sorted(_tool_template(source) or ()),
        "s_no_home": _no_home(source),
        "t_no_choice": _no_choice(target),
        "t_result_message": "{"
        + f"{values['t_role']!r}: {values['t_tool']!r}, "
        + values["t_result"][1:],
        "depth": _depths(source, blocks, parts, fields),
        "checks": checks,
        "py_types": py_types,
        "t_ranges": ranges_by_parameter(target),
        "s_hosted_tools": frozenset(hosted_tool_tags(source)),
        "s_defaults": unread_defaults(source),
    }


def _check_format(source: Json, s_format: dict[str, Any]) -> None:
    """Fails generation unless the reading schema asks of the format's object what the pass
    checks: its keys (all required), their types, its tags."""
    try:
        required, fields = format_checks(
            source, [s_format["key"], s_format["inner"], *s_format["tags"]]
        )
    except CheckError as exc:
        raise PairError(str(exc)) from None
    keys = {key for key, _ in s_format["tags"]} | {key for key, _ in s_format["fields"]}
    if required != keys or fields.keys() != keys:
        raise PairError(f"{source['format']}: a format whose keys the pass does not check")
    for key, tag in s_format["tags"]:
        if fields[key][2] != tag:
            raise PairError(f"{source['format']}: a format tag the pass does not check")
    s_format["types"] = {key: fields[key][0] for key, _ in s_format["fields"]}


def _tools_group_values(
    path: list[str], n: int, checks: BlockChecks
) -> tuple[str, str, list[str]] | None:
    """The group holding the tools and the tool_choice (Bedrock's `toolConfig`): its key, the
    pass's variable, the keys its schema requires (None: the tools are a field of the body)."""
    if len(path) == 1:
        return None
    return path[0], f"group_{n}", sorted(checks.group_required.get(path[0], ()))


def _depths(
    source: Json, blocks: _Blocks, parts: dict[str, Any], fields: dict[str, Any]
) -> dict[str, int]:
    """How deep in the body the pass finds the values it carries without reading (the depth
    `fused_checks.opaque` checks them at): a call's arguments, a tool's schema, a result's
    structured value."""
    boxed = blocks.tag is None  # a block's fields one level under it
    block = 4  # the body, its messages, a message, its content, a block
    return {
        "block": block,
        "tool": len(fields["s_tools"]) + 1,
        "arguments": block + boxed + 1,
        "schema": len(fields["s_tools"])
        + 1
        + (parts["s_tool_box"] is not None)
        + len(parts["s_tool_schema"]),
        "structured": block + boxed + 3,  # the result's content, a block of it, its value
    }


def _checks(
    source: Json,
    blocks: _Blocks,
    request: tuple[list[tuple[str, str]], dict[str, list[str]], list[str]],
    *,
    parts: dict[str, Any],
    fields: dict[str, Any],
    choices: dict[str, str],
    dropped: dict[str, tuple[str, str, frozenset[str]]],
    media: dict[str, Any] | None = None,
    setting_tags: set[str] | None = None,
) -> BlockChecks:
    """What the pass checks of its source in place of the reading schema (pair_checks.py): of
    the fields it reads, the branches of the roles and tags it converts. ``request``: its
    parameters, their groups and the fields it reads otherwise (`_source_request`)."""
    plain, groups, nested = request
    layout = source["layout"]
    read = {
        layout["messages"],
        layout["system_field"],
        fields["s_tools"][0],
        fields["s_tool_choice"][0],
        *([fields["s_model"]] if fields["s_model"] else []),
        *(key for key, _name in plain if not any(key in keys for keys in groups.values())),
        *groups,
        *nested,
    }
    roles = {source["roles"]["user"], source["roles"]["assistant"]}
    tags = {
        parts["s_text_tag"],
        parts["s_image_tag"],
        parts["s_call_tag"],
        parts["s_result_tag"],
        *choices,
        *[t for t in (parts["s_base64_tag"], parts["s_url_tag"]) if t],
    }
    if parts["s_result_json"]:
        tags.add(parts["s_result_json"])
    tags |= setting_tags or set()
    if media is not None:  # a document (of each source), an image by a file id
        tags |= {media["tag"], media["file_tag"], media["text_tag"], media["url_tag"]}
    taken: dict[str, set[str]] = {layout["role"]: roles}
    if blocks.tag is None:
        # untagged unions are walked by their blocks' keys: the source's, the tool's box,
        # an image's byte source
        tags |= {parts["s_tool_box"], parts["s_image_box"], parts["s_base64"]["data"]}
        taken[UNTAGGED] = tags
    else:
        taken[blocks.tag] = tags
    group_of = {key: group for group, keys in groups.items() for key in keys}
    params: list[tuple[Step, ...]] = [
        (group_of[key], *group_tags(source, group_of[key]), key) if key in group_of else (key,)
        for key, _name in plain
        if key != "model"
    ]
    user = [
        layout["messages"],
        "[]",
        (layout["role"], source["roles"]["user"]),
        layout["content"],
        "[]",
    ]
    image = part_variant(source, "image", source={"type": "base64"})["wire"]
    tool = written_tool(source)["wire"]
    paths = BlockPaths(
        image_data=[*user, *blocks.steps(image, "data")],
        document_data=[
            *user,
            *blocks.steps(
                part_variant(source, "document", source={"type": "base64"})["wire"], "data"
            ),
        ]
        if media is not None
        else None,
        tool_schema=[*fields["s_tools"], "[]", *blocks.steps(tool, "schema")],
        result=[*user, *blocks.steps(source["parts"]["tool_result"][0]["wire"], "id")[:-1]],
        assistant_block=[
            *user[:2],
            (layout["role"], source["roles"]["assistant"]),
            *user[3:],
            (str(blocks.tag), ""),
        ],
        dropped_checked={t: k for t, (_, kind, k) in dropped.items() if kind == "bound"},
        dropped_open=tuple(sorted(t for t, (_, kind, _k) in dropped.items() if kind == "open")),
        # (a tool of another kind, or with keys reading leaves, only where tools are a
        # field of the body and tagged: Anthropic's)
        tool_keys=_tool_template(source)
        if parts["s_tool_tag_key"] and len(fields["s_tools"]) == 1 and not parts["s_tool_box"]
        else None,
    )
    try:
        return block_checks(source, read - set(nested), params, taken, paths)
    except CheckError as exc:
        raise PairError(str(exc)) from None


def _template_keys(wire: Json) -> frozenset[str] | None:
    """The keys of a block's template the pass takes: those holding a value, a constant or a
    transform of one value (a codec's object, which reading may report, is the two-step
    path's: a block holding one goes that way). None: a template of another form."""
    if not isinstance(wire, dict):
        return None
    return frozenset(
        k
        for k, v in wire.items()
        if isinstance(v, str) or (isinstance(v, dict) and "@codec" not in v and len(v) == 1)
    )


def _dropped_parts(
    source: Json, target: Json, blocks: _Blocks, parts: dict[str, Any], bound: frozenset[str]
) -> dict[str, tuple[str, str, frozenset[str]]]:
    """The blocks of the model's turns the target drops whole, by tag: the canonical part
    type, how (`bound`: reasoning issued by the source, which the target does not replay,
    reported `thinking_not_replayable`; `open`: a part the target has no block for, such as
    a server tool's call or result, reported `part_dropped`) and the keys the pass takes.
    A tagged source only; none when the target replays the source's reasoning."""
    from interlingua.conversion.adapters.carry import as_text  # noqa: PLC0415 (the generator runs without it otherwise)

    if blocks.tag is None:
        return {}
    replays = {target["format"], *target["layout"].get("replay_from", ())}
    read = {parts["s_text_tag"], parts["s_image_tag"], parts["s_call_tag"], parts["s_result_tag"]}
    by_tag: dict[str, list[tuple[str, Json]]] = {}
    for name, variants in source["parts"].items():
        for variant in variants:
            if "request" not in variant.get("kinds", ["request"]):
                continue
            wire = variant["wire"]
            tag = wire.get(blocks.tag) if isinstance(wire, dict) else None
            if isinstance(tag, str):
                by_tag.setdefault(tag, []).append((name, wire))
    found = {}
    for tag, variants in by_tag.items():
        if tag in read or len(variants) != 1:
            continue
        ((part_type, wire),) = variants
        keys = _template_keys(wire)
        if keys is None:
            continue
        if part_type in bound:
            if source["format"] not in replays:
                found[tag] = (part_type, "bound", keys)
        elif (
            part_type not in target["parts"]
            and as_text({"type": part_type, "content": "x"}) is None
        ):
            found[tag] = (part_type, "open", keys)
    return found


def _tool_template(source: Json) -> frozenset[str] | None:
    """The keys of the source's tool template (reading reports any other key dropped)."""
    tool = written_tool(source)
    return frozenset(tool["wire"]) if isinstance(tool["wire"], dict) else None


def _no_home(source: Json) -> tuple[str, str]:
    """How reading reports a tool of a kind the mapping does not read (a server tool): the
    reason's text before and after the tool's kind, asked of the runtime at generation time."""
    from interlingua.conversion import Context  # noqa: PLC0415 (the generator runs without it otherwise)
    from interlingua.conversion.adapters.runtime import no_home  # noqa: PLC0415

    ctx = Context(adapter=source["format"])
    kind = "k"
    no_home(ctx, "/x", {"type": kind}, "item")
    ((_pointer, code, reason, _part),) = ctx.losses
    before, after = reason.split(repr(kind))
    if code != "field_dropped":
        raise PairError("a tool without a home reported otherwise than dropped")
    return before, after


def _no_choice(target: Json) -> tuple[str, str, str]:
    """How the writer reports a tool_choice among tools none of which goes out, asked of it at
    generation time."""
    from interlingua.conversion import Context  # noqa: PLC0415 (the generator runs without it otherwise)
    from interlingua.conversion.adapters.documents import no_choice  # noqa: PLC0415

    ctx = Context(adapter=target["format"])
    no_choice(ctx)
    ((pointer, code, reason, _part),) = ctx.losses
    return pointer, code, reason


def pair_modules(inputs: Any) -> Iterator[tuple[dict[str, str], dict[str, Any]]]:
    """The manifest's producer: the values of each pair module whose source reads blocks."""
    from generator.render import parts  # noqa: PLC0415 (the part facts, read from the bundle)

    facts = next(parts(inputs))[1]
    mappings = mappings_by_format(inputs)
    for source, target in PAIRS:
        if reads_blocks(mappings[source]) and not reads_contents(mappings[source]):
            values = pair_values(
                mappings[source], mappings[target], facts["bound"], facts["part_types"]
            )
            yield {"module": module_name(source, target)}, values


def _source_media(
    source: Json,
    target: Json,
    blocks: _Blocks,
    parts: dict[str, Any],
    part_types: frozenset[str] | None = None,
) -> dict[str, Any] | None:
    """Media and documents in a tool result or beside one (issue 16: real traffic), when the
    target's tool messages hold text only and its writer moves the rest to a user turn right
    after the results: the source's document block (by its source's tag: bytes of one type, a
    text, a URL, a file id; a title, a cache hint or citations send the body the two-step way)
    and the target's file part, and how the writer reports what it moves and drops, asked of
    the two-step path at generation time. None: a source or target of another layout (an
    untagged source, Bedrock's), whose pass leaves such bodies to the two-step path."""
    if blocks.tag is None or "document" not in source["parts"]:
        return None
    if set(source["layout"].get("tool_result_parts", ())) != {"text", "image", "document"}:
        return None
    if set(target["layout"].get("tool_result_parts", ["text"])) != {"text"}:
        return None  # (a target whose results hold media writes them there)
    box = parts["s_image_box"]
    kinds: dict[str, Json] = {}
    tag = None
    for variant in source["parts"]["document"]:
        wire = variant["wire"]
        found_tag, fields = blocks.split(wire)
        if tag not in (None, found_tag) or box not in fields:
            raise PairError(f"{source['format']}: a document the block composer does not read")
        tag = found_tag
        kinds[fields[box][blocks.tag]] = fields[box]
    by_kind = {"base64": "data", "text": "data", "url": "url", "file": "file_id"}
    if tag is None or set(kinds) != set(by_kind):
        raise PairError(f"{source['format']}: documents the block composer does not read")
    base64 = kinds["base64"]
    text = kinds["text"]
    (pdf,) = [k for k, v in base64.items() if isinstance(v, str) and "/" in v]
    (plain,) = [k for k, v in text.items() if isinstance(v, dict) and "@plain_text" in v]
    (web,) = [k for k, v in kinds["url"].items() if isinstance(v, dict) and "@web_url" in v]
    (file_key,) = [k for k, v in kinds["file"].items() if variable_of(v) == "file_id"]
    if (
        variable_of(base64.get(parts["s_base64"]["data"])) != "data"
        or base64[pdf] != "application/pdf"
        or text.get(pdf) != "text/plain"
        or len(base64) != 3
        or len(text) != 3
        or len(kinds["url"]) != 2
        or len(kinds["file"]) != 2
    ):
        raise PairError(f"{source['format']}: documents the block composer does not read")
    document = part_variant(target, "document", source={"type": "base64"})["wire"]
    values = {
        "tag": tag,
        "media_key": pdf,
        "data_key": parts["s_base64"]["data"],
        "text_key": plain,
        "url_key": web,
        "file_key": file_key,
        "file_tag": kinds["file"][blocks.tag],
        "text_tag": text[blocks.tag],
        "url_tag": kinds["url"][blocks.tag],
        "base64_tag": base64[blocks.tag],
        "pdf": base64[pdf],
        "plain": text[pdf],
        "t_file_data": wire_expr(document, {"media_type": "media_type", "data": "data"}),
        **_displacement(source, target, parts, tag, (box, pdf, plain, web, file_key)),
    }
    return {**values, **_unknown_blocks(source, target, parts, part_types, values)}


def _displacement(
    source: Json, target: Json, parts: dict[str, Any], tag: str, keys: tuple[str, ...]
) -> dict[str, Any]:
    """How the two-step path reports a result's media it moves to a user turn after the
    results, a file id another provider issued, a document it cannot carry and a user turn
    left with nothing: asked of it at generation time, on a body of each."""
    from interlingua.conversion.converter import convert  # noqa: PLC0415 (the generator runs without it otherwise)

    box, media_key, _plain, url_key, file_key = keys
    kind = parts["s_image_tag"]
    t = source["layout"]["block_tag"]
    image = {t: kind, box: {t: "file", file_key: "i"}}
    result = {
        t: parts["s_result_tag"],
        parts["s_result"]["id"]: "c",
        parts["s_result"]["content"]: [image],
    }
    document = {t: tag, box: {t: "url", url_key: "https://example.com/d.pdf"}}
    layout = source["layout"]
    body = {
        "model": "m",
        "max_tokens": 1,
        layout["messages"]: [
            {layout["role"]: source["roles"]["user"], layout["content"]: "q"},
            {layout["role"]: source["roles"]["assistant"], layout["content"]: "a"},
            {layout["role"]: source["roles"]["user"], layout["content"]: [result, document]},
        ],
    }
    got = convert(body, source["format"], target["format"], fused=False)
    found = [(loss.pointer, loss.code, loss.reason, loss.part_type) for loss in got.losses]
    at = "/messages/2/content/0/content/0"
    expected = [
        (at, "moved", kind),
        (f"{at}/{box}/{file_key}", "file_not_portable", kind),
        ("/messages/3/content/0", "part_dropped", tag),
        ("/messages/3", "message_dropped", None),
    ]
    if [(p, c, k) for p, c, _r, k in found] != expected or len(got.output[layout["messages"]]) != 3:
        raise PairError(f"{target['format']}: media in tool results written otherwise: {found}")
    if media_key in found[1][2]:
        raise PairError("a reason the pass would write otherwise")
    return {
        "moved": found[0][2],
        "not_portable": (f"/{box}/{file_key}", found[1][1], found[1][2]),
        "cannot_carry": found[2][2],
        "nothing": found[3][2],
    }


#: A tag no format names (`_unknown_blocks` asks the two-step path of a block of it).
_UNKNOWN = "interlingua_unknown_block"


def _unknown_blocks(
    source: Json,
    target: Json,
    parts: dict[str, Any],
    part_types: frozenset[str] | None,
    media: dict[str, Any],
) -> dict[str, Any]:
    """Blocks of a kind the source does not know (Anthropic's `container_upload`, a result's
    `tool_reference`), in a user turn or a tool result: reading keeps each verbatim (a part
    of its tag), the target's writer drops it, reported. The tags that are not such a block
    (those the reading schema names, the mapping's, the canonical part types: each read
    otherwise), and how the writer reports one dropped, asked of the two-step path at
    generation time."""
    from interlingua.conversion.converter import convert  # noqa: PLC0415 (the generator runs without it otherwise)

    if part_types is None:
        from interlingua.generated.parts import PART_TYPES  # noqa: PLC0415

        part_types = PART_TYPES
    layout = source["layout"]
    t = layout["block_tag"]
    user = [layout["messages"], "[]", (layout["role"], source["roles"]["user"]), layout["content"]]
    try:
        schema_tags = unknown_tags(
            source,
            [
                [*user, "[]"],
                [*user, "[]", (t, parts["s_result_tag"]), parts["s_result"]["content"], "[]"],
            ],
        )
    except CheckError as exc:
        raise PairError(str(exc)) from None
    mapped = {
        v["wire"][t]
        for variants in source["parts"].values()
        for v in variants
        if isinstance(v["wire"], dict) and isinstance(v["wire"].get(t), str)
    }
    known = schema_tags | mapped | part_types
    if _UNKNOWN in known:
        raise PairError(f"{source['format']}: no unknown tag to ask the two-step path of")
    block = {t: _UNKNOWN, "a": 1}
    result = {
        t: parts["s_result_tag"],
        parts["s_result"]["id"]: "c",
        parts["s_result"]["content"]: [block],
    }
    text = part_variant(source, "text")["wire"]
    user_role, model_role = source["roles"]["user"], source["roles"]["assistant"]
    body = {
        "model": "m",
        "max_tokens": 1,
        layout["messages"]: [
            {layout["role"]: user_role, layout["content"]: "q"},
            {layout["role"]: model_role, layout["content"]: "a"},
            {
                layout["role"]: user_role,
                layout["content"]: [result, block, {t: text[t], parts["s_text_key"]: "x"}],
            },
            {layout["role"]: model_role, layout["content"]: "a"},
            {layout["role"]: user_role, layout["content"]: [block]},
        ],
    }
    got = convert(body, source["format"], target["format"], fused=False)
    found = [(loss.pointer, loss.code, loss.reason, loss.part_type) for loss in got.losses]
    at = "/messages/2/content/0/content/0"
    expected = [
        (at, "moved", _UNKNOWN),
        (at, "part_dropped", _UNKNOWN),
        ("/messages/3/content/0", "part_dropped", _UNKNOWN),
        ("/messages/5/content/0", "part_dropped", _UNKNOWN),
        ("/messages/5", "message_dropped", None),
    ]
    if [(p, c, k) for p, c, _r, k in found] != expected or len(got.output[layout["messages"]]) != 5:
        raise PairError(f"{target['format']}: unknown blocks written otherwise: {found}")
    reasons = {r for _p, c, r, _k in found if c == "part_dropped"}
    if len(reasons) != 1 or (found[0][2], found[4][2]) != (media["moved"], media["nothing"]):
        raise PairError(f"{target['format']}: unknown blocks reported otherwise than media")
    return {"known_tags": sorted(known), "unknown_dropped": reasons.pop()}
