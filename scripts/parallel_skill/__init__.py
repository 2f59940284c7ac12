"""The earlier parallel-RAG skill's ``run(request, components)`` contract, run by
``scripts/workflow.py`` when ``components`` is an object with ``has``/``call``/``call_all``.

:func:`run_contract` is the workflow; :class:`ComponentSlots` binds your own component
functions (``fn(payload, context) -> dict``) to the slots without the earlier skill's runner.
"""

from __future__ import annotations

from .contract_request import ComponentSlots, ContractRequest, View, ViewKind, is_slot_object, retriever_kinds
from .contract_runner import run_contract

__all__ = ["ComponentSlots", "ContractRequest", "View", "ViewKind", "is_slot_object", "retriever_kinds", "run_contract"]
