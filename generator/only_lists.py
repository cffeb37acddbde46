"""IL021: each word list of a mapping names exactly the words both sides take.

`{"@only": [$effort, "low medium high"]}` in a request's wire template says the format takes
the setting only from that list (the transform leaves another word out and reports it, both
ways). The level transforms take their list the same way, as their last argument
(`{"@effort_level": [$effort, $budget, "low medium high"]}` writes a level in capitals,
`{"@effort_or_switch": [$effort, "low medium high"]}` a level or a switch). Each list is
checked against the two schemas it stands between:

- every word is a value of the canonical parameter (`GenerationParameters`): a word read is
  the canonical value as it is;
- every word, as the transform spells it, is one the format's wire schema takes at that place;
- where the wire schema lists its values (an `enum`), the list names every one of them the
  canonical parameter has too: a rung both sides have, left out of the list, would be dropped
  needlessly. A wire schema that takes any word (OpenAI Chat's `reasoning_effort`, Gemini's
  `thinkingLevel`) leaves the list to the provider's own rungs, each of which the first two
  checks still hold.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator

from generator.lint import Finding

Json = Any


#: The transforms whose last argument is a word list of the parameter their first names, and
#: how each writes a word of it.
WORD_LISTS: dict[str, Callable[[str], str]] = {
    "only": str,
    "effort_level": str.upper,
    "effort_or_switch": str,
}


def spellings(transform: str, listed: str) -> dict[str, Any]:
    """Each word of a word list, as the transform writes it: a `@word_table`'s literal pairs
    each word with its wire value (`"auto=true none=false"`), the others spell every word."""
    if transform == "word_table":
        from interlingua.conversion.transforms.accepted import table  # noqa: PLC0415

        return table(listed)
    return {word: WORD_LISTS[transform](word) for word in listed.split()}


#: Every transform whose last argument lists words of a canonical setting.
LISTED = frozenset({*WORD_LISTS, "word_table"})


def word_lists(
    node: Json, path: tuple[str, ...] = ()
) -> Iterator[tuple[tuple[str, ...], str, Json, dict[str, Any]]]:
    """Every call of a `WORD_LISTS` transform in a wire template: its place (the wire keys
    down to it; a `@merge` and its list add none), the transform, its variable and its
    words."""
    if isinstance(node, dict) and len(node) == 1 and next(iter(node)).lstrip("@") in LISTED:
        ((key, args),) = node.items()
        yield path, key.lstrip("@"), args[0], spellings(key.lstrip("@"), str(args[-1]))
    elif isinstance(node, dict):
        for key, value in node.items():
            yield from word_lists(value, path if key.startswith("@") else (*path, key))
    elif isinstance(node, list):
        for value in node:
            yield from word_lists(value, path)


def wire_schema_at(schema: Json, path: tuple[str, ...]) -> Json | None:
    """The schema of a request field at ``path`` (object properties, local `$ref`s and the
    members of a `oneOf`/`anyOf` followed), or None when the schema has no such field. Under
    free-form JSON (`x-open` with no properties of its own: Bedrock's
    `additionalModelRequestFields`, the model's own fields) any field is one, of any value
    (`{}`); an object that models some of its fields and takes others is not."""
    defs = schema.get("$defs", {})

    def resolve(node: Json) -> Json:
        while isinstance(node, dict) and "$ref" in node:
            node = defs[node["$ref"].rsplit("/", 1)[-1]]
        return node

    node = resolve(schema)
    for key in path:
        # The node and the members of its union (a member may hold the property, or only
        # constrain the node's own: Responses' `anyOf` of required keys).
        members = [node, *(resolve(m) for m in node.get("oneOf", node.get("anyOf", [])))]
        found = [m["properties"][key] for m in members if key in m.get("properties", {})]
        if not found:
            return {} if "x-open" in node and not node.get("properties") else None
        node = resolve(found[0])
    return node


def check_only_lists(
    fmt: str, mapping: Json, wire_schema: Json, canonical: Json, where: str
) -> list[Finding]:
    """IL021 for each word list of ``mapping``'s request that names a word the canonical
    parameter (``canonical``: the `GenerationParameters` schema) or the wire schema refuses,
    or leaves out a word both enumerate."""
    parameters = mapping["request"]["canonical"].get("parameters", {})
    by_var = {str(v).lstrip("$"): k for k, v in parameters.items()}
    findings = []
    for path, transform, var, words in word_lists(mapping["request"]["wire"]):
        at = f"{where}#/request/wire/" + "/".join(path)
        name = by_var.get(str(var).lstrip("$").rstrip("!?"))
        if name is None:
            findings.append(Finding(at, "IL021", "violation", f"{var} is not a parameter"))
            continue
        ladder = canonical["properties"][name].get("enum", [])
        leaf = wire_schema_at(wire_schema, path)
        if leaf is None:
            findings.append(Finding(at, "IL021", "violation", f"{fmt} has no such request field"))
            continue
        takes = Draft202012Validator({**leaf, "$defs": wire_schema.get("$defs", {})}).is_valid
        problems = [f"{w!r} is not a canonical {name}" for w in words if w not in ladder]
        problems += [
            f"{fmt}'s wire schema refuses {spelt!r}" for spelt in words.values() if not takes(spelt)
        ]
        if "enum" in leaf and transform in WORD_LISTS:  # (a table spells words its own way)
            spell = WORD_LISTS[transform]
            problems += [
                f"{w!r}, which {fmt} and the canonical {name} both take, is not in the list"
                for w in ladder
                if spell(w) in leaf["enum"] and w not in words
            ]
        findings += [Finding(at, "IL021", "violation", problem) for problem in problems]
    return findings


def lint_only_lists(schemas_dir: Path, mappings: list[tuple[str, Json]]) -> list[Finding]:
    """`check_only_lists` of every mapping (by format), against its request's wire schema."""
    envelope = json.loads((schemas_dir / "v1" / "envelope.json").read_text(encoding="utf-8"))
    canonical = envelope["$defs"]["GenerationParameters"]
    findings = []
    for fmt, mapping in mappings:
        document = mapping.get("documents", {}).get("request")
        if document is None or "request" not in mapping:
            continue
        wire_schema = json.loads((schemas_dir / document).read_text(encoding="utf-8"))
        where = f"schemas/mappings/{fmt}.yaml"
        findings += check_only_lists(fmt, mapping, wire_schema, canonical, where)
    return findings
