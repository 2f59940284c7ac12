"""Package namespaces that import a name's module on first use (PEP 562).

A package ``__init__`` lists where each of its names lives; importing the package then costs
nothing, and ``import agentic_rag._parallel.contracts`` does not load the whole workflow. The
CLI's start-up time rests on this.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["lazy_exports"]


def lazy_exports(
    package: str, exports: Mapping[str, tuple[str, ...]]
) -> tuple[Callable[[str], Any], Callable[[], list[str]], list[str]]:
    """Build a package's ``__getattr__``, ``__dir__`` and ``__all__`` from a table of its names.

    Args:
        package: The package's ``__name__``.
        exports: Module name -> the names it defines that the package re-exports.

    Returns:
        ``(__getattr__, __dir__, __all__)`` to assign in the package's namespace. A name is
        imported from its module when first asked for, then cached in the package namespace;
        ``__all__`` is every name of the table, sorted.
    """
    home = {name: module for module, names in exports.items() for name in names}

    def __getattr__(name: str) -> Any:
        module = home.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        setattr(sys.modules[package], name, value)
        return value

    def __dir__() -> list[str]:
        return sorted(set(vars(sys.modules[package])) | set(home))

    return __getattr__, __dir__, sorted(home)
