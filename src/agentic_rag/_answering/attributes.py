"""Whether the sentence that holds an asked-for value states what the question asks.

A sentence can hold a number, a version or a name of the asked kind and still answer another
question: another attribute of the same subject ("3 factories" for a head count), the same
attribute of another subject ("Ostrand's capital, Talvik" for Veloria's capital, "the admin
API listens on port 9443" for the proxy listener's port), the other bound ("at least 1" for
the maximum), another stage of a life cycle ("deprecated since 5.1" for the release that
removed it), a value that is only planned, hoped for or denied ("will be removed in 4.0",
"could reach 5 years", "has no default"), a value put elsewhere ("listed in the service
manual"), another item's price ("two suitcases free of charge" for a canoe), or another
term's definition ("Cold storage — ..." for a cold replica). :func:`statement_problem` reads one sentence (a line, a table row with
its header) against the question as far as its words allow (:mod:`agentic_rag._text.
asked_attribute` reads the question) and names what is wrong with it; the earned check counts
a value only from a sentence with no problem.
"""

from __future__ import annotations

import re

from agentic_rag._answering.aggregates import sums_several
from agentic_rag._answering.row_labels import label_problem, tally_problem
from agentic_rag._answering.modality import NEGATED_MAXIMUM, NEGATED_MINIMUM, lack_problem, modality_problem, yes_no_problem
from agentic_rag._answering.degrees import degree_problem
from agentic_rag._answering.definitions import classing_subject, counts_term, defines, viewing_subject
from agentic_rag._answering.deferrals import deferred_value
from agentic_rag._answering.priced_items import prices_another, rate_per_another
from agentic_rag._answering.table_columns import column_problem, empty_default
from agentic_rag._answering.asked_measures import acts_on_another, asks_clock, asks_whether_bound, measure_problem
from agentic_rag._answering.place_conditions import place_problem
from agentic_rag._answering.open_readings import asks_of_item, open_problem, table_cells as padded_cells
from agentic_rag._answering.unachieved import unachieved_problem
from agentic_rag._answering.time_scope import period_problem
from agentic_rag._answering.amounts import clock_as_amount, count_as_measure, counts_a_time, counts_another, default_not_a_number, measures_condition, money_for_measure, not_money, table_cells
from agentic_rag._answering.word_roots import same_root as _same, stem_word as _stem
from agentic_rag._regex import lazy_regex
from agentic_rag._text.answer_slots import AnswerSlot, FactKind, SlotKind, counts_in_unit, fact_filler, identifiers, measure_at, read_fact, read_slot, slot_filler
from agentic_rag._text.asked_values import asks_past_time, is_quantity, stated_time
from agentic_rag._text.asked_attribute import (RIVALS, Aspect, AskedAttribute, asked_aspects, aspects_in, defined_term, implied_bounds, read_attribute,
                                               synonyms, with_synonyms, words_of)
from agentic_rag._text.relevance import RelevanceModel

__all__ = ["statement_problem", "subject_names"]

