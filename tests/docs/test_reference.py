"""The generated reference pages (generator/docs.py) and the pages written by hand about them."""

from __future__ import annotations

import json
import re
from pathlib import Path, PurePosixPath
from typing import Any

import pytest

from generator import docs
from generator.docs import (
    DocsInputs,
    capability_table,
    code,
    constraints,
    first_sentence,
    invariant_text,
    kind_of,
    link,
    matrix_capabilities,
    matrix_page,
    md_text,
    read_capabilities,
    render_pages,
    served_path,
    type_expr,
)
from generator.environment import environment
from generator.load import SchemaLoadError
from generator.paths import ROOT

BUNDLE: dict[str, Any] = json.loads((ROOT / "generated/schemas/interlingua-v1.json").read_text())
REFERENCE = ROOT / "docs" / "reference"
PAGE = PurePosixPath("docs/reference/types/Message.md")


def test_markdown_text_escapes_html_and_table_pipes_outside_code() -> None:
    assert md_text("a <Type> & `<b>|c`") == "a &lt;Type&gt; &amp; `<b>|c`"
    assert md_text("url | base64\nnext", cell=True) == "url \\| base64 next"
    assert md_text("`x|y` or z", cell=True) == "`x|y` or z"


def test_code_spans_hold_backticks() -> None:
    assert code("plain") == "`plain`"
    assert code("a`b") == "`` a`b ``"
    assert code("`") == "`` ` ``"


def test_first_sentence() -> None:
    assert first_sentence("One turn. System prompts are messages.") == "One turn."
    assert first_sentence("e.g. lower case only") == "e.g. lower case only"
    assert first_sentence("No full stop") == "No full stop"


def test_links_are_relative_to_the_page() -> None:
    target = PurePosixPath("docs/reference/errors.md")
    assert link("errors", target, PAGE) == "[errors](../errors.md)"
    assert link("x", PurePosixPath("docs/reference/types/Role.md"), PAGE) == "[x](Role.md)"


def test_served_path_follows_the_id() -> None:
    assert served_path("https://interlingua.dev/schemas/v1/message.json") == PurePosixPath(
        "docs/schemas/v1/message.json"
    )
    for bad in ("https://example.com/schemas/v1/message.json", "https://interlingua.dev/x"):
        with pytest.raises(SchemaLoadError):
            served_path(bad)


@pytest.mark.parametrize(
    ("schema", "expected"),
    [
        (True, "any JSON value"),
        ({}, "any JSON value"),
        ({"$ref": "#/$defs/Role"}, "[`Role`](Role.md)"),
        ({"const": 1}, "`1`"),
        ({"enum": ["a", "b"]}, '`"a"` \\| `"b"`'),
        ({"type": "array", "items": {"type": "string"}}, "array of string"),
        ({"type": "object", "additionalProperties": {"type": "string"}}, "object of string"),
        ({"type": "object", "additionalProperties": True}, "object"),
        ({"type": ["string", "null"]}, "string or null"),
        ({"oneOf": [{"type": "string"}, {"type": "integer"}]}, "string or integer"),
        ({"description": "anything"}, "any JSON value"),
    ],
)
def test_type_expressions(schema: Any, expected: str) -> None:
    assert type_expr(schema, PAGE) == expected


def test_kinds() -> None:
    defs = BUNDLE["$defs"]
    assert kind_of(defs["Message"]) == "object"
    assert kind_of(defs["UnknownPart"]) == "open object"
    assert kind_of(defs["Part"]) == "open union"
    assert kind_of(defs["MediaSource"]) == "union"
    assert kind_of(defs["Role"]) == "enum"
    assert kind_of(defs["SchemaVersion"]) == "constant"
    assert kind_of(defs["Ulid"]) == "string"
    assert kind_of({"type": ["string", "null"]}) == "string or null"
    assert kind_of({}) == "any"


def test_constraints_are_phrased() -> None:
    schema = {
        "type": "array",
        "minItems": 1,
        "maxItems": 3,
        "uniqueItems": True,
        "items": {"type": "string", "minLength": 2, "pattern": "^a|b$"},
    }
    assert constraints(schema) == [
        "at least 1 item",
        "at most 3 items",
        "items distinct",
        "each item at least 2 characters",
        "each item pattern `^a|b$`",
    ]
    assert constraints({"type": "string", "not": {"enum": ["x"]}, "format": "date-time"}) == [
        "format `date-time`",
        'not `"x"`',
    ]
    assert constraints({"type": "object", "propertyNames": {"pattern": "^[a-z]+$"}}) == [
        "keys match `^[a-z]+$`"
    ]
    assert constraints({"minimum": 0, "exclusiveMaximum": 1}) == ["≥ 0", "< 1"]
    assert constraints(True) == []


