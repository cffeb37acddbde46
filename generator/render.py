"""What each generated file holds: one producer per entry of the manifest (generator/manifest.py).

A producer takes the :class:`Inputs` of one schema version and yields, per file, the values of
the placeholders in the entry's path and what the file is made from: the template's values
when the entry names a template, the file's text otherwise.
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path, PurePosixPath
from typing import Any

import jinja2
from datamodel_code_generator import generate
from datamodel_code_generator.enums import DataModelType, InputFileType

from generator import store_tables, viewplan
from generator.adapters import AdapterPlan, known_turn_keys, load_mappings, plan_adapter
from generator.bundle import bundle_id, plain_bundle, retryable_table
from generator.docs import md_header, render_docs
from generator.environment import COMMAND, header, py_literal
from generator.layout_docs import layout_page
from generator.load import Sources
from generator.openapi import render_openapi
from generator.pair_checks import resolve_ref
from generator.paths import SCHEMAS, TEMPLATES
from generator.plan import build_plan
from generator.reading import reading_schema
from generator.spellings import plan_spellings
from generator.stored import stored_schema
from generator.streams import StreamPlan, plan_stream
from generator.templating import Var, parse
from generator.typescript import render_typescript

Json = Any
#: Per file: the placeholders of the entry's path, and the template's values (or the text).
Files = Iterator[tuple[dict[str, str], Any]]

__all__ = ["COMMAND", "Files", "Inputs", "header", "py_literal"]


@dataclass
class Inputs:
    """Everything the producers read for one schema version; plans are made once, on demand."""

    sources: Sources
    bundle: dict[str, Json]
    env: jinja2.Environment

    @cached_property
    def context(self) -> dict[str, Any]:
        """The values every template gets."""
        version = self.sources.version
        return {
            "header": header(self.sources.digest),
            "version": version,
            "digest": self.sources.digest,
            "schema_id": bundle_id(version),
            "schema_version": self.bundle["$defs"]["SchemaVersion"]["const"],
        }

    @cached_property
    def adapter_plans(self) -> list[AdapterPlan]:
        return [plan_adapter(m, self.bundle) for m in load_mappings()]

    @cached_property
    def stream_plans(self) -> list[StreamPlan]:
        plans = (plan_stream(plan.mapping) for plan in self.adapter_plans)
        return [plan for plan in plans if plan is not None]

    @cached_property
    def docs(self) -> dict[Path, str]:
        """The documentation pages and the schemas the site serves."""
        return render_docs(self.sources, self.bundle, self.env, self.context)

    @property
    def note(self) -> str:
        """The header on one line, for a JSON file's `$comment`."""
        return " ".join(self.context["header"].replace("#", "").split())


def bundle_json(inputs: Inputs) -> Files:
    yield (
        {"version": inputs.sources.version},
        json.dumps(inputs.bundle, indent=2, ensure_ascii=False) + "\n",
    )


def plain_bundle_json(inputs: Inputs) -> Files:
    """The bundle as stock validators take it (Ajv strict): no annotations of ours."""
    yield (
        {"version": inputs.sources.version},
        json.dumps(plain_bundle(inputs.bundle), indent=2, ensure_ascii=False) + "\n",
    )


def no_values(inputs: Inputs) -> Files:
    """A template that needs only the shared values."""
    yield {}, {}


def codes(inputs: Inputs) -> Files:
    bundle = inputs.bundle
    yield (
        {},
        {
            "codes": bundle["$defs"]["ErrorCode"]["x-codes"],
            "severities": bundle["$defs"]["Severity"]["enum"],
            "retryable": retryable_table(bundle),
            "registration_only": sorted(
                code
                for code, about in bundle["$defs"]["ErrorCode"]["x-codes"].items()
                if about.get("registration_only")
            ),
            "invariant_codes": sorted(
                {
                    code
                    for schema in bundle["$defs"].values()
                    for inv in schema.get("x-invariants", [])
                    for code in (inv["code"], inv.get("repeat_code"))
                    if code
                }
            ),
        },
    )


def validators(inputs: Inputs) -> Files:
    plan = build_plan(inputs.bundle)
    yield (
        {},
        {
            "defs": plan.defs,
            "constants": plan.constants,
            "documents": plan.documents,
            "unions": plan.unions,
        },
    )


