"""Whether a sentence gives a value as the thing's value now, or as something else.

A sentence can hold the asked-for number and still not give it as the thing's value: the
value is coming, planned, hoped for or only possible ("will be retired on 1 September 2032",
"we aim to reach 40 million", "a value of 8 would allow ..."), it is denied ("has no
default", "is not limited"), or it is what people usually do with the thing ("most teams set
it to 30 seconds", "we recommend 30"): a practice or advice, not the setting's value. A
heading can say the same of every sentence under it ("Proposed for 6.0", "Roadmap").
:func:`modality_problem` names which, unless the question asks for just that (a plan, a
recommendation, a denial, or yes or no). :func:`lack_problem` reads a sentence that says the
asked subject lacks what the value needs ("Added: input shaping for the Duo X; the Mono S lacks
the accelerometer this needs" for the release that gave the Mono S input shaping).
"""

from __future__ import annotations

import re

from agentic_rag._regex import lazy_regex

__all__ = ["NEGATED_MAXIMUM", "NEGATED_MINIMUM", "lack_problem", "modality_problem", "yes_no_problem"]

# A value said to be coming, planned or only possible is not the thing's value today. Plain
# "will" is documentation's present ("the filter will dump with this function"): only a
# change or an event to come counts. "Plan" alone is a noun as often ("the Starter plan",
# "the pipewright plan command"): only a plan to do something, or a thing planned, counts;
# "projects" is a noun as often too: only one that projects a figure ("projects a population
# of 1.1 million by 2035") gives a forecast.
_UNREAL = lazy_regex(
    r"\b(?:will|won't|may|might)\s+(?:not\s+|no\s+longer\s+|also\s+)?(?:be\s+)?(?:removed|dropped|deprecated|added|introduced|released|shut\s+down|"
    r"discontinued|changed|renamed|replaced|moved|opened|launched|closed|retired|become|reach|grow|open|move|launch|share|expand)\b|"
    r"\bgoing\s+to\b|\bscheduled\b|\bplans?\s+to\b|\bplanned\b|\bplanning\s+to\b|\bin\s+a\s+future\b|\bfuture\s+(?:release|version)s?\b|\bupcoming\b|"
    r"\b(?:aims?|aiming|intends?|intending|intended|hopes?|hoping)\s+to\b|"
    # A goal, target or pledge names where a figure should get to, not where it is: "Our goal
    # is to bring water use down to 3.2 litres by 2028", "the target is to reach 40%".
    r"\b(?:goals?|aims?|targets?|ambitions?|objectives?|pledges?|commitments?|mission)\s+(?:is|are|was|were)\s+to\b|"
    r"\btargeted\b|\btargets?\s+(?:for|of)\b|\b(?:projects|predicts|anticipates)\s+(?:that|an?|the)\b|\bprojections?\b|\bproposals?\b|"
    r"\bif\s+approved\b|\bsubject\s+to\s+(?:\w+\s+)?(?:approval|change|consent|permission)\b|\bpending\s+approval\b|\bunder\s+consideration\b|\broadmap\b|"
    r"\b(?:could|might|would|possibly|perhaps|maybe|potentially|projected|forecasts?|forecasted|forecasting|expected\s+to|considering|evaluating|proposed|provisional(?:ly)?|"
    r"hypothetical(?:ly)?)\b|"
    # A change put off has not happened: "Removal of --legacy has been postponed".
    r"\bpostponed\b|\b(?:been|was|were|is|are)\s+(?:deferred|delayed|put\s+on\s+hold)\b|"
    # A value still to be fixed is none yet: "will be turned off on a date to be announced".
    r"\bto\s+be\s+(?:announced|confirmed|decided|determined|agreed)\b|\b(?-i:TB[ACD])\b",
    re.IGNORECASE,
)
# A change to come ("will be supported in 5.0", "planned for Q3"): what a yes/no question is
# not answered by either ("Does it support HTTP/3?"), while its "could" and "would" may.
_TO_COME = lazy_regex(
    r"\b(?:will|won't|may|might)\s+(?:not\s+|no\s+longer\s+|also\s+)?(?:be\s+)?(?:removed|dropped|deprecated|added|introduced|released|supported|available|"
    r"shut\s+down|discontinued|changed|renamed|replaced|retired|launched)\b|\bscheduled\b|\bplanned\b|\bplans?\s+to\b|\bin\s+a\s+future\b|"
    r"\bfuture\s+(?:release|version)s?\b|\bupcoming\b|\bproposed\b|\btargeted\b|\bif\s+approved\b|\bgoing\s+to\b",
    re.IGNORECASE,
)
# What people do with a thing, or are advised to: "most teams set it to 30", "many users
# choose 5", "we recommend 30". The thing's own value is stated of the thing.
_PRACTICE = lazy_regex(
    r"\b(?:most|many|some|several|a\s+lot\s+of)\s+(?:\w+\s+)?(?:teams|users|people|customers|operators|admins|administrators|deployments|"
    r"installations|organi[sz]ations|companies|shops|sites|clusters|projects|developers)\b|"
    r"\b(?:we|they|vendors?)\s+(?:usually\s+|generally\s+|strongly\s+)?(?:recommend|suggest|advise)\b|\brecommended\b|\bcommonly\s+(?:set|used|chosen)\b|"
    r"\b(?:a\s+)?(?:good|sensible|reasonable|common|popular)\s+(?:starting\s+point|choice|value)\b",
    re.IGNORECASE,
)
# A denied value ("has no default", "is not limited"); "no more than 5" is a bound, "no
# longer" says it was removed, and Python's ``None`` is a value.
_DENIED = lazy_regex(r"\b(?:not|never|cannot)\b|\b(?-i:none)\b|n't\b|\bno\b(?!\s+(?:more|less|longer|later|earlier|fewer)\b)", re.IGNORECASE)
# A bound stated through a negation: "must not exceed 10", "does not support trees wider
# than 5 dimensions" (a maximum), "cannot be shorter than 8" (a minimum).
_NEGATION = r"\b(?:not|never|cannot|can't|mustn't|doesn't|don't|won't)\b[^.;:]*?"
_DOWNWARD = r"less|fewer|smaller|shorter|narrower|lower|shallower|slower|thinner|lighter|earlier|younger"
#: A maximum stated through a negation ("does not accept values above 300").
NEGATED_MAXIMUM = lazy_regex(
    rf"{_NEGATION}\b(?:exceed\w*|more\s+than|above|beyond|(?!(?:{_DOWNWARD}|other|rather|either|neither|whether)\b)\w+er\s+than)\b", re.IGNORECASE
)
#: A minimum stated through a negation ("cannot be shorter than 8", "not below 2").
NEGATED_MINIMUM = lazy_regex(rf"{_NEGATION}\b(?:(?:{_DOWNWARD})\s+than|below)\b", re.IGNORECASE)
# A heading that files what stands under it as a plan or a forecast ("Proposed for 6.0",
# "Roadmap", "Outlook for next year"); a heading that asks ("What could go wrong?") files
# nothing.
_UNREAL_HEADING = lazy_regex(
    r"\b(?:proposed|proposals?|planned|roadmap|upcoming|coming\s+soon|outlook|forecasts?|future\s+(?:plans|work|releases?|versions?)|looking\s+ahead|"
    r"working\s+(?:toward|towards)|wish\s*list|postponed|deferred|on\s+hold)\b",
    re.IGNORECASE,
)
# "plan", "planned", "planning", not "plant" or "planet".
_ASKS_UNREAL = lazy_regex(r"\b(?:will|would|could|might|plan(?:s|ned|ning|ners?)?|future|upcoming|next|going|expected|proposed|provisional\w*|target\w*|goals?|ambitions?|objectives?|pledge\w*|roadmap|projected)\b", re.IGNORECASE)
_ASKS_PRACTICE = lazy_regex(r"\b(?:recommend\w*|suggest\w*|advis\w*|should|usually|typical(?:ly)?|common(?:ly)?|most\s+\w+\s+(?:use|set|choose))\b", re.IGNORECASE)
_ASKS_DENIAL = lazy_regex(r"\b(?:not|never|no|without)\b|n't\b", re.IGNORECASE)
# A yes/no question is answered by a denial ("Does it have a default?" "It has no default.").
_YES_NO = lazy_regex(r"^\s*(?:is|are|was|were|do|does|did|can|could|has|have|had|will|would|should|must|may|isn't|aren't|doesn't|don't|can't)\b", re.IGNORECASE)


