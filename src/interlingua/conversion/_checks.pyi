# The C extension built beside the mypyc modules (_checks.c); absent from the pure-Python
# wheel, where adapters/fused_checks.py and reading.py use their Python twins.
from typing import Any

def clean(text: str, /) -> bool: ...
def word(text: str, marks: str, most: int, /) -> bool: ...
def plain(value: Any, depth: int, limit: int, /) -> bool: ...
def undoubted(value: Any, data: bytes | str, limit: int, /) -> bool: ...
def add_loss(
    losses: list[Any],
    kind: type[tuple[Any, ...]],
    pointer: str,
    code: str,
    reason: str,
    part_type: str | None,
    /,
) -> None: ...
