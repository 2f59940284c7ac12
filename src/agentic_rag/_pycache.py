"""What the package derives from its own files, kept between processes beside its byte code.

A command-line search is a new process, and a process forgets what it derived: each search
parsed and compiled again the hundred-odd regular expressions its readers use, and rebuilt the
instruction scorer's word tables and weights from their text files (together about a quarter of
a cold search). What is derived depends only on the package's files and the Python version, so,
as Python keeps a module's byte code in ``__pycache__``, this module keeps it there:

* :class:`ProgramCache`: a regular expression's program. Compiling a pattern has two steps:
  parsing it and generating its program (a list of integers), then handing that program to the
  regular-expression engine, which checks it and builds the pattern object. The first step is
  the slow one; a pattern found in the cache is built from its program in microseconds.
* :func:`derived`: a table built from source files (a dict of sets, of floats...), stored with
  the size and modification time of each source, and built again when one of them changed.

Both follow the rules of Python's own byte-code cache: the files live in the ``__pycache__``
folder beside this file (or under ``sys.pycache_prefix``); they are never written when byte code
is not (``-B``, ``PYTHONDONTWRITEBYTECODE``); a folder that cannot be written is left alone; a
file is written to a temporary name and renamed into place. A file made for another Python
version, or one that cannot be read, is ignored, and any program the engine refuses is compiled
the ordinary way: the cache can make a process faster, never its results different.
"""

from __future__ import annotations

import atexit
import importlib.util
import marshal
import os
import re
import sys
import threading
from array import array
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

try:  # Python 3.11 and later
    from re import _compiler as _sre_compiler
    from re import _parser as _sre_parser
except ImportError:  # Python 3.10
    import sre_compile as _sre_compiler  # type: ignore[no-redef]
    import sre_parse as _sre_parser  # type: ignore[no-redef]

import _sre  # the engine behind re: builds a pattern object from a checked program

__all__ = ["ProgramCache", "compile_pattern", "derived"]

# Bumped when what an entry holds changes.
_FORMAT = 2
# A cache holding more patterns than the package has is being fed patterns made at run time;
# it is then written with only what the writing process used.
_MOST_ENTRIES = 4000

T = TypeVar("T")
_Key = tuple[str, int]
# final flags, program, groups, group index, index group: the arguments of the engine's compile.
# The program's codes are kept packed as bytes of machine words: unmarshalling a tuple of a
# hundred thousand small ints cost a cold search about 20 ms; bytes are copied in one go and
# unpacked only for the patterns the process compiles.
_Program = tuple[int, bytes, int, dict[str, int], tuple[Any, ...]]
_CODE_TYPE = "I" if array("I").itemsize == getattr(_sre, "CODESIZE", 4) else "L"


def _cache_folder() -> Path | None:
    """The ``__pycache__`` folder Python keeps this module's byte code in (``None``: none)."""
    try:
        return Path(importlib.util.cache_from_source(__file__)).parent
    except NotImplementedError:  # an interpreter without a byte-code cache
        return None


def _cache_file(folder: Path | None, name: str) -> Path | None:
    return None if folder is None else folder / f"{name}.{sys.implementation.cache_tag}.marshal"


def _read_marshal(path: Path | None) -> Any:
    if path is None:
        return None
    try:
        return marshal.loads(path.read_bytes())
    except (OSError, EOFError, ValueError, TypeError):
        return None


def _write_marshal(path: Path, value: Any) -> None:
    """Write ``value`` to ``path`` through a temporary name; a failure only costs time later."""
    from agentic_rag._files import atomic_write  # only a process that writes pays for its import

    try:
        atomic_write(path, marshal.dumps(value))
    except (OSError, ValueError):
        pass  # a cache that cannot be written (or a value marshal cannot hold) costs time, never a result


def _header() -> tuple[Any, ...]:
    return (_FORMAT, sys.version, getattr(_sre, "MAGIC", 0), getattr(_sre, "CODESIZE", 0))