# Where a clause ends inside a sentence: the value of "XML export is deprecated since 5.1
# and scheduled for removal in a future release" belongs to its first clause only. A break
# starts where its white space starts (``(?<!\s)``; the leftmost match starts there anyway)
# or at its mark: tried from each space of a long run, ``\s`` ran to the run's end every time.
_CLAUSE_END = lazy_regex(r"(?<!\s)\s*[;,—–]\s+|[;,—–]\s+|(?<!\s)\s+-\s+|(?<!\s)\s+(?:and|but|while|whereas|unless|if|when|although|though)\s+", re.IGNORECASE)
# A question that asks for a value: a number, a version, a name, a date, or "what ..." a
# thing is; "why" and "how do I" questions are answered in any words.
# A phrase may come first ("In Pipewright 4, what's ...", "Default job timeout - what is it?").
_LEADING = r"^\W*(?:[^,?—–]*(?:,|—|–|\s-{1,2})\s*)?(?:(?:so|and|but)\s+)?(?:(?:in|for|on|at|from|to|by|of)\s+)?"
_ASKS_VALUE = lazy_regex(rf"{_LEADING}(?:what|which|who|whom|where|when|how\s+(?:many|much|long|old|often|far|big|large|fast|heavy))\b", re.IGNORECASE)
# "What dividend did it pay?", "Which currency does it use?": a thing's value asked by its
# name, a noun phrase before the auxiliary ("What does X do?", "What is X?", "What gets
# raised when ...?" ask what a thing is, does or causes).
_AUXILIARY = r"(?:is|are|was|were|does|do|did|can|could|should|would|will|has|have|had)"
_ASKS_THING = lazy_regex(
    rf"{_LEADING}(?:what|which)\s+(?!{_AUXILIARY}\b|(?:kind|sort|type)\b)(?:[\w-]+\s+){{1,3}}?{_AUXILIARY}\b",
    re.IGNORECASE,
)
# A range gives both bounds ("-20 °C to 60 °C", "1–10"). "Range" alone names a thing as
# often ("the control range is about 4 km"): only a range of values gives both.
# Tried from the first digit of each run without white space, commas or semicolons: a range
# from a later digit of the run is one from the first digit too, and tried from every digit of
# a long number the run was rescanned to its end each time.
_RANGE = lazy_regex(r"(?<![^\s,;])[^\s,;\d]*\d[^\s,;]*\s*(?:°\s*\w+\s*)?(?:to|–|—|-|\.\.)\s*[−-]?\d|\branges?\s+(?:of|from)\b|\bin\s+the\s+range\b|\bbetween\b", re.IGNORECASE)
_BOUNDS = frozenset({Aspect.MAXIMUM, Aspect.MINIMUM})
_ENDS = frozenset({Aspect.SERVER, Aspect.CLIENT})
# A word that names an entity: capitalised inside a sentence ("in Veloria"), an acronym
# ("API"), a model code ("K1"), or a possessive ("Ostrand's").
_NAME_LIKE = lazy_regex(r"(?<![\w.])(?:[A-Z][\w-]*[A-Z0-9][\w-]*|[A-Z][a-z][\w-]*)(?:['’]s?)?(?![\w])")
# Emphasis, code marks and list markers (not the "*" inside "R*Tree"): no words of the sentence.
_MARKUP = lazy_regex(r"(?<!\w)[*`]+|[*`]+(?!\w)|^\s*(?:[-+*]|\d+[.)])\s+", re.MULTILINE)
# A word that names something: an identifier, a number, a camel-case or all-capitals word.
_NAMED = lazy_regex(r"[_./]|\d|[a-z][A-Z]|^[A-Z]{2,}")
_COMMON_NAME_SHARE = 0.5
# A capitalised word (not an identifier, not in capitals), which inside a sentence is a name.
_TITLE_WORD = lazy_regex(r"[A-Z][a-z'’-]+")
# Where a capitalised word opens a sentence, a label, a cell or an item, not a name.
_OPENS = lazy_regex(r"(?:^|[|:;.!?—–(\n])\s*$")
# "ATTRIBUTE of X": X, when it is a name.
_OWNER = lazy_regex(r"^\s+(?:of|for)\s+(?:the\s+)?((?:[A-Z][\w'’-]*)(?:\s+[A-Z][\w'’-]*){0,2})")


def _value_clause(piece: str, filler: str) -> str:
    """The clause of ``piece`` that holds ``filler`` (the whole piece when the filler is not
    in it: a version taken from the heading)."""
    at = piece.find(filler) if filler else -1
    if at < 0:
        return piece
    start = 0
    for match in _CLAUSE_END.finditer(piece):
        if match.end() <= at:
            start = match.end()
        elif match.start() >= at + len(filler):
            return piece[start:match.start()]
    return piece[start:]


