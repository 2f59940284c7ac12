"""Whether the price a sentence gives is the price of the asked item.

A page of charges prices many items: "How much does the ferry charge to carry a canoe?" is
not answered by "Each passenger may bring two bags free of charge", nor "How much does it
cost to hire a pedalo?" by "A day fishing permit costs £7", though both hold a sum of money
and stand under the asked item's heading ("Pedalos and fishing"). The question names the
item it prices ("to carry a canoe", "for a flu jab", "a day of fishing", "a replacement
card"); the sentence that gives its price names it too (a word of it: "£9 per canoe", "Adult
single | £7.80"), and "How much is the extended warranty for a HydroLeaf H3?" prices the
warranty, not the H3 ("HydroLeaf H3 controller | £129" is the model's own price, and
"firmware 4.x on both H3 and H5" no price at all). A charge asked per one unit ("the idle fee
per minute") is not given by sums per another ("Guest price per kWh"). :func:`prices_another`
and :func:`rate_per_another` read one sentence, a line or a table row.
"""

from __future__ import annotations

import re

from agentic_rag._answering.amounts import gives_money
from agentic_rag._answering.word_roots import same_root as _same, stem_word as _stem
from agentic_rag._regex import lazy_regex
from agentic_rag._text.asked_attribute import synonyms, words_of
from agentic_rag._text.relevance import RelevanceModel

__all__ = ["priced_item", "prices_another", "rate_per_another"]

_PAYING = r"(?:cost|costs|charge|charges|charged|pay|paid)"
_AUXILIARY = r"(?:is|are|was|were|does|do|did|will|would)"
# How a question names the item it prices: "... charge (in Eastport) to carry a canoe",
# "... cost for a flu jab", "how much is a replacement card", "how much does a day of
# fishing cost", "what does the Team plan cost".
_PRICED = (
    lazy_regex(rf"\b{_PAYING}\s+(?:(?:in|at|on)\s+(?-i:[A-Z])[\w'’-]*(?:\s+(?-i:[A-Z])[\w'’-]*){{0,3}}\s+)?(?:to|for)\s+(?P<item>[^?]+)", re.IGNORECASE),
    lazy_regex(rf"^\W*how\s+much\s+(?:is|are|was|were)\s+(?P<item>[^?]+)", re.IGNORECASE),
    # Closing in "cost" (read apart: a pattern ending in it retried the white space before it
    # from every position of a long run).
    lazy_regex(rf"^\W*(?:how\s+much|what)\s+{_AUXILIARY}\s+(?P<item>[^?]+)", re.IGNORECASE),
)
# "How much does winter storage cost for a keelboat?": the service paid for, before "cost".
_COST_SUBJECT = lazy_regex(r"^\W*(?:how\s+much|what)\s+(?:does|do|did|will|would)\s+(?P<service>(?:[\w'’-]+\s+){1,4}?)cost\s+(?:to|for)\s", re.IGNORECASE)
_CLOSING_COST = frozenset({"cost", "costs"})
# Where the item's words end: a phrase of place, time, seller or manner ("a canoe on the
# Gullness crossing", "an adult single from Port Askel", "the plan each month"). Found from
# the white space before the word, never from each space of a run.
_ITEM_END = lazy_regex(r"(?<!\s)\s+(?:at|in|on|from|with|during|per|each|every|this|next|last|when|if|by|before|after|nowadays|today|now)\b", re.IGNORECASE)
# A verb of carrying or getting before the item ("to carry a canoe", "to take a bike"): any
# sentence on the page may say it ("passengers may carry two bags"), so only the thing names
# the item. A verb of the service itself ("hire", "spay") stays.
_CONVEYING = lazy_regex(
    r"^\s*(?:carry|carrying|take|taking|bring|bringing|get|getting|have|having|use|using|buy|buying|book|booking|put|send|ship)\s+"
    r"(?=(?:a|an|the|my|our|one|your)\s)",
    re.IGNORECASE,
)
_SENTENCE_END = lazy_regex(r"[.!?]\s*$")
# What the item is for, when it is a name: "the extended warranty for a HydroLeaf H3" prices a
# warranty (the model owns it; a row of the model's own price names the model, not the item).
_FOR_NAME = lazy_regex(r"(?<!\s)\s+for\s+(?:(?:a|an|the|my|our|your)\s+)?(?-i:[A-Z])", re.IGNORECASE)
# "How much is the X?": a thing named with its article, whose price a sentence that names
# none of its words does not give, sum of money or not ("how much is reserved" asks no price).
_ASKS_THING = lazy_regex(r"^\W*how\s+much\s+(?:is|are|was|were)\s+(?:a|an|the|my|our|your|one)\s", re.IGNORECASE)
# Words that name the payment or the span it covers, not the thing paid for ("a day of
# fishing": any price "a day" says so).
_PAYMENT_WORDS = frozenset(
    "price prices cost costs fee fees charge charges fare fares rate rates amount much hour hours day days night nights week weeks month months "
    "year years".split()
)


