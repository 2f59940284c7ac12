"""Which extractor reads PDF files, apart from the extractors themselves.

A store's settings name the backend, and the command line lists its choices, in processes
that never read a PDF (every ``search`` and ``ask``): they import this module, not
:mod:`~agentic_rag._ingest.pdf_loader` and the parser behind it.
"""

from __future__ import annotations

import enum
import shutil

from agentic_rag._contracts.validation import require_enum
from agentic_rag._errors import InvalidInputError

__all__ = ["PDFTOTEXT", "PdfBackend", "require_pdf_backend"]

#: The program :attr:`PdfBackend.PDFTOTEXT` runs.
PDFTOTEXT = "pdftotext"
_STAGE = "ingest"


class PdfBackend(str, enum.Enum):
    """Which extractor reads PDF files."""

    BUILTIN = "builtin"
    """The library's own parser (no dependency)."""
    PDFTOTEXT = "pdftotext"
    """Poppler's ``pdftotext`` program (optional; must be on ``PATH``)."""


def require_pdf_backend(value: object) -> PdfBackend:
    """The backend named by ``value``, checked to be usable.

    Args:
        value: A :class:`PdfBackend` or its value (``"builtin"``, ``"pdftotext"``).

    Returns:
        The backend.

    Raises:
        InvalidInputError: An unknown name, or ``pdftotext`` asked for while the program is
            not on ``PATH``.
    """
    backend = require_enum(PdfBackend, value, "pdf", stage=_STAGE)
    if backend is PdfBackend.PDFTOTEXT and shutil.which(PDFTOTEXT) is None:
        raise InvalidInputError(f"pdf={PDFTOTEXT!r} needs the {PDFTOTEXT} program (poppler-utils) on PATH and it was not found: "
                                f"install poppler-utils, or use the built-in parser (pdf='builtin', the default)", stage=_STAGE)
    return backend