def statement_problem(question: str, heading: str, piece: str, filler: str, model: RelevanceModel, *, lead: str = "") -> str:
    """Why ``piece``, holding ``filler``, does not state what ``question`` asks.

    Args:
        question: The asked clause of one question part.
        heading: The heading path of the passage the piece stands in.
        piece: A sentence, a line or a table row (with its header row).
        filler: What fills the question's slot (:func:`~agentic_rag._text.answer_slots.
            slot_filler`); the piece itself for an open question.
        model: The collection's relevance model.
        lead: What the piece's paragraph or list item says before it, and the term the
            claim describes, which may name the subject ("SESSION_COOKIE_NAME ... Default:
            'session'").

    Returns:
        ``""`` when nothing is wrong; else ``"unreal"`` (planned, possible, hypothetical),
        ``"practice"`` (what people do or are advised to), ``"denied"``, ``"no value"`` (no
        number in the unit asked: "how many times"), ``"rival aspect"``, ``"no aspect"``,
        ``"another attribute"``, ``"another subject"`` or ``"not its definition"``.
    """
    # A sibling model, a measure of another kind or bound, a goal, a placeholder cell: wrong whatever else is asked.
    own = _value_clause(piece, filler)
    if problem := (open_problem(question, piece, heading) or measure_problem(question, own, piece, heading) or unachieved_problem(question, own, piece, filler)
                   or period_problem(question, piece, heading, filler) or sums_several(question, piece) or rate_per_another(question, piece) or place_problem(question, piece)
                   or tally_problem(question, piece)):
        return problem
    # Another named body's rule ("the Authority treats journeys before 09:30 as peak") is not
    # the asked body's, in running prose as in a glossary.
    if (doer := classing_subject(question, piece)) and _names(question, model) and _rival_before(doer, {_stem(w) for w in words_of(question)}, model):
        return "another subject"
    if (doer := viewing_subject(question, piece)) and _names(question, model) and _rival_before(doer, {_stem(w) for w in words_of(question)}, model):
        return "another subject"  # "the Federation advises ..." for what the roaster considers
    # "41 operational members, 12 trainees ..." counts members; it says nothing of what makes one.
    if counts_term(question, defined_term(question), piece):
        return "not its definition"
    # A time of day stands in the line of the thing it is the time of: "Building open | 04:00
    # to 23:30" in a terminal's sheet is no time the lounge named two rows below opens, nor
    # "14:30 | Shark feed" the time the stingrays are fed.
    if asks_clock(question) and (model.missing_named(question, with_synonyms(f"{heading}\n{lead}\n{piece}")) or acts_on_another(question, f"{heading}\n{lead}\n{piece}")):
        return "another subject"
    kind = read_slot(question).kind
    attribute = read_attribute(question)
    term = defined_term(question) if kind is SlotKind.OPEN else ()
    # "When was it retired?": a date of one subject, asked in open words.
    fact = read_fact(question)
    sided = asked_aspects(question) | implied_bounds(question)
    # "When did the shared plans get HTTP/3?" read as no fact (an object after the verb)
    # still asks for a time, which a sentence without one does not give.
    # A date fact read from the question ("When did the surgery open?") asks a time too.
    when = kind is SlotKind.OPEN and (fact is None or fact.kind is FactKind.DATE) and asks_past_time(question)
    # A time of day asked in open words ("Until what time ...?") is a value, read as one.
    if kind is SlotKind.OPEN and attribute is None and not term and fact is None and not sided and not when and not _ASKS_THING.match(question) and not asks_clock(question):
        # Why or yes/no: any words answer; "how hard is ..." wants the quality, of its place.
        return (degree_problem(question, f"{heading}\n{lead}", piece) or yes_no_problem(question, piece) or money_for_measure(question, piece)
                or (label_problem(question, piece, model) or column_problem(question, piece) if asks_of_item(question) and padded_cells(piece) else ""))
    if kind is SlotKind.OPEN:
        value = (fact_filler(fact, piece) if fact is not None else "") or (stated_time(piece) if when else "")
        if when and not value:
            return "no value"
        if when and re.search(r"\b(?:will|won't|shall)\b|\bgoing\s+to\b", _value_clause(piece, value), re.IGNORECASE):
            return "unreal"  # asked when it happened: a time still to come is a plan ("will get HTTP/3 in 2027")
        # "What's the ticket price?" asks an amount in open words: a sentence with no number
        # ("prices vary and are announced") gives none; one with a number gives it in its clause.
        if attribute is not None and is_quantity(attribute.head) and not (value := slot_filler(AnswerSlot(SlotKind.NUMBER, read_slot(question).numbers), piece)):
            return "no value"
        clause = _value_clause(piece, value or (piece.split()[0] if term and piece.split() else ""))  # a definition: its first clause
    else:
        clause = _value_clause(piece, filler)
    if kind is SlotKind.NAME:
        # "How do I change the server's port?" is no question about the client's setting;
        # a how-to names no value, so its plans and denials are advice, not near misses.
        if _rival_end(question, piece):
            return "rival aspect"
    else:
        asks_value = kind is not SlotKind.OPEN or fact is not None or bool(_ASKS_VALUE.match(question))
        problem = (modality_problem(question, clause, heading, f"{lead}\n{piece}") or lack_problem(question, piece) or empty_default(question, piece, kind)
                   or column_problem(question, piece) or not_money(question, clause) or prices_another(question, piece, lead, model)
                   or count_as_measure(question, clause) or counts_a_time(question, clause, filler) or clock_as_amount(question, clause, filler) or deferred_value(question, piece)
                   or default_not_a_number(question, clause, piece, kind) or counts_another(question, piece)
                   or measures_condition(question, clause, filler) or label_problem(question, piece, model)
                   or ("no value" if not counts_in_unit(question, _value_cells(clause)) else "")
                   or _aspect_problem(question, clause, piece, stated_value=asks_value))
        if problem:
            return problem
    # A changelog's heading gives the version and each item its own change: the item that
    # states the stage names the asked thing itself ("Added: drug library sync" under 3.1
    # says nothing of the serial port the item before it deprecates).
    if kind is SlotKind.VERSION and model.missing_named(question, with_synonyms(f"{heading}\n{lead}\n{piece}")):
        return "another subject"
    if attribute is not None:
        problem = _attribute_problem(question, attribute, f"{heading}\n{lead}", piece, model)
        if problem:
            return problem
    if term and not defines(term, piece, lead):
        return "not its definition"
    return ""


