"""Whether a sentence defines the term a definition question asks about.

"What is a warm replica?" is answered by a sentence that opens with the term and a
definition's link ("Warm replica — a copy kept ...", "A warm replica is ...", a terms row
"Warm replica | A copy ..."), or by the line under the term in a definition list (the term
alone on its line, its definition on the next). A sentence that only uses the term ("the
nightly job copies the warm replica"), or defines another one ("Cold storage — ..."), does
not define it, nor does an entry that says only who uses the term ("Fast lane - a term used in
the carrier's contracts") or that it is not defined ("Dimensional accuracy — Fabrika's support
centre does not define this term"), nor a line that only counts the term's things ("41
operational members, 12 trainees ..." for what counts as an operational member:
:func:`counts_term`). :func:`defines` reads one sentence, with what its claim says before it.

A question that asks how one body counts or classes a thing ("Which days does Cobalt Cove class
as peak days?") is not answered by another body's rule told in running prose ("Visit Saltmarsh,
the regional tourism board, classes bank holidays as peak days"): :func:`classing_subject`
gives the words that do the classing, for the caller to tell whose they are.
"""

from __future__ import annotations

import re

from agentic_rag._answering.amounts import table_cells
from agentic_rag._answering.word_roots import same_root as _same, stem_word as _stem
from agentic_rag._regex import LazyRegex, lazy_regex

__all__ = ["DENIES_DEFINITION", "classing_subject", "counts_term", "defines", "viewing_subject"]

_DEFINING = lazy_regex(
    r"^\s*(?:[—–:=(-]|,\s+(?:a|an|the)\b|(?:is|are|means|denotes|refers\s+to|stands\s+for|describes)\b(?:\s+\w+ly)?"
    r"(?!\s+(?:\w+ed|in|at|on|covered|explained|described|handled|listed)\b))",
    re.IGNORECASE,
)
_LEAD_ARTICLE = lazy_regex(r"^\s*(?:a|an|the)\s+", re.IGNORECASE)
# Emphasis, code marks and list markers: no words of the term.
_MARKUP = lazy_regex(r"(?<!\w)[*`]+|[*`]+(?!\w)|^\s*(?:[-+*]|\d+[.)])\s+", re.MULTILINE)
_WORD = lazy_regex(r"[\w'’-]+")


def defines(term: tuple[str, ...], piece: str, lead: str = "") -> bool:
    """True when ``piece`` defines ``term`` (the words of the asked term, case-folded).

    Args:
        term: The term's words (:func:`~agentic_rag._text.asked_attribute.defined_term`).
        piece: A sentence, a line or a table row with its header.
        lead: What the claim says before the piece: the term alone on its first line, with
            nothing between it and the piece, heads a definition list's entry.
    """
    text = _plain(" — ".join(c for _, c in cells) if (cells := table_cells(piece)) else piece)
    words = list(_WORD.finditer(text))
    if len(words) >= len(term) and _names_term(words[:len(term)], term) and (link := _DEFINING.match(text[words[len(term) - 1].end():])):
        return not _only_used(text[words[len(term) - 1].end() + link.end():])
    lines = lead.split("\n")
    if "".join(lines[1:]).strip() or not _names_term(list(_WORD.finditer(_plain(lines[0]))), term) or _only_used(text):
        return False
    # The definition under the term's line, read alone or run on from it ("Grace period The 14
    # days after ..." where a paragraph's lines are joined).
    return len(words) > len(term) if _names_term(words[:len(term)], term) else bool(words)


# An entry that says who uses a term and not what it means: "Fast lane - a term used in the
# carrier's contracts", "Soft cap - used by the partner network in its own rules".
_USED_BY = lazy_regex(
    r"^\W*(?:(?:a|an|the)\s+)?(?:(?:[\w-]+\s+)?(?:term|category|word|name|phrase|label|expression|designation|concept)\s+)?"
    r"(?:(?:that|which)\s+(?:is|are)\s+)?(?:only\s+)?used\s+(?:by|in|within|across)\b",
    re.IGNORECASE,
)
# What makes such an entry a definition after all: what the term is used for or to mean.
_USED_FOR = lazy_regex(r"\b(?:for|as|to\s+(?:mean|describe|denote|refer|indicate|name|mark|cover)|meaning|when|where|whenever)\b", re.IGNORECASE)


# An entry whose first sentence denies a definition: "Fabrika's support centre does not
# define this term", "not yet defined by Quillbridge", "has no definition of its own".
DENIES_DEFINITION = lazy_regex(
    r"\b(?:(?:does|do|did)\s+not|doesn['’]t|don['’]t|didn['’]t)\s+(?:yet\s+)?define\b"
    r"|\bnot\s+(?:yet\s+)?(?:been\s+)?defined\b|\b(?:has|have)\s+(?:yet\s+)?no\s+(?:[\w-]+\s+)?definition\b",
    re.IGNORECASE,
)


def _only_used(body: str) -> bool:
    """True when a definition's ``body`` only says who uses the term ("a term used in the
    carrier's contracts"), not what it means ("a term used by surveyors for ..."), or its
    first sentence says the term is not defined ("Fabrika's support centre does not define
    this term. The Alliance ... defines it as ...": what follows is another body's)."""
    if DENIES_DEFINITION.search(re.split(r"(?<=[.;!?])\s", body.strip(), maxsplit=1)[0]):
        return True
    return bool(_USED_BY.match(body)) and not _USED_FOR.search(body)


def _plain(text: str) -> str:
    return _LEAD_ARTICLE.sub("", _MARKUP.sub("", text).strip())


