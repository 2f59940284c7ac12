"""Scripted models for the LLM component tests.

:class:`Oracle` answers every role correctly from what the prompt shows: it finds the role from
the system prompt, the documents from the ``<untrusted_document>`` blocks (by document id), and
answers from a :class:`World` that says which document and quote establish which fact. Use it
as ``ScriptedLLM(oracle)`` in process or ``OpenAICompatibleServer(oracle.payload_reply)`` over
loopback HTTP. :data:`GARBAGE` is a reply no schema accepts.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from agentic_rag.llm import ROLE_SPECS, LLMRole, ScriptedCall

__all__ = ["FIXTURE_WORLD", "GARBAGE", "SAMPLE_WORLD", "Evidence", "Oracle", "World", "document_blocks", "role_of"]

GARBAGE = "Sure! Here is what I think: the answer is probably Lyon, but I am not sure."

_BLOCK = re.compile(r'<untrusted_document index="(\d+)" id="([^"]*)"[^>]*>\n(.*?)\n</untrusted_document>', re.S)
_TARGETS = re.compile(r"Write queries only for these facts: ([^;.]+)")
_WAITING = re.compile(r"at most \d+ a fact\. (.+?) depends? on facts not yet found")


def role_of(system: str) -> LLMRole:
    """The role whose system prompt opens ``system``."""
    for spec in ROLE_SPECS:
        if system.startswith(spec.system_prompt):
            return spec.role
    raise AssertionError(f"no role prompt in {system[:80]!r}")


def document_blocks(user: str) -> dict[str, tuple[int, str]]:
    """Map each rendered document's id (``corpus/doc`` without the span) to (index, text)."""
    out = {}
    for index, snippet_id, text in _BLOCK.findall(user):
        document_id = snippet_id.split("#", 1)[0].split("/", 1)[-1]
        out[document_id] = (int(index), text)
    return out


@dataclass(frozen=True)
class Evidence:
    """A document that establishes a fact, the quote that shows it and the claim it supports."""

    fact_id: str
    document_id: str
    quote: str
    claim: str


@dataclass(frozen=True)
class World:
    """What the oracle knows."""

    facts: tuple[dict, ...]
    queries: dict
    evidence: tuple[Evidence, ...]
    followups: dict = field(default_factory=dict)
    conflicts: dict = field(default_factory=dict)  # fact id -> ((value, document id), ...)
    views: tuple[str, ...] = ()
    hyde: str = "A passage that answers the question."


SAMPLE_WORLD = World(
    facts=(
        {"id": "founder", "description": "Who founded Acme Robotics", "priority": "must", "corpus_ids": ["company-records"],
         "route_reason": "company records name founders"},
        {"id": "birthplace", "description": "Where the founder of Acme Robotics was born", "priority": "must",
         "depends_on": ["founder"], "corpus_ids": ["biographies"]},
    ),
    queries={"founder": ["Acme Robotics founder founded"], "birthplace": ["Jane Doe born"]},
    evidence=(
        Evidence("founder", "acme-robotics", "Acme Robotics was founded in 2001 by Jane Doe", "Acme Robotics was founded in 2001 by Jane Doe."),
        Evidence("birthplace", "jane-doe", "Jane Doe was born in Lyon, France", "Jane Doe, the founder, was born in Lyon, France."),
    ),
    followups={"birthplace": "Jane Doe born"},
    views=("Acme Robotics founded by", "Acme Robotics founder"),
    hyde="Acme Robotics was founded in 2001 by Jane Doe, an engineer.",
)

FIXTURE_WORLD = World(
    facts=(
        {"id": "founder", "description": "Who founded Zeta Labs", "priority": "must", "corpus_ids": ["companies"]},
        {"id": "birthplace", "description": "Where the founder of Zeta Labs was born", "priority": "must",
         "depends_on": ["founder"], "corpus_ids": ["people"]},
        {"id": "staff", "description": "How many people Zeta Labs employs", "priority": "should", "corpus_ids": ["companies"]},
    ),
    queries={"founder": ["Zeta Labs founder"], "birthplace": ["Ann Vale born", "Ann Vale birthplace"], "staff": ["Zeta Labs employees"]},
    evidence=(
        Evidence("founder", "zeta-labs", "Zeta Labs was founded in 1999 by Ann Vale", "Zeta Labs was founded in 1999 by Ann Vale."),
        Evidence("founder", "zeta-directory", "Zeta Labs was founded in 2003 by Ann Vale", "A directory says Zeta Labs was founded in 2003."),
        Evidence("birthplace", "ann-vale", "Ann Vale was born in Braga", "Ann Vale was born in Braga."),
    ),
    followups={"birthplace": "Ann Vale born", "staff": "Zeta Labs staff number"},
    conflicts={"founder": (("1999", "zeta-labs"), ("2003", "zeta-directory"))},
)