def _aspect_problem(question: str, clause: str, piece: str, *, stated_value: bool) -> str:
    """The value's clause (a table row: its value cells with their headers) must state an
    asked bound or stage (a range gives both bounds), and not only a rival end ("client"
    for the server's port). For a question that asks for no value (``stated_value`` false:
    why, how) only a rival bound or stage stated without the asked one is a problem, unless
    it asks for both bounds: a sentence with neither gives no range. A bound the question
    implies ("how many can ...") is refused only by its rival alone."""
    asked = asked_aspects(question)
    if not asked and not implied_bounds(question):
        return ""
    # The question's own names say nothing of its aspects ("the upper limit for max_connections"
    # is not stated by "max_connections | 512"); a table row is read whole, each value under
    # its own header (cut at a "—" cell, its clause would lose the header's columns).
    own = _without_names(_value_cells(piece if table_cells(piece) is not None else clause), identifiers(question))
    stated = aspects_in(own) | _identifier_aspects(own)
    if NEGATED_MAXIMUM.search(own):
        stated = (stated - {Aspect.MINIMUM}) | {Aspect.MAXIMUM}  # "not more than 5": no minimum
    if NEGATED_MINIMUM.search(own):
        stated = (stated - {Aspect.MAXIMUM}) | {Aspect.MINIMUM}
    for group in (_BOUNDS, frozenset({Aspect.ADDED, Aspect.DEPRECATED, Aspect.REMOVED})):
        wanted = asked & group
        if not wanted or wanted & stated:
            continue
        if group is _BOUNDS and _RANGE.search(own):
            continue
        if any(r in stated for a in wanted for r in RIVALS[a]):
            return "rival aspect"
        if stated_value or wanted == _BOUNDS or (asks_whether_bound(question) and not re.search(r"\d", own)):
            return "no aspect"  # both bounds asked ("shortest and longest"): a range or the bounds; whether one exists: a bound or a figure
    # "How many seats can an account have?" asks for the most without saying so: a sentence
    # with no bound may give it, one with only the least ("a minimum of 2 seats") does not.
    implied = implied_bounds(question)
    if implied and not implied & stated and not _RANGE.search(own) and any(r in stated for a in implied for r in RIVALS[a]):
        return "rival aspect"
    return "rival aspect" if _rival_end(question, piece) else ""


