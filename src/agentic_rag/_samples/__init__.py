"""A small sample corpus written for this project, shipped with the package.

Three corpora with descriptions, so routing matters: ``company-records``, ``biographies`` and
a distractor, ``recipes``. "Where was the founder of Acme Robotics born?" needs two hops
(the company record names the founder; her biography names the city), and "When was Acme
Robotics founded and how many employees does it have?" can only be answered in part.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

from agentic_rag._contracts import Corpus, Document, RequiredFact

__all__ = ["PARTIAL_QUESTION", "TWO_HOP_QUESTION", "sample_corpora", "sample_documents", "sample_folder", "two_hop_facts"]

TWO_HOP_QUESTION = "Where was the founder of Acme Robotics born?"
PARTIAL_QUESTION = "When was Acme Robotics founded and how many employees does it have?"


def sample_folder() -> Path:
    """Return the folder holding the sample corpus (one sub-folder per corpus)."""
    return Path(str(resources.files(__package__).joinpath("corpus")))


def sample_corpora() -> tuple[Corpus, ...]:
    """Return the sample corpora with their routing descriptions, sorted by id."""
    data = json.loads(resources.files(__package__).joinpath("corpora.json").read_text(encoding="utf-8"))
    return tuple(Corpus(id=cid, description=data[cid]) for cid in sorted(data))


def sample_documents() -> tuple[Document, ...]:
    """Return every sample document: id is the file stem, title its first heading."""
    out = []
    for corpus in sample_corpora():
        for path in sorted((sample_folder() / corpus.id).glob("*.md")):
            lines = path.read_text(encoding="utf-8").splitlines()
            title = lines[0].lstrip("# ").strip() if lines and lines[0].startswith("#") else path.stem
            body = "\n".join(line for line in lines[1:] if not line.startswith("#")).strip()
            text = " ".join(" ".join(p.split()) for p in body.split("\n\n"))
            out.append(Document(id=path.stem, text=text, title=title, corpus_id=corpus.id, metadata={"path": f"{corpus.id}/{path.name}"}))
    return tuple(out)


def two_hop_facts() -> tuple[RequiredFact, ...]:
    """The hand-written facts of :data:`TWO_HOP_QUESTION`: the founder, then her birthplace."""
    return (
        RequiredFact(id="founder", description="Who founded Acme Robotics", required_terms=("Acme Robotics", "founded")),
        RequiredFact(id="birthplace", description="Where the founder of Acme Robotics was born", required_terms=("born",), depends_on=("founder",)),
    )
