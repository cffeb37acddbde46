"""Named transforms: the logic a mapping file cannot say as a table, referenced by name.

A mapping file writes ``{"@json_string": "$arguments"}`` where a value changes shape between
the canonical form and a wire format. The generator checks that every name it meets is in
:data:`TRANSFORMS` and emits a call to its ``encode`` (canonical values → wire value) and
``decode`` (wire value → canonical values) in the adapter it writes. Every transform is small,
pure, and unit-tested in ``tests/transforms/``.
"""

from __future__ import annotations

from collections.abc import Mapping

from interlingua.conversion.transforms.accepted import ACCEPTED_TRANSFORMS
from interlingua.conversion.transforms.base import ABSENT, Mismatch, Transform
from interlingua.conversion.transforms.continuations import CONTINUATION_TRANSFORMS
from interlingua.conversion.transforms.free_form import FREE_FORM_TRANSFORMS
from interlingua.conversion.transforms.ids import TOOL_ID, TOOL_NAME
from interlingua.conversion.transforms.media import MEDIA_TRANSFORMS
from interlingua.conversion.transforms.names import NAME_TRANSFORMS
from interlingua.conversion.transforms.resources import RESOURCE_TRANSFORMS
from interlingua.conversion.transforms.results import RESULT_TRANSFORMS
from interlingua.conversion.transforms.schemas import SCHEMA_TRANSFORMS
from interlingua.conversion.transforms.shapes import SHAPE_TRANSFORMS
from interlingua.conversion.transforms.strict import STRICT_BY_SCHEMA
from interlingua.conversion.transforms.times import TIME_TRANSFORMS
from interlingua.conversion.transforms.values import VALUE_TRANSFORMS

TRANSFORMS: Mapping[str, Transform] = {
    **VALUE_TRANSFORMS,
    **MEDIA_TRANSFORMS,
    **NAME_TRANSFORMS,
    **RESULT_TRANSFORMS,
    **RESOURCE_TRANSFORMS,
    **SCHEMA_TRANSFORMS,
    **SHAPE_TRANSFORMS,
    **ACCEPTED_TRANSFORMS,
    **CONTINUATION_TRANSFORMS,
    **FREE_FORM_TRANSFORMS,
    **TIME_TRANSFORMS,
    TOOL_ID.name: TOOL_ID,
    TOOL_NAME.name: TOOL_NAME,
    STRICT_BY_SCHEMA.name: STRICT_BY_SCHEMA,
}

__all__ = ["ABSENT", "TRANSFORMS", "Mismatch", "Transform"]