def _value_cells(piece: str) -> str:
    """A table row under its header, read as its values: the cells that hold a number with
    their headers ("Default 256 KiB" of "Key | Default | Description" over
    "message_size_limit | 256 KiB | Largest message body accepted"). A cell of words
    describes the setting ("Largest message body"), not what the value in the row is: the
    header over the value says that; the label under a header's empty corner does ("Minimum
    commitment | None | three deliveries"). Any other piece is read whole."""
    cells = table_cells(piece)
    return piece if cells is None else " ".join(f"{h} {c}" for h, c in cells if not h or re.search(r"\d", c))


def _rival_end(question: str, piece: str) -> bool:
    """The piece names only the other end of a connection than the one asked about (the
    client's port for the server's)."""
    ends = asked_aspects(question) & _ENDS
    stated = aspects_in(_without_names(piece, identifiers(question))) & _ENDS
    return bool(ends and stated and not ends & stated)


def _without_names(text: str, names: tuple[str, ...]) -> str:
    for name in names:
        text = re.sub(re.escape(name), " ", text, flags=re.IGNORECASE)
    return text


def _identifier_aspects(text: str) -> frozenset[Aspect]:
    """Bounds written inside a name ("FILE_UPLOAD_MAX_MEMORY_SIZE", "SQLITE_MAX_LENGTH")."""
    parts = " ".join(re.split(r"[_.]", " ".join(identifiers(text))))
    return aspects_in(parts) & _BOUNDS


def _attribute_problem(question: str, attribute: AskedAttribute, heading: str, piece: str, model: RelevanceModel) -> str:
    """The piece names the attribute (its head word, or a part of a name that holds it) as the
    subject's: not owned by another entity ("Ostrand's capital"), not after another entity's
    name ("the admin API listens on port ..."), and the subject's names stand in the piece or
    its heading (the rest of a claim never lends them)."""
    context = f"{heading}\n{piece}"
    if model.missing_named(question, with_synonyms(context)) or any(model.credit(name, context) < 1.0 for name in _names(question, model)):
        return "another subject"
    # The subject's ordinary words tell it from a sibling its names also cover: "a Tallow DB
    # primary" is not stated by a row of the replica's table.
    if any(model.credit(t, context) < model.root_credit for w in attribute.kind for t in model.analyzer.analyze(w) if not _common_term(t, model)):
        return "another subject"
    text = _MARKUP.sub("", piece)
    if not attribute.head:
        return ""
    # The words that say which one of the kind ("grace" of "grace period", "write" of "write
    # throughput") stand where the value does too: a billing period is no grace period.
    if any(model.credit(t, context) < model.root_credit for w in attribute.words[:-1] for t in model.analyzer.analyze(w)):
        return "another attribute"
    heads = {_stem(w) for w in (attribute.head, *synonyms(attribute.head))}
    asked = {_stem(p) for w in words_of(question) for p in [w, *re.split(r"[_.]", w)]}
    if attribute.verb and _other_doer(text, attribute.verb, asked):
        return "another subject"
    named = False
    for match in re.finditer(r"[\w'’-]+", text):
        if not any(_same(_stem(p), head) for p in [match.group(), *re.split(r"[_.]", match.group())] for head in heads):
            continue
        if _TITLE_WORD.fullmatch(match.group()) and not _OPENS.search(text[:match.start()]):
            continue  # part of a name ("Acme Robotics" holds no robots; SQLITE_MAX_COLUMN is a column limit)
        named = True
        if not _rival_before(text[:match.start()], asked, model) and not _rival_owner(text[match.end():], asked):
            return ""
    measured = measure_at(attribute.head, text)
    if not named and measured >= 0 and not _rival_before(text[:measured], asked, model):
        # "Filer accepts files of up to 5 GB": the value's unit says it is a size.
        return ""
    return "another subject" if named else "another attribute"


# A sentence opening with its subject: an article or a possessive, then a few words, then
# the verb ("The agent itself listens on port 7421").
_OPENING_ARTICLE = lazy_regex(r"(?:^|[.;:!?]\s+|\n)\s*(?:the|a|an|this|that|its|our|their|each|every)\s+", re.IGNORECASE)
_BESIDE_VERB = frozenset("itself themselves also only now still then always never just".split())


