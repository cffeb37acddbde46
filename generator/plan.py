"""Turn the bundled schema into a plan the validator template renders as straight-line Python.

A plan node is a small dict (`k` is its kind) that says exactly which checks a value needs.
Constants (key sets, enums, patterns) are collected once so generated code refers to
module-level names and builds nothing per call.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from generator.bundle import def_name_of

Json = Any
Node = dict[str, Any]


@dataclass
class Constants:
    """Module-level constants of the generated validator, deduplicated by value."""

    sets: dict[tuple[str, ...], str] = field(default_factory=dict)
    patterns: dict[str, str] = field(default_factory=dict)

    def frozenset_of(self, values: list[str]) -> str:
        key = tuple(sorted(values))
        return self.sets.setdefault(key, f"_S{len(self.sets)}")

    def pattern(self, regex: str) -> str:
        return self.patterns.setdefault(python_regex(regex), f"_P{len(self.patterns)}")


# ECMA-262's `\s` (WhiteSpace and LineTerminator), which JSON Schema patterns mean; Python's
# own `\s` also takes U+001C-U+001F and U+0085 and leaves out U+FEFF.
_ECMA_SPACE = (
    "\\t\\n\\x0b\\x0c\\r \\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff"
)
# Class escapes as ECMA-262 reads them (ASCII `\d` and `\w`, even in Unicode mode), as the
# members of a character class.
_ECMA_CLASSES = {"s": _ECMA_SPACE, "d": "0-9", "w": "A-Za-z0-9_"}
# What `.` matches in ECMA-262: anything but a line terminator (Python's stops only at \n).
_ECMA_DOT = "[^\\n\\r\\u2028\\u2029]"


def python_regex(pattern: str) -> str:
    r"""An ECMA-262 pattern as Python `re` reads it the same way.

    - `$` outside a character class becomes `\Z`: in JSON Schema `$` matches only at the end
      of the string; in Python it also matches before a final newline.
    - `.`, `\s`, `\d`, `\w` (and `\S`, `\D`, `\W` outside a class) become the explicit classes
      ECMA-262 gives them: Python's are wider (Unicode digits and letters; `\x85` is a space,
      `\ufeff` is not; `.` takes `\r` and `\u2028`), so the same value would pass in Python
      and fail in JavaScript.
    """
    out: list[str] = []
    escaped = in_class = False
    for char in pattern:
        if escaped:
            escaped = False
            members = _ECMA_CLASSES.get(char.lower())
            if members is None:
                out.append("\\" + char)
            elif char.islower():
                out.append(members if in_class else f"[{members}]")
            elif in_class:
                raise ValueError(f"pattern {pattern!r}: \\{char} inside a class is not supported")
            else:
                out.append(f"[^{members}]")
            continue
        if char == "\\":
            escaped = True
            continue
        if char == "[":
            in_class = True
        elif char == "]":
            in_class = False
        elif char == "$" and not in_class:
            out.append("\\Z")
            continue
        elif char == "." and not in_class:
            out.append(_ECMA_DOT)
            continue
        out.append(char)
    return "".join(out)


@dataclass
class DefPlan:
    name: str
    node: Node
    invariants: list[Node]
    is_union: bool
    # The fast path's reads: (local, annotation, expression), read once at the top of `_bad_<Type>`.
    reads: list[tuple[str, str, str]] = field(default_factory=list)

    @property
    def loop_tree(self) -> Node:
        """The fast path's loops over items: invariants that walk the same items share one
        pass (see :func:`loop_tree`)."""
        return loop_tree(self.invariants)

    @property
    def loop_tags(self) -> list[str]:
        """The locals the loops read each item's where-keys into (typed ``str``)."""
        found: list[str] = []
        stack = [self.loop_tree]
        while stack:
            node = stack.pop()
            found += [local for local in node["tags"] if local not in found]
            stack += node["children"].values()
        return found


