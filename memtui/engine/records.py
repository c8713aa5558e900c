"""Making many frozen records fast.

A frozen dataclass's __init__ sets each field with `object.__setattr__(self, "name",
value)`, a lookup by name per field. The slots' own setters skip that lookup, which
makes a record about twice as fast to build: open makes 28,000 events, 17,000 texts
and 10,000 candidates on a large store.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


def maker(cls: type[T]) -> Callable[..., T]:
    """A function that takes every field of the frozen, slotted dataclass `cls`, in
    order and positionally, and returns the record `cls(...)` makes of them (`cls`
    has no __post_init__; defaults are not filled in: pass every field)."""
    names = [f.name for f in dataclasses.fields(cls)]  # type: ignore[arg-type]
    if "__slots__" not in vars(cls) or hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__} is not a slotted dataclass without __post_init__")
    scope: dict[str, Any] = {"_new": object.__new__, "_cls": cls}
    scope.update({f"_set_{name}": vars(cls)[name].__set__ for name in names})
    body = "".join(f"    _set_{name}(_o, {name})\n" for name in names)
    source = f"def make({', '.join(names)}):\n    _o = _new(_cls)\n{body}    return _o\n"
    exec(source, scope)  # as dataclasses builds __init__: one plain function, no loop
    make: Callable[..., T] = scope["make"]
    make.__qualname__ = make.__name__ = f"make_{cls.__name__}"
    return make
