"""Base classes of every generated model (the generator names them; see generator/render.py)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, SerializerFunctionWrapHandler, model_serializer


class CanonicalModel(BaseModel):
    """Frozen, and serialised under the names the schema uses.

    A field whose schema name collides with a Python or pydantic name (`schema`) gets a Python
    name with an alias; dumping by alias keeps documents in their schema form.
    """

    model_config = ConfigDict(frozen=True, serialize_by_alias=True)


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
