"""MessageView: the read-only, capability-gated policy surface of one content part.

A message holds parts as the provider sent them; a policy engine needs each part on its own,
with what it does (action), which way it flows (direction), what it touches (URI) and the
context the engine may see. `views(message)` yields exactly one view per part, never skipping
one: a part of an unknown type is a view of kind `unknown`. Every rule comes from the generated
tables (`interlingua.generated.view_tables`), which come from the schema's annotations.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Iterable, Iterator, Mapping
from types import MappingProxyType
from typing import Any

from pydantic import BaseModel

from interlingua.documents.globs import glob_match
from interlingua.documents.headers import header_key, is_sensitive, scrub
from interlingua.generated.view_tables import (
    ACCESSORS,
    ACTIONS,
    GATES,
    IS_PRE,
    PART_VIEWS,
    SENSITIVE_KEYS,
    SENSITIVE_NESTED,
    UNKNOWN_PART,
    ContextAccessors,
    PartView,
    Path,
)

_MISSING: Any = object()
_TOOL_KINDS = frozenset({"tool_call", "tool_result"})
_PROMPT_KINDS = frozenset({"prompt_request", "prompt_result"})
_RESOURCE_KINDS = frozenset({"resource", "resource_ref"})
_TEXT_KINDS = frozenset({"text", "thinking"})
_MEDIA_KINDS = frozenset({"image", "video", "audio", "document"})


def freeze(value: Any) -> Any:
    """A deep, read-only copy: mappings become MappingProxyType, lists become tuples."""
    if isinstance(value, Mapping):
        return MappingProxyType({k: freeze(v) for k, v in value.items()})
    if isinstance(value, list | tuple):
        return tuple(freeze(v) for v in value)
    return value


def thaw(value: Any) -> Any:
    """Plain JSON-shaped data again, for serialisation."""
    if isinstance(value, Mapping):
        return {k: thaw(v) for k, v in value.items()}
    if isinstance(value, tuple | list | frozenset):
        return [thaw(v) for v in (sorted(value) if isinstance(value, frozenset) else value)]
    return value


def _get(value: Any, path: Path) -> Any:
    for step in path:
        if not isinstance(value, Mapping) or step not in value:
            return _MISSING
        value = value[step]
    return value


def _utf8_size(text: str) -> int:
    """Bytes of ``text`` in UTF-8. A lone surrogate (possible in a Python string, never in
    JSON read by interlingua) counts 3 bytes, as its replacement character U+FFFD would."""
    return len(text.encode("utf-8", "surrogatepass"))


def _decoded_size(data: str) -> int | None:
    try:
        return len(base64.b64decode(data, validate=True))
    except (binascii.Error, ValueError):
        return None


class MessageView(ContextAccessors):
    """One part of one message, as a policy engine sees it. Read-only by construction."""

    __slots__ = ("_content", "_context_data", "_granted", "_index", "_part", "_role", "_rules")
    _content: Any
    _context_data: Mapping[str, Any]
    _granted: frozenset[str]
    _index: int
    _part: Mapping[str, Any]
    _role: str
    _rules: PartView

    def __init__(
        self,
        part: Mapping[str, Any],
        index: int,
        role: str,
        context: Mapping[str, Any],
        granted: frozenset[str],
    ) -> None:
        rules = PART_VIEWS.get(part.get("type", ""), UNKNOWN_PART)
        for name, value in (
            ("_part", part),
            ("_index", index),
            ("_role", role),
            ("_context_data", context),
            ("_granted", granted),
            ("_rules", rules),
            ("_content", _MISSING),
        ):
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"MessageView is read-only: cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"MessageView is read-only: cannot delete {name!r}")

    def __repr__(self) -> str:
        fields = f"kind={self.kind!r}, role={self.role!r}, name={self.name!r}, index={self.index}"
        return f"MessageView({fields})"

    # --- what the part is -------------------------------------------------------------
    @property
    def kind(self) -> str:
        return self._rules.kind

    @property
    def role(self) -> str:
        return self._role

    @property
    def index(self) -> int:
        """Position of the part in its message's content."""
        return self._index

    @property
    def action(self) -> str:
        return ACTIONS[(self._rules.kind, self._role)]

    @property
    def is_pre(self) -> bool:
        return IS_PRE[(self._rules.kind, self._role)]

    @property
    def is_post(self) -> bool:
        return not IS_PRE[(self._rules.kind, self._role)]

    @property
    def is_tool(self) -> bool:
        return self._rules.kind in _TOOL_KINDS

    @property
    def is_prompt(self) -> bool:
        return self._rules.kind in _PROMPT_KINDS

    @property
    def is_resource(self) -> bool:
        return self._rules.kind in _RESOURCE_KINDS

    @property
    def is_text(self) -> bool:
        return self._rules.kind in _TEXT_KINDS

    @property
    def is_media(self) -> bool:
        return self._rules.kind in _MEDIA_KINDS

    def _field(self, path: Path) -> Any:
        if not path:
            return None
        value = _get(self._part, path)
        return None if value is _MISSING else value

    @property
    def name(self) -> str | None:
        value = self._field(self._rules.name)
        return value if isinstance(value, str) else None

    @property
    def uri(self) -> str | None:
        """The first URI template whose every placeholder the part fills."""
        for template in self._rules.uri:
            pieces = []
            for literal, path in template:
                value = _get(self._part, path) if path else literal
                if value is _MISSING or value == "":
                    break
                pieces.append(str(value))
            else:
                return "".join(pieces)
        return None

    @property
    def args(self) -> Mapping[str, Any] | None:
        value = self._field(self._rules.args)
        return freeze(value) if isinstance(value, Mapping) else None

    @property
    def mime_type(self) -> str | None:
        value = self._field(self._rules.mime_type)
        return value if isinstance(value, str) else None

    @property
    def content(self) -> str | None:
        """Scannable text of the part, computed once (calls serialise their arguments)."""
        if self._content is _MISSING:
            object.__setattr__(self, "_content", self._compute_content())
        content: str | None = self._content
        return content

    def _compute_content(self) -> str | None:
        pieces: list[str] = []
        for rule, path in self._rules.content:
            value = self._part if not path else _get(self._part, path)
            if value is _MISSING:
                continue
            if rule == "json":
                pieces.append(json.dumps(value, ensure_ascii=False))
            elif rule == "texts":
                pieces.extend(
                    p["text"]
                    for p in value
                    if isinstance(p, Mapping) and isinstance(p.get("text"), str)
                )
            elif isinstance(value, str):
                pieces.append(value)
        return "\n".join(pieces) if pieces else None

    @property
    def size_bytes(self) -> int | None:
        for rule, path in self._rules.size:
            value = _get(self._part, path)
            if value is _MISSING:
                continue
            if rule == "field" and isinstance(value, int):
                return value
            if rule == "utf8" and isinstance(value, str):
                return _utf8_size(value)
            if rule == "base64" and isinstance(value, str):
                return _decoded_size(value)
        content = self.content
        return _utf8_size(content) if content is not None else None

    @property
    def properties(self) -> Mapping[str, Any]:
        """Type-specific properties, as the part type's `x-view` declares them."""
        found: dict[str, Any] = {}
        for name, rule, argument, default in self._rules.properties:
            if rule == "const":
                found[name] = argument
            elif rule == "present":
                found[name] = _get(self._part, argument) is not _MISSING
            elif rule == "count":
                value = _get(self._part, argument)
                found[name] = len(value) if isinstance(value, list) else 0
            else:
                value = _get(self._part, argument)
                if value is not _MISSING:
                    found[name] = freeze(value)
                elif default is not None:
                    found[name] = default
        return MappingProxyType(found)

    def get_property(self, name: str, default: Any = None) -> Any:
        return self.properties.get(name, default)

    # --- context (capability-gated) ----------------------------------------------------
    @property
    def capabilities(self) -> frozenset[str]:
        return self._granted

    def _context(self, name: str, as_set: bool = False) -> Any:
        capability, path = ACCESSORS[name]
        if capability is not None and capability not in self._granted:
            return None
        value = _get(self._context_data, path)
        if value is _MISSING:
            return None
        return frozenset(value) if as_set else value

    def _entity_key(self) -> str | None:
        value = self._field(self._rules.entity)
        return value if isinstance(value, str) else None

    @property
    def object(self) -> Mapping[str, Any] | None:
        """This view's own access profile (`security.objects[entity]`; needs `read_objects`)."""
        profiles, key = self.objects, self._entity_key()
        return profiles.get(key) if profiles is not None and key is not None else None

    @property
    def data_policy(self) -> Mapping[str, Any] | None:
        """This view's own data policy (`security.data[entity]`; needs `read_data`)."""
        policies, key = self.data_policies, self._entity_key()
        return policies.get(key) if policies is not None and key is not None else None

    # --- helpers ------------------------------------------------------------------------
    def has_role(self, role: str) -> bool:
        roles = self.roles
        return roles is not None and role in roles

    def has_permission(self, permission: str) -> bool:
        permissions = self.permissions
        return permissions is not None and permission in permissions

    def has_label(self, label: str) -> bool:
        labels = self.labels
        return labels is not None and label in labels

    def get_header(self, name: str) -> str | None:
        """A header value by name, compared as a server reads names (`header_key`: case,
        whitespace, control characters, a trailing `:`); needs `read_headers`."""
        headers = self.headers
        if headers is None:
            return None
        wanted = header_key(name)
        return next(
            (v for k, v in headers.items() if isinstance(k, str) and header_key(k) == wanted), None
        )

    def has_header(self, name: str) -> bool:
        return self.get_header(name) is not None

    def get_arg(self, name: str, default: Any = None) -> Any:
        args = self.args
        return args.get(name, default) if args is not None else default

    def has_arg(self, name: str) -> bool:
        args = self.args
        return args is not None and name in args

    def matches_uri_pattern(self, pattern: str) -> bool:
        """Glob match on the URI: `*` within a segment, `**` across; all else is literal.
        Linear in the URI's length, whatever the pattern (see `interlingua.documents.globs`)."""
        uri = self.uri
        return uri is not None and glob_match(pattern, uri)

    def has_content(self) -> bool:
        return bool(self.content)

    # --- serialisation --------------------------------------------------------------------
    def granted_extensions(self) -> dict[str, Any]:
        """The message's extensions, reduced to what is granted, sensitive keys removed (by
        their normalised names, see `interlingua.documents.headers`), also from nested open maps."""
        data = thaw(self._context_data)
        for path, capability in GATES:
            if capability not in self._granted:
                _remove(data, path)
                _prune(data, path[:-1])
        for path, keys in SENSITIVE_KEYS.items():
            mapping = _get(data, path)
            if isinstance(mapping, dict):
                for key in [k for k in mapping if is_sensitive(k, keys)]:
                    del mapping[key]
        for path, keys in SENSITIVE_NESTED.items():
            scrub(_get(data, path), keys)
        result: dict[str, Any] = data
        return result

    def to_dict(
        self, *, include_content: bool = True, include_context: bool = True
    ) -> dict[str, Any]:
        """The view as plain JSON data (the shape of the schema's `View`)."""
        record: dict[str, Any] = {
            "kind": self.kind,
            "role": self.role,
            "action": self.action,
            "is_pre": self.is_pre,
            "is_post": self.is_post,
            "index": self.index,
            "properties": thaw(self.properties),
        }
        optional = {
            "name": self.name,
            "uri": self.uri,
            "mime_type": self.mime_type,
            "size_bytes": self.size_bytes,
        }
        record.update({k: v for k, v in optional.items() if v is not None})
        args = self.args
        if args is not None:
            record["args"] = thaw(args)
        if include_content and self.content is not None:
            record["content"] = self.content
        if include_context:
            record["extensions"] = self.granted_extensions()
        return record

    def to_opa_input(self) -> dict[str, Any]:
        """`{"input": view}`, the document an OPA policy evaluates."""
        return {"input": self.to_dict()}