def yes_no_problem(question: str, sentence: str) -> str:
    """``"unreal"`` when a yes/no question ("Does it support HTTP/3?") meets only a change to
    come ("HTTP/3 will be supported in 5.0"): no yes today, and a reader cannot be sure of a
    no; ``""`` otherwise (a denial, or a plain statement, answers it)."""
    if _YES_NO.match(question) and _TO_COME.search(sentence) and not _ASKS_UNREAL.search(question):
        return "unreal"
    return ""


def modality_problem(question: str, clause: str, heading: str = "", lead: str = "") -> str:
    """Why ``clause`` does not give its value as the thing's value now.

    Args:
        question: The asked clause of one question part.
        clause: The clause that holds the value (a whole sentence for an open question).
        heading: The heading path the sentence stands under; a plan or a proposal there
            ("Proposed for 6.0", "Line 3 (proposed)") holds for the sentences below it.
        lead: What the sentence's paragraph or list says before it; a line introducing a
            list ("Goals the team is working toward:") files its items as a heading does.

    Returns:
        ``""`` when nothing is wrong; else ``"unreal"`` (planned, possible, hypothetical),
        ``"practice"`` (what people do or are advised to) or ``"denied"``.
    """
    introduced = [line for line in lead.split("\n") if line.rstrip().endswith(":")]
    filed = any(_UNREAL_HEADING.search(part) for part in [*heading.split(" › "), *introduced[-1:]] if not part.rstrip().endswith("?"))
    if (_UNREAL.search(clause) or filed) and not _ASKS_UNREAL.search(question):
        return "unreal"
    if _PRACTICE.search(clause) and not _ASKS_PRACTICE.search(question):
        return "practice"
    if _YES_NO.match(question) or _ASKS_DENIAL.search(question):
        return ""
    if _DENIED.search(NEGATED_MINIMUM.sub(" ", NEGATED_MAXIMUM.sub(" ", clause))):
        return "denied"
    return ""