def priced_item(question: str) -> tuple[str, ...]:
    """The words of the item ``question`` asks the price of ("a", "canoe" of "How much does the
    ferry charge to carry a canoe?"; "hire", "a", "pedalo" of "How much does it cost to hire
    a pedalo?"), case-folded; ``()`` when it asks no price of a named item."""
    for index, pattern in enumerate(_PRICED):
        match = pattern.search(question)
        if not match:
            continue
        item = match.group("item").rstrip(" .!")
        if index == len(_PRICED) - 1:
            head, _, last = item.rpartition(" ")
            if last.casefold() not in _CLOSING_COST:
                # "What does a canoe cost at Gullness?": "cost" closes the item's words, before
                # a phrase of place or time.
                head, _, last = _ITEM_END.split(item, maxsplit=1)[0].rpartition(" ")
            if last.casefold() not in _CLOSING_COST:
                continue  # "what does the agent use": no price asked
            item = head
        item = _CONVEYING.sub("", _ITEM_END.split(item, maxsplit=1)[0])
        owned = _FOR_NAME.split(item, maxsplit=1)[0]
        item = owned if words_of(owned) else item
        return tuple(w for w in words_of(item) if w not in _PAYMENT_WORDS)
    return ()


def prices_another(question: str, piece: str, lead: str, model: RelevanceModel) -> str:
    """``"another subject"`` when ``question`` asks the price of an item and ``piece``, which
    states a sum of money (or any number, for "how much is the X"), names no word of that item (nor does a line that introduces it):
    its sum is another item's price. ``""`` otherwise, and for a question that prices no
    named item.

    Args:
        question: The asked clause of one question part.
        piece: A sentence, a line, or a table row with its header row.
        lead: What the piece's paragraph or list item says before it; only a line that
            introduces it ("Bicycles:") or a term over it names its item (not the heading: a
            heading over a list of charges names every item under it).
        model: The collection's relevance model (its analyser tells stop words).
    """
    item = [w for w in priced_item(question) if model.analyzer.analyze(w)]
    if not item or not (gives_money(piece) or _ASKS_THING.match(question)):
        return ""  # no price here ("how much is reserved for the cache" asks no price either)
    if _another_size(question, piece):
        return "another subject"
    wanted = {_stem(s) for w in item for s in (w, *synonyms(w))}
    # The lines before that name what follows ("Bicycles:", a term over its entry) lend the
    # item; a sentence before the piece is about its own item.
    # A table's header row over the text ("Item | Price") names no item.
    lent = [line for line in lead.split("\n") if "|" not in line
            and (line.rstrip().endswith(":") or (line.strip() and len(line.split()) <= 4 and not _SENTENCE_END.search(line)))]
    stated = {_stem(p) for w in words_of("\n".join([*lent, piece])) for p in re.split(r"[-/_.]", w) if p}
    named = [w for w in item if any(_same(_stem(s), b) for s in (w, *synonyms(w)) for b in stated)]
    # "How much does winter storage cost for a keelboat?" prices the storage, for the boat: a
    # line naming the boat but not the storage ("Boat park space, keelboat | £140") prices
    # another service.
    paid = _COST_SUBJECT.match(question)
    service = [w for w in words_of(paid.group("service")) if w not in _PAYMENT_WORDS and model.analyzer.analyze(w)] if paid else []
    if service and not any(_same(_stem(s), b) for w in service for s in (w, *synonyms(w)) for b in stated):
        return "another subject"
    # "a private ski lesson" is priced by a line that names the lesson, or most of its words:
    # "children ski free" names one word of it, and prices skiing.
    if not named or (len(item) > 2 and item[-1] not in named and 2 * len(named) <= len(item)):
        return "another subject"
    return ""