class Oracle:
    """Answers each role correctly for ``world``; counts the calls per role."""

    def __init__(self, world: World = SAMPLE_WORLD) -> None:
        self.world = world
        self.roles: list[LLMRole] = []

    def __call__(self, call: ScriptedCall) -> str:
        system = call.messages[0].content
        user = next(m.content for m in call.messages if m.role.value == "user")
        return self.reply(system, user)

    def payload_reply(self, payload: dict) -> str:
        """Answer an OpenAI-compatible chat request."""
        messages = payload["messages"]
        return self.reply(messages[0]["content"], next(m["content"] for m in messages if m["role"] == "user"))

    def reply(self, system: str, user: str) -> str:
        role = role_of(system)
        self.roles.append(role)
        return json.dumps(getattr(self, f"_{role.value}")(user))

    def _planner(self, user: str) -> dict:
        return {"facts": [dict(f) for f in self.world.facts], "rationale": "founder first, then the birthplace"}

    def _query_rewriter(self, user: str) -> dict:
        match = _TARGETS.search(user)
        if match is None:  # a parallel query-view request
            return {"queries": [{"fact_id": "q", "text": t, "strategy": "paraphrase"} for t in self.world.views]}
        queries = []
        # A fact still waiting for its bridge: this scripted model knows the bridge's value,
        # which a real one would have to guess, so it writes nothing for it yet.
        waiting = _WAITING.search(user)
        skip = set(waiting.group(1).split(", ")) if waiting else set()
        for fact_id in match.group(1).split(", "):
            if fact_id in skip:
                continue
            for text in self.world.queries.get(fact_id, ()):
                queries.append({"fact_id": fact_id, "text": text, "strategy": "keywords", "reason": "names the entity"})
        return {"queries": queries}

    def _hyde(self, user: str) -> dict:
        return {"hypothetical_document": self.world.hyde}

    def _covered(self, docs: dict) -> list[str]:
        covered: list[str] = []
        for fact in self.world.facts:
            found = any(e.fact_id == fact["id"] and e.document_id in docs for e in self.world.evidence)
            if found and all(d in covered for d in fact.get("depends_on", ())):
                covered.append(fact["id"])
        return covered

    def _conflicts(self, docs: dict) -> list[dict]:
        out = []
        for fact_id, sides in self.world.conflicts.items():
            groups = [{"value": value, "snippet_indices": [docs[doc][0]]} for value, doc in sides if doc in docs]
            if len(groups) >= 2:
                out.append({"fact_id": fact_id, "groups": groups})
        return out

    def _sufficiency_judge(self, user: str) -> dict:
        docs = document_blocks(user)
        covered = self._covered(docs)
        conflicts = self._conflicts(docs)
        must_missing = [f["id"] for f in self.world.facts if f["priority"] == "must" and f["id"] not in covered]
        if conflicts:
            label = "conflicting"
        elif not must_missing:
            label = "sufficient"
        else:
            label = "useful_but_incomplete" if covered else "insufficient"
        missing = [
            {"fact_id": f["id"], "what_is_missing": f["description"], "follow_up_query": self.world.followups.get(f["id"], f["description"])}
            for f in self.world.facts if f["id"] not in covered
        ]
        return {
            "rationale": f"documents {sorted(docs)} establish {covered}",
            "status": "sufficient" if label == "sufficient" else "insufficient",
            "label": label,
            "covered_fact_ids": covered,
            "missing_facts": missing,
            "conflicts": conflicts,
        }

    def _claims(self, docs: dict, facts: list[str] | None) -> list[dict]:
        return [
            {"text": e.claim, "fact_id": e.fact_id, "citations": [{"snippet": docs[e.document_id][0], "quote": e.quote}]}
            for e in self.world.evidence
            if e.document_id in docs and (facts is None or e.fact_id in facts)
        ]

    def _claim_verifier(self, user: str) -> dict:
        """Yes for a claim the world's evidence makes, no for any other."""
        known = {" ".join(e.claim.split()).casefold() for e in self.world.evidence}
        items = re.findall(r"^Item (\d+)\nClaim: (.*)$", user, re.MULTILINE)
        return {"verdicts": [{"item": int(n), "verdict": "yes" if " ".join(c.split()).casefold() in known else "no", "reason": "oracle"} for n, c in items]}

    def _drafter(self, user: str) -> dict:
        claims = self._claims(document_blocks(user), None)
        return {"answer": " ".join(c["text"] for c in claims), "claims": claims}

    def _synthesizer(self, user: str) -> dict:
        docs = document_blocks(user)
        if "Judge's verdict:" not in user:  # the parallel generator
            claims = self._claims(docs, None)
            return {"answer": " ".join(c["text"] for c in claims), "claims": claims,
                    "status": "answered" if claims else "unanswerable", "missing_fact_ids": []}
        covered = self._covered(docs)
        claims = self._claims(docs, covered)
        missing = [f["id"] for f in self.world.facts if f["id"] not in covered]
        must_missing = [f for f in missing if any(x["id"] == f and x["priority"] == "must" for x in self.world.facts)]
        status = "unanswerable" if not claims else "partial" if must_missing else "answered"
        return {"answer": " ".join(c["text"] for c in claims), "claims": claims, "status": status, "missing_fact_ids": missing}