def _other_doer(text: str, verb: str, asked: set[str]) -> bool:
    """The sentence does the question's verb ("listen") with a subject of its own that the
    question does not name ("The agent itself listens on ..." for Korvex Server's port)."""
    stem = _stem(verb)
    for match in _OPENING_ARTICLE.finditer(text):
        words = re.findall(r"[\w'’-]+", text[match.end():])[:5]
        at = next((i for i, w in enumerate(words) if i and _stem(w) == stem), 0)
        # "The minimum payout Quarry Pay sends": a bound's word is the asked attribute's.
        doer = [w.casefold() for w in words[:at] if w.casefold() not in _BESIDE_VERB and not aspects_in(w)]
        if doer and any(_stem(w) not in asked for w in doer):
            return True
    return False


def subject_names(question: str, model: RelevanceModel) -> list[str]:
    """The analysed terms of the names that make up the subject ``question`` asks an
    attribute of ("Acme Robotics" of "How many employees does Acme Robotics have?"), ``[]``
    when it asks no attribute of a named subject (:func:`~agentic_rag._text.asked_attribute.
    read_attribute`). A passage that holds none of them is about another subject."""
    attribute = read_attribute(question)
    if attribute is None:
        return []
    subject = {t for w in attribute.subject for t in model.analyzer.analyze(w)}
    return [t for t in _names(question, model) if t in subject]


def _names(question: str, model: RelevanceModel) -> list[str]:
    """The analysed terms of the names ``question`` states ("Veloria", "K2", "idle_timeout"),
    but those most of the collection's documents hold (a project's own name in its
    documentation pins nothing down). The relevance model's own named terms leave out those
    a fifth of the documents hold: a small collection about a few countries names each in
    half its files, and each still tells the value's subject apart."""
    text = question.strip()
    names: list[str] = []
    for word in re.findall(r"[\w.\-/]+", text):
        core = word.strip(".-/")
        if core and (_NAMED.search(core) or re.match(r"^--?[A-Za-z]", word) or (core[0].isupper() and not text.startswith(core))):
            names.extend(model.analyzer.analyze(core))
    return list(dict.fromkeys(t for t in names if not _common_term(t, model)))


def _rival_before(before: str, asked: set[str], model: RelevanceModel) -> bool:
    """Another entity named before the attribute in its sentence: a name the question does
    not use ("Acme's subsidiary Brightline Systems is headquartered ...", "in Veloria, the
    official language ..."), or the subject's possessive over another noun ("Larkspur's
    partner, ..., is headquartered"). A name most of the collection holds (the project's own,
    "SQLite" in its documentation) is no other entity."""
    # The sentence's own clause: not a table's header, nor another cell, nor a label.
    clause = re.split(r"[;:|\n]\s*", before)[-1]
    start = len(clause) - len(clause.lstrip())
    for match in _NAME_LIKE.finditer(clause):
        word = match.group()
        core = re.sub(r"['’]s?$", "", word)
        possessive = core != word
        if not model.analyzer.analyze(core):
            continue  # "The", "Our": a stop word names nothing
        if _stem(core.casefold()) in asked:
            if possessive and any(_stem(w) not in asked for w in words_of(clause[match.end():])[:1]):
                return True  # "Larkspur's partner": the partner's attribute
            continue
        # A capitalised first word is only a name when it is one of two ("Cobalt Foods") or a
        # possessive ("Cobalt's"); "Logs are kept ..." opens a sentence.
        if match.start() == start and not (possessive or re.match(r"\s+[A-Z]", clause[match.end():]) or core.isupper()):
            continue
        if not _common(core, model):
            return True
    return False


def _common(word: str, model: RelevanceModel) -> bool:
    """Most of the collection's documents hold ``word`` (a project's own name)."""
    terms = model.analyzer.analyze(word)
    return bool(terms) and all(_common_term(t, model) for t in terms)


def _common_term(term: str, model: RelevanceModel) -> bool:
    weights = model.weights
    return weights.has_statistics and weights.frequency(term) > _COMMON_NAME_SHARE * weights.document_count


def _rival_owner(after: str, asked: set[str]) -> bool:
    """The attribute is another entity's: "the capital of Ostrand is Talvik" for Veloria's."""
    owner = _OWNER.match(after)
    return bool(owner) and any(_stem(w) not in asked for w in words_of(owner.group(1)))