def models(inputs: Inputs) -> Files:
    yield {}, render_models(inputs.bundle, inputs.context["header"])


def view_tables(inputs: Inputs) -> Files:
    bundle = inputs.bundle
    actions, is_pre = viewplan.kind_tables(bundle)
    yield (
        {},
        {
            "parts": viewplan.part_views(bundle),
            "actions": actions,
            "is_pre": is_pre,
            "context": viewplan.context_tables(bundle),
            "tiers": viewplan.tier_rules(bundle),
        },
    )


def seed_coverage(inputs: Inputs) -> Files:
    yield (
        {},
        {
            "header": "<!-- " + " ".join(header(inputs.sources.digest, "").split()) + " -->",
            "seeds": seed_rows(inputs.sources, inputs.bundle),
        },
    )


def docs_pages(inputs: Inputs) -> Files:
    for path, text in inputs.docs.items():
        yield {"page": path.as_posix()}, text


def layout_pages(inputs: Inputs) -> Files:
    """The reference page of the layout keys, from the mapping meta-schema."""
    meta = json.loads((SCHEMAS / "meta" / "mapping.json").read_text(encoding="utf-8"))
    for page, text in layout_page(meta, md_header(inputs.sources.digest)).items():
        yield {"file": Path(page).as_posix()}, text


def typescript_files(inputs: Inputs) -> Files:
    """The TypeScript package: types, validators, codes (generator/typescript.py)."""
    for path, text in render_typescript(inputs.bundle, inputs.env, inputs.context).items():
        yield {"file": Path(path).as_posix()}, text


def openapi_files(inputs: Inputs) -> Files:
    """The HTTP service's contract and the schemas it serves (generator/openapi.py)."""
    served = {
        PurePosixPath(path.as_posix()): text
        for path, text in inputs.docs.items()
        if path.parts[:2] == ("docs", "schemas")
    }
    contract = render_openapi(
        inputs.bundle,
        [m.data for m in load_mappings()],
        served,
        version=str(inputs.context["schema_version"]),
        comment=" ".join(header(inputs.sources.digest, "").split()),
        env=inputs.env,
    )
    for path, text in contract.items():
        yield {"file": Path(path).as_posix()}, text


def providers(inputs: Inputs) -> Files:
    """Each format's provider key (the mapping files' `provider`), for model ids."""
    yield {}, {"providers": store_tables.providers()}


def prices(inputs: Inputs) -> Files:
    """The price table (schemas/pricing/prices.json), checked against `$defs/PriceTable`."""
    yield {}, {"table": store_tables.price_table(inputs.bundle)}


def _model_input(bundle: dict[str, Json]) -> dict[str, Json]:
    """The bundle as datamodel-code-generator should see it.

    Open unions get the tag table their custom template needs (derived from the discriminator
    mapping, so nothing is written twice), and the fallback member leaves the `oneOf`.
    """
    doc = copy.deepcopy(bundle)
    for key in ("oneOf", "$comment", "title", "description"):
        doc.pop(key, None)
    for schema in doc["$defs"].values():
        # Timestamps stay strings in Python: a datetime would re-serialise differently and
        # break byte-exact round trips. The pattern still constrains them.
        schema.pop("format", None)
        open_union = schema.get("x-open-union")
        if open_union:
            disc = schema["discriminator"]
            open_union["prop"] = disc["propertyName"]
            open_union["tags"] = {
                tag: ref.rsplit("/", 1)[1] for tag, ref in disc["mapping"].items()
            }
            schema["oneOf"] = [
                m for m in schema["oneOf"] if not m["$ref"].endswith("/" + open_union["fallback"])
            ]
    return doc


# Python-target choices (not facts of the format): hand-written bases that add behaviour.
PYTHON_BASES = {"Message": "interlingua.documents.base.MessageModel"}


def _base_classes(bundle: dict[str, Json]) -> dict[str, str | list[str]]:
    """Open-union fallbacks keep every field verbatim, explicit nulls included."""
    fallbacks = [
        s["x-open-union"]["fallback"] for s in bundle["$defs"].values() if "x-open-union" in s
    ]
    bases: dict[str, str | list[str]] = dict.fromkeys(
        fallbacks, "interlingua.documents.base.VerbatimModel"
    )
    bases.update(PYTHON_BASES)
    return bases