#: Invariants that walk the items a `*` path selects.
LOOPING = ("unique", "answers", "ascending")


def loop_tree(invariants: list[Node]) -> Node:
    """The loops of every looping invariant merged into one tree: a node's ``here`` holds the
    invariants (with their 1-based index) whose items are that node's loop variable, its
    ``children`` the loops nested in it, in first-seen order. One walk over the messages serves
    every invariant about messages or their parts, instead of one walk each; each invariant
    still sees its items in document order, so its verdict is unchanged."""
    root: Node = {"here": [], "children": {}, "tags": {}}
    for index, inv in enumerate(invariants, start=1):
        if inv["kind"] not in LOOPING:
            continue
        node = root
        for step in inv["loops"]:
            node = node["children"].setdefault(
                tuple(step), {"here": [], "children": {}, "tags": {}}
            )
        node["here"].append((inv, index))
        # Each key a `where` tests is read once per item, into a local the matches compare.
        for where in (
            inv.get("where"),
            inv.get("call", {}).get("where"),
            inv.get("result", {}).get("where"),
        ):
            for key in sorted(where or {}):
                node["tags"][_tag_local(inv["item"], key)] = f"{inv['item']}.get({key!r}, '')"
    _group(root)
    return root


def _pieces(inv: Node, index: int) -> list[tuple[str, dict[str, str], Node, int]]:
    """What one looping invariant does with an item: (role, where, invariant, index)."""
    if inv["kind"] == "answers":
        return [
            ("call", inv["call"]["where"], inv, index),
            ("result", inv["result"]["where"], inv, index),
        ]
    return [(inv["kind"], inv.get("where", {}), inv, index)]


def _group(node: Node) -> None:
    """Per loop: when every match tests one and the same key, the pieces become one
    if/elif chain on that key's value (an item takes one branch, not one test per invariant).
    Each invariant still sees its own items in document order, and the fast path answers
    only whether any invariant breaks, so the order between invariants does not matter."""
    pieces = [piece for inv, index in node["here"] for piece in _pieces(inv, index)]
    keys = {key for _, where, _, _ in pieces for key in where}
    single = all(len(where) <= 1 for _, where, _, _ in pieces)
    distinct = all(
        inv["call"]["where"] != inv["result"]["where"]
        for inv, _ in node["here"]
        if inv["kind"] == "answers"
    )
    node["groups"] = None
    if len(keys) == 1 and single and distinct:
        (key,) = keys
        by_value: dict[str, list[tuple[str, Node, int]]] = {}
        for role, where, inv, index in pieces:
            if where:
                by_value.setdefault(where[key], []).append((role, inv, index))
        node["groups"] = {
            "local": _tag_local(node["here"][0][0]["item"], key),
            "plain": [(role, inv, index) for role, where, inv, index in pieces if not where],
            "by_value": by_value,
        }
    for child in node["children"].values():
        _group(child)


@dataclass
class Plan:
    defs: list[DefPlan]
    constants: Constants
    documents: dict[str, str]  # recognising key -> document type
    unions: dict[str, Node]


def _python_types(value: Json) -> str:
    """The Python types a JSON value of the same JSON type may have (1 and 1.0 are one number)."""
    return {str: "(str,)", bool: "(bool,)", int: "(int, float)", float: "(int, float)"}[type(value)]


def _is_scalar(schema: Json) -> bool:
    kind = schema.get("type")
    return "oneOf" not in schema and (
        kind in ("string", "integer", "number", "boolean") or "enum" in schema or "const" in schema
    )


# Object types referenced from another object are inlined this many levels deep: a Python call
# costs more than most checks. Recursive types are never inlined into themselves.
INLINE_DEPTH = 2


# An object with at least this many optional properties is checked key by key in the fast
# path (one branch per key present, the closed-keys test folded into the last `else`) instead
# of one lookup per property. Measured on the synthetic corpus, key by key wins from the first
# optional property: absent properties cost nothing and no key-set comparison is built.
KEYED_MIN = 1


