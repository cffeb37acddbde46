"""Reading a body whose fields come under another spelling the format accepts (`spellings`).

The generated `spell_*` functions of an adapter (generator/spellings.py) give a body in its
wire schema's spelling; these are the helpers they call, and the steps around the reading:
the respelt body is what is checked and read, every pointer reading reports (a loss, an
error) names the field as the body spelt it, and the round-trip data is taken against the
body as it came (``Context.given``), so the same format gets back the spelling it was sent.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from interlingua.conversion import Context, ConversionError
from interlingua.conversion.adapters.runtime import Adapter, escape

Speller = Callable[[Any, str, dict[int, Any]], Any]


def respelt(node: dict[str, Any], renames: dict[str, str], at: str) -> dict[str, Any]:
    """``node`` with each key of ``renames`` under the name it maps to, in place (the order
    kept). One field under both names is refused: protobuf's JSON parser refuses it too, and
    which value would win is anyone's guess."""
    out: dict[str, Any] = {}
    for key, value in node.items():
        name = renames.get(key, key)
        if name != key and name in node:
            raise ConversionError(
                "duplicate_key",
                f"{at}/{escape(key)}",
                f"`{key}` and `{name}` are two spellings of one field; give it once",
            )
        out[name] = value
    return out


def spell_each(speller: Speller, items: Any, at: str, given: dict[int, Any]) -> Any:
    """A list of objects, each respelt (the same list when none changed). One object where
    the list belongs is respelt as it is: the API reads a single value for a repeated field
    (Gemini's one tool group alone), and the schema check after says where it may be."""
    if type(items) is dict:
        return speller(items, at, given)
    if type(items) is not list:
        return items
    out: list[Any] | None = None
    for i, item in enumerate(items):
        spelt = speller(item, f"{at}/{i}", given)
        if spelt is not item:
            if out is None:
                out = list(items)
            out[i] = spelt
    return items if out is None else out


def as_given(body: Any, pointer: str, spelt: Any) -> str:
    """``pointer`` into the respelt body ``spelt`` as a pointer into ``body``, the body as it
    came: each field named as the body named it. A respelt object holds its original's keys
    one for one, in their order, so a key's place in the one names it in the other."""
    if not pointer:
        return pointer
    node, copy = body, spelt
    out: list[str] = []
    for token in pointer[1:].split("/"):
        key = original = token.replace("~1", "/").replace("~0", "~")
        if type(node) is dict and type(copy) is dict and key in copy and key not in node:
            original = list(node)[list(copy).index(key)]
        out.append(token if original == key else escape(original))
        node, copy = _item(node, original), _item(copy, key)
    return "/" + "/".join(out)


def _item(node: Any, key: str) -> Any:
    """What ``node`` holds at a pointer token (None: nothing)."""
    if type(node) is dict:
        return node.get(key)
    if type(node) is list and key.isdigit() and int(key) < len(node):
        return node[int(key)]
    return None


def read(
    ctx: Context,
    codec: Adapter,
    payload: Any,
    kind: str,
    *,
    decode: Callable[[Context, Adapter, Any], Any],
    check: Callable[[Any], None] | None,
) -> Any:
    """Read ``payload`` with ``decode`` (after ``check``, when given), its fields in the wire
    schema's spelling: pointers name them as the body did; round-trip data gives them back."""
    speller = codec.respell_request if kind == "request" else None
    if speller is None:
        if check is not None:
            check(payload)
        return decode(ctx, codec, payload)
    given: dict[int, Any] = {}
    spelt = speller(payload, "", given)
    if spelt is payload:
        if check is not None:
            check(payload)
        return decode(ctx, codec, payload)
    start = len(ctx.losses)
    ctx.given = given
    try:
        if check is not None:
            check(spelt)
        document = decode(ctx, codec, spelt)
    except ConversionError as error:
        raise ConversionError(
            error.code, as_given(payload, error.pointer, spelt), error.message
        ) from None
    finally:
        ctx.given = None
    ctx.losses[start:] = [
        loss._replace(pointer=as_given(payload, loss.pointer, spelt)) for loss in ctx.losses[start:]
    ]
    return document
