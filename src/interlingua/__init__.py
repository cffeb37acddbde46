"""interlingua: one canonical format for LLM conversations, and the toolkit around it.

>>> import interlingua
>>> interlingua.validate({"role": "user", "content": [{"type": "text", "text": "hi"}]})
[]
>>> body = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
>>> interlingua.detector(body).format
'openai-chat'
>>> interlingua.converter(body, source="openai-chat", target="anthropic").output["max_tokens"]
4096

``interlingua.converter`` is the function; the module it lives in stays importable as
``from interlingua.converter import ...``.
"""

from interlingua.conversion import ConversionError, ConversionResult, Loss, LossyConversionError
from interlingua.converter import convert, from_canonical, to_canonical
from interlingua.detector import Detection, detect
from interlingua.exchanges import ToolExchange, tool_exchanges
from interlingua.generated import SCHEMA_ID, SCHEMA_VERSION
from interlingua.generated.models import Conversation, Message, Response, ValidationError
from interlingua.reading import InputError, read_json
from interlingua.validation import DocumentError, detect_document, dump, load, validate
from interlingua.view import MessageView, views

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