def _is_any(schema: Json) -> bool:
    return (
        schema is True
        or schema == {}
        or (isinstance(schema, dict) and set(schema) <= {"description", "x-open", "title"})
    )


def _takes_absent(node: Node, defs: dict[str, Json]) -> bool:
    """Whether the fast check of ``node`` passes the absent marker: a required property with
    such a check needs its own presence test; every other check refuses the marker (it is no
    string, number, list or dict), so reading the property is its presence test."""
    if node["k"] == "ref" and not node["union"]:
        return _is_any(defs[node["name"]])
    return bool(node["k"] == "any")


def compile_node(
    schema: Json, defs: dict[str, Json], consts: Constants, inline: tuple[str, ...] = ()
) -> Node:
    if _is_any(schema):
        return {"k": "any"}
    if "$ref" in schema:
        name = def_name_of(schema["$ref"])
        target = defs[name]
        if _is_scalar(target) and "x-invariants" not in target:
            return compile_node(target, defs, consts, inline)
        inlinable = target.get("type") == "object" and "x-invariants" not in target
        if inlinable and name not in inline and len(inline) <= INLINE_DEPTH:
            # Inlined in the fast check only: the detailed check calls `_chk_<name>`, which
            # finds the same, and the module's C stays a third of the size.
            return {**compile_node(target, defs, consts, (*inline, name)), "def": name}
        return {"k": "ref", "name": name, "union": "oneOf" in target}
    if "oneOf" in schema:
        disc = schema["discriminator"]
        tags = {tag: def_name_of(ref) for tag, ref in sorted(disc["mapping"].items())}
        open_union = schema.get("x-open-union")
        return {
            "k": "union",
            "prop": disc["propertyName"],
            "tags": tags,
            # The fast path's dispatch tests the tags in the schema's order (commonest first).
            "order": [(tag, def_name_of(ref)) for tag, ref in disc["mapping"].items()],
            "fallback": open_union["fallback"] if open_union else None,
            "code": open_union["code"] if open_union else None,
        }
    if "const" in schema:
        return {"k": "const", "value": schema["const"], "pytypes": _python_types(schema["const"])}
    if "enum" in schema:
        values = schema["enum"]
        if not all(isinstance(v, str) for v in values):
            raise ValueError("only string enums are supported")
        return {"k": "enum", "set": consts.frozenset_of(values), "choices": values}
    kind = schema.get("type")
    if kind == "object" or "properties" in schema:
        props = [
            (name, compile_node(sub, defs, consts, inline))
            for name, sub in schema.get("properties", {}).items()
        ]
        extra = schema.get("additionalProperties", True)
        names = schema.get("propertyNames", {}).get("pattern")
        checked_extra = (
            isinstance(extra, dict) and compile_node(extra, defs, consts, inline)["k"] != "any"
        )
        closed = extra is False or "x-forward" in schema
        trivial = not (schema.get("required") or closed or names or checked_extra)
        trivial = trivial and all(sub["k"] == "any" for _, sub in props)
        required = schema.get("required", [])
        checked = {name for name, sub in props if not _takes_absent(sub, defs)}
        return {
            "k": "object",
            "trivial": trivial,
            "required": schema.get("required", []),
            "required_set": consts.frozenset_of(schema["required"])
            if schema.get("required")
            else None,
            "props": props,
            "keys_set": consts.frozenset_of([n for n, _ in props]) if props else None,
            "closed": extra is False or "x-forward" in schema,
            # Open for forward compatibility: unknown keys are a warning of this code.
            "unknown_code": schema.get("x-forward", "unknown_field"),
            # Fast path: required keys no property check refuses when absent.
            "presence": [name for name in required if name not in checked],
            "keyed": len([n for n, _ in props if n not in required]) >= KEYED_MIN,
            "extra": compile_node(extra, defs, consts, inline) if isinstance(extra, dict) else None,
            "names_pattern": consts.pattern(names) if names else None,
            "names_regex": names,
        }
    if kind == "array":
        return {
            "k": "array",
            "item": compile_node(schema.get("items", True), defs, consts, inline),
            "min": schema.get("minItems"),
            "max": schema.get("maxItems"),
            "unique": bool(schema.get("uniqueItems")),
        }
    if kind == "string":
        excluded = schema.get("not", {}).get("enum")
        return {
            "k": "string",
            "min": schema.get("minLength"),
            "max": schema.get("maxLength"),
            "pattern": consts.pattern(schema["pattern"]) if "pattern" in schema else None,
            "regex": schema.get("pattern"),
            "not_set": consts.frozenset_of(excluded) if excluded else None,
        }
    if kind in ("integer", "number"):
        return {
            "k": kind,
            "min": schema.get("minimum"),
            "max": schema.get("maximum"),
            "xmin": schema.get("exclusiveMinimum"),
            "xmax": schema.get("exclusiveMaximum"),
        }
    if kind == "boolean":
        return {"k": "boolean"}
    raise ValueError(f"cannot compile schema {schema!r}")


