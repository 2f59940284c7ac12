"""``python -m agentic_rag``: the command line."""

from __future__ import annotations

import sys

from agentic_rag._interfaces.cli import main

if __name__ == "__main__":
    sys.exit(main())