def render_models(bundle: dict[str, Json], py_header: str) -> str:
    code = generate(
        json.dumps(_model_input(bundle)),
        input_file_type=InputFileType.JsonSchema,
        output_model_type=DataModelType.PydanticV2BaseModel,
        target_python_version="3.11",  # type: ignore[arg-type]
        disable_timestamp=True,
        enum_field_as_literal="all",  # type: ignore[arg-type]
        use_annotated=True,
        use_field_description=True,
        use_schema_description=True,
        use_union_operator=True,
        use_standard_collections=True,
        field_constraints=True,
        use_type_alias=True,
        use_title_as_name=True,
        keep_model_order=True,
        skip_root_model=True,
        formatters=[],
        custom_template_dir=TEMPLATES / "datamodel",
        additional_imports=["pydantic.Discriminator", "pydantic.Tag"],
        base_class="interlingua.documents.base.CanonicalModel",
        field_extra_keys={"x-equality"},
        base_class_map=_base_classes(bundle),
    )
    assert isinstance(code, str)
    lines = code.splitlines()
    while lines and lines[0].startswith("#"):
        lines.pop(0)  # replace datamodel-codegen's banner with ours
    doc = '"""Pydantic models of every interlingua type: frozen, unions tagged with Literals."""'
    return py_header + "\n" + doc + "\n" + "\n".join(lines).lstrip("\n") + "\n"


def seed_rows(sources: Sources, bundle: dict[str, Json]) -> list[dict[str, Json]]:
    """For each seed: every field with its canonical home, or the reason it has none."""
    homes: dict[str, str] = {}

    def walk(node: Json, where: str) -> None:
        if not isinstance(node, dict):
            return
        for seed_field in node.get("x-seed", []):
            homes[seed_field] = where
        for name, sub in node.get("properties", {}).items():
            walk(sub, f"{where}.{name}")

    for name, schema in bundle["$defs"].items():
        walk(schema, name)
    return [
        {
            "seed": inv.seed,
            "title": inv.title,
            "source": inv.source,
            "rows": [
                {"field": name, "home": homes.get(f"{inv.seed}:{name}"), "reason": reason}
                for name, reason in sorted(inv.fields.items())
            ],
        }
        for inv in sources.seeds
    ]


def format_python(paths: list[Path]) -> None:
    """Sort imports and format with ruff; fixed options, so the caller's config never matters."""
    if not paths:
        return
    options = ["--isolated", "--no-cache", "--line-length", "100", "--target-version", "py311"]
    sort_imports = ["check", "--select", "I", "--fix", "--quiet", *options]
    sort_imports += ["--config", "lint.isort.known-first-party = ['interlingua']"]
    for command in (sort_imports, ["format", "--quiet", *options]):
        result = subprocess.run(
            [sys.executable, "-m", "ruff", *command, *map(str, paths)],
            capture_output=True,
            text=True,
            check=False,
        )
        if result.returncode != 0:
            output = result.stdout + result.stderr
            raise RuntimeError(f"ruff {command[0]} failed on generated code:\n{output}")


def _rule(spec: dict[str, Any] | None) -> tuple[str, str, int] | None:
    if spec is None:
        return None
    return (spec["chars"], spec.get("first", spec["chars"]), spec["max_length"])


def parts(inputs: Inputs) -> Files:
    """The part facts the adapters use."""
    defs = inputs.bundle["$defs"]
    part_types = set(defs["Part"]["discriminator"]["mapping"])
    members = {
        t: defs[ref.rsplit("/", 1)[-1]]
        for t, ref in defs["Part"]["discriminator"]["mapping"].items()
    }
    # Reasoning-bound: an `origin` replayed by the reasoning rule. A part marked
    # `x-replay: mapping` (hosted tools) is bound by the mapping variants that name its origin.
    bound = {
        t
        for t, member in members.items()
        if "origin" in member.get("properties", {}) and member.get("x-replay") != "mapping"
    }
    media = {
        t
        for t in part_types
        if defs[defs["Part"]["discriminator"]["mapping"][t].rsplit("/", 1)[-1]]
        .get("properties", {})
        .get("source", {})
        .get("$ref", "")
        .endswith("/MediaSource")
    }
    yield (
        {},
        {"part_types": frozenset(part_types), "bound": frozenset(bound), "media": frozenset(media)},
    )


