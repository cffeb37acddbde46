"""interlingua: one canonical format for LLM conversations, and the toolkit around it.

>>> import interlingua
>>> interlingua.validate({"role": "user", "content": [{"type": "text", "text": "hi"}]})
[]
"""

from interlingua.generated import SCHEMA_ID, SCHEMA_VERSION
from interlingua.generated.models import Conversation, Message, Response, ValidationError
from interlingua.reading import InputError, read_json
from interlingua.validation import DocumentError, detect_document, dump, load, validate
from interlingua.view import MessageView, views

__all__ = [
    "SCHEMA_ID",
    "SCHEMA_VERSION",
    "Conversation",
    "DocumentError",
    "InputError",
    "Message",
    "MessageView",
    "Response",
    "ValidationError",
    "detect_document",
    "dump",
    "load",
    "read_json",
    "validate",
    "views",
]
