"""Cues that together make a sentence an instruction to a model, whatever its wording.

The phrasings in :mod:`agentic_rag._text.instruction_patterns` are exact shapes; an attacker
rewords ("erase your earlier orders", "deja de seguir las reglas anteriores"). This module
reads a sentence for kinds of words instead and flags it when they meet in one sentence:

* ``override``: a verb that drops or stops obeying something ("ignore", "wipe", "no longer
  follow"), a noun for what a model was told ("instructions", "guidance", "directives";
  "rules" or "context" only when they are the reader's) and a word placing it before or
  giving it to the reader ("previous", "above", "your", "you were given"), in twenty-six
  languages ("drop the initial commands" is about a database: "commands" and "orders" count
  only as the reader's own);
* ``addressed-to-model``: a model named as the one addressed ("To the AI that is reading
  this page:", "you, the assistant,", "Für die KI, die ...:") followed by an imperative.

Every cue is a word list, so a text costs a few linear scans. Patterns run on casefolded text as reader sees it
(see :mod:`agentic_rag._text.instructions`).
"""

from __future__ import annotations

import itertools
import re

from agentic_rag._regex import lazy_regex
from agentic_rag._text.instruction_subjects import described

__all__ = ["SENTENCE_BREAK", "cue_family", "reader_orders"]

_OVERRIDE_VERB = lazy_regex(
    r"\b(?:ignore|ignoring|disregard|forget|discard|drop|skip|wipe|erase|abandon|cancel|override|overrule|bypass|set\s+aside|put\s+aside|"
    r"(?:stop|quit)\s+(?:following|obeying)|no\s+longer\s+(?:follow|obey)|(?:do\s+not|don't|never)\s+(?:follow|obey))\b"
    # French, German, Spanish, Italian, Portuguese, Dutch, Polish, Czech, Swedish, Danish, Turkish, Indonesian
    r"|\b(?:ignor(?!es\b|ed\b|ing\b)\w*|oubli\w*|ne\s+(?:suis|suivez|tiens|tenez)\s+plus|vergiss\w*|vergessen|befolge\s|missacht\w*|olvid\w*|deja\s+de\s+seguir|"
    r"no\s+sigas|dimentic\w*|non\s+seguire\s+più|esqueç\w*|desconsider\w*|pare\s+de\s+seguir|negeer|vergeet|volg\s|zignoruj|zapomnij|"
    r"przestań|zapomeň\w*|glöm|glem|unut\w*|abaikan|lupakan)"
    # Russian and Ukrainian, Greek, Hebrew, Arabic, Hindi, Vietnamese, Chinese, Japanese, Korean
    r"|(?:игнорир\w*|проигнорир\w*|забуд\w*|не\s+следуй|ігнор\w*|αγνόησ\w*|ξέχασ\w*|התעלם|שכח|تجاهل|انس|अनदेखा|भूल|bỏ\s+qua|quên|"
    r"忽略|无视|忘记|忘掉|不要再遵循|不再遵循|無視|忘れ|従うのをやめ|무시|잊|따르지\s*말)")
_ORDERS = lazy_regex(
    r"\b(?:instructions?|prompts?|guidance|guidelines|directives?|directions)\b"
    r"|\b(?:consignes|instructions|règles|anweisungen|regeln|vorgaben|instrucciones|reglas|indicaciones|istruzioni|regole|instruções|"
    r"orientações|regras|instructies|regels|instrukcj\w*|polece\w*|pokyny|instrukce|instruktioner\w*|instruksjoner|regler\w*|talimat\w*|"
    r"instruksi|aturan)\b"
    r"|(?:инструкци\w*|указани\w*|правил\w*|інструкці\w*|вказівк\w*|οδηγίεσ|οδηγιών|הוראות|ההוראות|التعليمات|تعليمات|निर्देश\w*|hướng\s+dẫn|"
    r"指令|指示|说明|规则|ルール|지시|규칙)")
_YOURS = r"(?:your|you\s+(?:were|have\s+been|'ve\s+been)\s+(?:given|told|handed)|given\s+to\s+you|set\s+for\s+you)"
# "the rules you were given", "your configuration" ("override it with your own" after "logging
# configuration" is the reader's own code).
_GIVEN_TO_YOU = r"(?:you\s+(?:were|have\s+been|'ve\s+been)\s+(?:given|told|handed)|given\s+to\s+you|set\s+for\s+you)"
_READER_ORDERS = lazy_regex(rf"\b(?:rules|context|task|configuration|setup|orders|commands)\b[^.!?\n]{{0,30}}\b{_GIVEN_TO_YOU}"
                            rf"|\b{_YOURS}\s+(?:\w+\s+)?(?:rules|context|task|configuration|setup|orders|commands)\b")