def layout_defaults() -> dict[str, Any]:
    """Every layout key with its default from the mapping meta-schema (the one room where a
    key's meaning and default are written), None for a key that has none."""
    meta = json.loads((SCHEMAS / "meta" / "mapping.json").read_text(encoding="utf-8"))
    keys = meta["properties"]["layout"]["properties"]
    return {key: schema.get("default") for key, schema in keys.items()}


def turn_facts(
    fmt: str,
    layout: dict[str, Any],
    tables: dict[str, Any],
    slots: list[tuple[str, str, str]],
    marker: Any,
) -> dict[str, Any]:
    """What the turn template needs beyond the layout keys, worked out once here: the formats
    whose reasoning replays in this one, the read-back rank of each slot, the wire roles of
    the user and of tool results, the turn keys a reader knows, how a marker block looks."""
    roles = tables["ROLES_TO_WIRE"]
    back = tables["ROLES_FROM_WIRE"]
    # Roles written under another role's wire name (reported role_changed): not a tool result
    # that is a user block by design, nor a hoisted system prompt (it has no wire role).
    renamed = {
        role
        for role, wire in roles.items()
        if back.get(wire) != role
        and not (role == "tool" and layout["tool_results"] == "user_blocks")
        and not (role == "system" and layout["system"] == "hoist")
    }
    first = [f for f, _, _ in slots if f in layout["slots_first"]]
    others = [f for f, _, _ in slots if f not in layout["slots_first"]]
    slot_is_list: dict[str, bool] = {}
    for field, kind, _ in slots:
        slot_is_list.setdefault(field, kind == "list")
    tag = layout.get("block_tag")
    marker_test = None
    if marker:
        marker_test = f"block.get({tag!r}) == {marker[1]!r}" if tag else f"{marker[1]!r} in block"
    return {
        "replays": (fmt, *sorted(layout["replay_from"])),
        "read_order": {name: rank for rank, name in enumerate([*first, None, *others])},
        "slot_is_list": slot_is_list,
        "user": roles["user"],
        "tool": roles["tool"],
        "tool_is_user": roles["tool"] == roles["user"],
        "known_turn_keys": known_turn_keys(layout, slots),
        "marker_test": marker_test,
        "renamed": frozenset(renamed),
    }


def reading_pairing(result_pairing: str, parts: dict[str, Any]) -> str:
    """How reading pairs a format's results with their calls: as its layout says, except
    where ids pair (`id`) but a call or a result may be read without one (OpenAI Chat's
    deprecated `function_call` and `function` message): then `call_name`, which gives such a
    call an id and pairs such a result with the earliest unanswered call of its name."""
    if result_pairing != "id":
        return result_pairing
    ids = {"tool_call": "id", "tool_result": "tool_call_id"}
    for part_type, field in ids.items():
        for variant in parts.get(part_type, []):
            value = parse(variant["canonical"]).get(field)
            if isinstance(value, Var) and value.loose:
                return "call_name"
    return "id"


def turns_optional(schema: dict[str, Any], messages: str) -> bool:
    """Whether a request may leave its turns out: its wire schema does not always require them
    (a Converse request of a prompt Bedrock manages; a Responses request of a stored prompt's
    reference alone, which must then hold that reference)."""
    root = resolve_ref(schema.get("$defs", {}), schema)
    return messages not in root.get("required", [])


def turn_needed(schema: dict[str, Any], messages: str) -> bool:
    """Whether a request must hold a turn: its wire schema gives its turns a minimum
    (`minItems`), which the provider enforces (OpenAI Chat, Anthropic, Gemini refuse an empty
    list). A conversation of no messages cannot be written to such a format."""
    defs = schema.get("$defs", {})
    root = resolve_ref(defs, schema)
    turns = resolve_ref(defs, root.get("properties", {}).get(messages, {}))
    return int(turns.get("minItems", 0)) >= 1


