"""Regular expressions compiled on first use.

A command-line search is a new process: every pattern a module compiles at import is paid
for on every call, whether that call reads with it or not. Compiling is most of an import's
cost here (the question readers and the instruction rules hold a few hundred patterns, and
a search uses about a third of them), so modules that hold many patterns declare them with
:func:`lazy_regex`, which compiles a pattern the first time one of its methods is asked for (through the program
cache of :mod:`agentic_rag._pycache`, which keeps each pattern's parsed program between
processes).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

from agentic_rag._pycache import compile_pattern

__all__ = ["LazyRegex", "lazy_regex"]

# What a compiled pattern offers and the code reads; each is bound once, on first use, into
# the instance's namespace, so later look-ups cost what a compiled pattern's would.
_FORWARDED = ("search", "match", "fullmatch", "finditer", "findall", "sub", "subn", "split",
              "pattern", "flags", "groups", "groupindex")


class LazyRegex:
    """A pattern compiled the first time it is used; then it behaves as the compiled one.

    Offers the methods and attributes of :class:`re.Pattern` that reading code uses
    (``search``, ``match``, ``fullmatch``, ``finditer``, ``findall``, ``sub``, ``subn``,
    ``split``, ``pattern``, ``flags``, ``groups``, ``groupindex``). It is not a
    :class:`re.Pattern`: pass ``compiled`` where a real one is required.
    """

    # Annotations only: the values are bound on first use (see ``__getattr__``).
    search: Callable[..., re.Match[str] | None]
    match: Callable[..., re.Match[str] | None]
    fullmatch: Callable[..., re.Match[str] | None]
    finditer: Callable[..., Iterator[re.Match[str]]]
    findall: Callable[..., list[Any]]
    sub: Callable[..., str]
    subn: Callable[..., tuple[str, int]]
    split: Callable[..., list[str | Any]]
    pattern: str
    flags: int
    groups: int
    groupindex: Any

    def __init__(self, source: str, flags: int | re.RegexFlag = 0) -> None:
        self.__dict__["_source"] = source
        self.__dict__["_flags"] = int(flags)

    @property
    def compiled(self) -> re.Pattern[str]:
        """The compiled pattern (compiling it now if it was not yet)."""
        compiled = self.__dict__.get("_compiled")
        if compiled is None:
            compiled = compile_pattern(self.__dict__["_source"], self.__dict__["_flags"])
            self.__dict__["_compiled"] = compiled
            for name in _FORWARDED:
                self.__dict__[name] = getattr(compiled, name)
        return compiled

    def __getattr__(self, name: str) -> Any:
        # Called only for names not yet in the instance's namespace: the forwarded ones
        # before the first compile, and anything a Pattern does not offer here.
        if name not in _FORWARDED:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        return getattr(self.compiled, name)

    def __repr__(self) -> str:
        return f"lazy_regex({self.__dict__['_source']!r}, {self.__dict__['_flags']})"


def lazy_regex(source: str, flags: int | re.RegexFlag = 0) -> LazyRegex:
    """``re.compile(source, flags)``, deferred until the pattern is first used."""
    return LazyRegex(source, flags)