# "What is the idle fee per minute ...?": a charge asked per a unit.
# Only "per" says so: "the price of a whole wheel", "charge for an extra bag" name the item.
_ASKS_RATE = lazy_regex(r"\b(?:fees?|prices?|charges?|costs?|rates?|tariffs?|fares?)\b[^?]*?\bper\s+([a-z]+)\b", re.IGNORECASE)
# A sum of money, and the unit written after it or in its column's header ("£0.74 per kWh",
# "£2 an hour", "Guest price per kWh").
_SUM = lazy_regex(r"[£$€¥]\s*\d[\d.,]*|\d[\d.,]*\s*(?:p|pence|cents?|pounds?|dollars?|euros?)\b", re.IGNORECASE)
_PER_UNIT = lazy_regex(r"\s*(?:(?:per|a|an|each|every)\s+|/\s*)([A-Za-z]+)", re.IGNORECASE)
_HEADER_UNIT = lazy_regex(r"(?:\bper\s+|/\s*)([A-Za-z]+)\b", re.IGNORECASE)


def rate_per_another(question: str, piece: str) -> str:
    """``"another attribute"`` when ``question`` asks a charge per one unit ("the idle fee per
    minute") and every sum of money ``piece`` gives is per another ("DC 150 kW | £0.74 |
    £0.62" under "Guest price per kWh | Member price per kWh", "£2 an hour"): a price per kWh
    is no charge per minute. A sum with no unit stated is left to the other checks."""
    asked = _ASKS_RATE.search(question)
    if not asked:
        return ""
    lines = piece.strip().split("\n")
    header = [c.strip() for c in lines[0].strip().strip("|").split("|")] if len(lines) == 2 and "|" in lines[0] else []
    row = [c.strip() for c in lines[-1].strip().strip("|").split("|")] if header else [piece]
    units: list[str] = []
    for index, cell in enumerate(row):
        for money in _SUM.finditer(cell):
            after = _PER_UNIT.match(cell, money.end())
            above = _HEADER_UNIT.search(header[index]) if len(header) == len(row) else None
            unit = after or above
            if unit is None:
                return ""
            units.append(unit.group(1))
    wanted = _stem(asked.group(1))
    return "another attribute" if units and not any(_same(_stem(u), wanted) for u in units) else ""


# A pack size as a price list writes it ("1 kg", "250 g", "500 ml", "2 litres"), with how many of
# the kind's smallest unit each unit holds: a kilogram is 1,000 grams.
_SIZE = lazy_regex(r"(?<![\w.,])(\d+(?:[.,]\d+)?)\s*(kg|kilos?|kilograms?|g|grams?|ml|millilitres?|milliliters?|cl|l|litres?|liters?)(?![\w])", re.IGNORECASE)
_UNIT_SIZES = {"kg": ("mass", 1000), "kilo": ("mass", 1000), "kilos": ("mass", 1000), "kilogram": ("mass", 1000), "kilograms": ("mass", 1000),
               "g": ("mass", 1), "gram": ("mass", 1), "grams": ("mass", 1), "ml": ("volume", 1), "millilitre": ("volume", 1),
               "millilitres": ("volume", 1), "milliliter": ("volume", 1), "milliliters": ("volume", 1), "cl": ("volume", 10),
               "l": ("volume", 1000), "litre": ("volume", 1000), "litres": ("volume", 1000), "liter": ("volume", 1000), "liters": ("volume", 1000)}


def _sizes(text: str) -> set[tuple[str, float]]:
    """The pack sizes ``text`` names, each as its kind and its amount in the kind's smallest unit."""
    out = set()
    for match in _SIZE.finditer(text):
        kind, factor = _UNIT_SIZES[match.group(2).casefold()]
        number = match.group(1)
        # "1,000 g" groups thousands; "1,5 l" writes a decimal comma.
        number = number.replace(",", "") if re.fullmatch(r"\d{1,3},\d{3}", number) else number.replace(",", ".")
        out.add((kind, float(number) * factor))
    return out


def _another_size(question: str, piece: str) -> bool:
    """True when ``question`` prices an item of a size ("a 1 kg bag of Finca Las Nubes") and
    ``piece`` names sizes of that kind, none of them the asked one ("... | 250 g" over the
    coffee's row): its price is for another size."""
    asked = _sizes(" ".join(priced_item(question)))
    stated = _sizes(piece)
    kinds = {kind for kind, _ in asked}
    return bool(asked) and any(kind in kinds for kind, _ in stated) and not asked & stated
