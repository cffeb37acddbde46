"""A mapping file's `stream` section → a stream module.

The section declares how one format streams a response (see `schemas/meta/mapping.json`,
`$defs/stream`): rules that read each wire chunk into canonical stream events, and chunk
templates that write canonical events back. Both become straight-line Python in
`generated/python/streams/<format>.py`: one `read` function of `if`s over the chunk, and one
function per template list that builds the chunks as dict literals. The stream engine
(`interlingua.conversion.adapters.stream_reader` and `stream_writer`) keeps the state between
chunks: part indices, open calls, usage so far, the stop reason.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

from generator.adapters import Mapping, _error
from generator.templating import Emitter

_VAR = re.compile(r"^\$([a-z][a-z0-9_]*)(\?)?$")
Steps = tuple[str | int, ...]  # a path into a chunk: keys and list indexes

# Variables the engine hands each template list (plus the mapping's `defaults`).
COMMON = {"id", "model", "usage"}
# Every block: its wire index, and an id unique in the stream (`<message id>_<index>`) for
# formats whose blocks are items with ids of their own (OpenAI Responses).
BLOCK = COMMON | {"index", "block_id"}
VARIABLES = {
    "start": COMMON,
    "open": BLOCK | {"call", "tool_id", "name"},
    "delta": BLOCK | {"call", "tool_id", "name", "text", "arguments", "signature"},
    "signature": BLOCK | {"signature"},
    # At the end of a block, its whole text, arguments and signature, and a text block's
    # citations: for formats that repeat the finished block (Responses' `.done` events).
    "close": BLOCK | {"call", "tool_id", "name", "text", "arguments", "signature", "citations"},
    "part": BLOCK | {"block"},
    # A citation of the open text block, as the format's `citation` codec writes it, and its
    # position among the citations of its part (Responses' `annotation_index`).
    "citation": BLOCK | {"citation", "citation_index"},
    "usage": COMMON,
    # `$response`: the whole response the stream carried, as this format's response body.
    "complete": COMMON | {"stop_reason", "response"},
    "error": COMMON | {"code", "message"},
}


# The delta writers a fused path may write as text, and the read actions it may take.
TEXT_KEYS = ("text.delta", "thinking.delta", "refusal.delta", "tool_call.delta")
HOT_ACTIONS = {"text": "text.delta", "thinking": "thinking.delta", "refusal": "refusal.delta"}
HOT_ACTIONS["call_delta"] = "tool_call.delta"


@dataclass(frozen=True)
class HotRule:
    """A read rule whose one action continues a part (a delta of text or of a call's
    arguments): the source half of a fused stream path. ``conditions`` are the rule's own
    and, negated, those of every earlier rule a chunk could match as well."""

    conditions: tuple[str, ...]
    reads: tuple[tuple[str, str], ...]  # the fields read once, up front (`k0 = ...`)
    action: str  # a key of HOT_ACTIONS
    part: str  # the expressions of the part key and the delta
    value: str


@dataclass
class StreamPlan:
    """What the stream template needs: function sources and the facts beside them."""

    mapping: Mapping
    functions: list[str] = field(default_factory=list)
    writers: dict[str, str] = field(default_factory=dict)  # "text.delta" → function name
    whole_calls: bool = False
    part_types: list[str] = field(default_factory=list)
    defaults: dict[str, Any] = field(default_factory=dict)
    sequence: str | None = None  # the chunk field numbering every chunk written
    whole_blocks: bool = False  # a `close` template uses the block's whole text or arguments
    whole_response: bool = False  # a `complete` template uses `$response`
    # The delta writers whose chunk is also spelled as text around the delta (`a_*`), by
    # writer key: what a fused stream path writes.
    arounds: dict[str, str] = field(default_factory=dict)
    hot: list[HotRule] = field(default_factory=list)  # read rules a fused path may take
    citations: bool = False  # the mapping has a `citation` codec (the stream reads and writes it)
    # The format cites the message's text as a whole (`layout.text_citations`): spans count
    # from the start of the content, not of a text part.
    content_citations: bool = False
    grounding: bool = False  # a `ground` rule reads the grounding beside the message


def _path(text: str) -> tuple[tuple[str | int, ...], bool]:
    """A stream path as a tuple of keys and list indices, and whether it is optional."""
    optional = text.endswith("?")
    text = text.rstrip("?")
    if text == "@":
        return (), optional
    steps: list[str | int] = [int(s) if s.isdigit() else s for s in text.split(".")]
    return tuple(steps), optional


def _read(path: tuple[str | int, ...]) -> str:
    """The expression reading ``path`` from the chunk, as ``at(c, path)`` does: keys read
    straight off the chunk (``d``: the chunk, or an empty object when it is none), a path with
    a list index through ``at``."""
    if not path:
        return "c"
    if any(type(step) is int for step in path):
        return f"at(c, {path!r})"
    expression = f"d.get({path[0]!r})"
    for step in path[1:]:
        expression = f"get({expression}, {step!r})"
    return expression


def _pointer_suffix(path: tuple[str | int, ...]) -> str:
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in path)


def _shared(rules: list[dict[str, Any]]) -> dict[tuple[str | int, ...], str]:
    """A field several rules test (the event type, above all) is read once, up front: a chunk
    matching the tenth rule would otherwise read it ten times."""
    tested = Counter(_path(text)[0] for rule in rules for text in rule.get("when", {}))
    return {path: f"k{i}" for i, path in enumerate(p for p, n in tested.items() if n > 1)}


def _conditions(rule: dict[str, Any], shared: dict[tuple[str | int, ...], str]) -> list[str]:
    """The Python conditions of a read rule's `when` and `has`."""
    conditions = []
    for text, literal in rule.get("when", {}).items():
        path, _ = _path(text)
        value = shared.get(path) or _read(path)
        if literal is None:
            conditions.append(f"{value} is None")
        elif isinstance(literal, bool):
            conditions.append(f"{value} is {literal!r}")
        else:
            conditions.append(f"{value} == {literal!r}")
    for text in rule.get("has", []):
        conditions.append(f"{_read(_path(text)[0])} is not None")
    return conditions