_BEFORE = lazy_regex(
    r"\b(?:previous|prior|earlier|above|preceding|original|initial|your|so\s+far|before\s+this|you\s+(?:were|have\s+been|'ve\s+been)\s+given|"
    r"you\s+received)\b"
    r"|\b(?:précédent\w*|ci-dessus|antérieur\w*|vorherig\w*|obig\w*|bisherig\w*|früher\w*|anterior\w*|previas?|arriba|precedent\w*|sopra|"
    r"acima|vorige|eerdere|bovenstaande|poprzedni\w*|wcześniejsz\w*|powyższ\w*|předchozí|tidigare|ovan|ovenfor|önceki|yukarıdaki|"
    r"sebelumnya)\b"
    r"|(?:предыдущ\w*|прежн\w*|выше|попередн\w*|προηγούμεν\w*|παλιέσ|הקודמות|הקודמים|السابقة|पिछले|trước\s+đây|trước\s+đó|之前|以前|以上|"
    r"上面|上述|前の|上記|これまで|이전|위의)")
_MODEL = (r"(?:ai|a\.i\.|llms?|gpt[\w.-]*|chatgpt|claude|gemini|(?:large\s+)?language\s+models?|models?|assistants?|chat\s?bots?|bots?|"
          r"summari[sz]ers?|ia|ki|ии)")
_ADDRESSEE = lazy_regex(
    rf"(?:^|[.!?:;(]\s*)(?:to|for|dear|hey|hello|hi|attention|note\s+(?:to|for))\s+(?:the\s+|any\s+|all\s+|every\s+|each\s+|whichever\s+)?{_MODEL}\b"
    rf"(?:\s*,?\s*(?:that|which|who|reading|processing|summari[sz]ing|parsing|indexing|answering)\b[^.!?:\n]{{0,60}})?\s*:\s*\S"
    rf"|\byou,\s+(?:the|an?)\s+{_MODEL}\s*,"
    rf"|(?:^|[.!?]\s*)(?:pour|für|an|para|per|voor|do|для|к)\s+(?:l['’]\s*|die\s+|den\s+|das\s+|la\s+|el\s+|a\s+|o\s+|de\s+|het\s+)?{_MODEL}\b"
    rf"(?:\s*,?\s*(?:qui|die|der|das|que|che|dat|który|które|котор\w*)\b[^.!?:\n]{{0,60}})?\s*:\s*\S", re.MULTILINE)
#: Where a sentence ends for the cue readers: after end punctuation and white space, or at a line break.
SENTENCE_BREAK = lazy_regex(r"(?<=[.!?。！？])\s+|\n")


# Every override match in Latin letters names one of these, or the reader's own rules ("your ...",
# "... you were given"): a substring test spares most ASCII text the regular expressions.
_ASCII_NOUNS = ("instruc", "prompt", "guidance", "guideline", "directive", "direction", "consigne", "regel", "regl", "regol", "regra", "regler",
                "anweisung", "vorgabe", "indicac", "istruzion", "orientac", "instruks", "instrukt", "instrukc", "polece", "pokyn", "talimat",
                "aturan")
_ASCII_YOURS = ("your", "you were", "you've been", "you have been", "given to you", "set for you")


def cue_family(folded: str) -> str:
    """``"override"`` or ``"addressed-to-model"`` when one sentence of ``folded`` (casefolded
    text as a reader sees it) holds the cues of that family together, else ``""``."""
    if _override(folded):
        return "override"
    # The addressee pattern never reaches past a sentence's end; every match holds ":" or "you,".
    if (":" in folded or "you," in folded) and _ADDRESSEE.search(folded):
        return "addressed-to-model"
    return ""


def _override(folded: str) -> bool:
    ascii_text = folded.isascii()
    nouns = not ascii_text or any(n in folded for n in _ASCII_NOUNS)
    yours = not ascii_text or any(y in folded for y in _ASCII_YOURS)
    if not (nouns or yours) or not _OVERRIDE_VERB.search(folded):
        return False
    # Each cue is first looked for in the whole text; sentences are read one by one only when
    # every cue of the family is somewhere in it.
    if not ((nouns and _ORDERS.search(folded) and _BEFORE.search(folded)) or (yours and _READER_ORDERS.search(folded))):
        return False
    return any(_ordered(sentence) and ((_ORDERS.search(sentence) and _BEFORE.search(sentence)) or _READER_ORDERS.search(sentence))
               for sentence in SENTENCE_BREAK.split(folded))


def _ordered(sentence: str) -> bool:
    # An override verb the reader is told to follow, not one a program is said to follow ("the
    # scheduler ignores earlier instructions in the queue").
    return any(not described(sentence, m.start(), m.end()) for m in itertools.islice(_OVERRIDE_VERB.finditer(sentence), 4))



def reader_orders(folded: str) -> bool:
    """True when ``folded`` names the reader's own rules or orders ("the rules you were given",
    "your setup"): a feature of :mod:`agentic_rag._text.instruction_scorer`."""
    return bool(_READER_ORDERS.search(folded))
