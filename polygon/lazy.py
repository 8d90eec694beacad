"""Package faces that import on first use.

Each package's ``__init__`` names its public face (what code outside the package may import)
and maps every name to the submodule that defines it. Importing the package stays cheap —
``polygon --help`` must not pay for pydantic, numpy or LMDB — and a name's module loads the
first time the name is read (PEP 562). Type checkers see the same names through the
``TYPE_CHECKING`` imports beside each map.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping


def face_getattr(package: str, face: Mapping[str, str]) -> Callable[[str], object]:
    """A module ``__getattr__`` that loads ``name`` from ``face[name]`` and caches it."""

    def __getattr__(name: str) -> object:
        module = face.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        loaded = importlib.import_module(module)
        # A subpackage in the face (``polygon.events.families``) is the module itself.
        value = loaded if module == f"{package}.{name}" else getattr(loaded, name)
        setattr(sys.modules[package], name, value)
        return value

    return __getattr__
