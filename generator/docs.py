"""The generated part of the documentation site: reference pages and the schemas at their `$id`s.

`render_docs` reads what the pages show (the bundle, the examples, the wire schemas, the
conformance vectors) and returns every page as text, keyed by its path under the repository
root; the manifest (generator/manifest.py) lists them with the rest of the generator's output.
Everything between is pure functions of data, so the pages are deterministic.

Outputs:

- `docs/reference/`: one page per `$defs` type, the error codes, the view tables, one page per
  wire format, the conformance vectors, the list of served schemas, and an index of each.
- `docs/schemas/`: every schema at the path its `$id` names below `https://interlingua.dev/`
  (so `mkdocs build` serves `https://interlingua.dev/schemas/v1/message.json` as
  `site/schemas/v1/message.json`), each with the do-not-edit header as its `$comment`.

`python -m generator.docs` copies the latest conformance matrix (`build/conformance/matrix.md`,
written by `python -m conformance run`) into the site; `make run` calls it before the build.
"""

from __future__ import annotations

import argparse
import json
import posixpath
import re
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

import jinja2

from generator import viewplan
from generator.bundle import def_name_of, plain_bundle
from generator.effort_table import PARAMETER, effort_rows
from generator.environment import header
from generator.examples import iter_examples
from generator.load import SchemaLoadError, Sources, read_yaml
from generator.paths import BASE_URI, EXAMPLES, ROOT, SCHEMAS, SEED_COVERAGE
from generator.stored import stored_schema

Json = Any

SITE_URI = BASE_URI.removesuffix("schemas/")  # https://interlingua.dev/
DOCS = PurePosixPath("docs")
REFERENCE = DOCS / "reference"
TYPES = REFERENCE / "types"
SERVED = DOCS / "schemas"
FORMATS = SCHEMAS / "formats"
VECTORS = ROOT / "conformance" / "vectors"
MATRIX_SOURCE = Path("build/conformance/matrix.md")
MATRIX_PAGE = DOCS / "conformance" / "matrix.md"
FORMAT_KINDS = ("request", "response")


# --- inputs ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class WireSchema:
    """One wire schema file of a format (`request.json`, `response.json`)."""

    kind: str
    path: str  # relative to the repository root
    schema: dict[str, Json]


@dataclass(frozen=True)
class WireFormat:
    """A wire format: its schemas and the example and invalid bodies beside them."""

    name: str
    schemas: tuple[WireSchema, ...]
    examples: dict[str, tuple[str, ...]]  # kind -> example names
    invalid: tuple[str, ...]


@dataclass(frozen=True)
class VectorFile:
    """One file of conformance vectors (`conformance/vectors/<area>/<group>.json`)."""

    area: str
    path: str  # relative to the repository root
    document: dict[str, Json]


@dataclass(frozen=True)
class DocsInputs:
    """Everything the pages show besides the bundle, read once from the repository."""

    def_files: dict[str, str]  # $defs name -> schema file, relative to schemas/
    file_docs: dict[str, tuple[str, str]]  # schema file -> (title, description)
    examples: dict[str, tuple[tuple[str, str], ...]]  # type -> ((name, JSON text), ...)
    served: tuple[tuple[PurePosixPath, dict[str, Json]], ...]  # docs path -> schema
    formats: tuple[WireFormat, ...]
    vectors: tuple[VectorFile, ...] = field(default=())


def _read_json(path: Path) -> Json:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise SchemaLoadError(f"{path}: {exc}") from exc


def _stored_messages(folder: Path) -> dict[str, Json] | None:
    """The stored-messages schema the generator derives for the format in ``folder``."""
    mapping = SCHEMAS / "mappings" / f"{folder.name}.yaml"
    request = folder / "request.json"
    if not (mapping.is_file() and request.is_file()):
        return None
    data = read_yaml(mapping.read_text(encoding="utf-8"))
    return stored_schema(_read_json(request), data["layout"], data["title"])


def served_path(schema_id: str) -> PurePosixPath:
    """Where the site serves the schema with this `$id`: its path below the site's root."""
    if not schema_id.startswith(SITE_URI) or not schema_id.endswith(".json"):
        raise SchemaLoadError(f"$id {schema_id!r} is not a .json file under {SITE_URI}")
    return DOCS / schema_id.removeprefix(SITE_URI)


def read_inputs(sources: Sources, bundle: dict[str, Json]) -> DocsInputs:
    """Read the examples, wire schemas and vectors the pages show, in a fixed order."""
    def_files = {
        name: file.path.as_posix()
        for file in sources.files
        for name in file.contents.get("$defs", {})
    }
    file_docs = {
        file.path.as_posix(): (
            str(file.contents.get("title", file.path.name)),
            str(file.contents.get("description", "")),
        )
        for file in sources.files
    }
    examples: dict[str, list[tuple[str, str]]] = {}
    if EXAMPLES.is_dir():
        for type_name, path in iter_examples(EXAMPLES):
            text = path.read_text(encoding="utf-8").strip("\n")
            examples.setdefault(type_name, []).append((path.stem, text))
    served: list[tuple[PurePosixPath, dict[str, Json]]] = [
        (served_path(file.uri), file.contents) for file in sources.files
    ]
    served.append((served_path(bundle["$id"]), bundle))
    plain = plain_bundle(bundle)
    served.append((served_path(plain["$id"]), plain))
    for path in sorted((SCHEMAS / "meta").glob("*.json")):
        meta = _read_json(path)
        served.append((served_path(meta["$id"]), meta))
    formats = []
    for folder in sorted(p for p in FORMATS.glob("*") if p.is_dir()) if FORMATS.is_dir() else []:
        schemas = []
        for kind in FORMAT_KINDS:
            path = folder / f"{kind}.json"
            if path.is_file():
                schema = _read_json(path)
                schemas.append(WireSchema(kind, path.relative_to(ROOT).as_posix(), schema))
                served.append((served_path(schema["$id"]), schema))
        # The format's other schemas (a stream's chunk), and its stored messages, derived.
        for path in sorted(folder.glob("*.json")):
            if path.stem not in FORMAT_KINDS:
                schema = _read_json(path)
                served.append((served_path(schema["$id"]), schema))
        stored = _stored_messages(folder)
        if stored is not None:
            served.append((served_path(stored["$id"]), stored))
        formats.append(
            WireFormat(
                folder.name,
                tuple(schemas),
                {
                    kind: tuple(p.stem for p in sorted((folder / "examples" / kind).glob("*.json")))
                    for kind in FORMAT_KINDS
                },
                tuple(p.stem for p in sorted((folder / "invalid").glob("*.json"))),
            )
        )
    vectors = tuple(
        VectorFile(path.parent.name, path.relative_to(ROOT).as_posix(), _read_json(path))
        for path in sorted(VECTORS.glob("*/*.json"))
    )
    return DocsInputs(
        def_files,
        file_docs,
        {name: tuple(rows) for name, rows in examples.items()},
        tuple(sorted(served, key=lambda pair: pair[0])),
        tuple(formats),
        vectors,
    )


