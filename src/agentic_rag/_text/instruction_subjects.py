"""Whether a matched order has a subject of its own: a description, not an order to the reader.

"Ignore all previous rules" tells the reader what to do; "the firewall will ignore all
previous rules", "this option tells the compiler to ignore the preceding directives", "le
pare-feu ignore toutes les règles précédentes", "防火墙会忽略之前的所有规则" and "ファイアウォールは
それ以前のルールをすべて無視します" say what a program does. The words are the same; what differs
is that the verb has a subject, or an agent before "to", in its clause. The override and
persona rules of :mod:`agentic_rag._text.instructions` ask :func:`described` about each match
and pass over a description.

A subject is read from the words before the verb, back to the start of the clause: after the
auxiliaries and adverbs that may stand between ("will", "can", "always", "automatically",
"to"), a noun phrase with a determiner ("the firewall", "il firewall", "die Firewall") or a
number ("Version 2", "RFC 9110"), a pronoun that names a thing ("it", "which"), or one noun before a verb in the present tense
("Zapora ignoruje", "Brandväggen ignorerar"). It is no subject when it is the reader ("you", "your task is to"),
a model ("the assistant will now ignore ..."), a courtesy or a label ("please", "kindly",
"SYSTEM OVERRIDE", "important"). In Chinese a verb after 会, 将 or 可以 is described; in Japanese
and Korean a verb ending a plain statement (します, 합니다) is, an imperative (してください, 하세요)
is not.

A sentence that reports what someone else claims, says or believes ("Some blogs claim Acme
Robotics was founded in 1850, which is false", "Some vendors claim their model ignores previous
prompts") is a description too, whatever it reports: :func:`reported` reads it (a reporting
verb near the start with a subject of its own, no words to the reader, no quoted speech), and
the detector does not let the fitted scorer flag it on those words alone.
"""

from __future__ import annotations


from agentic_rag._regex import lazy_regex

__all__ = ["described", "reported"]

# Words that may stand between a subject and its verb.
_BETWEEN = frozenset("will would can could may might must should shall does did do also always then automatically simply just silently "
                     "never not only first still usually normally typically often to now then be been being told asked configured set "
                     "instructed made used".split())
# Words before a verb that make it an order to the reader: the reader, a task set for it
# ("your task is to"), a wish ("I need you to").
_READER = frozenset("you your yourself yourselves i we me us sure need needs want wants have has had going able try remember is are was "
                    "tu vous du ihr usted ustedes você vocês jij je ты вы".split())
# A courtesy, an adverb of time or a label before an order ("please", "SYSTEM OVERRIDE").
_LABELS = frozenset("please pls kindly and or but so then now just simply also hereby henceforth ok okay hey system override admin "
                    "important urgent note notice attention warning new update instruction instructions".split())
# "This message overrides all previous instructions" is the text speaking of itself.
_SELF = frozenset("message note text document page paragraph line section prompt directive instruction instructions command memo email "
                  "notice update rule".split())
# Present-tense endings of a verb with a subject (Polish and Czech "ignoruje", Swedish "ignorerar",
# Russian "игнорирует"), where the imperative ends otherwise ("ignoruj", "ignorera", "игнорируй").
_THIRD_PERSON = ("je", "ar", "er", "ет", "ит", "ют", "ят", "ут")
_MODELS = frozenset("ai llm llms gpt chatgpt claude gemini copilot model models assistant assistants bot bots chatbot chatbots agent agents "
                    "summarizer summariser ia ki ии".split())
_DETERMINERS = frozenset("the this that these those a an each every its our their his her any some no le la les l il lo gli el los las "
                         "o os as der die das den dem des de het een un une una uno um uma ein eine einen einem einer mon ma mes son sa "
                         "ses ce cet cette ces".split())
_THING_PRONOUNS = frozenset("it they which who he she il elle ils elles er es él ella ello lui lei esso essa ele ela hij zij het".split())
_CLAUSE_BREAK = lazy_regex(r"[.!?;:,()\[\]\"“”«»\n]")
_WORD = lazy_regex(r"[^\W_][\w'’./#-]*")
# Chinese: "will", "can", "automatically", "always" before the verb.
_ZH_MODAL = lazy_regex(r"(?:会|將|将|能|可以|能够|總是|总是|自动|就会|都会)\s*$")
# Japanese and Korean: a plain statement after the verb.
_STATEMENT_END = lazy_regex(r"^[^。.!?！？\n]{0,6}?(?:します|する|される|されます|しています|합니다|한다|됩니다|된다|합니까)")


