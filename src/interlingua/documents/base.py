"""Base classes of every generated model (the generator names them; see generator/render.py)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, SerializerFunctionWrapHandler, model_serializer

if TYPE_CHECKING:
    from interlingua.documents.view import MessageView


class CanonicalModel(BaseModel):
    """Frozen, and serialised under the names the schema uses.

    A field whose schema name collides with a Python or pydantic name (`schema`) gets a Python
    name with an alias; dumping by alias keeps documents in their schema form.
    """

    model_config = ConfigDict(frozen=True, serialize_by_alias=True)

    @classmethod
    def unequal_fields(cls) -> frozenset[str]:
        """Fields marked `x-equality: ignore` in the schema (provider_raw): round-trip data.

        Read from the field metadata on first use (fields are complete only once the module has
        resolved its forward references), then kept on the class.
        """
        cached = cls.__dict__.get("_unequal_fields_cache")
        if cached is None:
            cached = frozenset(
                name
                for name, field in cls.model_fields.items()
                if isinstance(field.json_schema_extra, dict)
                and field.json_schema_extra.get("x-equality") == "ignore"
            )
            type.__setattr__(cls, "_unequal_fields_cache", cached)
        return cached

    def __eq__(self, other: object) -> bool:
        skip = self.unequal_fields()
        if not skip or type(other) is not type(self):
            return super().__eq__(other)
        assert isinstance(other, CanonicalModel)
        mine = {k: v for k, v in self.__dict__.items() if k not in skip}
        theirs = {k: v for k, v in other.__dict__.items() if k not in skip}
        return mine == theirs and self.__pydantic_extra__ == other.__pydantic_extra__

    __hash__ = BaseModel.__hash__


class VerbatimModel(CanonicalModel):
    """Serialises every field it was given, explicit nulls included.

    ``exclude_none`` is how canonical documents omit absent optional fields, but a part this
    version does not understand must be kept byte for byte: a ``null`` it carried is data.
    """

    @model_serializer(mode="wrap")
    def _keep_everything(self, handler: SerializerFunctionWrapHandler) -> Any:
        data = handler(self)
        if isinstance(data, dict) and self.__pydantic_extra__:
            for key, value in self.__pydantic_extra__.items():
                data.setdefault(key, value)
        return data


class MessageModel(CanonicalModel):
    """Base of the generated Message: adds the policy surface."""

    def iter_views(self, capabilities: Iterable[str] = ()) -> Iterator[MessageView]:
        """One read-only view per content part, none skipped (see `interlingua.views`)."""
        from interlingua.documents.view import views  # noqa: PLC0415 - views import the generated models

        return views(self, capabilities)
