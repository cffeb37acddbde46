"""Hypothesis strategies for the gateway tests, drawn from the seed 002 grammar."""

from hypothesis import strategies as st

from interlingua.gateway.tool_id import make_parts
from interlingua.generated.models import ToolIdParts

namespaces = st.from_regex(r"[a-z][a-z0-9_-]{0,63}", fullmatch=True)
names = st.from_regex(r"[A-Za-z_][A-Za-z0-9_.-]{0,127}", fullmatch=True)
versions = st.from_regex(r"[A-Za-z0-9._-]{1,32}", fullmatch=True)
hashes = st.from_regex(r"[0-9a-f]{8}", fullmatch=True)
segments = st.from_regex(r"[a-z0-9][a-z0-9_-]{0,63}", fullmatch=True)


@st.composite
def tool_id_parts(draw: st.DrawFn) -> ToolIdParts:
    """Parts of a grammatical tool id: a version, a hash8, or both."""
    version = draw(st.none() | versions)
    shape_hash = draw(hashes) if version is None else draw(st.none() | hashes)
    return make_parts(draw(namespaces), draw(names), version, shape_hash)