def names_property(schema: dict[str, Any], field: str) -> bool:
    """Whether any object of a wire schema has ``field`` as a property: OpenAI Chat's request
    has no `annotations` (only its response's message does), so citations beside a turn's
    text go out in responses alone."""
    return any(
        isinstance(definition, dict) and field in definition.get("properties", {})
        for definition in [schema, *schema.get("$defs", {}).values()]
    )


def choice_beside_tools(wire: Any) -> bool:
    """Whether a request template writes its tool choice inside the object holding its tools
    (Converse's `toolConfig`, which requires them): a choice with no tools cannot go out."""

    def calls(node: Any, name: str) -> bool:
        return isinstance(node, dict) and any(
            key in ("@each", "@codec") and isinstance(args, list) and args[:1] == [name]
            for key, args in node.items()
        )

    return any(
        isinstance(value, dict)
        and any(calls(member, "tool") for member in value.values())
        and any(calls(member, "tool_choice") for member in value.values())
        for value in wire.values()
    )


def adapter_modules(inputs: Inputs) -> Files:
    """One adapter module per mapping file."""
    defaults = layout_defaults()
    for plan in inputs.adapter_plans:
        data = plan.mapping.data
        layout = {**defaults, **data["layout"]}
        if layout["tool_result_parts"] is not None:
            layout["tool_result_parts"] = frozenset(layout["tool_result_parts"])
        # Whether a tool result's structured value has a place of its own; where it has none,
        # the engine carries it as JSON text (never a silent or needless drop).
        layout["structured_results"] = any(
            "structured_content" in variant["canonical"]
            for variant in data["parts"].get("tool_result", [])
        )
        # Whether the format writes a web page's citation with the span it supports: one read
        # without a span (it supports its whole part, Anthropic's) is then given the part's.
        layout["url_spans"] = any(
            variant["canonical"].get("type") == "url" and "span" in variant["canonical"]
            for variant in data.get("codecs", {}).get("citation", [])
            if not variant.get("reads_only")
        )
        layout["choice_beside_tools"] = choice_beside_tools(data["request"]["wire"])
        # Whether the format offers a hosted tool under its name (Anthropic's `web_search`), so
        # a tool choice naming it means that tool; elsewhere such a choice names no function.
        layout["hosted_by_name"] = any(
            "hosted" in variant["canonical"]
            and isinstance(variant["wire"], dict)
            and "name" in variant["wire"]
            for variant in data.get("codecs", {}).get("tool", [])
            if not variant.get("reads_only")
        )
        request_schema = json.loads(
            (SCHEMAS / data["documents"]["request"]).read_text(encoding="utf-8")
        )
        layout["turns_optional"] = turns_optional(request_schema, layout["messages"])
        layout["turn_needed"] = turn_needed(request_schema, layout["messages"])
        citations = layout.get("text_citations")
        layout["request_citations"] = isinstance(citations, str) and names_property(
            request_schema, citations
        )
        wire = turn_facts(data["format"], layout, plan.tables, plan.slots, plan.marker)
        wire["pairing"] = reading_pairing(layout["result_pairing"], data["parts"])
        yield (
            {"module": plan.mapping.module},
            {
                "title": data["title"],
                "format": data["format"],
                "path": plan.mapping.path.as_posix(),
                "description": " ".join(data["description"].split()),
                "transforms": plan.transforms,
                "tables": plan.tables,
                "functions": plan.functions,
                "layout": layout,
                "wire": wire,
                "encode_parts": plan.encode_parts,
                "block_tag": layout.get("block_tag"),
                "decode_tags": plan.decode_tags,
                "decode_keyed": plan.decode_keyed,
                "slots": plan.slots,
                "asks_carries": plan.asks_carries,
                "tool_message": plan.tool_message,
                "turn": plan.turn,
                "marker": plan.marker,
                "has_response": "response" in data,
                "response_message": tuple(data.get("response", {}).get("message", ())),
                "infer_call": bool(data.get("stop_reasons", {}).get("infer_call", False)),
                "request_aliases": data["request"].get("aliases", {}),
                "spellings": plan_spellings(data),
                "response_call_seed": data.get("response", {}).get("call_seed"),
                "grounding": data.get("response", {}).get("grounding"),
                "id_rule": _rule(data.get("ids", {}).get("tool_call")),
                "name_rule": _rule(data.get("ids", {}).get("tool_name")),
                "capabilities": data["capabilities"],
                "documents": {
                    **{k: v for k, v in data["documents"].items() if k != "text"},
                    "messages": str(Path(data["documents"]["request"]).parent / "messages.json"),
                },
                "text": data["documents"].get("text"),
                "missing_stop": data.get("stop_reasons", {}).get("missing", "other"),
                "stop_detail": data.get("stop_reasons", {}).get("detail"),
            },
        )