def _names_term(words: list[re.Match[str]], term: tuple[str, ...]) -> bool:
    return len(words) == len(term) and all(_same(_stem(w.group()), _stem(t)) for w, t in zip(words, term))


# A question about whose rule it is: one body counting, classing or treating a thing as
# something ("does Harrowfield count a student as tardy", "for IronLeaf to count as").
_ASKS_CLASSING = lazy_regex(
    r"\b(?:count(?:s|ed)?|class(?:es|ed)?|classif(?:y|ies|ied)|treat(?:s|ed)?|consider(?:s|ed)?|regard(?:s|ed)?|deem(?:s|ed)?)\b"
    r"[^?]*?\bas\b|\bdefine[sd]?\b",
    re.IGNORECASE,
)
# A sentence whose subject does the classing: "<subject> counts a student as tardy if ...",
# "<subject> defines X as ...". The verb's third person tells a verb from a plural noun
# ("classes"), and the "as" after it (not "as well", "such as") that it classes something.
_CLASSING = lazy_regex(
    r"\b(?:counts|classes|classifies|treats|considers|regards|deems|defines)\b"
    r"(?=(?:(?!\bas\b)[^.;!?])*\bas\b(?!\s+(?:well|soon|long|much|many|far|if|though|of)\b))"
)
# Where the subject's words begin: a clause's opening ("In that survey, ", "noted that ").
_CLAUSE_START = lazy_regex(r".*(?:[.;:!?|]\s|,\s*|\b(?:that|which|who|whereas|while|but)\s)", re.IGNORECASE | re.DOTALL)


def classing_subject(question: str, piece: str) -> str:
    """The words before the classing verb of ``piece`` ("neighbouring Corbin Valley School
    District" of "... noted that neighbouring Corbin Valley School District counts a student
    as tardy if ..."), when ``question`` asks how a body counts, classes, treats or defines a
    thing; ``""`` otherwise. An appositive after the subject is passed over ("Visit
    Saltmarsh, the regional tourism board, classes ..." gives "Visit Saltmarsh")."""
    return _doer_before(piece, _CLASSING, past_appositive=True) if _ASKS_CLASSING.search(question) else ""


def _doer_before(piece: str, verb_pattern: LazyRegex, *, past_appositive: bool = False) -> str:
    """The words of ``piece`` from its clause's start up to the first match of
    ``verb_pattern`` (``""`` without one); ``past_appositive``: an appositive between commas
    just before the verb is passed over."""
    text = re.sub(r"\s+", " ", _MARKUP.sub("", piece))
    verb = verb_pattern.search(text)
    if verb is None:
        return ""
    before = text[:verb.start()].rstrip()
    if past_appositive and before.endswith(",") and "," in before[:-1]:
        before = before[:before[:-1].rindex(",")]
    opening = _CLAUSE_START.match(before)
    return before[opening.end():] if opening else before


# A question about one body's own view or advice: what it considers (regards, deems) a thing
# to be, or what it recommends ("How long does Ember & Oak consider its coffee to be fresh?").
_ASKS_VIEW = lazy_regex(
    r"\b(?:consider|regard|deem|judge|reckon)s?\b[^?]*?\bto\s+be\b|\b(?:does|do|did)\s+[^?]*?\b(?:recommend|advise|suggest)\b",
    re.IGNORECASE,
)
# A sentence whose subject gives a view or advice, in the third person ("the Federation advises
# that ...", "the Society recommends ..."): "we suggest" is the writer's own.
_VIEWING = lazy_regex(r"\b(?:advises|recommends|suggests|considers|regards|deems|believes|reckons|says|states|holds|maintains|argues)\b")


def viewing_subject(question: str, piece: str) -> str:
    """The words before the viewing verb of ``piece`` ("The Independent Roasters' Federation"
    of "The Independent Roasters' Federation advises that beans are fresh for up to six weeks"),
    when ``question`` asks what a body considers a thing to be or recommends; ``""``
    otherwise. The caller tells whether those words name another body than the asked one."""
    return _doer_before(piece, _VIEWING) if _ASKS_VIEW.search(question) else ""


# "What counts as an operational member of ...?", "What qualifies as a late arrival?": a
# definition asked by what falls under the term.
_ASKS_COUNTS_AS = lazy_regex(
    r"^\W*what\s+(?:counts|qualifies)\s+as\s+(?:(?:a|an|the)\s+)?['‘\"“]?(?P<term>[\w -]+?)['’\"”]?"
    r"(?:\s+(?:of|in|at|for|on|under|within)\s+.+)?\W*$",
    re.IGNORECASE,
)
_COUNT_WORD = r"(?:\d[\d,.]*|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|dozens?|hundreds?|thousands?)"


def counts_term(question: str, term: tuple[str, ...], piece: str) -> bool:
    """True when ``question`` asks what a term means or what counts as one and ``piece`` only
    counts the term's things: every mention of the term stands right after a number ("41
    operational members, 12 trainees and 18 support members"), which says how many there are,
    not what makes one.

    Args:
        question: The asked clause of one question part.
        term: The term's words when the question is a definition question (``()`` else).
        piece: A sentence, a line or a table row with its header.
    """
    if not term and (asked := _ASKS_COUNTS_AS.match(question)):
        term = tuple(w.casefold() for w in _WORD.findall(asked.group("term")))
    if not term:
        return False
    words = list(_WORD.finditer(_MARKUP.sub("", piece)))
    mentions = [i for i in range(len(words) - len(term) + 1) if _names_term(words[i:i + len(term)], term)]
    return bool(mentions) and all(i and re.fullmatch(_COUNT_WORD, words[i - 1].group(), re.IGNORECASE) for i in mentions)