# A subject said to lack a thing or its support: "the Mono S lacks the accelerometer this
# needs", "the Lite does not support it", "is not compatible with". The subject is the words
# of its clause before the verb.
_LACKS = lazy_regex(
    r"(?:^|[;:,.—–(]\s*)(?P<subject>[^;:,.—–()]*?)\s+(?:lacks?|(?:does|do)\s+not\s+(?:have|support)|(?:doesn['’]t|don['’]t)\s+(?:have|support)|"
    r"(?:is|are)\s+not\s+(?:supported|compatible)|(?:isn['’]t|aren['’]t)\s+(?:supported|compatible)|cannot\s+(?:use|run)|can['’]t\s+(?:use|run))\b",
    re.IGNORECASE,
)
# A name as a question writes it: a capitalised word that does not open it, a model code.
_QUESTION_NAME = lazy_regex(r"(?<=\s)(?:[A-Z][\w-]*|[\w-]*\d[\w-]*)")


def lack_problem(question: str, piece: str) -> str:
    """``"denied"`` when ``piece`` says that the subject ``question`` asks about lacks a thing
    or its support (a clause whose subject is named only by names the question states, before
    "lacks", "does not support", "is not compatible"): the value the sentence gives is for what does
    have it. A yes/no question, or one asking what is lacking or unsupported, is answered by it;
    ``""`` otherwise."""
    if _YES_NO.match(question) or _ASKS_DENIAL.search(question) or re.search(r"\b(?:lack|miss|unsupported|incompatible)", question, re.IGNORECASE):
        return ""
    names = {w.casefold() for w in _QUESTION_NAME.findall(question)}
    for match in _LACKS.finditer(piece):
        # "does not support trees deeper than 8 levels" states a bound; it denies nothing.
        if re.match(r"[^;:.—–]*?\b(?:than|above|below|beyond|over|under)\b", piece[match.end():], re.IGNORECASE):
            continue
        # The subject's names are all the question's: "the Corvid Lite" is not the Corvid Pro.
        said = {w.casefold() for w in re.findall(r"\b(?:[A-Z][\w-]*|[\w-]*\d[\w-]*)", match.group("subject"))} - _NOT_NAMES
        if said and said <= names:
            return "denied"
    return ""


_NOT_NAMES = frozenset("the a an this that these those its our their it".split())