def _steps(path: str) -> list[str]:
    return path.split("/")


def getter(var: str, steps: list[str], default: str = "_M") -> str:
    """Expression reading ``steps`` from ``var``, once its structure is known to be valid."""
    expr = var
    for step in steps[:-1]:
        expr = f"{expr}.get({step!r}, _EMPTY)"
    return f"{expr}.get({steps[-1]!r}, {default})"


def loops(steps: list[str]) -> tuple[list[tuple[str, str]], str]:
    """Nested `for` loops (variable, iterable) reaching every item a `*` path selects."""
    if not steps or steps[-1] != "*":
        raise ValueError(f"selection path {steps} must end with '*'")
    result: list[tuple[str, str]] = []
    expr = "x"
    pending: list[str] = []
    for step in steps:
        if step == "*":
            iterable = getter(expr, pending, "_NO_ITEMS") if pending else expr
            var = f"w{len(result)}"
            result.append((var, iterable))
            expr, pending = var, []
        else:
            pending.append(step)
    return result, expr


def _tag_local(var: str, key: str) -> str:
    return f"{var}_" + re.sub(r"\W", "_", key)


def _where(var: str, where: dict[str, str]) -> str | None:
    """The match of a loop's item, on the locals :func:`loop_tree` reads each key into."""
    return " and ".join(f"{_tag_local(var, k)} == {v!r}" for k, v in sorted(where.items())) or None


class Reads:
    """The fast path's reads of one type's invariants. A path read more than once is read once,
    into a local, at the top of the function: counted in a first pass over the invariants,
    named in the second. Every step on the way to a path is such a local, typed as the object
    it is in a structurally valid document, so that compiled code reads through it with direct
    dict calls (``_EMPTY``, read through an absent object, is a dict too)."""

    def __init__(self, counts: dict[tuple[Any, ...], int] | None = None) -> None:
        self.counting = counts is None
        self.counts: dict[tuple[Any, ...], int] = {} if counts is None else counts
        self.names: dict[tuple[Any, ...], str] = {}
        #: (local, its annotation, expression), in the order they are read.
        self.bindings: list[tuple[str, str, str]] = []

    def _shared(self, key: tuple[Any, ...], expr: str, annotation: str = "") -> str:
        if self.counting:
            self.counts[key] = self.counts.get(key, 0) + 1
            return expr
        if self.counts.get(key, 0) < 2 and not annotation:
            return expr
        if key not in self.names:
            self.names[key] = f"r{len(self.names)}"
            self.bindings.append((self.names[key], annotation or "Any", expr))
        return self.names[key]

    def _base(self, steps: tuple[str, ...]) -> str:
        if not steps:
            return "x"
        parent = self._base(steps[:-1])
        return self._shared(
            ("step", steps), f"{parent}.get({steps[-1]!r}, _EMPTY)", "dict[str, Any]"
        )

    def __call__(self, steps: list[str], default: str = "_M") -> str:
        base = self._base(tuple(steps[:-1]))
        return self._shared(
            ("leaf", tuple(steps), default), f"{base}.get({steps[-1]!r}, {default})"
        )


