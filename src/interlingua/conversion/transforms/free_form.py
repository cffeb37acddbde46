"""Free-form (custom) tools: the spellings a format gives what refers to one.

OpenAI's formats choose a free-form tool (`{"type": "custom", ...}`), and Responses answers a
free-form call (`custom_tool_call_output`), otherwise than a function. The canonical choice
and result say only a name and an id, so the writer notes each free-form tool and call it
writes (`free_form_tool`, `free_form_call`), and the variant of the choice or the result made
for them (`free_form_choice`, `free_form_answer`) takes only those: for anything else it is a
mismatch, and the function's variant after it is written. Reading, each is the tool name or
id it wraps.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from interlingua.conversion import Context
from interlingua.conversion.transforms.base import Mismatch, Transform
from interlingua.conversion.transforms.ids import TOOL_ID, TOOL_NAME


def _tool(ctx: Context, at: str, name: Any) -> Any:
    ctx.free_form_tools.add(name)
    return TOOL_NAME.encode(ctx, at, name)


def _choice(ctx: Context, at: str, name: Any) -> Any:
    if name not in ctx.free_form_tools:
        raise Mismatch(name)
    return TOOL_NAME.encode(ctx, at, name)


def _call(ctx: Context, at: str, call_id: Any) -> Any:
    ctx.free_form_calls.add(call_id)
    return TOOL_ID.encode(ctx, at, call_id)


def _answer(ctx: Context, at: str, call_id: Any) -> Any:
    if call_id not in ctx.free_form_calls:
        raise Mismatch(call_id)
    return TOOL_ID.encode(ctx, at, call_id)


FREE_FORM_TOOL = Transform(
    "free_form_tool",
    1,
    _tool,
    TOOL_NAME.decode,
    "A free-form tool's name (as `tool_name`), noted for the choice of it.",
)
FREE_FORM_CHOICE = Transform(
    "free_form_choice",
    1,
    _choice,
    TOOL_NAME.decode,
    "The name of a chosen tool (as `tool_name`), of this variant only when the tool is free-form.",
)
FREE_FORM_CALL = Transform(
    "free_form_call",
    1,
    _call,
    TOOL_ID.decode,
    "A free-form call's id (as `tool_id`), noted for the result answering it.",
)
FREE_FORM_ANSWER = Transform(
    "free_form_answer",
    1,
    _answer,
    TOOL_ID.decode,
    "The id of the call a result answers (as `tool_id`), of this variant only when the call "
    "is free-form.",
)

FREE_FORM_TRANSFORMS: Mapping[str, Transform] = {
    t.name: t for t in (FREE_FORM_TOOL, FREE_FORM_CHOICE, FREE_FORM_CALL, FREE_FORM_ANSWER)
}
