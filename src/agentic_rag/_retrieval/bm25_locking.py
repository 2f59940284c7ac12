"""A writer-preferring readers-writer lock guarding the BM25 index.

Searches only read the postings (the lazily filled impact caches are written with single,
atomic dict stores of values that any reader would compute identically), so any number of
them may run together; ``add``/``remove``/``update`` change arrays in place and must run
alone. A waiting writer blocks new readers so a steady stream of searches cannot starve it.
"""

from __future__ import annotations

import threading

__all__ = ["ReadWriteLock"]


class ReadWriteLock:
    """Many readers or one writer; not reentrant."""

    __slots__ = ("_cond", "_mutex", "_readers", "_waiting_writers", "_writing")

    def __init__(self) -> None:
        # Readers enter the condition's lock directly: a lock's ``with`` runs in C, a
        # Condition's through Python methods; waiting on the condition needs that lock held.
        self._mutex = threading.Lock()
        self._cond = threading.Condition(self._mutex)
        self._readers = 0
        self._writing = False
        self._waiting_writers = 0

    def acquire_read(self) -> None:
        """Block until no writer holds or waits for the lock, then enter as a reader."""
        with self._mutex:
            while self._writing or self._waiting_writers:
                self._cond.wait()
            self._readers += 1

    def release_read(self) -> None:
        """Leave as a reader, waking a waiting writer when the last reader leaves."""
        with self._mutex:
            self._readers -= 1
            # Only writers wait for readers to leave (notify_all costs a Python-level pass).
            if self._readers == 0 and self._waiting_writers:
                self._cond.notify_all()

    def acquire_write(self) -> None:
        """Block until no reader or writer holds the lock, then hold it alone."""
        with self._cond:
            self._waiting_writers += 1
            try:
                while self._writing or self._readers:
                    self._cond.wait()
            finally:
                self._waiting_writers -= 1
            self._writing = True

    def release_write(self) -> None:
        """Release the exclusive hold and wake everyone waiting."""
        with self._cond:
            self._writing = False
            self._cond.notify_all()