def _exclusive(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Whether no chunk matches both rules: their `when`s want different values of a field."""
    wants = a.get("when", {})
    return any(
        text in wants and type(wants[text]) is type(literal) and wants[text] != literal
        for text, literal in b.get("when", {}).items()
    )


def hot_rules(rules: list[dict[str, Any]]) -> list[HotRule]:
    """The read rules a fused path may take: one action that continues a keyed part. A chunk
    takes one only where `read` would (no earlier rule matches it)."""
    shared = _shared(rules)
    hot = []
    for n, rule in enumerate(rules):
        if len(rule["do"]) != 1 or not isinstance(rule["do"][0], dict):
            continue
        ((kind, args),) = rule["do"][0].items()
        value = args.get("arguments" if kind == "call_delta" else "text")
        if kind not in HOT_ACTIONS or "part" not in args or not isinstance(value, str):
            continue
        conditions = _conditions(rule, shared)
        earlier = [r for r in rules[:n] if not _exclusive(r, rule)]
        if any(not _conditions(r, shared) for r in earlier):
            continue  # an earlier rule takes every chunk
        conditions += [f"not ({' and '.join(_conditions(r, shared))})" for r in earlier]
        part, value_path = _path(args["part"])[0], _path(value)[0]
        conditions = conditions or ["True"]
        test = " ".join(conditions)
        reads = tuple((v, _read(p)) for p, v in shared.items() if re.search(rf"\b{v}\b", test))
        hot.append(HotRule(tuple(conditions), reads, kind, _read(part), _read(value_path)))
    return hot


class _Reader:
    """Compiles the `read` rules."""

    def __init__(self, mapping: Mapping, plan: StreamPlan) -> None:
        self.mapping = mapping
        self.plan = plan
        self.count = 0
        # The path whose value the last action read into `a_text` (for the next action).
        self.text_read: Steps | None = None

    def rules(self, name: str, rules: list[dict[str, Any]], where: str) -> None:
        em = Emitter()
        shared = _shared(rules)
        for path, var in shared.items():
            em.line(f"{var} = {_read(path)}")
        for n, rule in enumerate(rules):
            em.line(f"if {' and '.join(_conditions(rule, shared)) or 'True'}:")
            with em.block():
                # A list where a text action of the rule reads is the rule's `each` over that
                # path (Mistral's content as typed chunks): the text action takes the rest.
                listed = {
                    _path(a["each"]["list"])[0]
                    for a in rule["do"]
                    if isinstance(a, dict) and "each" in a
                }
                self.text_read = None  # (another rule's value is not this branch's)
                for k, action in enumerate(rule["do"]):
                    self.action(em, action, f"{where}/{n}/do/{k}", listed)
                em.line("return True")
        em.line("return False")
        # The chunk as an object once (``at`` checked it at every step).
        head = f"def {name}(s: StreamReader, c: Any, ptr: str) -> bool:\n"
        head += "    d: dict[str, Any] = c if type(c) is dict else EMPTY\n"
        source = head + "\n".join(em.lines)
        self.plan.functions.append(source)

    def action(
        self,
        em: Emitter,
        action: Any,
        where: str,
        listed: Collection[Steps] = (),
    ) -> None:
        text_read, self.text_read = self.text_read, None  # valid for the next action only
        self._action(em, action, where, listed, text_read)

    def _action(
        self,
        em: Emitter,
        action: Any,
        where: str,
        listed: Collection[Steps],
        text_read: Steps | None,
    ) -> None:
        if action == "complete":
            em.line("s.complete()")
            return
        ((kind, args),) = action.items()
        if kind in ("usage", "stop", "stop_detail", "ground"):
            path, _ = _path(args)
            em.line(f"x = {_read(path)}")
            em.line("if x is not None:")
            with em.block():
                em.line(f"s.{kind}(x, ptr + {_pointer_suffix(path)!r})")
            return
        if kind == "each":
            self.count += 1
            name = f"_each{self.count}"
            path, _ = _path(args["list"])
            # The text action just before read the same path: its value, not a second read.
            em.line(f"x = {'a_text' if text_read == path else _read(path)}")
            self.rules(name, args["rules"], f"{where}/each/rules")
            self.text_read = None
            em.line("if type(x) is list:")
            with em.block():
                em.line("for k, item in enumerate(x):")
                with em.block():
                    item_ptr = f"ptr + {_pointer_suffix(path)!r} + '/' + str(k)"
                    em.line(f"if not {name}(s, item, {item_ptr}):")
                    with em.block():
                        em.line(f"s.unread({item_ptr})")
            return
        if kind == "drop":
            path, _ = _path(args["value"])
            em.line(f"x = {_read(path)}")
            em.line("if x is not None:")
            with em.block():
                em.line(f"s.drop(ptr + {_pointer_suffix(path)!r}, {args['reason']!r}, x)")
            return
        values: dict[str, str] = {}
        required: list[str] = []
        for arg, text in args.items():
            if arg == "code_is":
                values["code"] = repr(text)
                continue
            if arg == "piece":  # the field names of one argument piece: a literal table
                values["keys"] = repr(dict(sorted(text.items())))
                continue
            if arg in ("json", "field"):  # a wire field's name, not a path
                values[arg] = repr(text)
                continue
            path, optional = _path(text)
            values[arg] = f"a_{arg}"
            em.line(f"a_{arg} = {_read(path)}")
            if not optional:
                required.append(f"a_{arg} is not None")
            if (kind, arg) == ("call_start", "name") or (
                (kind, arg) == ("call_delta", "arguments") and "part" not in args
            ):
                # A call without a name is a server's placeholder (Snowflake fills in every
                # field of every chunk): no call starts, and its empty arguments add nothing.
                required.append(f'a_{arg} != ""')
            if arg == "text" and path in listed:
                required.append(f"type(a_{arg}) is not list")
            if arg == "text":
                self.text_read = path
        # Without a part key: the part just read, or a new one.
        unkeyed = ("text", "thinking", "refusal", "signature", "block", "cite")
        if kind in (*unkeyed, "call_start", "call_delta") and "part" not in values:
            values["part"] = "None"
        if kind == "start":
            values = {
                "id": "None",
                "model": "None",
                "created": "None",
                "created_at": "None",
                **values,
            }
        call = ", ".join(f"{k}={v}" for k, v in sorted(values.items()))
        em.line(f"if {' and '.join(required) or 'True'}:")
        with em.block():
            em.line(f"s.{kind}({call}, ptr=ptr)")


class _Writer:
    """Compiles the `write` templates."""

    def __init__(self, mapping: Mapping, plan: StreamPlan) -> None:
        self.mapping = mapping
        self.plan = plan

    def templates(self, key: str, role: str, templates: list[Any], where: str) -> None:
        allowed = VARIABLES[role] | set(self.plan.defaults)
        em = Emitter()
        em.line("out: list[Any] = []")
        for n, template in enumerate(templates):
            names = self._variables(template, f"{where}/{n}", allowed)
            required = sorted(name for name, optional in names if not optional)
            em.line(f"if {' and '.join(f'{r!r} in v' for r in required) or 'True'}:")
            with em.block():
                em.line(f"out.append({self._build(em, template)})")
        em.line("return out")
        name = "w_" + key.replace(".", "_")
        self.plan.functions.append(
            f"def {name}(v: dict[str, Any]) -> list[Any]:\n" + "\n".join(em.lines)
        )
        self.plan.writers[key] = name
        if key in TEXT_KEYS and self.plan.sequence is None:
            self.text(key, templates, allowed)

    def text(self, key: str, templates: list[Any], allowed: set[str]) -> None:
        """The text around the delta of ``key`` (`a_*`): the chunk the `w_*` writer builds,
        framed as `StreamTranslator` frames it, is the text before, the delta's JSON text,
        the text after; the same for every delta of a block, so a fused path computes it once
        a block. JSON text composes (a value's text in an object is the value's own), so the
        literal parts are encoded here, once, and each variable's value by `framing.json_text`
        (the encoder `framing.dumps` uses): the text is the same, character for character.
        A writer this cannot spell (more than one chunk, a spread, the delta twice or in an
        optional field, optional fields alone in an object, an `event:` name from a variable)
        has none; its deltas take the general path."""
        if len(templates) != 1:
            return
        section = self.mapping.data["stream"]
        template = templates[0]
        pieces = _TextPieces().frame(template, section["framing"], section.get("event_field"))
        delta = "arguments" if key == "tool_call.delta" else "text"
        around = None if pieces is None else _around(pieces, delta)
        if around is None:
            return
        names = self._variables(template, "text", allowed)
        required = sorted(name for name, optional in names if not optional)
        name = "a_" + key.replace(".", "_")
        self.plan.functions.append(
            f"def {name}(v: dict[str, Any]) -> tuple[str, str] | None:\n"
            f"    if {' and '.join(f'{r!r} in v' for r in required) or 'True'}:\n"
            f"        return ({around[0]}, {around[1]})\n"
            f"    return None"
        )
        self.plan.arounds[key] = name

    def _variables(self, node: Any, where: str, allowed: set[str]) -> list[tuple[str, bool]]:
        if isinstance(node, str) and node.startswith("$") and not node.startswith("$$"):
            match = _VAR.match(node)
            if match is None or match.group(1) not in allowed:
                raise _error(
                    self.mapping, where, f"{node!r}: this template may use {sorted(allowed)}"
                )
            return [(match.group(1), match.group(2) == "?")]
        if isinstance(node, dict):
            return [
                v for k, sub in node.items() for v in self._variables(sub, f"{where}/{k}", allowed)
            ]
        if isinstance(node, list):
            return [
                v
                for i, sub in enumerate(node)
                for v in self._variables(sub, f"{where}/{i}", allowed)
            ]
        return []

    def _build(self, em: Emitter, node: Any) -> str:
        if isinstance(node, str) and node.startswith("$$"):
            return repr(node[1:])
        if isinstance(node, str) and node.startswith("$"):
            match = _VAR.match(node)
            assert match is not None
            return f"v[{match.group(1)!r}]"
        if isinstance(node, list):
            return "[" + ", ".join(self._build(em, sub) for sub in node) + "]"
        if not isinstance(node, dict):
            return repr(node)
        fixed, optional = [], []
        spread = node.get("@spread")
        if isinstance(spread, str) and (match := _VAR.match(spread)):
            name = match.group(1)
            inner = self._build(em, {k: v for k, v in node.items() if k != "@spread"})
            if match.group(2):
                return f"{{**v.get({name!r}, {{}}), **{inner}}}"
            return f"{{**v[{name!r}], **{inner}}}"
        for key, sub in node.items():
            match = _VAR.match(sub) if isinstance(sub, str) else None
            if match and match.group(2):
                optional.append((key, match.group(1)))
            else:
                fixed.append(f"{key!r}: {self._build(em, sub)}")
        literal = "{" + ", ".join(fixed) + "}"
        if not optional:
            return literal
        temp = em.temp("d")
        em.line(f"{temp} = {literal}")
        for key, name in optional:
            em.line(f"if {name!r} in v:")
            with em.block():
                em.line(f"{temp}[{key!r}] = v[{name!r}]")
        return temp


def _json(value: Any) -> str:
    """A literal's JSON text, as `framing.dumps` writes it."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


# A piece of a chunk's text: literal text, or a Python expression that gives text.
Piece = tuple[bool, str]  # (is_literal, text or expression)


class _TextPieces:
    """One chunk template as a Python expression of its framed JSON text: literal text and
    the encoded variables, concatenated."""

    def frame(self, template: Any, framing: str, event_field: str | None) -> list[Piece] | None:
        """The pieces of the chunk's text as `framing.frame` writes it, or None."""
        payload = self.node(template)
        if payload is None or not isinstance(template, dict):
            return None
        if framing == "ndjson":
            return [*payload, (True, "\n")]
        head = ""
        if event_field is not None and event_field in template:
            name = template[event_field]
            if not isinstance(name, str) or name.startswith("$"):
                return None  # named by a variable (or not a string): the general path says it
            head = f"event: {name}\n" if name else ""
        return [(True, head + "data: "), *payload, (True, "\n\n")]

    def node(self, node: Any) -> list[Piece] | None:
        if isinstance(node, str) and node.startswith("$$"):
            return [(True, _json(node[1:]))]
        if isinstance(node, str) and node.startswith("$"):
            match = _VAR.match(node)
            if match is None or match.group(2):
                return None  # an optional value outside an object
            return [(False, f"json_text(v[{match.group(1)!r}])")]
        if isinstance(node, list):
            out: list[Piece] = [(True, "[")]
            for k, sub in enumerate(node):
                item = self.node(sub)
                if item is None:
                    return None
                out += [(True, ",")] * bool(k) + item
            return [*out, (True, "]")]
        if not isinstance(node, dict):
            return [(True, _json(node))]
        return self.obj(node)

    def obj(self, node: dict[str, Any]) -> list[Piece] | None:
        """An object: its fixed fields in order, then each optional one that is there (the
        order `_Writer._build` gives them)."""
        if "@spread" in node:
            return None
        fixed: list[Piece] = []
        optional: list[Piece] = []
        for key, sub in node.items():
            match = _VAR.match(sub) if isinstance(sub, str) else None
            if match and match.group(2):
                name = match.group(1)
                head = repr("," + _json(key) + ":")
                optional.append(
                    (False, f"({head} + json_text(v[{name!r}]) if {name!r} in v else '')")
                )
                continue
            value = self.node(sub)
            if value is None:
                return None
            fixed += [(True, ("," if fixed else "") + _json(key) + ":"), *value]
        if optional and not fixed:
            return None  # the first optional field would need no comma: not spelled here
        return [(True, "{"), *fixed, *optional, (True, "}")]


def _around(pieces: list[Piece], name: str) -> tuple[str, str] | None:
    """The expressions of the text before and after variable ``name``, when the pieces hold
    it once (and not in an optional field)."""
    value = (False, f"json_text(v[{name!r}])")
    uses = [k for k, piece in enumerate(pieces) if not piece[0] and f"v[{name!r}]" in piece[1]]
    if len(uses) != 1 or pieces[uses[0]] != value:
        return None
    return _expression(pieces[: uses[0]]), _expression(pieces[uses[0] + 1 :])


def _expression(pieces: list[Piece]) -> str:
    """Pieces as one Python expression: adjacent literal text merged, the rest joined by +."""
    merged: list[Piece] = []
    for literal, text in pieces:
        if literal and merged and merged[-1][0]:
            merged[-1] = (True, merged[-1][1] + text)
        else:
            merged.append((literal, text))
    return " + ".join(repr(text) if literal else text for literal, text in merged) or "''"


def _plan_citations(mapping: Mapping, plan: StreamPlan, writer: _Writer) -> None:
    """Citations in the stream: read (`cite`) and written (`citation`) by the mapping's
    `citation` codec, which either needs."""
    section = mapping.data["stream"]
    plan.citations = "citation" in mapping.data.get("codecs", {})
    plan.content_citations = mapping.data.get("layout", {}).get("text_citations") is not None
    write = section["write"]
    if "citation" in write:
        if not plan.citations:
            raise _error(mapping, "/stream/write/citation", "the mapping has no `citation` codec")
        writer.templates("citation", "citation", write["citation"], "/stream/write/citation")
    if '"cite":' in json.dumps(section["read"]) and not plan.citations:
        raise _error(mapping, "/stream/read", "`cite` needs the mapping's `citation` codec")
    plan.grounding = '"ground":' in json.dumps(section["read"])
    if plan.grounding and "grounding" not in mapping.data.get("response", {}):
        raise _error(mapping, "/stream/read", "`ground` needs the mapping's `response.grounding`")


def plan_stream(mapping: Mapping) -> StreamPlan | None:
    """The compiled stream section of one mapping file, or None when the format has none."""
    section = mapping.data.get("stream")
    if section is None:
        return None
    plan = StreamPlan(mapping)
    _Reader(mapping, plan).rules("read", section["read"], "/stream/read")
    plan.hot = hot_rules(section["read"])
    write = section["write"]
    plan.defaults = dict(write.get("defaults", {}))
    writer = _Writer(mapping, plan)
    plan.sequence = write.get("sequence")
    for key in ("start", "usage", "error"):
        if key in write:
            writer.templates(key, key, write[key], f"/stream/write/{key}")
    complete = write.get("complete", [])
    if isinstance(complete, dict):  # templates by the wire stop reason, and a `default`
        for reason, templates in complete.items():
            key = "complete" if reason == "default" else f"complete.{reason}"
            writer.templates(key, "complete", templates, f"/stream/write/complete/{reason}")
    elif complete:
        writer.templates("complete", "complete", complete, "/stream/write/complete")
    plan.whole_response = "$response" in repr(complete)
    plan.whole_blocks = any(
        re.search(r"'\$(text|arguments|signature)\??'", repr(write.get(kind, {}).get("close", [])))
        for kind in ("text", "thinking", "refusal", "tool_call")
    )
    for kind in ("text", "thinking", "refusal", "tool_call"):
        block = write.get(kind, {})
        if block.get("whole"):
            plan.whole_calls = True
            continue
        for role in ("open", "delta", "signature", "close"):
            if role in block:
                if role == "signature" and kind != "thinking":
                    raise _error(mapping, f"/stream/write/{kind}", "only thinking has signatures")
                writer.templates(
                    f"{kind}.{role}", role, block[role], f"/stream/write/{kind}/{role}"
                )
    _plan_citations(mapping, plan, writer)
    if "part" in write:
        plan.part_types = list(write["part"]["types"])
        writer.templates("part", "part", write["part"]["chunks"], "/stream/write/part/chunks")
    starts = [r for r in section["read"] if any(a == "start" or "start" in a for a in r["do"])]
    if section.get("explicit_start") and not starts:
        raise _error(mapping, "/stream/explicit_start", "no read rule has a `start` action")
    if plan.whole_calls and "tool_call" not in plan.part_types:
        raise _error(mapping, "/stream/write/part/types", "whole calls are written as parts")
    return plan
