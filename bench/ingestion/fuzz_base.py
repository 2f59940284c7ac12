"""What every fuzz target is made of: :class:`Target`, and :class:`Violation` for a broken promise.

Its own module so the target modules (``fuzz_targets.py``, ``fuzz_structured.py``) import it
and not each other.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

__all__ = ["Target", "Violation"]


class Violation(Exception):
    """A promise broken without an exception from the library (reported as a finding).

    The message's part before the first colon names the broken promise (the finding's
    identity); ``variant`` names the case it was seen in (a contract class, say).
    """

    def __init__(self, message: str, *, variant: str = "") -> None:
        super().__init__(message)
        self.variant = variant


@dataclass(frozen=True)
class Target:
    """One fuzz target: ``generate(rng, max_size)`` makes an input, ``check(input)`` runs it."""

    name: str
    generate: Callable[[random.Random, int], Any]
    check: Callable[[Any], None]