def test_every_invariant_kind_reads_as_a_sentence_with_its_code() -> None:
    kinds = set()
    for schema in BUNDLE["$defs"].values():
        for inv in schema.get("x-invariants", []):
            text = invariant_text(inv, PAGE)
            kinds.add(inv["kind"])
            assert f"`{inv['code']}`" in text
            assert text[0].isupper() or text[0] == "`"
            assert text.endswith(").")
    assert kinds >= {"exactly_one", "ordered", "non_empty", "required_when", "unique", "answers"}
    assert "answered twice: `duplicate_result`" in invariant_text(
        next(
            inv
            for inv in BUNDLE["$defs"]["Conversation"]["x-invariants"]
            if inv["kind"] == "answers"
        ),
        PAGE,
    )


def test_a_page_per_type_with_its_examples() -> None:
    pages = {p.stem for p in (REFERENCE / "types").glob("*.md")} - {"index"}
    assert pages == set(BUNDLE["$defs"])
    for folder in (ROOT / "schemas/examples").iterdir():
        text = (REFERENCE / "types" / f"{folder.name}.md").read_text(encoding="utf-8")
        for example in folder.glob("*.json"):
            assert f"### {example.stem}\n" in text
            assert example.read_text(encoding="utf-8").strip() in text


def test_a_page_per_wire_format_and_vector_area() -> None:
    formats = {p.name for p in (ROOT / "schemas/formats").iterdir() if p.is_dir()}
    assert {p.stem for p in (REFERENCE / "formats").glob("*.md")} == formats | {"index"}
    areas = {p.name for p in (ROOT / "conformance/vectors").iterdir() if p.is_dir()}
    assert {p.stem for p in (REFERENCE / "vectors").glob("*.md")} == areas | {"index"}


def test_every_error_code_is_on_the_errors_page() -> None:
    text = (REFERENCE / "errors.md").read_text(encoding="utf-8")
    for value in BUNDLE["$defs"]["ErrorCode"]["enum"]:
        assert f"| `{value}` |" in text


def test_served_schemas_are_the_sources_with_a_comment() -> None:
    for source in [*ROOT.glob("schemas/v1/*.json"), *ROOT.glob("schemas/formats/*/*.json")]:
        original = json.loads(source.read_text(encoding="utf-8"))
        served = json.loads((ROOT / served_path(original["$id"])).read_text(encoding="utf-8"))
        assert served.pop("$comment").startswith("Generated by `python -m generator`")
        assert served == original


def _minimal_bundle() -> dict[str, Any]:
    """A schema set without views, gateway or examples: the pages still render."""
    return {
        "$id": "https://interlingua.dev/schemas/v9/interlingua.json",
        "$comment": "an older note",
        "$defs": {
            "ErrorCode": {
                "title": "ErrorCode",
                "description": "Codes.",
                "type": "string",
                "enum": ["bad"],
                "x-codes": {"bad": {"severity": "error", "description": "It is bad."}},
            },
            "Thing": {
                "title": "Thing",
                "description": "A thing. With a <b>tag</b> | pipe.",
                "type": "object",
                "additionalProperties": {"type": "string", "minLength": 1},
                "properties": {
                    "name": {"type": "string", "description": "Its name.", "x-open": "Why open."}
                },
            },
            "Open": {
                "title": "Open",
                "description": "Open.",
                "type": "object",
                "x-open": "Anything goes.",
                "properties": {},
            },
        },
    }


def test_pages_render_from_minimal_inputs() -> None:
    bundle = _minimal_bundle()
    inputs = DocsInputs(
        def_files={
            "ErrorCode": "v9/errors.json",
            "Thing": "v9/things.json",
            "Open": "v9/things.json",
        },
        file_docs={"v9/errors.json": ("Errors", ""), "v9/things.json": ("Things", "All.")},
        examples={},
        served=((served_path(bundle["$id"]), bundle),),
        formats=(),
    )
    context = {"digest": "0" * 64, "version": "v9"}
    first = render_pages(bundle, inputs, environment(), context)
    assert first == render_pages(bundle, inputs, environment(), context)
    assert Path("docs/reference/views.md") not in first  # no ViewKind, no view tables
    thing = first[Path("docs/reference/types/Thing.md")]
    assert "A thing. With a &lt;b&gt;tag&lt;/b&gt; | pipe." in thing
    assert "Other keys: each value is string (at least 1 character)." in thing
    assert "open: Why open." in thing
    assert "Other keys are allowed." in first[Path("docs/reference/types/Open.md")]
    served = json.loads(first[Path("docs/schemas/v9/interlingua.json")])
    assert served["$comment"].endswith("an older note")
    assert "0" * 64 in served["$comment"]
    for path, text in first.items():
        assert "0" * 64 in text[:400], path
        assert "\n\n\n" not in text, path


