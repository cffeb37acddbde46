"""Compiling the shape templates of a mapping file into straight-line Python.

A variant of a codec pairs two templates over the same variables, one canonical and one wire:

    canonical: {type: image, source: {type: url, url: $url}, detail: $detail}
    wire:      {type: image_url, image_url: {url: $url, detail: $detail}}

A template is a literal (it must be there, with that value), a variable (`$name`; it may be
absent exactly when the canonical schema does not require the field it sits in; `$name!` when
this variant needs it all the same; `$name?` when the wire may leave out a field the canonical
schema requires, which the layout then completes on reading: a call id the format does not
always give), an object or a fixed-length list of templates, or a call
(`{"@name": args}`) of a named transform or of a built-in (`@each`, `@codec`, `@table`,
`@parts`, `@messages`). Encoding matches the canonical template and builds the wire one;
decoding does the reverse. Nothing is interpreted at run time: each direction of each variant
becomes one Python function of `if`s and dict literals.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

BUILTINS = ("each", "codec", "table", "parts", "merge", "messages", "grouped")
_VAR = re.compile(r"^\$([a-z][a-z0-9_]*)([!?])?$")


class TemplateError(Exception):
    """A template says something the compiler cannot turn into code."""


@dataclass(frozen=True)
class Var:
    name: str
    optional: bool
    forced: bool = False  # `$name!`: required by this variant though the schema allows absence
    loose: bool = False  # `$name?`: optional on the wire though the schema requires it


@dataclass(frozen=True)
class Call:
    name: str
    args: tuple[Any, ...]  # parsed templates; for built-ins the first is a codec/table name
    fills: bool = False  # a transform that writes a value even for absent variables

    @property
    def builtin(self) -> bool:
        return self.name in BUILTINS

    def variables(self) -> list[Var]:
        return [a for a in self.args if isinstance(a, Var)]


def parse(node: Any) -> Any:
    """The template as Var / Call / dict / list / literal nodes."""
    if isinstance(node, str):
        if node.startswith("$$"):
            return node[1:]  # an escaped literal dollar
        if node.startswith("$"):
            m = _VAR.match(node)
            if not m:
                raise TemplateError(f"bad variable {node!r}")
            return Var(m.group(1), False, m.group(2) == "!", m.group(2) == "?")
        return node
    if isinstance(node, dict):
        if len(node) == 1 and next(iter(node)).startswith("@"):
            ((key, raw),) = node.items()
            args = raw if isinstance(raw, list) else [raw]
            name = key[1:]
            if name in ("each", "codec", "table"):
                if len(args) != 2 or not isinstance(args[0], str):
                    raise TemplateError(f"@{name} takes [name, $variable]")
                return Call(name, (args[0], parse(args[1])))
            return Call(name, tuple(parse(a) for a in args))
        return {str(k): parse(v) for k, v in node.items()}
    if isinstance(node, list):
        return [parse(v) for v in node]
    return node


def variables(node: Any) -> Iterator[Var]:
    if isinstance(node, Var):
        yield node
    elif isinstance(node, Call):
        for a in node.args:
            yield from variables(a)
    elif isinstance(node, dict):
        for v in node.values():
            yield from variables(v)
    elif isinstance(node, list):
        for v in node:
            yield from variables(v)


def _null_is_absent(em: Emitter, value: str, blank: bool = False) -> None:
    """Emit: an optional wire field that is null reads as absent (real servers write absent
    fields as null; the reading schema takes it, generator/reading.py, and round-trip data
    gives it back). ``blank``: so does an empty string where the canonical field needs a
    character (an OpenAI-compatible server's response `id: ""`)."""
    em.line(f'if {value} is None or {value} == "":' if blank else f"if {value} is None:")
    with em.block():
        em.line(f"{value} = ABSENT")


def required(node: Any) -> bool:
    """Whether a subtree must be present: it holds a literal or a required variable."""
    if isinstance(node, Var):
        return not node.optional
    if isinstance(node, Call):
        if node.fills:
            return True  # always written, so a wire value without it is another variant's
        if node.name == "codec" and node.args[1].forced:
            return True  # `{"@codec": [name, $x!]}`: this variant needs a value the codec reads
        if node.name in ("each", "codec", "merge"):
            return False  # a value no variant takes is left out (and reported)
        if node.name == "grouped":
            return required(node.args[0])
        if node.name == "parts":
            # A result may hold no content at all (an Anthropic `tool_result` of a tool that
            # returned nothing): read as no parts; an extra block comes and goes with them.
            return False
        if node.builtin:
            return required(node.args[-1])
        return any(required(a) for a in node.args if isinstance(a, Var | Call | dict | list))
    if isinstance(node, dict):
        if not any(True for _ in variables(node)):
            return True  # all literals: always there
        # Literals alone do not make an object required: `{type: enabled, budget: $b}`
        # appears exactly when $b does.
        return any(required(v) for v in node.values() if isinstance(v, Var | Call | dict | list))
    if isinstance(node, list):
        # A list of templates is there when one of them must be (Gemini's `candidates` holds
        # only an optional finish reason: a blocked prompt has no candidate).
        return not any(True for _ in variables(node)) or any(required(v) for v in node)
    return True  # a literal


def literals(
    node: Any, path: tuple[str | int, ...] = ()
) -> Iterator[tuple[tuple[str | int, ...], Any]]:
    """Every literal of a template with its path (the variant's discriminating constants)."""
    if isinstance(node, dict):
        for k, v in node.items():
            yield from literals(v, (*path, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from literals(v, (*path, i))
    elif not isinstance(node, Var | Call):
        yield path, node


def paths(node: Any, path: tuple[str | int, ...] = ()) -> dict[str, tuple[str | int, ...]]:
    """Where each variable sits in a (canonical) template."""
    out: dict[str, tuple[str | int, ...]] = {}
    if isinstance(node, Var):
        out[node.name] = path
    elif isinstance(node, dict):
        for k, v in node.items():
            out.update(paths(v, (*path, k)))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out.update(paths(v, (*path, i)))
    return out


def _lit(value: Any) -> str:
    return repr(value)


def _neq(expr: str, value: Any) -> str:
    """A type-exact inequality test (`True` must not equal `1`)."""
    if value is None or isinstance(value, bool):
        return f"{expr} is not {value!r}"
    return f"{expr} != {value!r}"


def _pointer(base: str, path: tuple[str | int, ...]) -> str:
    if not path:
        return base
    suffix = "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in path)
    return f'{base} + "{suffix}"'


@dataclass
class Emitter:
    """Python source, line by line, at an indentation."""

    lines: list[str] = field(default_factory=list)
    depth: int = 1
    counter: int = 0

    def line(self, text: str) -> None:
        self.lines.append("    " * self.depth + text)

    def temp(self, hint: str) -> str:
        self.counter += 1
        return f"_{hint}{self.counter}"

    def block(self) -> _Indent:
        return _Indent(self)


class _Indent:
    def __init__(self, emitter: Emitter) -> None:
        self.emitter = emitter

    def __enter__(self) -> None:
        self.emitter.depth += 1

    def __exit__(self, *exc: object) -> None:
        self.emitter.depth -= 1


@dataclass(frozen=True)
class Side:
    """How one direction treats failures to match.

    ``strict`` literals must be present and equal (a part variant's tag); otherwise a literal
    is only written, never checked (an envelope's `object` field). A missing required value
    is a miss while another variant with the same literals may still match, then an error.
    """

    miss: str  # statement run when the input is not this variant
    missing: str  # statement template for a missing required value ({ptr}, {name})
    wrong: str  # statement template for a value of the wrong JSON type ({ptr}, {what})
    strict_literals: bool = True


class Compiler:
    """Turns the variants of one mapping file into function bodies."""

    def key_set(self, keys: set[str] | frozenset[str]) -> str:
        """The name of the module constant holding ``keys`` (one per distinct set)."""
        frozen = frozenset(keys)
        name = self.key_sets.get(frozen)
        if name is None:
            name = self.key_sets[frozen] = f"{self.prefix}KEYS_{len(self.key_sets)}"
        return name

    def table(self, stem: str, value: dict[str, str]) -> str:
        """The name of the module constant holding ``value`` (one per distinct table)."""
        key = (stem, tuple(value.items()))
        name = self.tables.get(key)
        if name is None:
            name = self.tables[key] = f"{self.prefix}{stem}_{len(self.tables)}"
        return name

    def __init__(self, prefix: str = "") -> None:
        self.prefix = prefix
        self.part_type: str | None = None  # the canonical part type of the codec compiled
        self.drop_code = "field_dropped"
        self.pending: list[list[tuple[str, str, str, str]]] = []
        # Wire values a reading leaves unreported (`defaults`), by the template path of the
        # object that holds them: each key's values as a Python literal.
        self.unread_defaults: dict[tuple[str | int, ...], str] = {}
        # Canonical fields other variants of the codec compiled pin: this one refuses them.
        self.refuses: list[str] = []
        # Wire keys the layout engine reads around a template (a body's turns, a turn's role),
        # by the template path of the object that holds them.
        self.extra_known: dict[tuple[str | int, ...], set[str]] = {}
        self.codec_keys: dict[str, set[str]] = {}  # top-level wire keys of each named codec
        self.quiet = 0  # inside a `@merge` whose members' keys are not all known
        # By the codec a request's `@merge` starts with: the tag key of the codec's variants,
        # and by each merged key, the tags of the variants that do not take it (the wire
        # schema closes them): see generator/wire_variants.py.
        self.merge_refused: dict[str, tuple[str, dict[str, list[str]]]] = {}
        # The canonical key a dispatcher already chose the codec by (a part's `type`).
        self.dispatched: str | None = None
        # The wire key the layout already dispatched a block by (its `type`), when it did.
        self.decode_dispatched: str | None = None
        self.block_tag: str | None = None  # the layout's block tag (None: member-keyed blocks)
        # Known-key sets, each a module constant (built once at import, not on every call).
        self.key_sets: dict[frozenset[str], str] = {}
        self.tables: dict[tuple[str, tuple[tuple[str, str], ...]], str] = {}
        self.each_marker: set[str] = set()  # codecs whose lists carry the layout's marker
        # The hosted tools an `@each` passes over, by its variable: `@grouped` writes them.
        self.apart: dict[str, str] = {}
        self.nonempty: set[str] = set()  # variables of lists the schema says are never empty
        self.asks_carries = False  # a function asks `carries` (the module then imports it)
        self.reads_literals: set[str] = set()  # transforms whose decode takes literal arguments
        self.reads_absent: set[str] = set()  # transforms whose decode reads a missing value too
        self.member_keys: set[str] = set()  # transforms whose literals name the members they read
        self.merge_views: set[str] = set()  # the variables holding a `@merge` member's keys
        # Writing: the canonical fields whose value says what their absence says (`x-default`),
        # by the path of the object holding them: not reported where the target has no place.
        self.canonical_defaults: dict[tuple[str | int, ...], str] = {}
        # The template object built whole even when none of its variables is there (a turn's
        # fields: its literals, a schema version, go on every turn).
        self.whole: int | None = None

    # --- matching: template against an input value, binding variables -----------------------

    def match(
        self,
        em: Emitter,
        node: Any,
        expr: str,
        side: Side,
        ptr: tuple[str, tuple[str | int, ...]],
        *,
        decode: bool,
    ) -> None:
        base, path = ptr
        if isinstance(node, Var):
            em.line(f"v_{node.name} = {expr}")
            return
        if isinstance(node, Call):
            self._match_call(em, node, expr, side, ptr, decode=decode)
            return
        if isinstance(node, dict):
            # A canonical part or value handed to a codec is an object, and so is a block the
            # layout dispatched by its tag.
            if path or (decode and self.decode_dispatched is None):
                em.line(f"if type({expr}) is not dict:")
                with em.block():
                    em.line(side.wrong.format(ptr=_pointer(base, path), what="an object"))
            for key, sub in node.items():
                self._match_member(
                    em, key, sub, expr, side=side, ptr=(base, (*path, key)), decode=decode
                )
            keys = set(node) | self.extra_known.get(path, set())
            known = self.key_set(keys)
            if not (decode and self.quiet):
                said = self.unread_defaults if decode else self.canonical_defaults
                defaults = said.get(path, "")
                self.pending[-1].append((expr, known, _pointer(base, path), defaults))
            return
        if isinstance(node, list):
            em.line(f"if type({expr}) is not list or len({expr}) < {len(node)}:")
            with em.block():
                em.line(side.wrong.format(ptr=_pointer(base, path), what=f"a list of {len(node)}"))
            if decode and not self.quiet:
                # Items past the template's (a second choice) are read by nothing: reported
                # when no round-trip data keeps them.
                extra = em.temp("k")
                em.line("if not ctx.fidelity:")
                with em.block():
                    em.line(f"for {extra} in range({len(node)}, len({expr})):")
                    with em.block():
                        em.line(
                            f'ctx.loss({_pointer(base, path)} + "/" + str({extra}), '
                            '"field_dropped", "only the first items of this list are read")'
                        )
            for i, sub in enumerate(node):
                item = em.temp("i")
                em.line(f"{item} = {expr}[{i}]")
                self.match(em, sub, item, side, (base, (*path, i)), decode=decode)
            return
        if side.strict_literals:
            em.line(f"if {_neq(expr, node)}:")
            with em.block():
                em.line(side.miss)

    def _match_member(
        self,
        em: Emitter,
        key: str,
        sub: Any,
        parent: str,
        *,
        side: Side,
        ptr: tuple[str, tuple[str | int, ...]],
        decode: bool,
    ) -> None:
        base, path = ptr
        if isinstance(sub, Var):
            em.line(f"v_{sub.name} = {parent}.get({key!r}, ABSENT)")
            if decode and sub.optional:
                _null_is_absent(em, f"v_{sub.name}", sub.name in self.nonempty)
            if not sub.optional:
                em.line(f"if v_{sub.name} is ABSENT:")
                with em.block():
                    em.line(side.missing.format(ptr=_pointer(base, path), name=key))
            return
        if not isinstance(sub, dict | list | Call):  # a literal member
            chosen_by = self.decode_dispatched if decode else self.dispatched
            if not path[:-1] and key == chosen_by:
                return  # the dispatcher chose this codec by that very value
            if side.strict_literals:
                em.line(f"if {_neq(f'{parent}.get({key!r})', sub)}:")
                with em.block():
                    em.line(side.miss)
            elif decode and path[:-1]:
                # A constant inside an envelope's object (Anthropic's `thinking.type: enabled`)
                # is not checked, but another value there says something the variant does not
                # read (`adaptive`): reported, as an unread field is; round-trip data keeps it.
                found = em.temp("k")
                em.line(f"{found} = {parent}.get({key!r})")
                # (a value that carries nothing, Snowflake's `logprobs` of nulls, is no loss)
                self.asks_carries = True
                em.line(f"if {_neq(found, sub)} and carries({found}) and not ctx.fidelity:")
                with em.block():
                    em.line(
                        f"ctx.loss({_pointer(base, path)}, {self.drop_code!r}, "
                        f"ctx.adapter + ': ' + repr({found}) + ' is not ' + {repr(sub)!r} + "
                        "'; not carried')"
                    )
            return
        if not any(True for _ in variables(sub)) and (
            isinstance(sub, Call) or not side.strict_literals
        ):
            if decode and isinstance(sub, Call) and sub.name in self.reads_literals:
                # A literal the transform reads itself (an optional tag, Anthropic's tool
                # `custom`): it tells this variant from others (a value of another's is a
                # miss) and means nothing more, so nothing is lost; round-trip data keeps it.
                found = em.temp("m")
                em.line(f"{found} = {parent}.get({key!r})")
                em.line(f"if {found} is not None:")
                with em.block():
                    em.line("try:")
                    with em.block():
                        given = "".join(f", {_lit(a)}" for a in sub.args)
                        em.line(f"T_{sub.name}.decode(ctx, {found}, {_pointer(base, path)}{given})")
                    em.line("except Mismatch:")
                    with em.block():
                        em.line(side.miss)
            elif decode and isinstance(sub, Call):
                # A placeholder's field holds a value the canonical form has no place for (a
                # creation time): round-trip data keeps it; read for another format, reported.
                em.line(f"if not ctx.fidelity and {parent}.get({key!r}) is not None:")
                with em.block():
                    em.line(
                        f"ctx.loss({_pointer(base, path)}, 'field_dropped', "
                        f"ctx.adapter + ': the canonical form has no place for it')"
                    )
            return  # written, never read (a placeholder, a default): round-trip data keeps it
        value = em.temp("m")
        em.line(f"{value} = {parent}.get({key!r}, ABSENT)")
        if decode and not required(sub):
            # A transform of one variable the canonical form needs non-empty (`@default`):
            # an empty wire string is that variable absent, as it is bare.
            names = {v.name for v in variables(sub)}
            blank = isinstance(sub, Call) and len(names) == 1 and names <= self.nonempty
            _null_is_absent(em, value, blank)
        if required(sub):
            em.line(f"if {value} is ABSENT:")
            with em.block():
                em.line(side.missing.format(ptr=_pointer(base, path), name=key))
            self.match(em, sub, value, side, ptr, decode=decode)
            return
        if decode and isinstance(sub, Call) and sub.name in self.reads_absent:
            # The transform says what a missing value means (OpenAI Responses' `strict`).
            self.match(em, sub, value, side, ptr, decode=decode)
            return
        # An optional subtree: absent means every variable in it is absent (a result's parts:
        # none, the canonical content is a list).
        em.line(f"if {value} is ABSENT:")
        with em.block():
            em.line("pass")
            parts = isinstance(sub, Call) and sub.name == "parts" and decode
            for var in variables(sub):
                first = parts and isinstance(sub, Call) and var is sub.args[0]
                em.line(f"v_{var.name}{': list[Any] = []' if first else ' = ABSENT'}")
        em.line("else:")
        with em.block():
            self.pending.append([])
            self.match(em, sub, value, side, ptr, decode=decode)
            self.flush_drops(em, decode=decode)

    def _merge_refused(
        self, em: Emitter, out: str, members: list[Any], canon_at: dict[str, str]
    ) -> None:
        """Drop, and report, a merged key the variant the codec wrote does not take (an
        Anthropic `none` tool_choice takes no `disable_parallel_tool_use`)."""
        first = members[0] if members else None
        if not isinstance(first, Call) or first.name != "codec":
            return
        found = self.merge_refused.get(first.args[0])
        if found is None:
            return
        tag_key, refused = found
        for member in members[1:]:
            if not isinstance(member, dict):
                continue
            for key in member:
                owner = next(variables(member[key]), None)
                if key not in refused or owner is None:
                    continue
                for tag in refused[key]:
                    em.line(
                        f"if {out} is not ABSENT and {out}.get({tag_key!r}) == {tag!r} "
                        f"and {key!r} in {out}:"
                    )
                    with em.block():
                        em.line(f"del {out}[{key!r}]")
                        reason = (
                            f" has no place for `{owner.name}` beside a `{tag}` {first.args[0]}"
                        )
                        em.line(
                            f"ctx.loss({canon_at[owner.name]}, 'parameter_dropped', "
                            f"ctx.adapter + {reason!r})"
                        )

    def _member_keys(self, member: Any) -> set[str]:
        """The top-level wire keys a `@merge` member writes."""
        if isinstance(member, dict):
            return set(member)
        if isinstance(member, Call) and member.name == "codec":
            return self.codec_keys.get(member.args[0], set())
        if isinstance(member, Call) and member.name in self.member_keys:
            return {arg for arg in member.args if isinstance(arg, str)}
        return set()

    def flush_drops(self, em: Emitter, *, decode: bool = False) -> None:
        """Report fields no template member takes, once the variant has matched: canonical
        fields when writing (dropped), wire fields when reading without round-trip data
        (unread; with it, the round-trip data keeps them)."""
        for expr, known, at, defaults in self.pending.pop():
            if decode:
                em.line(f"if not ctx.fidelity and not {known}.issuperset({expr}):")
                with em.block():
                    given = f", defaults={defaults}" if defaults else ""
                    em.line(
                        f"unread(ctx, {expr}, {known}, {at}, part_type={self.part_type!r}{given})"
                    )
                continue
            em.line(f"if not {known}.issuperset({expr}):")
            with em.block():
                given = f", defaults={defaults}" if defaults else ""
                em.line(
                    f"dropped(ctx, {expr}, {known}, {at}, "
                    f"part_type={self.part_type!r}, code={self.drop_code!r}{given})"
                )

    def _match_call(  # noqa: C901 - one branch per way a call's result can be matched
        self,
        em: Emitter,
        call: Call,
        expr: str,
        side: Side,
        ptr: tuple[str, tuple[str | int, ...]],
        *,
        decode: bool,
    ) -> None:
        if not decode:
            raise TemplateError(f"@{call.name} may only appear in wire templates")
        at = _pointer(*ptr)
        if call.name == "each":
            codec, var = call.args
            marker = f", marker={self.prefix}MARKER" if codec in self.each_marker else ""
            em.line(
                f"v_{var.name} = each_decode(ctx, {self.prefix}dec_{codec}, {expr}, {at}{marker})"
            )
            if var.name in self.nonempty:  # nothing in it: absent (round-trip data keeps it)
                em.line(f"if not v_{var.name}:")
                with em.block():
                    em.line(f"v_{var.name} = ABSENT")
        elif call.name == "codec":
            codec, var = call.args
            if var.forced:
                # `$x!`: a value no variant of the codec reads, or of another type (a field
                # only this variant knows, which no schema checked), is another variant's.
                em.line("try:")
                with em.block():
                    em.line(f"v_{var.name} = {self.prefix}dec_{codec}(ctx, {expr}, {at})")
                em.line("except ConversionError:")
                with em.block():
                    em.line(side.miss)
                em.line(f"if v_{var.name} is MISS:")
                with em.block():
                    em.line(side.miss)
                return
            em.line(f"v_{var.name} = {self.prefix}dec_{codec}(ctx, {expr}, {at})")
            em.line(f"if v_{var.name} is MISS:")
            with em.block():
                em.line(f"v_{var.name} = ABSENT")
                if not self.quiet:
                    # No variant reads it: reported, whole, or member by member when the
                    # codec reads some members of an object (a `@merge` member).
                    kind = self.part_type
                    if expr in self.merge_views:
                        em.line(f"if not ctx.fidelity and type({expr}) is dict:")
                        with em.block():
                            em.line(f"unread(ctx, {expr}, frozenset(), {at}, part_type={kind!r})")
                    else:
                        em.line("if not ctx.fidelity:")
                        with em.block():
                            em.line(f"unmatched(ctx, {expr}, {at}, part_type={kind!r})")
        elif call.name == "table":
            table, var = call.args
            em.line(f"v_{var.name} = {table.upper()}_TO_CANONICAL.get({expr})")
            em.line(f"if v_{var.name} is None:")
            with em.block():
                # A value the table does not know (a reason added after this release): read as
                # `other`, reported as the stream reader reports it.
                em.line(f"v_{var.name} = 'other'")
                self.asks_carries = True
                em.line(f"if not ctx.fidelity and carries({expr}):")
                with em.block():
                    em.line(
                        f"ctx.loss({at}, 'stop_reason_approximated', ctx.adapter + "
                        f"': stop reason ' + repr({expr}) + ' is not in the table; read as other')"
                    )
        elif call.name == "parts" and len(call.args) == 2:
            # `{"@parts": [$content, <block>]}`: one more block after the parts (a structured
            # value), taken out of the list by its kind when reading.
            var, extra = call.args
            taken = em.temp("x")
            em.line(
                f"v_{var.name}, {taken} = {self.prefix}decode_content_taking("
                f"ctx, {expr}, {at}, {self.block_kind(extra)!r})"
            )
            em.line(f"if {taken} is ABSENT:")
            with em.block():
                for sub in variables(extra):
                    em.line(f"v_{sub.name} = ABSENT")
            em.line("else:")
            with em.block():
                # Its unread keys are checked here, where it exists (not after the variant).
                self.pending.append([])
                self.match(em, extra, taken, side, ptr, decode=decode)
                self.flush_drops(em, decode=decode)
        elif call.name == "parts":
            (var,) = call.args
            em.line(f"v_{var.name} = {self.prefix}decode_content(ctx, {expr}, {at})")
        elif call.name == "messages":
            # Turns nested in a value (a rendered prompt's messages): read with this very
            # layout, so a nested turn is read exactly like a top-level one.
            (var,) = call.args
            em.line(f"v_{var.name} = {self.prefix}decode_nested(ctx, {expr}, {at})")
        elif call.name == "grouped":
            self._match_grouped(em, call, expr, side, at)
        elif call.name == "merge":
            # Each member reads only its own keys (the first also every key nobody names), so
            # none of them reports another's keys as unread.
            members = [m for m in call.args if any(True for _ in variables(m))]
            keys = [self._member_keys(m) for m in members]
            if not all(keys):
                # A member that is a transform reads keys the compiler cannot see: every member
                # reads the whole object, and none reports unread keys.
                self.quiet += 1
                for member in members:
                    self.match(em, member, expr, side, ptr, decode=decode)
                self.quiet -= 1
                return
            for i, member in enumerate(members):
                view = em.temp("v")
                if i == 0:
                    others = set().union(*keys[1:])
                    pick = f"{{k: x for k, x in {expr}.items() if k not in {sorted(others)!r}}}"
                else:
                    pick = f"{{k: {expr}[k] for k in {sorted(keys[i])!r} if k in {expr}}}"
                em.line(f"{view} = {pick} if type({expr}) is dict else {expr}")
                self.merge_views.add(view)
                self.match(em, member, view, side, ptr, decode=decode)
        else:
            # A transform reads back one value per argument (a tuple when there are several):
            # variables take theirs, nested templates match theirs, literals ignore theirs.
            value = em.temp("t")
            em.line("try:")
            with em.block():
                given = ""
                if call.name in self.reads_literals:
                    given = "".join(
                        f", {_lit(a)}"
                        for a in call.args
                        if not isinstance(a, Var | Call | dict | list)
                    )
                em.line(f"{value} = T_{call.name}.decode(ctx, {expr}, {at}{given})")
            em.line("except Mismatch:")
            with em.block():
                em.line(side.miss)
            values = (
                [value] if len(call.args) == 1 else [f"{value}[{i}]" for i in range(len(call.args))]
            )
            for arg, item in zip(call.args, values, strict=True):
                if isinstance(arg, Var):
                    em.line(f"v_{arg.name} = {item}")
                elif isinstance(arg, dict | list | Call) and any(True for _ in variables(arg)):
                    self.match(em, arg, item, side, ptr, decode=decode)

    def _match_grouped(self, em: Emitter, call: Call, expr: str, side: Side, at: str) -> None:
        """`{"@grouped": [<template>, {<key>: <hosted kind>}]}`: a list of groups (Gemini's
        tools), each read with the template where it stands, so every pointer names its group
        and a group's member no template reads is reported at it; the lists the groups give
        are joined in order. A member named in the second argument is a hosted tool of that
        kind, joined where its group stands."""
        inner, apart = _grouped_args(call)
        names = [var.name for var in variables(inner)]
        if not all(_each_bound(inner, name) for name in names):
            raise TemplateError("@grouped joins lists: each of its variables must be an @each's")
        index, group, here, groups = em.temp("n"), em.temp("g"), em.temp("p"), em.temp("gs")
        joined = {name: em.temp("j") for name in names}
        # One group may come alone, not in a list (Gemini's API reads a single value for a
        # repeated field): read where it stands.
        em.line(f"{groups}: list[tuple[str, Any]]")
        em.line(f"if type({expr}) is dict:")
        with em.block():
            em.line(f"{groups} = [({at}, {expr})]")
        em.line(f"elif type({expr}) is list:")
        with em.block():
            em.line(
                f'{groups} = [({at} + "/" + str({index}), {group}) '
                f"for {index}, {group} in enumerate({expr})]"
            )
        em.line("else:")
        with em.block():
            em.line(f'raise ConversionError("wrong_type", {at}, "expected a list")')
        for name in names:
            em.line(f"{joined[name]}: Any = ABSENT")
        em.line(f"for {here}, {group} in {groups}:")
        with em.block():
            self.pending.append([])
            # A group's keys are the template's and the hosted tools' (not the envelope's).
            envelope_known, self.extra_known = self.extra_known, {(): set(apart)}
            self.match(em, inner, group, side, (here, ()), decode=True)
            self.extra_known = envelope_known
            self.flush_drops(em, decode=True)
            for name in names:
                em.line(f"if v_{name} is not ABSENT:")
                with em.block():
                    em.line(
                        f"{joined[name]} = v_{name} if {joined[name]} is ABSENT "
                        f"else {joined[name]} + v_{name}"
                    )
            if apart:
                (name,) = names
                offered = em.temp("h")
                kinds = self.table("HOSTED_KINDS", apart)
                em.line(
                    f"{offered} = hosted_in_group(ctx, {group}, {here}, {kinds}, {joined[name]})"
                )
                em.line(f"if {offered}:")
                with em.block():
                    em.line(
                        f"{joined[name]} = {offered} if {joined[name]} is ABSENT "
                        f"else {joined[name]} + {offered}"
                    )
        for name in names:
            em.line(f"v_{name} = {joined[name]}")

    def block_kind(self, template: Any) -> str:
        """What tells a block of this template's kind: its tag, or its only member key."""
        if not isinstance(template, dict):
            raise TemplateError("the block after @parts must be an object template")
        kind = template.get(self.block_tag) if self.block_tag else None
        if kind is None and not self.block_tag and len(template) == 1:
            kind = next(iter(template))
        if not isinstance(kind, str):
            raise TemplateError("the block after @parts needs a literal tag or a single key")
        return kind

    # --- building: a template from bound variables ----------------------------------------

    def build(self, em: Emitter, node: Any, canon_at: dict[str, str], encode: bool, at: str) -> str:
        """Emit statements building ``node``; return an expression for it (may be ABSENT
        when the node is optional and everything in it is absent)."""
        if isinstance(node, Var):
            return f"v_{node.name}"
        if isinstance(node, Call):
            return self._build_call(em, node, canon_at, encode, at)
        if isinstance(node, list):
            items = [self.build(em, sub, canon_at, encode, at) for sub in node]
            if required(node):
                return "[" + ", ".join(items) + "]"
            # A list of optional templates: absent when every item is.
            out = em.temp("l")
            em.line(f"{out} = [x for x in ({', '.join(items)},) if x is not ABSENT] or ABSENT")
            return out
        if isinstance(node, dict):
            # The keys in the template's order (a body's bytes, and so a provider's prompt
            # cache, depend on it): the literal holds those before the first optional one,
            # each later key is set in turn, an optional one only when present.
            fixed: list[str] = []
            later: list[tuple[str, str, bool]] = []
            for key, sub in node.items():
                value = self.build(em, sub, canon_at, encode, at)
                if required(sub) and not later:
                    fixed.append(f"{key!r}: {value}")
                else:
                    later.append((key, value, required(sub)))
            if not later:
                return "{" + ", ".join(fixed) + "}"
            name = em.temp("d")
            # Annotated: the literal members alone would give it too narrow a value type.
            em.line(f"{name}: dict[str, Any] = {{" + ", ".join(fixed) + "}")
            for key, value, always in later:
                if always:
                    em.line(f"{name}[{key!r}] = {value}")
                    continue
                em.line(f"if {value} is not ABSENT:")
                with em.block():
                    em.line(f"{name}[{key!r}] = {value}")
            optional = [(key, value) for key, value, always in later if not always]
            if required(node) or id(node) == self.whole:
                return name
            # An optional object appears only when something in it does.
            guarded = em.temp("o")
            condition = " or ".join(f"{v} is not ABSENT" for _, v in optional)
            em.line(f"{guarded} = {name} if {condition} else ABSENT")
            return guarded
        return _lit(node)

    def _build_call(
        self, em: Emitter, call: Call, canon_at: dict[str, str], encode: bool, at: str
    ) -> str:
        if not encode:
            raise TemplateError(f"@{call.name} may only appear in wire templates")
        out = em.temp("c")
        if call.name == "each":
            codec, var = call.args
            marker = f", marker={self.prefix}MARKER" if codec in self.each_marker else ""
            if var.name in self.apart:  # the hosted tools offered as groups of their own
                marker += f", apart={self.apart[var.name]}"
            em.line(
                f"{out} = ABSENT if v_{var.name} is ABSENT else "
                f"each_encode(ctx, {self.prefix}enc_{codec}, v_{var.name}, "
                f"{canon_at[var.name]}, {codec!r}{marker})"
            )
        elif call.name == "codec":
            codec, var = call.args
            em.line(
                f"{out} = ABSENT if v_{var.name} is ABSENT else "
                f"codec_encode(ctx, {self.prefix}enc_{codec}, v_{var.name}, "
                f"{canon_at[var.name]}, {codec!r})"
            )
        elif call.name == "table":
            table, var = call.args
            # An optional value (`$x?`: the wire may leave it out) is written only when there.
            absent = f"ABSENT if v_{var.name} is ABSENT else " if var.optional else ""
            em.line(
                f"{out} = {absent}table_encode(ctx, {table.upper()}_FROM_CANONICAL, "
                f"{table.upper()}_APPROXIMATE, v_{var.name}, {canon_at[var.name]}, what={table!r})"
            )
        elif call.name == "parts":
            var, *extra = call.args
            block = "".join(f", {self.build(em, e, canon_at, encode, at)}" for e in extra)
            content = f"v_{var.name}, {canon_at[var.name]}{block}"
            em.line(f"{out} = {self.prefix}encode_content(ctx, {content})")
        elif call.name == "messages":
            (var,) = call.args
            em.line(
                f"{out} = ABSENT if v_{var.name} is ABSENT else "
                f"{self.prefix}encode_nested(ctx, v_{var.name}, {canon_at[var.name]})"
            )
        elif call.name == "grouped":
            inner, apart = _grouped_args(call)
            by_kind = {kind: key for key, kind in apart.items()}
            offered = "ABSENT"
            if by_kind:
                (var,) = variables(inner)
                offered = em.temp("h")
                keys = self.table("HOSTED_KEYS", by_kind)
                em.line(
                    f"{offered} = ABSENT if v_{var.name} is ABSENT else "
                    f"hosted_groups(v_{var.name}, {keys})"
                )
                self.apart[var.name] = keys
            declared = self.build(em, inner, canon_at, encode, at)
            self.apart = {}
            em.line(f"{out} = grouped({declared}, {offered})")
        elif call.name == "merge":
            # Members with variables are merged; a member without any is the base used when
            # the first one is absent but a later one is not.
            members = [m for m in call.args if any(True for _ in variables(m))]
            base = [m for m in call.args if not any(True for _ in variables(m))]
            values = ", ".join(self.build(em, m, canon_at, encode, at) for m in members)
            em.line(f"{out} = merge_values({_lit(base[0]) if base else None}, {values})")
            self._merge_refused(em, out, members, canon_at)
        else:
            args = ", ".join(self.build(em, a, canon_at, encode, at) for a in call.args)
            # Reported where its value is: its first argument's, through a transform it wraps
            # (`{"@default": [{"@unix_time": $created}, 0]}` at `/created`).
            first = call.args[0] if call.args else None
            while isinstance(first, Call) and first.args:
                first = first.args[0]
            where = canon_at.get(first.name, at) if isinstance(first, Var) else at
            em.line("try:")
            with em.block():
                em.line(f"{out} = T_{call.name}.encode(ctx, {where}, {args})")
            em.line("except Mismatch:")  # the value has no form in this variant
            with em.block():
                em.line("return MISS")
        return out


def _grouped_args(call: Call) -> tuple[Any, dict[str, str]]:
    """`@grouped`'s group template, and its wire keys of hosted tools by their kinds."""
    if len(call.args) != 2 or not isinstance(call.args[1], dict):
        raise TemplateError("@grouped takes [<group template>, {<wire key>: <hosted kind>}]")
    inner, apart = call.args
    if not all(isinstance(kind, str) for kind in apart.values()):
        raise TemplateError("@grouped names each hosted tool's kind")
    if apart and len(list(variables(inner))) != 1:
        raise TemplateError("@grouped joins hosted tools to the one list its template reads")
    return inner, dict(apart)


def _each_bound(node: Any, name: str) -> bool:
    """Whether variable ``name`` appears in ``node`` only as the list of an `@each`."""
    if isinstance(node, Call):
        if node.name == "each":
            return True
        return all(_each_bound(a, name) for a in node.args)
    if isinstance(node, Var):
        return node.name != name
    if isinstance(node, dict):
        return all(_each_bound(v, name) for v in node.values())
    if isinstance(node, list):
        return all(_each_bound(v, name) for v in node)
    return True


def with_optional(node: Any, optional: set[str], fills: frozenset[str] = frozenset()) -> Any:
    """The template with the variables named in ``optional`` marked as such, and the calls of
    the transforms named in ``fills`` (those that write a value for absent variables)."""
    if isinstance(node, Var):
        optional_here = (node.name in optional or node.loose) and not node.forced
        return Var(node.name, optional_here, node.forced, node.loose)
    if isinstance(node, Call):
        args = tuple(with_optional(a, optional, fills) for a in node.args)
        return Call(node.name, args, not node.builtin and node.name in fills)
    if isinstance(node, dict):
        return {k: with_optional(v, optional, fills) for k, v in node.items()}
    if isinstance(node, list):
        return [with_optional(v, optional, fills) for v in node]
    return node
