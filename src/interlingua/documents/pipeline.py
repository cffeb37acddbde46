"""The processing pipeline: run a step on a copy of a message and enforce the mutability tiers.

A step receives a draft (a deep, mutable copy of the message as JSON data) and changes it in
place or returns a replacement. `apply` then checks the result against the tiers the schema
declares (`x-mutability`, generated into `TIERS`):

- immutable: unchanged (identity, subject, completion data …);
- monotonic: security labels only grow, `before ⊆ after`;
- guarded: HTTP headers change only with the write capability, every change audited;
- mutable: free (content, custom extensions).

A violation raises `TierViolation` with coded findings; the original message is never touched.
Removing labels is not a step: it is `declassify`, explicit and audited on its own.
"""

from __future__ import annotations

import copy
import logging
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from interlingua.documents.validation import DocumentError, is_error, validate
from interlingua.documents.view import views
from interlingua.generated.models import Message, ValidationError
from interlingua.generated.view_tables import TIERS, Path

logger = logging.getLogger("interlingua.documents.pipeline")

Draft = dict[str, Any]
Step = Callable[[Draft], Draft | None]
_ABSENT: Any = object()


@dataclass(frozen=True)
class AuditEntry:
    """One audited change: what changed, where, from what to what, and why it was allowed."""

    action: str  # "header_set", "header_removed", "declassify", "label_stamped"
    path: str
    before: Any
    after: Any
    detail: str = ""


@dataclass(frozen=True)
class ApplyResult:
    message: Message
    audit: tuple[AuditEntry, ...] = field(default_factory=tuple)


class TierViolation(Exception):
    """A step broke a mutability tier; ``errors`` are coded findings with JSON pointers."""

    def __init__(self, errors: list[ValidationError]) -> None:
        super().__init__("; ".join(f"{e.code} at {e.path}: {e.message}" for e in errors))
        self.errors = errors


def _pointer(path: Path) -> str:
    return "".join("/" + p.replace("~", "~0").replace("/", "~1") for p in path)


def _at(data: Any, path: Path) -> Any:
    for step in path:
        if not isinstance(data, Mapping) or step not in data:
            return _ABSENT
        data = data[step]
    return data


def _finding(code: str, path: Path, message: str) -> ValidationError:
    return ValidationError.model_validate(
        {"code": code, "path": _pointer(path), "message": message}
    )


def _check_tiers(
    before: Draft, after: Draft, capabilities: frozenset[str]
) -> tuple[list[ValidationError], list[AuditEntry]]:
    errors: list[ValidationError] = []
    audit: list[AuditEntry] = []
    for path, tier, write_capability in TIERS:
        old, new = _at(before, path), _at(after, path)
        if old == new:
            continue
        if tier == "immutable":
            errors.append(_finding("immutable_changed", path, f"{'.'.join(path)} is immutable"))
        elif tier == "monotonic":
            removed = set(old if isinstance(old, list) else []) - set(
                new if isinstance(new, list) else []
            )
            if removed:
                errors.append(
                    _finding("label_removed", path, f"removed {sorted(removed)}; use declassify()")
                )
        elif tier == "guarded":
            if write_capability is not None and write_capability not in capabilities:
                errors.append(
                    _finding(
                        "write_not_permitted",
                        path,
                        f"changing {'.'.join(path)} needs {write_capability}",
                    )
                )
            else:
                audit.extend(_map_changes(path, old, new))
    return errors, audit


def _map_changes(path: Path, old: Any, new: Any) -> list[AuditEntry]:
    """One audit entry per key that was set, changed or removed in a guarded map."""
    old_map = old if isinstance(old, Mapping) else {}
    new_map = new if isinstance(new, Mapping) else {}
    entries = []
    for key in sorted(set(old_map) | set(new_map)):
        before, after = old_map.get(key), new_map.get(key)
        if before != after:
            action = "header_removed" if key not in new_map else "header_set"
            entries.append(AuditEntry(action, _pointer((*path, key)), before, after))
    return entries


def apply(message: Message, step: Step, capabilities: Iterable[str] = ()) -> ApplyResult:
    """Run ``step`` on a copy of ``message``; return the new message or raise TierViolation."""
    before = message.model_dump(mode="json", exclude_none=True)
    draft = copy.deepcopy(before)
    returned = step(draft)
    after = draft if returned is None else returned
    findings = [f for f in validate(after, "Message") if is_error(f)]
    if findings:
        raise DocumentError(findings)
    errors, audit = _check_tiers(before, after, frozenset(capabilities))
    if errors:
        raise TierViolation(errors)
    for entry in audit:
        logger.info("audit %s %s: %r -> %r", entry.action, entry.path, entry.before, entry.after)
    return ApplyResult(Message.model_validate(after), tuple(audit))


def _labels_path() -> Path:
    return next(path for path, tier, _ in TIERS if tier == "monotonic")


def declassify(message: Message, labels: Iterable[str], *, actor: str, reason: str) -> ApplyResult:
    """Remove security labels: the one privileged operation that may, always audited."""
    path = _labels_path()
    removing = set(labels)
    data = message.model_dump(mode="json", exclude_none=True)
    current = _at(data, path)
    if current is _ABSENT:
        current = []
    kept = [label for label in current if label not in removing]
    removed = [label for label in current if label in removing]
    parent = _at(data, path[:-1])
    if isinstance(parent, dict):
        parent[path[-1]] = kept
    entry = AuditEntry(
        "declassify", _pointer(path), current, kept, f"by {actor}: {reason}; removed {removed}"
    )
    logger.warning("declassify %s by %s (%s): removed %s", _pointer(path), actor, reason, removed)
    return ApplyResult(Message.model_validate(data), (entry,))


def apply_data_policies(
    message: Message, capabilities: Iterable[str] = ("read_data",)
) -> ApplyResult:
    """Stamp each post view's data policy labels (`apply_labels`) onto the message's labels."""
    stamped: list[str] = []
    for view in views(message, capabilities):
        policy = view.data_policy
        if view.is_post and policy is not None:
            stamped += [label for label in policy.get("apply_labels", ()) if label not in stamped]
    if not stamped:
        return ApplyResult(message)
    path = _labels_path()

    def stamp(draft: Draft) -> None:
        node = draft
        for step in path[:-1]:
            node = node.setdefault(step, {})
        labels = node.setdefault(path[-1], [])
        labels.extend(label for label in stamped if label not in labels)

    result = apply(message, stamp, capabilities)
    entry = AuditEntry(
        "label_stamped", _pointer(path), None, stamped, "data policies of post views"
    )
    return ApplyResult(result.message, (*result.audit, entry))