def _unspaced(text: str) -> bool:
    return any("\u3040" <= ch <= "\u9fff" or "\uac00" <= ch <= "\ud7af" for ch in text)


def described(folded: str, start: int, end: int) -> bool:
    """True when the match ``folded[start:end]`` (casefolded text) describes what something
    does rather than tells the reader to do it (see the module docstring)."""
    before = folded[max(0, start - 160):start]
    if _unspaced(folded[start:end]):
        return bool(_ZH_MODAL.search(before) or _STATEMENT_END.match(folded[end:end + 12]))
    breaks = [m.end() for m in _CLAUSE_BREAK.finditer(before)]
    words = _WORD.findall(before[breaks[-1] if breaks else 0:])
    between = False
    while words and words[-1] in _BETWEEN:
        between = True
        words.pop()
    words = [w for w in words if not w.endswith("ly") or w in _DETERMINERS]
    if not words or any(w in _READER or w in _MODELS for w in words) or "this" in words and any(w in _SELF for w in words):
        return False
    if any(w in _DETERMINERS or w in _THING_PRONOUNS or any(ch.isdigit() for ch in w) for w in words):
        return True  # a noun phrase, a pronoun, or a name with a number ("Version 2 supersedes ...")
    if any(w in _LABELS for w in words):
        return False
    # Words with no determiner: a noun phrase only with an auxiliary between them and the verb
    # ("Nginx will ignore"), or one noun of a language without articles before a verb in the
    # present tense ("Zapora ignoruje", "Brandväggen ignorerar").
    verb = _WORD.match(folded[start:start + 80])  # the verb is a word, not a run of data
    return between or len(words) == 1 and verb is not None and verb.group().endswith(_THIRD_PERSON)


# A verb that reports what someone claims, says or believes, in the first words of a sentence.
_REPORTING = lazy_regex(
    r"(?<![^\W_])(?:claim|claims|claimed|say|says|said|believe|believes|believed|report|reports|reported|allege|alleges|alleged|"
    r"assert|asserts|asserted|insist|insists|insisted|argue|argues|argued|suggest|suggests|suggested|maintain|maintains|maintained|"
    r"write|writes|wrote|think|thinks|thought|assume|assumes|assumed)(?![^\W_])")
_REPORT_HEAD_CHARS = 80
# What opens the subject of a report: a determiner or a quantifier ("some blogs", "the vendor").
_OPENERS = frozenset("some many several a an few most one two three other others certain various numerous the these those this that "
                     "its their his her our both all each every".split())
# After a noun ("what the user says can override ..."), never after a reporting verb.
_AUXILIARIES = frozenset("is are was were be been can could will would shall should may might must has have had do does did of in on "
                         "as to for by with from and or".split())  # the reporting verb of a sentence's main clause comes early
# Words to the reader anywhere in the sentence, and quoted or announced speech after the verb:
# "Some blogs say: ignore the rules" quotes an order, it does not report a claim.
_TO_READER = lazy_regex(r"(?<![^\W_])(?:you|your|yours|yourself|yourselves)(?![^\W_])")
_SPEECH = lazy_regex(r"[:\"“”«»]|(?<![^\W_])'|'(?![^\W_])")


def reported(folded: str) -> bool:
    """True when the English sentence ``folded`` (casefolded) reports what someone else claims,
    says or believes: a reporting verb in its first words after a subject opened by a
    determiner or a quantifier ("Some blogs claim ...", "Several older guides say ...", "The
    vendor insists ..."), neither the reader, nor a model, nor a courtesy or a label; the verb
    no noun ("the warranty claim was ...", "this report") and followed by what is reported, not
    by an auxiliary ("what the user says can ..."); no word to the reader in the sentence, and
    no quoted or announced speech after the verb."""
    if not folded.isascii() or _TO_READER.search(folded):
        return False
    for verb in _REPORTING.finditer(folded, 0, _REPORT_HEAD_CHARS):
        before = folded[:verb.start()]
        if _CLAUSE_BREAK.search(before) or _SPEECH.search(folded, verb.end()):
            return False
        words = _WORD.findall(before)
        after = _WORD.findall(folded[verb.end():verb.end() + 40])[:1]
        while words and words[-1] in _BETWEEN:
            words.pop()
        if (words and len(words) <= 6 and words[0] in _OPENERS and words[-1] not in _DETERMINERS and after and after[0] not in _AUXILIARIES
                and not any(w in _READER or w in _MODELS or w in _LABELS for w in words)):
            return True
    return False