def compile_invariant(inv: Json, consts: Constants, read: Reads | None = None) -> Node:
    """Normalise one x-invariants entry: paths become step lists and getter expressions."""
    read = read or Reads()
    node: Node = dict(inv)
    kind = inv["kind"]
    if kind in ("unique", "answers", "ascending"):
        node["loops"], node["item"] = loops(inv["path"])
    if kind == "unique":
        node["match"] = _where(node["item"], inv.get("where", {}))
    if kind == "answers":
        node["call_match"] = _where(node["item"], inv["call"]["where"])
        node["result_match"] = _where(node["item"], inv["result"]["where"])
    if kind in ("exactly_one", "equal_when_present"):
        node["steps"] = [_steps(f) for f in inv["fields"]]
        node["getters"] = [read(_steps(f)) for f in inv["fields"]]
    elif kind == "ordered":
        node["lower_steps"], node["upper_steps"] = _steps(inv["lower"]), _steps(inv["upper"])
        node["lower_get"], node["upper_get"] = (
            read(_steps(inv["lower"])),
            read(_steps(inv["upper"])),
        )
    elif kind == "non_empty":
        node["steps"] = _steps(inv["field"])
        node["read"] = read(_steps(inv["field"]), "()")
        node["unless"] = [
            {"steps": _steps(u["field"]), "read": read(_steps(u["field"])), **u}
            for u in inv.get("unless", [])
        ]
    elif kind == "waives":
        # Read by the detailed check, which has no shared reads.
        node["read"] = getter("x", _steps(inv["when"]["field"]))
        if not all(isinstance(value, str) for value in inv["when"]["in"]):
            raise ValueError(f"a waiving invariant takes strings only: {inv}")
        node["allowed"] = consts.frozenset_of(inv["when"]["in"])
    elif kind == "required_when":
        node["when_steps"] = [(_steps(k), v) for k, v in sorted(inv["when"].items())]
        node["require_steps"] = [_steps(r) for r in inv["require"]]
        # Shortest paths first: they are the cheapest to read and usually the most selective.
        when = sorted(inv["when"].items(), key=lambda kv: (kv[0].count("/"), kv[0]))
        node["when_gets"] = [(read(_steps(k)), v) for k, v in when]
        node["require_gets"] = [read(_steps(r)) for r in inv["require"]]
    elif kind in ("equals", "portable_schema"):
        node["steps"] = _steps(inv["field"])
        node["read"] = read(_steps(inv["field"]))
        if kind == "portable_schema":
            node["forbidden_set"] = consts.frozenset_of(inv["forbidden"])
            node["schema_valued_set"] = consts.frozenset_of(inv["schema_valued"])
    return node


def build_plan(bundle: dict[str, Json]) -> Plan:
    defs = bundle["$defs"]
    consts = Constants()
    plans = []
    unions: dict[str, Node] = {}
    for name, schema in defs.items():
        node = compile_node(schema, defs, consts, (name,))
        if node["k"] == "union":
            unions[name] = node
        rules = schema.get("x-invariants", [])
        counting = Reads()
        for inv in rules:
            compile_invariant(inv, Constants(), counting)
        read = Reads(counting.counts)
        invariants = [compile_invariant(inv, consts, read) for inv in rules]
        plans.append(DefPlan(name, node, invariants, node["k"] == "union", read.bindings))
    documents = {
        schema["x-document"]["key"]: name for name, schema in defs.items() if "x-document" in schema
    }
    return Plan(plans, consts, documents, unions)
