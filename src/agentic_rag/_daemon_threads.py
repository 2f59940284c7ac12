"""Worker threads that never hold up the interpreter's exit.

A retriever or a model call stuck in a socket read cannot be interrupted; the workflows stop
waiting for it at their deadline and abandon it. The standard library's
``ThreadPoolExecutor`` joins every worker thread at interpreter exit, so one abandoned call
would still keep the process alive until it returns. The threads here are daemon threads:
an abandoned call runs on, or dies with the process, and nobody waits for it.

:class:`DaemonExecutor` is a bounded pool with the ``concurrent.futures.Executor`` interface
(the parallel workflow's branches); :func:`submit_daemon` runs one call on a thread of its own
(the agentic workflow's retriever calls), in a copy of the caller's context so the run budget
is charged.
"""

from __future__ import annotations

import concurrent.futures
import contextvars
import queue
import threading
from collections.abc import Callable
from typing import Any

from agentic_rag._contracts.validation import require_int

__all__ = ["DaemonExecutor", "submit_daemon"]


def _settle(future: concurrent.futures.Future[Any], fn: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    if not future.set_running_or_notify_cancel():
        return
    try:
        result = fn(*args, **kwargs)
    except BaseException as exc:  # handed to whoever reads the future, as concurrent.futures does
        future.set_exception(exc)
    else:
        future.set_result(result)


def submit_daemon(fn: Callable[..., Any], /, *args: Any, name: str = "agentic-rag-call", **kwargs: Any) -> concurrent.futures.Future[Any]:
    """Run ``fn(*args, **kwargs)`` on a new daemon thread, in a copy of the current context.

    Args:
        fn: The call.
        name: The thread's name.

    Returns:
        Its future; read it with a timeout and abandon it when the time is up.
    """
    future: concurrent.futures.Future[Any] = concurrent.futures.Future()
    context = contextvars.copy_context()
    threading.Thread(target=context.run, args=(_settle, future, fn, args, kwargs), name=name, daemon=True).start()
    return future


class DaemonExecutor(concurrent.futures.Executor):
    """A pool of at most ``max_workers`` daemon threads, started as work arrives.

    Args:
        max_workers: Most threads at once (>= 1).
        thread_name_prefix: Names the threads ``<prefix>_<n>``.

    Raises:
        InvalidInputError: ``max_workers`` is not an int >= 1.
    """

    def __init__(self, max_workers: int, thread_name_prefix: str = "agentic-rag-worker") -> None:
        self._max_workers = require_int(max_workers, "max_workers", minimum=1, stage="threads")
        self._prefix = thread_name_prefix
        self._work: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._idle = threading.Semaphore(0)
        self._lock = threading.Lock()
        self._threads: list[threading.Thread] = []
        self._shut = False

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> concurrent.futures.Future[Any]:
        """Schedule ``fn(*args, **kwargs)``; see ``concurrent.futures.Executor.submit``.

        Raises:
            RuntimeError: After :meth:`shutdown`.
        """
        with self._lock:
            if self._shut:
                raise RuntimeError("cannot schedule new futures after shutdown")
            future: concurrent.futures.Future[Any] = concurrent.futures.Future()
            self._work.put((future, fn, args, kwargs))
            if not self._idle.acquire(blocking=False) and len(self._threads) < self._max_workers:
                thread = threading.Thread(target=self._serve, name=f"{self._prefix}_{len(self._threads)}", daemon=True)
                thread.start()
                self._threads.append(thread)
            return future

    def _serve(self) -> None:
        while True:
            item = self._work.get()
            if item is None:  # shutdown
                return
            _settle(*item)
            del item
            self._idle.release()

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Stop taking work; idle threads end, busy ones end after their call.

        Args:
            wait: Join the threads (a stuck call blocks this; the workflows pass ``False``).
            cancel_futures: Cancel the calls not started yet.
        """
        with self._lock:
            self._shut = True
            if cancel_futures:
                while True:
                    try:
                        item = self._work.get_nowait()
                    except queue.Empty:
                        break
                    if item is not None:
                        item[0].cancel()
            for _ in self._threads:
                self._work.put(None)
        if wait:
            for thread in self._threads:
                thread.join()
