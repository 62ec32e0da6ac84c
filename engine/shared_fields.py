"""`SharedFields`: a pydantic model whose instances share, per class, one set of "fields set": all its fields.

Pydantic gives each instance a set of the fields it was given, used only to dump "unset" fields apart (never
done here). A set per instance is a third of a small model's objects for the garbage collector to walk (its
instance, its dict, its set), made anew at every parse (issue 44); one shared set naming every field stays
right: pydantic's assignment only adds a field's name to it, already there, and a copy copies it.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel


class SharedFields(BaseModel):
    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        _EVERY_FIELD[cls] = set(cls.model_fields)  # once per class, when pydantic has built it

    def model_post_init(self, context: Any, /) -> None:
        object.__setattr__(self, "__pydantic_fields_set__", _EVERY_FIELD[type(self)])


_EVERY_FIELD: dict[type[BaseModel], set[str]] = {}