# --- Markdown helpers --------------------------------------------------------------------------

_CODE_SPAN = re.compile(r"(`+)(.+?)\1", re.DOTALL)


def md_text(text: str, *, cell: bool = False) -> str:
    """Schema prose as Markdown: code spans kept, `<` `>` escaped outside them (they would be
    HTML), and in a table cell `|` escaped and newlines joined."""
    out: list[str] = []
    position = 0
    for match in _CODE_SPAN.finditer(text):
        out.append(_escape(text[position : match.start()], cell))
        out.append(match.group(0))
        position = match.end()
    out.append(_escape(text[position:], cell))
    result = "".join(out)
    return " ".join(result.split()) if cell else result


def _escape(text: str, cell: bool) -> str:
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return text.replace("|", "\\|") if cell else text


def code(value: str) -> str:
    """`value` as an inline code span, whatever backticks it holds."""
    longest = max((len(run) for run in re.findall(r"`+", value)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if value.startswith("`") or value.endswith("`") or longest else ""
    return f"{fence}{pad}{value}{pad}{fence}"


def json_code(value: Json) -> str:
    return code(json.dumps(value, ensure_ascii=False))


def first_sentence(text: str) -> str:
    """The first sentence of a description, for index tables."""
    match = re.search(r"(?<=[.!?])\s+(?=[A-Z`(])", text)
    return text[: match.start()] if match else text


def link(text: str, target: PurePosixPath, page: PurePosixPath, anchor: str = "") -> str:
    """A Markdown link from ``page`` to ``target`` (both paths from the repository root)."""
    fragment = f"#{anchor}" if anchor else ""
    return f"[{text}]({posixpath.relpath(target, page.parent)}{fragment})"


def type_page(name: str) -> PurePosixPath:
    return TYPES / f"{name}.md"


def type_link(name: str, page: PurePosixPath) -> str:
    return link(code(name), type_page(name), page)


def md_header(digest: str) -> str:
    """The do-not-edit header of a generated page, as an HTML comment on one line."""
    return "<!-- " + " ".join(header(digest, "").split()) + " -->"


# --- schema facts ------------------------------------------------------------------------------


def kind_of(schema: Json) -> str:
    """What a named type is, in a word or two."""
    if "oneOf" in schema:
        return "open union" if "x-open-union" in schema else "union"
    if "enum" in schema:
        return "enum"
    if "const" in schema:
        return "constant"
    kind = schema.get("type")
    if kind == "object" or "properties" in schema:
        return "object" if schema.get("additionalProperties", True) is False else "open object"
    if isinstance(kind, list):
        return " or ".join(kind)
    return str(kind) if kind else "any"


def type_expr(schema: Json, page: PurePosixPath) -> str:
    """The type of a value, as Markdown with links to the named types."""
    if schema is True or schema == {} or not isinstance(schema, dict):
        return "any JSON value"
    if "$ref" in schema:
        return type_link(def_name_of(schema["$ref"]), page)
    if "oneOf" in schema:
        return " or ".join(type_expr(member, page) for member in schema["oneOf"])
    if "const" in schema:
        return json_code(schema["const"])
    if "enum" in schema:
        return " \\| ".join(json_code(value) for value in schema["enum"])
    kind = schema.get("type")
    if kind == "array":
        items = schema.get("items", True)
        return f"array of {type_expr(items, page)}"
    if kind == "object" or "properties" in schema:
        extra = schema.get("additionalProperties", True)
        if isinstance(extra, dict) and extra and "properties" not in schema:
            return f"object of {type_expr(extra, page)}"
        return "object"
    if isinstance(kind, list):
        return " or ".join(kind)
    return str(kind) if kind else "any JSON value"


def constraints(schema: Json) -> list[str]:
    """The value constraints a schema states, each as a short phrase."""
    if not isinstance(schema, dict):
        return []
    found: list[str] = []
    phrases = (
        ("minLength", "at least {} character{}"),
        ("maxLength", "at most {} character{}"),
        ("minimum", "≥ {}{}"),
        ("exclusiveMinimum", "> {}{}"),
        ("maximum", "≤ {}{}"),
        ("exclusiveMaximum", "< {}{}"),
        ("minItems", "at least {} item{}"),
        ("maxItems", "at most {} item{}"),
    )
    for key, phrase in phrases:
        if key in schema:
            value = schema[key]
            found.append(phrase.format(value, "" if value == 1 or "{}{}" in phrase else "s"))
    if schema.get("uniqueItems"):
        found.append("items distinct")
    if "pattern" in schema:
        found.append("pattern " + code(schema["pattern"]))
    if "format" in schema:
        found.append("format " + code(schema["format"]))
    excluded = schema.get("not", {}).get("enum") if isinstance(schema.get("not"), dict) else None
    if excluded:
        found.append("not " + ", ".join(json_code(v) for v in excluded))
    names = schema.get("propertyNames", {})
    if isinstance(names, dict) and "pattern" in names:
        found.append("keys match " + code(names["pattern"]))
    items = schema.get("items")
    if schema.get("type") == "array" and isinstance(items, dict) and "$ref" not in items:
        found += [f"each item {c}" for c in constraints(items)]
    return found


def _target(defs: dict[str, Json], schema: Json) -> Json:
    return defs.get(def_name_of(schema["$ref"]), {}) if "$ref" in schema else {}


def seed_label(seed_field: str) -> str:
    seed, _, name = seed_field.partition(":")
    return f"{seed} {code(name)}"


def property_notes(schema: Json, defs: dict[str, Json], page: PurePosixPath) -> list[str]:
    """The x-annotations that matter to a reader of one property."""
    target = _target(defs, schema)
    notes: list[str] = []
    tier = schema.get("x-mutability")
    if tier:
        notes.append(f"tier {code(tier)}")
    elif target.get("x-mutability"):
        notes.append(f"tier {code(target['x-mutability'])} (of its type)")
    capability = schema.get("x-capability") or target.get("x-capability")
    if capability:
        notes.append(f"read needs {code(capability)}")
    write = schema.get("x-write-capability") or target.get("x-write-capability")
    if write:
        notes.append(f"write needs {code(write)}")
    if "x-accessor" in schema:
        notes.append(f"view accessor {code(schema['x-accessor'])}")
    if schema.get("x-equality") == "ignore":
        notes.append("not part of equality")
    if "x-sensitive-keys" in schema:
        keys = ", ".join(code(k) for k in schema["x-sensitive-keys"])
        notes.append(f"never serialised: {keys}")
    if schema.get("x-sensitive-nested"):
        notes.append("sensitive header entries removed at any depth when serialised")
    if "x-open" in schema:
        notes.append("open: " + md_text(schema["x-open"], cell=True))
    seeds = schema.get("x-seed", [])
    if seeds:
        seed_page = PurePosixPath(SEED_COVERAGE)
        label = link("seed", seed_page, page)
        notes.append(f"home of {label} field " + ", ".join(seed_label(s) for s in seeds))
    return notes


def _path(steps: str) -> str:
    return code(steps.replace("/", "."))


def invariant_text(inv: Json, page: PurePosixPath) -> str:
    """One `x-invariants` rule in words, with the code its breach is reported with."""
    kind = inv["kind"]
    errors = link("errors", REFERENCE / "errors.md", page)
    codes = code(inv["code"])
    if kind == "exactly_one":
        rule = "exactly one of " + ", ".join(_path(f) for f in inv["fields"]) + " is present"
    elif kind == "ordered":
        rule = f"{_path(inv['lower'])} is not greater than {_path(inv['upper'])} when both are set"
    elif kind == "non_empty":
        rule = f"{_path(inv['field'])} is not empty"
        if inv.get("unless"):
            rule += ", unless " + " or ".join(
                f"{_path(u['field'])} is {json_code(u['equals'])}" for u in inv["unless"]
            )
    elif kind == "waives":
        values = " or ".join(json_code(v) for v in inv["when"]["in"])
        rule = (
            f"the rule that {_path(inv['field'])} breaks with this code does not hold when "
            f"{_path(inv['when']['field'])} is {values}"
        )
    elif kind == "required_when":
        when = " and ".join(f"{_path(k)} is {json_code(v)}" for k, v in inv["when"].items())
        rule = f"when {when}: " + ", ".join(_path(r) for r in inv["require"]) + " must be set"
    elif kind == "equal_when_present":
        rule = " and ".join(_path(f) for f in inv["fields"]) + " are equal when both are set"
    elif kind == "equals":
        rule = f"{_path(inv['field'])} is {json_code(inv['value'])} when set"
    elif kind == "unique":
        where = _where(inv.get("where", {}))
        rule = f"{_path(inv['take'])} is unique across {_path('/'.join(inv['path']))}{where}"
    elif kind == "ascending":
        across = _path("/".join(inv["path"]))
        rule = f"{_path(inv['take'])} sorts after the one before it across {across}"
    elif kind == "answers":
        call, result = inv["call"], inv["result"]
        rule = (
            f"across {_path('/'.join(inv['path']))}, every item{_where(result['where'])} "
            f"names in {_path(result['take'])} the {_path(call['take'])} of an earlier "
            f"item{_where(call['where'])}, once"
        )
        if inv.get("elsewhere"):
            rule += f" (a call not here is allowed when {_path(inv['elsewhere'])} is set)"
        codes += f" (answered twice: {code(inv['repeat_code'])})"
    elif kind == "portable_schema":
        forbidden = ", ".join(code(k) for k in inv["forbidden"])
        valued = ", ".join(code(k) for k in inv["schema_valued"])
        rule = (
            f"{_path(inv['field'])} stays in the portable JSON Schema subset: no {forbidden}, "
            f"and no schema as the value of {valued}"
        )
    else:  # pragma: no cover - the meta-schema admits no other kind
        rule = kind
    return f"{rule[0].upper()}{rule[1:]}. Reported as {codes} (see {errors})."


def _where(where: dict[str, str]) -> str:
    if not where:
        return ""
    return " with " + " and ".join(f"{_path(k)} {json_code(v)}" for k, v in where.items())


def references(defs: dict[str, Json]) -> dict[str, list[str]]:
    """For each type, the types whose schemas refer to it."""
    used_by: dict[str, set[str]] = {name: set() for name in defs}

    def walk(node: Json, owner: str) -> None:
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and def_name_of(ref) in used_by:
                used_by[def_name_of(ref)].add(owner)
            for key, value in node.items():
                if key != "discriminator":
                    walk(value, owner)
        elif isinstance(node, list):
            for item in node:
                walk(item, owner)

    for name, schema in defs.items():
        walk(schema, name)
    return {name: sorted(users - {name}) for name, users in used_by.items()}


# --- pages ---------------------------------------------------------------------------------------


@dataclass
class Renderer:
    """Renders the pages; holds what every page needs."""

    env: jinja2.Environment
    bundle: dict[str, Json]
    inputs: DocsInputs
    header: str
    context: dict[str, Json] = field(default_factory=dict)

    @property
    def defs(self) -> dict[str, Json]:
        defs: dict[str, Json] = self.bundle["$defs"]
        return defs

    def render(self, template: str, **values: Json) -> str:
        text = self.env.get_template(f"docs/{template}").render(
            self.context, header=self.header, **values
        )
        return re.sub(r"\n{3,}", "\n\n", text)

    def schema_file_page(self, file: str) -> PurePosixPath:
        return SERVED / file

    def type_rows(self, names: Iterable[str], page: PurePosixPath) -> list[dict[str, str]]:
        return [
            {
                "link": type_link(name, page),
                "kind": kind_of(self.defs[name]),
                "summary": md_text(first_sentence(self.defs[name]["description"]), cell=True),
            }
            for name in names
        ]

    def type_pages(self) -> dict[PurePosixPath, str]:
        used_by = references(self.defs)
        return {type_page(name): self.type_page(name, used_by[name]) for name in self.defs}

    def type_page(self, name: str, used_by: list[str]) -> str:
        schema = self.defs[name]
        page = type_page(name)
        file = self.inputs.def_files[name]
        facts = [
            f"Kind: {kind_of(schema)}.",
            "Defined in "
            + link(code(f"schemas/{file}"), self.schema_file_page(file), page)
            + f" as {code('#/$defs/' + name)}, and in the bundle "
            + link(code(self.bundle_page().relative_to(DOCS).as_posix()), self.bundle_page(), page)
            + " under the same name.",
        ]
        if "x-document" in schema:
            facts.append(
                f"A top-level document, recognised by its {code(schema['x-document']['key'])} key."
            )
        facts += [
            note[0].upper() + note[1:] + "." for note in property_notes(schema, self.defs, page)
        ]
        fields = []
        required = set(schema.get("required", []))
        for prop, sub in schema.get("properties", {}).items():
            type_text = type_expr(sub, page)
            limits = constraints(sub)
            if limits:
                type_text += "<br>" + ", ".join(limits)
            fields.append(
                {
                    "name": code(prop),
                    "type": type_text,
                    "required": "yes" if prop in required else "no",
                    "description": md_text(sub.get("description", ""), cell=True),
                    "notes": "<br>".join(property_notes(sub, self.defs, page)),
                }
            )
        extra = schema.get("additionalProperties", True)
        other_keys = None
        if fields or kind_of(schema).endswith("object"):
            if extra is False:
                other_keys = "No other keys are allowed."
            elif isinstance(extra, dict) and extra:
                other_keys = f"Other keys: each value is {type_expr(extra, page)}."
                limits = constraints(extra)
                if limits:
                    other_keys = other_keys[:-1] + f" ({', '.join(limits)})."
            else:
                other_keys = "Other keys are allowed."
        members = []
        if "oneOf" in schema:
            tags = {
                def_name_of(ref): tag for tag, ref in schema["discriminator"]["mapping"].items()
            }
            for member in schema["oneOf"]:
                member_name = def_name_of(member["$ref"])
                members.append(
                    {
                        "tag": json_code(tags[member_name]) if member_name in tags else "any other",
                        "link": type_link(member_name, page),
                        "summary": md_text(
                            first_sentence(self.defs[member_name]["description"]), cell=True
                        ),
                    }
                )
        values = self.enum_rows(schema, page)
        scalar = []
        if not fields and not members and not values:
            scalar = [f"Type: {type_expr({k: v for k, v in schema.items() if k != 'title'}, page)}"]
            scalar += [c[0].upper() + c[1:] for c in constraints(schema)]
        return self.render(
            "type.md.j2",
            name=name,
            description=md_text(schema["description"]),
            facts=facts,
            fields=fields,
            other_keys=other_keys,
            discriminator=schema.get("discriminator", {}).get("propertyName"),
            open_union=schema.get("x-open-union"),
            open_union_link=type_link(schema["x-open-union"]["fallback"], page)
            if "x-open-union" in schema
            else "",
            members=members,
            values=values,
            value_columns=self.value_columns(schema),
            scalar=scalar,
            invariants=[invariant_text(inv, page) for inv in schema.get("x-invariants", [])],
            used_by=[type_link(user, page) for user in used_by],
            examples=self.inputs.examples.get(name, ()),
            example_dir=f"schemas/examples/{name}/",
            schema_json=json.dumps(schema, indent=2, ensure_ascii=False),
            views_link=link("view tables", REFERENCE / "views.md", page),
            errors_link=link("error codes", REFERENCE / "errors.md", page),
        )

    def value_columns(self, schema: Json) -> list[str]:
        if "x-codes" in schema:
            return ["severity", "meaning"]
        if "x-kinds" in schema:
            return ["direction", "action by role"]
        return []

    def enum_rows(self, schema: Json, page: PurePosixPath) -> list[list[str]]:
        if "enum" not in schema:
            return []
        rows = []
        for value in schema["enum"]:
            row = [json_code(value)]
            if "x-codes" in schema:
                meaning = schema["x-codes"][value]
                row += [meaning["severity"], md_text(meaning["description"], cell=True)]
            elif "x-kinds" in schema:
                spec = schema["x-kinds"][value]
                row += [
                    code(spec["direction"]),
                    ", ".join(f"{code(role)}: {code(a)}" for role, a in spec["action"].items()),
                ]
            rows.append(row)
        return rows

    def bundle_page(self) -> PurePosixPath:
        return served_path(self.bundle["$id"])

    def types_index(self) -> str:
        page = TYPES / "index.md"
        groups = []
        for file, (title, description) in self.inputs.file_docs.items():
            names = [n for n, f in self.inputs.def_files.items() if f == file]
            groups.append(
                {
                    "file": file,
                    "title": md_text(title),
                    "description": md_text(description),
                    "schema_link": link(code(f"schemas/{file}"), self.schema_file_page(file), page),
                    "rows": self.type_rows(names, page),
                }
            )
        return self.render("types-index.md.j2", groups=groups, count=len(self.defs))

    def errors_page(self) -> str:
        page = REFERENCE / "errors.md"
        declared: dict[str, set[str]] = {}
        for name, schema in self.defs.items():
            for inv in schema.get("x-invariants", []):
                for key in ("code", "repeat_code"):
                    if key in inv:
                        declared.setdefault(inv[key], set()).add(name)
            if "x-open-union" in schema:
                declared.setdefault(schema["x-open-union"]["code"], set()).add(name)
        error_code = self.defs["ErrorCode"]
        codes = [
            {
                "code": code(value),
                "severity": error_code["x-codes"][value]["severity"],
                "meaning": md_text(error_code["x-codes"][value]["description"], cell=True),
                "declared_by": ", ".join(
                    type_link(n, page) for n in sorted(declared.get(value, ()))
                ),
            }
            for value in error_code["enum"]
        ]
        gateway = self.defs.get("GatewayErrorCode")
        return self.render(
            "errors.md.j2",
            codes=codes,
            count=len(codes),
            error_code=type_link("ErrorCode", page),
            finding=type_link("ValidationError", page),
            severity=type_link("Severity", page),
            gateway_codes=[code(v) for v in gateway["enum"]] if gateway else [],
            gateway_retryable=[code(v) for v in gateway.get("x-retryable", [])] if gateway else [],
            gateway_link=type_link("GatewayErrorCode", page) if gateway else "",
            gateway_description=md_text(gateway["description"]) if gateway else "",
            envelope=type_link("GatewayErrorEnvelope", page)
            if "GatewayErrorEnvelope" in self.defs
            else "",
        )

    def views_page(self) -> str:
        page = REFERENCE / "views.md"
        if "ViewKind" not in self.defs:
            return ""
        roles = self.defs["Role"]["enum"]
        actions, is_pre = viewplan.kind_tables(self.bundle)
        kinds = [
            {
                "kind": code(kind),
                "cells": [
                    f"{actions[(kind, role)]} ({'pre' if is_pre[(kind, role)] else 'post'})"
                    for role in roles
                ],
            }
            for kind in self.defs["ViewKind"]["enum"]
        ]
        parts = []
        for row in viewplan.part_views(self.bundle):
            view = self.defs[row["model"]]["x-view"]
            parts.append(
                {
                    "tag": json_code(row["tag"]) if row["tag"] else "any other",
                    "model": type_link(row["model"], page),
                    "kind": code(row["kind"]),
                    "name": _path(view["name"]) if "name" in view else "",
                    "uri": "<br>".join(code(t) for t in view.get("uri", [])),
                    "content": ", ".join(
                        f"{rule} {_path(p) if p else 'the whole part'}"
                        for r in view.get("content", [])
                        for rule, p in r.items()
                    ),
                    "properties": ", ".join(code(name) for name in view.get("properties", {})),
                }
            )
        tables = viewplan.context_tables(self.bundle)
        accessors = [
            {
                "name": code(doc["name"]),
                "path": code(doc["path"]),
                "capability": code(doc["capability"]) if doc["capability"] else "none",
                "type": code(doc["type"]),
            }
            for doc in tables["accessor_docs"]
        ]
        gates = [
            (code("extensions." + ".".join(path)), code(capability))
            for path, capability in tables["gates"]
        ]
        sensitive = [
            (code("extensions." + ".".join(path)), ", ".join(code(k) for k in sorted(keys)))
            for path, keys in tables["sensitive"].items()
        ]
        nested = [code("extensions." + ".".join(path)) for path in tables["sensitive_nested"]]
        tiers = [
            (code(".".join(path)), code(tier), code(write) if write else "")
            for path, tier, write in viewplan.tier_rules(self.bundle)
        ]
        return self.render(
            "views.md.j2",
            roles=[code(role) for role in roles],
            kinds=kinds,
            parts=parts,
            accessors=accessors,
            gates=gates,
            sensitive=sensitive,
            nested=nested,
            tiers=tiers,
            view_kind=type_link("ViewKind", page),
            view=type_link("View", page),
            message=type_link("Message", page),
            part=type_link("Part", page),
        )

    def format_pages(self) -> dict[PurePosixPath, str]:
        pages: dict[PurePosixPath, str] = {}
        index = REFERENCE / "formats" / "index.md"
        rows = []
        for wire in self.inputs.formats:
            page = REFERENCE / "formats" / f"{wire.name}.md"
            schemas = []
            for schema in wire.schemas:
                defs = schema.schema.get("$defs", {})
                schemas.append(
                    {
                        "kind": schema.kind,
                        "title": md_text(schema.schema.get("title", schema.kind)),
                        "description": md_text(schema.schema.get("description", "")),
                        "id": schema.schema["$id"],
                        "served": link(
                            code(schema.schema["$id"].removeprefix(SITE_URI)),
                            served_path(schema.schema["$id"]),
                            page,
                        ),
                        "source": code(schema.path),
                        "root": code(def_name_of(schema.schema["$ref"]))
                        if "$ref" in schema.schema
                        else "",
                        "types": [
                            {
                                "name": code(name),
                                "kind": kind_of(sub),
                                "summary": md_text(sub.get("description", ""), cell=True),
                            }
                            for name, sub in defs.items()
                        ],
                    }
                )
            pages[page] = self.render(
                "format.md.j2",
                name=wire.name,
                mapping=mapping_context(wire.name),
                schemas=schemas,
                examples=wire.examples,
                invalid=wire.invalid,
                folder=f"schemas/formats/{wire.name}/",
            )
            rows.append(
                {
                    "link": link(code(wire.name), page, index),
                    "titles": "<br>".join(
                        md_text(s.schema.get("title", s.kind), cell=True) for s in wire.schemas
                    ),
                    "types": sum(len(s.schema.get("$defs", {})) for s in wire.schemas),
                    "examples": sum(len(v) for v in wire.examples.values()),
                    "invalid": len(wire.invalid),
                }
            )
        capabilities = read_capabilities(w.name for w in self.inputs.formats)
        pages[index] = self.render(
            "formats-index.md.j2",
            rows=rows,
            capabilities=capability_table(
                self.defs.get("AdapterCapabilities", {}), capabilities, index
            ),
            capabilities_type=type_link("AdapterCapabilities", index)
            if "AdapterCapabilities" in self.defs
            else "",
            effort=self.effort(index),
        )
        return pages

    def effort(self, page: PurePosixPath) -> str:
        """The reasoning-effort table (`generator/effort_table.py`); empty without the ladder."""
        ladder = (
            self.defs.get("GenerationParameters", {})
            .get("properties", {})
            .get(PARAMETER, {})
            .get("enum", [])
        )
        mappings = {
            path.stem: read_yaml(path.read_text(encoding="utf-8"))
            for path in sorted((SCHEMAS / "mappings").glob("*.yaml"))
        }
        return effort_table(ladder, effort_rows(mappings, ladder), page) if ladder else ""

    def vector_pages(self) -> dict[PurePosixPath, str]:
        pages: dict[PurePosixPath, str] = {}
        index = REFERENCE / "vectors" / "index.md"
        areas: dict[str, list[VectorFile]] = {}
        for vector_file in self.inputs.vectors:
            areas.setdefault(vector_file.area, []).append(vector_file)
        rows = []
        for area, files in areas.items():
            page = REFERENCE / "vectors" / f"{area}.md"
            groups = []
            for vector_file in files:
                doc = vector_file.document
                vectors = doc.get("vectors", [])
                group = f"{area}/{doc.get('group', PurePosixPath(vector_file.path).stem)}"
                counts = {
                    level: sum(v.get("level") == level for v in vectors)
                    for level in ("required", "recommended")
                }
                anchor = PurePosixPath(vector_file.path).stem
                groups.append(
                    {
                        "group": group,
                        "anchor": anchor,
                        "path": code(vector_file.path),
                        "description": md_text(doc.get("description", "")),
                        "counts": counts,
                        "vectors": [self.vector_row(v) for v in vectors],
                    }
                )
                rows.append(
                    {
                        "group": link(code(group), page, index, anchor),
                        "summary": md_text(first_sentence(doc.get("description", "")), cell=True),
                        **counts,
                    }
                )
            pages[page] = self.render("vectors.md.j2", area=area, groups=groups)
        pages[index] = self.render(
            "vectors-index.md.j2",
            rows=rows,
            total=sum(len(f.document.get("vectors", [])) for f in self.inputs.vectors),
            conformance=link("Conformance", DOCS / "conformance" / "index.md", index),
        )
        return pages

    @staticmethod
    def vector_row(vector: Json) -> dict[str, str]:
        if "expected_error" in vector:
            error = vector["expected_error"]
            expected = f"error {code(error['code'])}"
            if error.get("details"):
                expected += " with " + _short_json(error["details"])
        else:
            expected = _short_json(vector.get("expected"))
        return {
            "id": code(vector["id"]),
            "level": vector["level"],
            "function": code(vector["function"]),
            "input": _short_json(vector["input"]),
            "expected": expected,
            "description": md_text(vector["description"], cell=True),
        }

    def schemas_page(self) -> str:
        page = REFERENCE / "schemas.md"
        rows = [
            {
                "id": code(schema["$id"]),
                "link": link(code(path.relative_to(DOCS).as_posix()), path, page),
                "title": md_text(str(schema.get("title", "")), cell=True),
            }
            for path, schema in self.inputs.served
        ]
        return self.render("schemas.md.j2", rows=rows, site=SITE_URI)

    def reference_index(self) -> str:
        return self.render(
            "reference-index.md.j2",
            types=len(self.defs),
            formats=[w.name for w in self.inputs.formats],
            vectors=sum(len(f.document.get("vectors", [])) for f in self.inputs.vectors),
            codes=len(self.defs["ErrorCode"]["enum"]),
        )

    def served_files(self) -> dict[PurePosixPath, str]:
        """Every schema at its `$id` path, the do-not-edit header as its `$comment`."""
        files = {}
        for path, schema in self.inputs.served:
            note = self.header.removeprefix("<!-- ").removesuffix(" -->")
            copy: dict[str, Json] = {}
            for key, value in schema.items():
                copy[key] = value
                if key == "$id":
                    copy["$comment"] = note
            if "$comment" in schema and schema["$comment"] != note:
                copy["$comment"] = f"{note} {schema['$comment']}"
            files[path] = json.dumps(copy, indent=2, ensure_ascii=False) + "\n"
        return files


_SHORT = 72


def _template_text(value: Json) -> str:
    """A mapping template as inline code: compact JSON, `$variables` as written."""
    return code(json.dumps(value, ensure_ascii=False, separators=(", ", ": ")))


def read_capabilities(
    names: Iterable[str], mappings: Path = SCHEMAS / "mappings"
) -> dict[str, dict[str, Json]]:
    """The `capabilities` section of each format's mapping file, for the formats that have one."""
    found: dict[str, dict[str, Json]] = {}
    for name in names:
        path = mappings / f"{name}.yaml"
        if path.is_file():
            found[name] = dict(read_yaml(path.read_text(encoding="utf-8"))["capabilities"])
    return found


def _capability_value(value: Json) -> str:
    if value is True:
        return "yes"
    if value is False:
        return "no"
    return "—" if value is None else f"{value:,}" if isinstance(value, int) else str(value)


def capability_table(
    schema: Json, capabilities: dict[str, dict[str, Json]], page: PurePosixPath
) -> str:
    """One row per format, one column per `AdapterCapabilities` property (in schema order),
    then what each column means: every flag name and meaning comes from the schema."""
    flags = list(schema.get("properties", {}))
    if not flags or not capabilities:
        return ""
    lines = [
        "| format | " + " | ".join(code(flag) for flag in flags) + " |",
        "|---|" + "---|" * len(flags),
    ]
    for name in sorted(capabilities):
        values = capabilities[name]
        cells = [_capability_value(values.get(flag)) for flag in flags]
        target = REFERENCE / "formats" / f"{name}.md"
        lines.append(f"| {link(code(name), target, page)} | " + " | ".join(cells) + " |")
    lines += ["", "| column | meaning |", "|---|---|"]
    for flag in flags:
        meaning = md_text(schema["properties"][flag].get("description", ""), cell=True)
        lines.append(f"| {code(flag)} | {meaning} |")
    return "\n".join(lines) + "\n"


def effort_table(ladder: list[str], rows: dict[str, list[str | None]], page: PurePosixPath) -> str:
    """One row per format with a request writer, one column per rung of the canonical
    reasoning-effort ladder: the word the writer sends, or `—` (left out, reported)."""
    lines = [
        "| format | " + " | ".join(code(rung) for rung in ladder) + " |",
        "|---|" + "---|" * len(ladder),
    ]
    for name, cells in rows.items():
        target = REFERENCE / "formats" / f"{name}.md"
        words = " | ".join("—" if c is None else code(c) for c in cells)
        lines.append(f"| {link(code(name), target, page)} | {words} |")
    return "\n".join(lines) + "\n"


def mapping_context(fmt: str) -> dict[str, Json] | None:
    """What a format page shows of the format's mapping file, or None when it has none."""
    path = SCHEMAS / "mappings" / f"{fmt}.yaml"
    if not path.is_file():
        return None
    data = read_yaml(path.read_text(encoding="utf-8"))
    layout = data["layout"]
    # Each key's meaning is written once, in the mapping meta-schema, and shown on the layout
    # keys page; a format page lists the values its mapping sets, in the meta-schema's order.
    meta = _read_json(SCHEMAS / "meta" / "mapping.json")
    page = REFERENCE / "formats" / f"{fmt}.md"
    keys = link("layout keys", REFERENCE / "layout.md", page)
    rules = [
        f"{code(key)}: {json_code(layout[key])}"
        for key in meta["properties"]["layout"]["properties"]
        if key in layout
    ]
    rules.append(f"What each key means: the {keys} table.")
    framing = data["documents"].get("text")
    if framing:
        rules.insert(
            0,
            f"The documents are text: the `{framing}` framing "
            f"(`src/interlingua/conversion/texts/{framing}.py`) reads them into the JSON shape the "
            "wire schemas describe before this mapping runs, and writes its output back as text.",
        )
    parts = [
        {
            "type": code(part_type) + (" (read only)" if variant.get("reads_only") else ""),
            "slot": code(variant.get("slot", "content")),
            "canonical": _template_text(variant["canonical"]),
            "wire": _template_text(variant["wire"]),
            "loss": code(variant["loss"]["code"]) if "loss" in variant else "",
        }
        for part_type, variants in data["parts"].items()
        for variant in variants
    ]
    codecs = [
        {
            "codec": code(name) + (" (read only)" if v.get("reads_only") else ""),
            "canonical": _template_text(v["canonical"]),
            "wire": _template_text(v["wire"]),
        }
        for name, variants in data.get("codecs", {}).items()
        for v in variants
    ]
    cases_dir = ROOT / "conformance" / "cases" / fmt
    counts: dict[str, int] = {}
    for case_file in sorted(cases_dir.glob("*.json")) if cases_dir.is_dir() else []:
        for case in _read_json(case_file)["cases"]:
            counts[case["kind"]] = counts.get(case["kind"], 0) + 1
    return {
        "title": md_text(data["title"]),
        "description": md_text(" ".join(data["description"].split())),
        "source": code(path.relative_to(ROOT).as_posix()),
        "module": code(f"generated/python/adapters/{fmt.replace('-', '_')}.py"),
        "rules": rules,
        "roles": [{"canonical": code(c), "wire": code(w)} for c, w in data["roles"].items()],
        "parts": parts,
        "codecs": codecs,
        "request": {k: _template_text(v) for k, v in data["request"].items()},
        "turn": {k: _template_text(v) for k, v in data.get("turn", {}).items()},
        "response": {k: _template_text(v) for k, v in data.get("response", {}).items()},
        "usage_defaults": _template_text(data["usage_defaults"])
        if "usage_defaults" in data
        else "",
        "usage_breakdowns": _template_text(data["usage_breakdowns"])
        if "usage_breakdowns" in data
        else "",
        "stop_to": [
            {"wire": code(w), "canonical": code(c)}
            for w, c in data.get("stop_reasons", {}).get("to_canonical", {}).items()
        ],
        "stop_from": [
            {"canonical": code(c), "wire": code(w)}
            for c, w in data.get("stop_reasons", {}).get("from_canonical", {}).items()
        ],
        "usage": [
            {
                "field": code(f),
                "wire": " + ".join(code(x) for x in ([w] if isinstance(w, str) else w)),
            }
            for f, w in data.get("usage", {}).items()
        ],
        "ids": [
            {"what": code(k), "chars": code(f"[{v['chars']}]"), "max": v["max_length"]}
            for k, v in data.get("ids", {}).items()
        ],
        "capabilities": [
            {"flag": code(k), "value": ("yes" if v is True else "no" if v is False else str(v))}
            for k, v in data["capabilities"].items()
        ],
        "lossy": [{"what": md_text(x["what"]), "why": md_text(x["why"])} for x in data["lossy"]],
        "cases": counts,
    }


def _short_json(value: Json) -> str:
    """Compact JSON for a table cell, cut at a readable length."""
    text = json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    if len(text) > _SHORT:
        text = text[: _SHORT - 1] + "…"
    return code(text)


def render_docs(
    sources: Sources, bundle: dict[str, Json], env: jinja2.Environment, context: dict[str, Json]
) -> dict[Path, str]:
    """Every generated page of the site (and each schema at its `$id`), keyed by path."""
    inputs = read_inputs(sources, bundle)
    return render_pages(bundle, inputs, env, context)


def render_pages(
    bundle: dict[str, Json], inputs: DocsInputs, env: jinja2.Environment, context: dict[str, Json]
) -> dict[Path, str]:
    """The pages from data already read: pure, so the same inputs give the same bytes."""
    renderer = Renderer(env, bundle, inputs, md_header(context["digest"]), context)
    pages: dict[PurePosixPath, str] = {
        REFERENCE / "index.md": renderer.reference_index(),
        TYPES / "index.md": renderer.types_index(),
        REFERENCE / "errors.md": renderer.errors_page(),
        REFERENCE / "schemas.md": renderer.schemas_page(),
        **renderer.type_pages(),
        **renderer.format_pages(),
        **renderer.vector_pages(),
        **renderer.served_files(),
    }
    views = renderer.views_page()
    if views:
        pages[REFERENCE / "views.md"] = views
    return {Path(path): text for path, text in sorted(pages.items())}


# --- the conformance matrix ----------------------------------------------------------------------


def matrix_page(matrix: str, source: str, capabilities: str = "") -> str:
    """The matrix `python -m conformance run` wrote, as a page of the site, followed by the
    formats' capability table (`capability_table`) when there is one."""
    note = (
        f"<!-- Copied from {source} (written by `python -m conformance run`) by "
        "`python -m generator.docs`; `make run` refreshes it. Do not edit. -->"
    )
    lines = matrix.strip("\n").splitlines()
    title, body = (lines[0], lines[1:]) if lines and lines[0].startswith("# ") else ("", lines)
    intro = (
        "The latest conformance run of the Python implementation (and, in columns of their "
        "own, of the implementations run beside it): per group of cases, how many "
        "passed out of how many, at each level, and how many are listed as expected failures "
        "(the `real/` groups are the real-traffic corpus, each body checked by several cases). "
        "[Conformance](index.md) says how to run the suite against another implementation."
    )
    page = "\n".join([note, title or "# Conformance matrix", "", intro, *body]) + "\n"
    if capabilities:
        formats = link("Wire formats", REFERENCE / "formats" / "index.md", MATRIX_PAGE)
        page += (
            "\n## Formats and their capabilities\n\n"
            "The conversion cases above are grouped by format. What each format can carry, "
            f"from its mapping file (see {formats}):\n\n" + capabilities
        )
    return page


def matrix_capabilities(root: Path) -> str:
    """The capability table of every format with a mapping file under ``root``, or ""."""
    bundle = root / "generated" / "schemas" / "interlingua-v1.json"
    mappings = root / "schemas" / "mappings"
    if not bundle.is_file() or not mappings.is_dir():
        return ""
    schema = _read_json(bundle).get("$defs", {}).get("AdapterCapabilities", {})
    names = sorted(path.stem for path in mappings.glob("*.yaml"))
    return capability_table(schema, read_capabilities(names, mappings), MATRIX_PAGE)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m generator.docs",
        description="Copy the latest conformance matrix into the documentation site.",
    )
    parser.add_argument(
        "--matrix", type=Path, default=MATRIX_SOURCE, help="the matrix a conformance run wrote"
    )
    parser.add_argument(
        "--root", type=Path, default=ROOT, help="repository root (the docs/ it writes into)"
    )
    args = parser.parse_args(argv)
    source: Path = args.matrix if args.matrix.is_absolute() else args.root / args.matrix
    if not source.is_file():
        print(
            f"error: {source} does not exist; run `python -m conformance run` first",
            file=sys.stderr,
        )
        return 2
    target = args.root / MATRIX_PAGE
    target.parent.mkdir(parents=True, exist_ok=True)
    shown = args.matrix.as_posix() if not args.matrix.is_absolute() else source.name
    page = matrix_page(source.read_text(encoding="utf-8"), shown, matrix_capabilities(args.root))
    target.write_text(page, encoding="utf-8")
    print(f"wrote {target.relative_to(args.root) if target.is_relative_to(args.root) else target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