def test_matrix_page_keeps_the_table_and_adds_a_header() -> None:
    matrix = "# Conformance: x\n\n| group | required |\n|---|---:|\n| a | 1/1 |\n"
    page = matrix_page(matrix, "build/conformance/matrix.md")
    lines = page.splitlines()
    assert lines[0].startswith("<!-- Copied from build/conformance/matrix.md")
    assert lines[1] == "# Conformance: x"
    assert "| a | 1/1 |" in lines
    assert matrix_page("| a |\n", "m.md").splitlines()[1] == "# Conformance matrix"


def test_matrix_copy_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert docs.main(["--root", str(tmp_path)]) == 2
    assert "run `python -m conformance run` first" in capsys.readouterr().err
    source = tmp_path / "build/conformance/matrix.md"
    source.parent.mkdir(parents=True)
    source.write_text("# Conformance: y\n\n| g | 1/1 |\n", encoding="utf-8")
    assert docs.main(["--root", str(tmp_path)]) == 0
    written = (tmp_path / "docs/conformance/matrix.md").read_text(encoding="utf-8")
    assert "# Conformance: y" in written
    assert docs.main(["--root", str(tmp_path), "--matrix", str(source)]) == 0


def test_the_committed_matrix_page_is_a_copy_of_a_run() -> None:
    page = (ROOT / "docs/conformance/matrix.md").read_text(encoding="utf-8")
    assert page.startswith("<!-- Copied from build/conformance/matrix.md")
    assert "| group | required | recommended |" in page


def test_the_schema_change_page_lists_every_lint_id() -> None:
    """The lint table is written by hand: it must name exactly the ids the generator reports."""
    source = "".join(p.read_text(encoding="utf-8") for p in (ROOT / "generator").glob("*.py"))
    reported = set(re.findall(r'"(IL\d{3})"', source))
    page = (ROOT / "docs/contributing/schemas.md").read_text(encoding="utf-8")
    documented = set(re.findall(r"^\| (IL\d{3}) \|", page, re.MULTILINE))
    assert documented == reported


def test_capability_table_has_a_column_per_schema_flag_and_a_row_per_format() -> None:
    schema = {
        "properties": {
            "supports_x": {"type": "boolean", "description": "Takes x."},
            "limit": {"type": "integer", "description": "At most | this."},
        }
    }
    page = PurePosixPath("docs/reference/formats/index.md")
    table = capability_table(
        schema, {"b": {"supports_x": False}, "a": {"supports_x": True, "limit": 2048}}, page
    )
    lines = table.splitlines()
    assert lines[0] == "| format | `supports_x` | `limit` |"
    assert lines[2] == "| [`a`](a.md) | yes | 2,048 |"
    assert lines[3] == "| [`b`](b.md) | no | — |"
    assert "| `limit` | At most \\| this. |" in lines
    assert capability_table({}, {"a": {}}, page) == ""
    assert capability_table(schema, {}, page) == ""


def test_every_mapping_flag_is_a_column_of_the_format_index_and_the_matrix() -> None:
    flags = list(BUNDLE["$defs"]["AdapterCapabilities"]["properties"])
    names = sorted(p.stem for p in (ROOT / "schemas/mappings").glob("*.yaml"))
    capabilities = read_capabilities(names)
    assert set(capabilities) == set(names)
    for values in capabilities.values():
        assert set(values) <= set(flags)
    header = "| format | " + " | ".join(f"`{flag}`" for flag in flags) + " |"
    index = (REFERENCE / "formats/index.md").read_text(encoding="utf-8")
    matrix = (ROOT / "docs/conformance/matrix.md").read_text(encoding="utf-8")
    for page in (index, matrix):
        assert header in page
        for name in names:
            assert f"[`{name}`](" in page


def test_matrix_page_appends_the_capability_table(tmp_path: Path) -> None:
    page = matrix_page("| a |\n", "m.md", "| format | `x` |\n")
    assert page.endswith("| format | `x` |\n")
    assert "## Formats and their capabilities" in page
    assert matrix_capabilities(tmp_path) == ""
    assert "| format | `supports_system`" in matrix_capabilities(ROOT)
