"""interlingua: one canonical format for LLM conversations, and the toolkit around it.

>>> import interlingua
>>> interlingua.validate({"role": "user", "content": [{"type": "text", "text": "hi"}]})
[]
>>> body = {
...     "model": "m",
...     "messages": [
...         {"role": "developer", "content": "be brief"},
...         {"role": "user", "content": "hi"},
...     ],
...     "max_completion_tokens": 50,
... }
>>> interlingua.detect(body).format  # max_completion_tokens is particular to openai-chat
'openai-chat'
>>> interlingua.convert(body, source="openai-chat", target="anthropic").output["system"]
'be brief'

Every name below is imported from its module on first use, so ``import interlingua`` loads no
model, validator or adapter until one is asked for. A conversion returns its losses;
it also logs each as a DEBUG line on the ``interlingua`` logger, which carries a
:class:`logging.NullHandler`: an application sees them only when it configures logging.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from interlingua._lazy import lazy_exports

#: The package version (pyproject.toml reads it from here).
__version__ = "0.1.0"

logging.getLogger(__name__).addHandler(logging.NullHandler())

if TYPE_CHECKING:
    from interlingua.conversion import (
        ConversionError,
        ConversionResult,
        Loss,
        LossyConversionError,
    )
    from interlingua.conversion.converter import convert, from_canonical, to_canonical
    from interlingua.conversion.detection import Detection
    from interlingua.conversion.detector import detect
    from interlingua.conversion.reading import InputError, read_json
    from interlingua.documents.exchanges import ToolExchange, tool_exchanges
    from interlingua.documents.validation import (
        DocumentError,
        detect_document,
        dump,
        load,
        validate,
    )
    from interlingua.documents.view import MessageView, views
    from interlingua.generated import SCHEMA_ID, SCHEMA_VERSION
    from interlingua.generated.models import Conversation, Message, Response, ValidationError

_WHERE = {
    "ConversionError": "interlingua.conversion",
    "ConversionResult": "interlingua.conversion",
    "Loss": "interlingua.conversion",
    "LossyConversionError": "interlingua.conversion",
    "convert": "interlingua.conversion.converter",
    "from_canonical": "interlingua.conversion.converter",
    "to_canonical": "interlingua.conversion.converter",
    "Detection": "interlingua.conversion.detection",
    "detect": "interlingua.conversion.detector",
    "ToolExchange": "interlingua.documents.exchanges",
    "tool_exchanges": "interlingua.documents.exchanges",
    "SCHEMA_ID": "interlingua.generated",
    "SCHEMA_VERSION": "interlingua.generated",
    "Conversation": "interlingua.generated.models",
    "Message": "interlingua.generated.models",
    "Response": "interlingua.generated.models",
    "ValidationError": "interlingua.generated.models",
    "InputError": "interlingua.conversion.reading",
    "read_json": "interlingua.conversion.reading",
    "DocumentError": "interlingua.documents.validation",
    "detect_document": "interlingua.documents.validation",
    "dump": "interlingua.documents.validation",
    "load": "interlingua.documents.validation",
    "validate": "interlingua.documents.validation",
    "MessageView": "interlingua.documents.view",
    "views": "interlingua.documents.view",
}

__getattr__, __dir__ = lazy_exports(__name__, _WHERE)

__all__ = [
    "SCHEMA_ID",
    "SCHEMA_VERSION",
    "Conversation",
    "ConversionError",
    "ConversionResult",
    "Detection",
    "DocumentError",
    "InputError",
    "Loss",
    "LossyConversionError",
    "Message",
    "MessageView",
    "Response",
    "ToolExchange",
    "ValidationError",
    "__version__",
    "convert",
    "detect",
    "detect_document",
    "dump",
    "from_canonical",
    "load",
    "read_json",
    "to_canonical",
    "tool_exchanges",
    "validate",
    "views",
]