def _wire_documents(inputs: Inputs) -> Iterator[tuple[Path, dict[str, Json]]]:
    """Each wire schema of a mapping file, by its path under schemas/."""
    for plan in inputs.adapter_plans:
        stream = plan.mapping.data.get("stream", {}).get("schema")
        documents = plan.mapping.data["documents"]
        schemas = [
            *(documents[kind] for kind in ("request", "response") if kind in documents),
            *([stream] if stream else []),
        ]
        for document in schemas:
            yield Path(document), json.loads((SCHEMAS / document).read_text(encoding="utf-8"))


def _stored_documents(inputs: Inputs) -> Iterator[tuple[Path, dict[str, Json]]]:
    """Each format's stored messages, derived from its request schema (a generated schema)."""
    for plan in inputs.adapter_plans:
        data = plan.mapping.data
        request = json.loads((SCHEMAS / data["documents"]["request"]).read_text(encoding="utf-8"))
        schema = stored_schema(request, data["layout"], data["title"])
        yield Path(data["documents"]["request"]).parent / "messages.json", schema


def _served(path: Path) -> str:
    """Where a wire schema travels with the package, under wire_schemas/."""
    return path.relative_to("formats").as_posix()


def wire_schemas(inputs: Inputs) -> Files:
    """The wire schemas travel with the package: adapters check their inputs against them."""
    for path, schema in _wire_documents(inputs):
        marked = {"$comment": inputs.note, **schema} if "$comment" not in schema else schema
        yield {"document": _served(path)}, json.dumps(marked, indent=2, ensure_ascii=False) + "\n"


def stored_schemas(inputs: Inputs) -> Files:
    for path, schema in _stored_documents(inputs):
        text = json.dumps({"$comment": inputs.note, **schema}, indent=2, ensure_ascii=False)
        yield {"document": _served(path)}, text + "\n"


def reading_schemas(inputs: Inputs) -> Files:
    """What reading checks: the same shape as each wire or stored schema, open where a body may
    carry more."""
    for path, schema in [*_wire_documents(inputs), *_stored_documents(inputs)]:
        derived = {"$comment": inputs.note}
        derived.update(reading_schema(schema))
        yield (
            {"document": _served(path.with_suffix(".reading.json"))},
            json.dumps(derived, indent=2, ensure_ascii=False) + "\n",
        )


def adapters_init(inputs: Inputs) -> Files:
    """The registry of the adapter modules."""
    yield {}, {"plans": inputs.adapter_plans}


def stream_modules(inputs: Inputs) -> Files:
    """One stream module per mapping file with a `stream` section."""
    for plan in inputs.stream_plans:
        data = plan.mapping.data
        section = data["stream"]
        yield (
            {"module": plan.mapping.module},
            {
                "title": data["title"],
                "format": data["format"],
                "module": plan.mapping.module,
                "path": plan.mapping.path.as_posix(),
                "functions": plan.functions,
                "framing": section["framing"],
                "done": section.get("done"),
                "event_field": section.get("event_field"),
                "loss_notes": section["loss_notes"],
                "schema": section.get("schema"),
                "writers": plan.writers,
                "whole_calls": plan.whole_calls,
                "explicit_start": bool(section.get("explicit_start", False)),
                "part_types": sorted(plan.part_types),
                "defaults": plan.defaults,
                "sequence": plan.sequence,
                "whole_response": plan.whole_response,
                "whole_blocks": plan.whole_blocks,
                "citations": plan.citations,
                "content_citations": plan.content_citations,
                "grounding": plan.grounding,
            },
        )


def streams_init(inputs: Inputs) -> Files:
    """The registry of the stream modules."""
    yield {}, {"plans": inputs.stream_plans}
