"""The library's exception tree: one root, every error names its cause.

::

    AgenticRAGError                      root: catch this to catch everything we raise
    ├── InvalidInputError (ValueError)   bad argument or contract field at a boundary
    │   └── BindingError                 a workflow bound with the wrong components
    ├── IndexFormatError                 a saved index is truncated, corrupt or from the future
    ├── RetrievalError                   a retriever failed while answering a query
    ├── BranchFailureError               too few parallel branches succeeded
    ├── StoreError                       the persistent store cannot be read or written
    │   └── StoreBusyError               another process held the write lock past the wait
    ├── BudgetExhaustedError             a run's call, token or time budget is spent
    └── ProviderError                    a remote endpoint (LLM, embeddings, search) failed
        ├── ProviderHTTPError            a non-success HTTP status, with status and message
        ├── ProviderTimeoutError         the endpoint did not answer within the deadline
        └── StructuredOutputError        a model answer that is not valid for its schema

The PDF parser's own ``PdfError`` / ``PdfLimitError`` and the loaders' ``WorkLimitError`` (a
file over its work budget; all subclasses of the root) never leave the loaders: a file that
cannot be read comes back as a listed problem, not an exception.

Every error carries ``stage`` (where it was raised) and a message that names the bad value
and what was expected.
"""

from __future__ import annotations

__all__ = [
    "AgenticRAGError",
    "BindingError",
    "BranchFailureError",
    "BudgetExhaustedError",
    "IndexFormatError",
    "InvalidInputError",
    "ProviderError",
    "ProviderHTTPError",
    "ProviderTimeoutError",
    "RetrievalError",
    "StoreBusyError",
    "StoreError",
    "StructuredOutputError",
]


class AgenticRAGError(Exception):
    """Root of every exception raised by agentic-rag.

    Args:
        message: What went wrong, naming the bad value and what was expected.
        stage: The component or step that raised it (for example ``"planner"``).
    """

    def __init__(self, message: str, *, stage: str = "") -> None:
        super().__init__(f"{stage}: {message}" if stage else message)
        self.message = message
        self.stage = stage


class InvalidInputError(AgenticRAGError, ValueError):
    """A bad argument or contract field, refused at the boundary."""


class BindingError(InvalidInputError):
    """A workflow was constructed with a component in the wrong slot or count."""


class IndexFormatError(AgenticRAGError):
    """A saved index cannot be loaded: truncated, corrupted or an unknown version."""


class RetrievalError(AgenticRAGError):
    """A retriever failed while answering a query."""


class BranchFailureError(AgenticRAGError):
    """Fewer parallel branches succeeded than the request's minimum.

    Args:
        message: What went wrong.
        outcomes: Every branch outcome, so the caller can see each failure.
        stage: Where it was raised.
    """

    def __init__(self, message: str, *, outcomes: tuple = (), stage: str = "parallel") -> None:
        super().__init__(message, stage=stage)
        self.outcomes = tuple(outcomes)


class BudgetExhaustedError(AgenticRAGError):
    """A run's budget (LLM calls, tokens, wall clock) is spent.

    The orchestrator catches it and ends the run gracefully with the best answer so far;
    it only escapes when a component is used outside a run.

    Args:
        message: Which budget and by how much.
        reason: The stop reason value (``"call_budget"``, ``"token_budget"``, ``"deadline"``).
        stage: Where it was raised.
    """

    def __init__(self, message: str, *, reason: str, stage: str = "budget") -> None:
        super().__init__(message, stage=stage)
        self.reason = reason


class StoreError(AgenticRAGError):
    """The persistent store cannot be read or written."""


class StoreBusyError(StoreError):
    """Another process held the store's write lock for longer than the writer would wait
    (``KnowledgeStore(lock_timeout=...)``, ``agentic-rag index --wait``); nothing changed."""


class ProviderError(AgenticRAGError):
    """A remote endpoint (LLM, embeddings, search service) failed."""


class ProviderHTTPError(ProviderError):
    """A non-success HTTP status from a provider.

    Args:
        message: The provider's own error message (never containing credentials).
        status: The HTTP status code.
        stage: Where it was raised.
    """

    def __init__(self, message: str, *, status: int, stage: str = "") -> None:
        super().__init__(f"HTTP {status}: {message}", stage=stage)
        self.status = status


class ProviderTimeoutError(ProviderError):
    """A provider did not answer before the deadline."""


class StructuredOutputError(ProviderError):
    """A model's answer could not be parsed or validated against its schema."""