def _prune(data: Any, path: Path) -> None:
    """Drop containers that gating left empty, so not even their presence leaks."""
    while path and _get(data, path) == {}:
        _remove(data, path)
        path = path[:-1]


def _remove(data: Any, path: Path) -> None:
    parent = _get(data, path[:-1])
    if isinstance(parent, dict):
        parent.pop(path[-1], None)


def views(
    message: BaseModel | Mapping[str, Any], capabilities: Iterable[str] = ()
) -> Iterator[MessageView]:
    """One view per content part of ``message``, in order, none skipped."""
    data = (
        message.model_dump(mode="json", exclude_none=True)
        if isinstance(message, BaseModel)
        else message
    )
    if not _viewable(data):
        _refuse(data)
    granted = frozenset(capabilities)
    context = freeze(data.get("extensions", {}))
    role = data["role"]
    for index, part in enumerate(data.get("content", [])):
        yield MessageView(part, index, role, context, granted)


def _viewable(data: Any) -> bool:
    """The shape views read: a role, a list of part objects, an extensions object if any.

    Only this much is checked on the way in (views are on the gateway's hot path); a message
    that fails it is validated in full so the caller gets the coded findings.
    """
    return (
        isinstance(data, Mapping)
        and isinstance(data.get("role"), str)
        and isinstance(data.get("content", []), list)
        and all(isinstance(part, Mapping) for part in data.get("content", []))
        and isinstance(data.get("extensions", {}), Mapping)
    )


class NotViewable(ValueError):
    """A message views cannot read: ``code``, ``path`` and ``message`` of its first error,
    ``findings`` all of them (the generated validator's, as `validate` reports them)."""

    def __init__(self, findings: list[tuple[str, str, str]]) -> None:
        self.findings = findings
        self.code, self.path, self.message = findings[0]
        super().__init__(f"{self.code} at {self.path or '/'}: {self.message}")


def _refuse(data: Any) -> None:
    # The generated validator, not `validation`: the models import this module's callers.
    from interlingua.generated.codes import SEVERITY  # noqa: PLC0415 - views load lean
    from interlingua.generated.validators import check  # noqa: PLC0415

    findings = [f for f in check("Message", data) if SEVERITY[f[0]] == "error"]
    raise NotViewable(findings or [("wrong_type", "", "not a message views can read")])


__all__ = ["MessageView", "NotViewable", "PartView", "freeze", "thaw", "views"]