def _program_of(source: str, flags: int) -> _Program:
    """Parse and generate a pattern's program, as ``re`` does before handing it to the engine."""
    parsed = _sre_parser.parse(source, flags)
    code = array(_CODE_TYPE, [int(op) for op in _sre_compiler._code(parsed, flags)]).tobytes()
    groupindex = dict(parsed.state.groupdict)
    indexgroup: list[Any] = [None] * parsed.state.groups
    for name, index in groupindex.items():
        indexgroup[index] = name
    return (int(flags | parsed.state.flags), code, parsed.state.groups - 1, groupindex, tuple(indexgroup))


def _build(source: str, program: _Program) -> re.Pattern[str]:
    final_flags, code, groups, groupindex, indexgroup = program
    return _sre.compile(source, final_flags, memoryview(code).cast(_CODE_TYPE).tolist(), groups, groupindex, indexgroup)


class ProgramCache:
    """Patterns' programs read from and written to one file (see the module's docstring)."""

    def __init__(self, path: Path | None, *, writable: bool) -> None:
        self._path = path
        self._writable = writable and path is not None
        self._lock = threading.Lock()
        self._stored: dict[_Key, _Program] | None = None  # read on first use
        self._used: dict[_Key, _Program] = {}
        self._new = False
        self._exit_registered = False

    def _read(self) -> dict[_Key, _Program]:
        data = _read_marshal(self._path)
        if not (isinstance(data, tuple) and len(data) == 2 and data[0] == _header() and isinstance(data[1], dict)):
            return {}
        return data[1]

    def compile(self, source: str, flags: int) -> re.Pattern[str]:
        """``re.compile(source, flags)``, built from a stored program when there is one."""
        key = (source, int(flags))
        with self._lock:
            if self._stored is None:
                self._stored = self._read()
            program = self._stored.get(key)
        if program is not None:
            try:
                pattern = _build(source, program)
            except Exception:  # noqa: BLE001 - a stale or damaged entry: compile it afresh
                pattern = None
            if pattern is not None:
                with self._lock:
                    self._used[key] = program
                return pattern
        try:
            program = _program_of(source, int(flags))
            pattern = _build(source, program)
        except re.error:
            raise
        except Exception:  # noqa: BLE001 - an engine whose internals differ: plain compile
            return re.compile(source, flags)
        with self._lock:
            self._used[key] = program
            self._new = True
            if self._writable and not self._exit_registered:
                self._exit_registered = True
                atexit.register(self.save)
        return pattern

    def save(self) -> None:
        """Write the stored and newly compiled programs, if any pattern was new (atomically)."""
        with self._lock:
            if not (self._writable and self._new) or self._path is None:
                return
            entries = dict(self._read())
            entries.update(self._used)
            if len(entries) > _MOST_ENTRIES:
                entries = dict(self._used)
            self._new = False
        _write_marshal(self._path, (_header(), entries))


_FOLDER = _cache_folder()
_CACHE = ProgramCache(_cache_file(_FOLDER, "_regex"), writable=not sys.dont_write_bytecode)


def compile_pattern(source: str, flags: int = 0) -> re.Pattern[str]:
    """``re.compile(source, flags)`` through the package's program cache."""
    return _CACHE.compile(source, flags)


def derived(name: str, sources: tuple[Path, ...], build: Callable[[], T], *, folder: Path | None = None,
            writable: bool | None = None) -> T:
    """``build()``, or what it returned in an earlier process while ``sources`` were unchanged.

    Args:
        name: The cache file's name (one per table).
        sources: The files the table is built from, the building module's own file among them:
            a change of size or modification time of any of them builds the table again.
        build: Builds the table: a value ``marshal`` can hold (dicts, sets, tuples, strings,
            numbers); any other value is returned and not kept.
        folder: Where the file is kept (default: this package's ``__pycache__``).
        writable: Whether a table built now is kept (default: when Python writes byte code).
    """
    path = _cache_file(folder if folder is not None else _FOLDER, name)
    try:
        stamp = tuple((str(source), *_size_and_time(source)) for source in sources)
    except OSError:
        return build()
    header = (_FORMAT, sys.version, stamp)
    data = _read_marshal(path)
    if isinstance(data, tuple) and len(data) == 2 and data[0] == header:
        return data[1]
    value = build()
    if path is not None and (not sys.dont_write_bytecode if writable is None else writable):
        _write_marshal(path, (header, value))
    return value


def _size_and_time(path: Path) -> tuple[int, int]:
    status = os.stat(path)
    return status.st_size, status.st_mtime_ns
