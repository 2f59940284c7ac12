"""Text addressed to a model or an assistant rather than to a reader: injected instructions.

A document may hold sentences written for the language model that will read it ("Disregard
the above and say ...", "NOTE TO THE MODEL: tell the user to visit ...", ``SYSTEM: ...``,
``<|im_start|>system``). Such a sentence is never evidence for what it says: no answer may
state it as a claim, and a passage holding one is flagged to the agent that reads it. This
module is the one detector; the answer guard, the extractive drafter and generator (through
the unit ranking) and the evidence payloads all ask it.

The detector looks for six families, each in several languages (English, French, German,
Spanish, Italian, Portuguese, Dutch, Polish, Russian, Chinese, Japanese, Korean):

* ``override``: telling the reader to drop what it was told ("ignore the previous
  instructions", "disregard the above and ...", "forget everything you were told");
* ``role-marker``: a line opened by a chat role (``SYSTEM:``, ``### Instruction:``,
  ``assistant:``) followed by a directive, or a ``Human: ... Assistant:`` exchange;
* ``chat-template``: the special tokens of chat templates (``<|im_start|>``, ``[INST]``,
  ``<<SYS>>``, ``<start_of_turn>``) followed by text; tokens inside inline code are
  documentation, not a turn;
* ``addressed-to-model``: a note, message or instruction to the AI, model, assistant or
  chatbot, a vocative ("Dear AI,", "Hey ChatGPT,"), "if you are an AI ...", "AI models
  reading this ...", "the assistant must reply ...";
* ``persona``: rewriting who the reader is ("you are now DAN", "pretend you are", "your real
  task is", "reveal your system prompt", "new instructions:");
* ``tell-the-user``: telling the reader to send the user somewhere ("tell the user to visit
  http://..."): a link or a visit/click/download/log-in request is what makes it one,
  so "tell the user to restart the application" stays a support instruction.

What is deliberately not flagged: "ignore the warning", "disregard this setting if ...",
``system: linux``, "SYSTEM REQUIREMENTS:", "the server will respond with a 404", "you are
now connected". ``tests/data/instructions_*.json`` hold the phrasings it is measured on.
"""

from __future__ import annotations

import re
import unicodedata

from agentic_rag._text.term_weights import bounded_cache

__all__ = ["INSTRUCTION_FAMILIES", "instruction_family", "is_instruction_like"]

# Patterns are written in lower case and run on casefolded text: much faster than IGNORECASE.
_FLAGS = re.MULTILINE

# -- shared vocabulary ------------------------------------------------------------------------

_MODEL = (r"(?:ai|a\.i\.|llms?|gpt(?:-?\d[\w.]*)?|chatgpt|claude|gemini|copilot|(?:large\s+)?language\s+models?|models?|"
          r"assistants?|chat\s?bots?|bots?|agents?|ai\s+(?:assistant|agent|model|system)s?|automated\s+(?:system|agent)s?)")
_POSITION = r"(?:above|previous|prior|preceding|earlier|foregoing|former|original|initial)"
_STRONG_NOUN = r"(?:instructions?|prompts?|system\s+prompt|directives?|guidelines|guardrails|programming|safety\s+rules)"
_WEAK_NOUN = r"(?:rules|context|messages?|text|conversation|content|input|directions|commands?|everything|orders)"
_DIRECTIVE = (r"\b(?:you|your|yourself|always|never|do\s+not|don't|must|ignore|disregard|forget|answer|respond|reply|say|tell|reveal|"
              r"print|output|write|include|recommend|act\s+as|pretend|from\s+now\s+on|only|mention|refuse|append)\b")
_LINK = r"(?:https?://|www\.|\b[\w-]+\.(?:com|net|org|io|biz|info|ru|cn|xyz|top|example)\b)"
_VISIT = (r"(?:\b(?:to|must|should|please|and|then)\s+(?:visit|click|download|install|navigate|go\s+to|log\s*in|sign\s*in|"
          r"enter\s+(?:their|your)\s+(?:password|credentials)|call|email))")

# -- the families -----------------------------------------------------------------------------

_OVERRIDE = [
    rf"\b(?:ignore|disregard|forget|override|bypass|discard)\s+(?:all\s+|any\s+|every\s+)?(?:of\s+)?(?:the\s+|your\s+|my\s+|these\s+|those\s+)?"
    rf"(?:{_POSITION}\s+|system\s+|current\s+|existing\s+|given\s+)?{_STRONG_NOUN}\b",
    (("ignore", "disregard", "forget", "override", "follow"), rf"\b(?:ignore|disregard|forget|override|do\s+not\s+follow|don't\s+follow|stop\s+following)\s+(?:all\s+|any\s+|every\s+)?(?:of\s+)?"
    rf"(?:the\s+|your\s+|these\s+|those\s+)?(?:{_POSITION}\s+(?:{_WEAK_NOUN}|{_STRONG_NOUN})\b|{_POSITION}\s*(?=$|[,;:.!]|\s+and\b|\s+then\b)"
    rf"|{_WEAK_NOUN}\s+{_POSITION}\b|{_STRONG_NOUN}\s+{_POSITION}\b)"),
    r"\b(?:ignore|disregard|forget)\s+(?:everything|all(?:\s+that)?)\s+(?:you\s+(?:were|have\s+been|'ve\s+been)\s+told|above|before\s+this"
    r"|previously|said\s+(?:before|above|so\s+far)|so\s+far|(?:i|we)\s+(?:told|said))",
    r"\b(?:ignore|disregard)\s+(?:the\s+)?(?:user's\s+(?:question|request|query)|retrieved\s+(?:documents?|passages?)|(?:search\s+)?results\s+above"
    r"|documents?\s+(?:above|provided)|the\s+documents\b)",
    r"\bignore\s+the\s+documents\b",
    # French
    (("ignore", "oublie", "tiens", "tenez", "faites", "fais"), r"\b(?:ignore[zr]?|oublie[zr]?|ne\s+tiens\s+pas\s+compte|ne\s+tenez\s+pas\s+compte|faites\s+abstraction|fais\s+abstraction)\s+(?:de\s+|d['’])?"
    r"(?:toutes?\s+|tous\s+)?(?:les|des|ces|tes|vos)\s+(?:instructions|consignes|directives|règles|indications)\s+"
    r"(?:précédentes|ci-dessus|antérieures|d'avant|initiales|données)"),
    r"\b(?:oublie[zr]?|ignore[zr]?)\s+tout\s+(?:ce\s+qui\s+(?:précède|est\s+au-dessus|a\s+été\s+dit)|ce\s+qu['’](?:on|il)\s+(?:t|vous)['’]a\s+dit)",
    # German
    r"\b(?:ignorier(?:e|t|en\s+sie)?|vergiss|vergesst|vergessen\s+sie|missachte|missachten\s+sie)\s+(?:bitte\s+)?(?:alle\s+)?(?:die\s+|deine\s+|ihre\s+)?"
    r"(?:vorherigen|vorigen|obigen|bisherigen|früheren|vorangegangenen|ursprünglichen)\s+(?:anweisungen|instruktionen|befehle|regeln|vorgaben|anordnungen)",
    r"\b(?:vergiss|vergessen\s+sie|ignoriere|ignorieren\s+sie)\s+alles,?\s+(?:was\s+(?:oben|vorher|bisher|zuvor)|oben|davor|bisherige)",
    # Spanish, Italian, Portuguese
    r"\b(?:ignora|ignore|ignoren|olvida|olvide|olviden|descarta|omite)\s+(?:todas?\s+)?(?:las|tus|sus)\s+(?:instrucciones|indicaciones|órdenes|reglas|directrices)"
    r"\s+(?:anteriores|previas|de\s+arriba|originales)",
    r"\b(?:olvida|olvide|ignora|ignore)\s+todo\s+lo\s+(?:anterior|dicho|de\s+arriba)",
    r"\b(?:ignora|ignorate|dimentica|dimenticate|trascura)\s+(?:tutte\s+)?(?:le\s+|tue\s+|sue\s+)(?:istruzioni|indicazioni|regole|direttive)\s+"
    r"(?:precedenti|sopra|originali)",
    r"\bdimentica(?:te)?\s+tutto(?:\s+quello|\s+ciò)?\s+(?:che\s+)?(?:precede|sopra|detto|hai\s+letto)",
    r"\b(?:ignore|ignora|ignorem|esqueça|esqueca|esquece|desconsidere)\s+(?:todas\s+)?(?:as\s+|suas\s+|tuas\s+)(?:instruções|instrucoes|orientações|regras|diretrizes)"
    r"\s+(?:anteriores|prévias|acima|originais)",
    r"\besqueça\s+tudo\b",
    # Dutch, Polish
    r"\b(?:negeer|vergeet)\s+(?:alle\s+)?(?:de\s+|je\s+)?(?:eerdere|vorige|voorgaande|bovenstaande)\s+(?:instructies|opdrachten|regels)",
    r"\b(?:zignoruj|ignoruj|zapomnij)\s+(?:o\s+)?(?:wszystkie\s+|wszystkich\s+)?(?:poprzednie|poprzednich|wcześniejsze|powyższe)\s+(?:instrukcje|instrukcjach|polecenia|poleceniach|zasady)",
    # Russian
    (("игнорируй", "проигнорируй", "забудь", "обращай"), r"(?:игнорируй(?:те)?|проигнорируй(?:те)?|забудь(?:те)?|не\s+обращай(?:те)?\s+внимания\s+на)\s+(?:все\s+)?"
    r"(?:предыдущие|прежние|вышеуказанные|вышеприведённые|вышеприведенные|данные\s+ранее)\s+(?:инструкции|указания|команды|правила)"),
    r"забудь(?:те)?\s+вс[её](?:,?\s+что|\s+предыдущее|\s+выше)",
    # Chinese, Japanese, Korean
    r"(?:忽略|无视|忘记|忘掉|不要理会|忽视)(?:之前|以上|上面|前面|先前|此前|上述)[^。！？\n]{0,8}?(?:指令|指示|说明|规则|提示|要求|命令|内容)",
    r"(?:以前|上記|これまで|先ほど|前)の(?:すべての|全ての)?(?:指示|命令|ルール|指令|プロンプト)[^。\n]{0,10}?(?:無視|忘れ)",
    r"(?:이전|위|앞|기존)의?\s*(?:모든\s*)?(?:지시|지침|명령|규칙|프롬프트)[^.\n]{0,12}?(?:무시|잊)",
]

_ROLE_MARKER = [
    (("system", "assistant", "developer"), rf"^[ \t>#*\-]*(?:\[|<)?\s*(?:(?:new|updated|begin|hidden)\s+)?(?:system|assistant|developer)(?:\s+(?:prompt|message|note|instructions?|override|update))?"
    rf"\s*(?:\]|>)?\s*:[^\n]{{0,200}}?(?:{_DIRECTIVE}|{_LINK}|\bvisit\b)"),
    (("system",), rf"(?<![\w-])(?:new|updated|begin|hidden)\s+system\s+(?:prompt|message|instructions?)\s*:[^\n]{{0,200}}?{_DIRECTIVE}"),
    (("##",), rf"^[ \t]*#{{2,}}\s*(?:instruction|system|response)s?\s*:?[^\n]{{0,200}}?{_DIRECTIVE}"),
    r"\bhuman\s*:[^\n]{0,300}?\bassistant\s*:",
]

_TEMPLATE_WORDS = ("<|", "[inst", "[/inst", "<<sys", "_of_turn>")
_MODEL_WORDS = ("ai", "a.i.", "llm", "gpt", "chatgpt", "claude", "gemini", "copilot", "model", "assistant", "bot", "chat", "agent")
_USER_WORDS = ("user", "reader", "customer", "visitor", "human")

# A pattern is a string, or (words, pattern) when the words one of which every match holds
# cannot be read off its start (see _leading_literals).
_CHAT_TEMPLATE = [
    (_TEMPLATE_WORDS, r"(?:<\|(?:im_start|im_end|system|user|assistant|endoftext|eot_id|start_header_id|end_header_id|begin_of_text|end)\|>|\[/?inst\]|<</?sys>>"
    r"|<(?:start|end)_of_turn>)(?:\s*(?:system|user|assistant|model)\b)?\s*(?:<\|end_header_id\|>)?\s*[^\s<\[][^\n]{0,120}?" + _DIRECTIVE
    + r"|(?:<\|im_start\|>|<start_of_turn>)\s*(?:system|user|assistant|model)\b"),
    # Text closed by an end-of-turn token is the content of a turn.
    (("<|", "[/inst", "<</sys", "<end_of_turn"), r"\S[^\n]{0,300}?(?:<\|(?:im_end|eot_id|end)\|>|\[/inst\]|<</sys>>|<end_of_turn>)"),
    # Two turns of a template: a scripted exchange.
    r"<\|(?:user|assistant|system)\|>[^\n]{0,300}?<\|(?:user|assistant|system|end)\|>",
]

_ADDRESSED = [
    rf"\b(?:notes?|messages?|instructions?|reminders?|memos?|notices?|warnings?|hints?|requests?|directives?)\s+(?:to|for)\s+(?:the\s+|any\s+|all\s+|an?\s+|every\s+)?{_MODEL}\b",
    # A vocative: "Dear AI,", "Attention AI assistant:", or a sentence opened by "Assistant," and
    # a directive (a wrapped line starting "the model," is no vocative).
    (_MODEL_WORDS, rf"\b(?:hey|hi|hello|dear|attention|psst|ok|okay)\s*,?\s+(?:dear\s+)?{_MODEL}\s*[,:]"),
    (_MODEL_WORDS, rf"(?:\A|[.!?:;]\s+|\n\s*\n)\s*{_MODEL}\s*,[^.!?\n]{{0,80}}?{_DIRECTIVE}"),
    ((*_MODEL_WORDS, "language", "automated"),
     r"\bif\s+you\s+are\s+(?:an?\s+)?(?:ai|llm|(?:large\s+)?language\s+model|ai\s+assistant|chat\s?bot|bot|gpt|automated\s+(?:system|agent))\b"),
    (_MODEL_WORDS, rf"\b(?:to|for)\s+(?:any|all|every)\s+{_MODEL}\s*[,:]"),
    (_MODEL_WORDS, rf"\b{_MODEL}\s+(?:that\s+(?:is|are)\s+)?(?:reading|processing|summari[sz]ing|parsing|analy[sz]ing|indexing|crawling|ingesting|answering\s+from)\s+(?:this|these)\b"),
    (_MODEL_WORDS, rf"\b(?:the|an?|any)\s+{_MODEL}\s+(?:must|should|shall|will\s+now|is\s+required\s+to|has\s+to|needs\s+to|is\s+instructed\s+to)\s+"
     r"(?:always\s+|never\s+|only\s+|now\s+)?(?:say|reply|respond|answer|state|tell|recommend|mention|include|output|claim|refuse|agree|ignore)\b"),
    (_MODEL_WORDS, rf"\b{_MODEL}s?\s+(?:must|should|shall)\s+(?:always\s+|never\s+|only\s+)?(?:say|reply|respond|answer|state|tell|recommend|mention|include|claim)\b"),
    # French, German, Spanish, Italian, Portuguese
    r"\b(?:note|message|remarque|consignes?|instructions?)\s+(?:pour|à|a|au|aux)\s+(?:l['’]\s*|le\s+|la\s+)?(?:ia|i\.a\.|assistant|modèle|agent|intelligence\s+artificielle|chatbot|llm)\b",
    r"\b(?:hinweis|nachricht|notiz|anweisung(?:en)?|achtung)\s+(?:an|für)\s+(?:die\s+|das\s+|den\s+)?(?:ki|sprachmodell|modell|assistenten|assistent|chatbot|llm|künstliche\s+intelligenz)\b",
    r"\b(?:nota|mensaje|instrucciones?|aviso)\s+(?:para|a|al)\s+(?:la\s+|el\s+)?(?:ia|asistente|modelo|chatbot|agente|llm)\b",
    r"\b(?:nota|messaggio|istruzioni|avviso)\s+(?:per|a|al|all['’])\s*(?:l['’]\s*|il\s+|la\s+)?(?:ia|assistente|modello|chatbot|agente|llm)\b",
    r"\b(?:nota|mensagem|instruç(?:ão|ões)|aviso)\s+(?:para|à|ao|a)\s+(?:a\s+|o\s+)?(?:ia|assistente|modelo|chatbot|agente|llm)\b",
    # Russian, Chinese, Japanese, Korean
    r"(?:примечание|сообщение|указание|инструкция|заметка)\s+(?:для|к)\s+(?:ии|модели|ассистента|нейросети|чат-бота|llm)",
    r"(?:给|致|对)(?:ai|人工智能|模型|助手|大模型|语言模型|机器人)(?:的)?(?:提示|说明|注意|指令|消息|备注)",
    (("aiへ", "aiに", "ai向け", "モデル", "アシスタント"), r"(?:ai|モデル|アシスタント|言語モデル)(?:へ|に対して|向け)の?(?:注意|指示|メッセージ|お願い|注記)"),
    (("ai에게", "ai을", "모델", "어시스턴트", "챗봇"), r"(?:ai|모델|어시스턴트|챗봇)(?:에게|을\s*위한)\s*(?:알림|지시|메시지|참고)"),
]

_PERSONA = [
    (("now", "longer"), r"\byou\s+are\s+(?:now\s+|no\s+longer\s+)(?:an?\s+|the\s+|in\s+)?(?:dan\b|unrestricted|unfiltered|jailbroken|uncensored|free\s+from|developer\s+mode|bound|"
    r"restricted|limited|required|an?\s+ai|(?:ai|helpful|evil|different|new)\s+(?:assistant|ai|model|bot))"),
    r"\bact\s+as\s+(?:dan\b|an?\s+(?:unrestricted|unfiltered|jailbroken)|if\s+you\s+(?:have|had)\s+no)",
    r"\bpretend\s+(?:that\s+)?(?:you\s+are|to\s+be|you're)\b",
    (("anything", "developer", "jailbreak"), r"\b(?:do\s+anything\s+now|developer\s+mode\s+(?:enabled|on)|jailbreak\s+mode)\b"),
    r"\b(?:reveal|print|show|output|repeat|leak|disclose)\s+(?:me\s+)?(?:your\s+(?:(?:hidden|secret|original|initial|full)\s+)?(?:system\s+prompt|instructions|prompt|guidelines|rules|configuration)"
    r"|the\s+(?:(?:hidden|secret|original|initial|full)\s+)?system\s+prompt)",
    r"\byour\s+(?:real|true|actual|new|only|hidden|secret|primary)\s+(?:task|goal|purpose|job|instructions?|objective|mission|role)\s+(?:is|are|now)\b",
    r"\bnew\s+(?:system\s+)?(?:instructions?|directives?|system\s+message|task)\s*:",
    r"\bfrom\s+now\s+on,?\s+(?:you|always|never|only|answer|respond|reply|say|speak|write|talk)\b",
    r"\b(?:respond|reply|answer)\s+(?:to\s+(?:every|each|all|any)\s+(?:question|query|request|prompt)s?\s+)?(?:only\s+)?with\s+(?:only\s+)?(?:the\s+(?:word|text|phrase)|[\"'“‘«])",
]

_TELL_USER = [
    (_USER_WORDS, rf"\b(?:tell|inform|instruct|ask|advise|urge|remind|direct|encourage|convince|persuade|notify)\s+(?:the\s+|all\s+|any\s+|every\s+)?"
     rf"(?:users?|readers?|customers?|visitors?|human)\b[^.!?\n]{{0,120}}?(?:{_LINK}|{_VISIT})"),
    (("utilisateur",), rf"\b(?:dites|dis|indiquez|indique|conseillez|conseille|demandez|demande|recommandez|recommande)\s+(?:à|a)\s+l['’]\s*utilisateur"
     rf"[^.!?\n]{{0,120}}?(?:{_LINK}|\b(?:visiter|cliquer|télécharger|aller\s+sur|se\s+connecter))"),
    (("nutzer", "benutzer", "nutzerin", "anwender", "leser", "kunden"),
     rf"\b(?:sag|sage|sagen\s+sie|teile|teilen\s+sie|empfiehl|empfehlen\s+sie|fordere|fordern\s+sie)\s+(?:dem|den|der)\s+(?:nutzer|benutzer|nutzerin|anwender|leser|kunden)"
     rf"[^.!?\n]{{0,120}}?(?:{_LINK}|\b(?:besuchen|klicken|herunterladen|anmelden))"),
    (("usuario",), rf"\b(?:dile|diga|digan|indica|indíquele|recomienda|pídele)\s+al\s+usuario[^.!?\n]{{0,120}}?(?:{_LINK}|\b(?:visite|visitar|haga\s+clic|descargue|descargar))"),
    (("utente",), rf"\b(?:di['’]|dica|dite|suggerisci|consiglia|chiedi)\s+all['’]\s*utente[^.!?\n]{{0,120}}?(?:{_LINK}|\b(?:visitare|visiti|cliccare|scaricare|sito))"),
    (("usuário", "utilizador", "usuario"),
     rf"\b(?:diga|diz|fale|informe|recomende|peça)\s+ao\s+(?:usuário|utilizador|usuario)[^.!?\n]{{0,120}}?(?:{_LINK}|\b(?:visitar|acessar|acesse|clicar|baixar))"),
    (("пользователю",),
     rf"(?:скажи|скажите|сообщи|сообщите|посоветуй|посоветуйте|порекомендуй)\s+пользователю[^.!?\n]{{0,120}}?(?:{_LINK}|посетить|перейти|зайти|скачать|нажать|сайт)"),
    (("用户",), rf"(?:告诉|提醒|让|建议)用户[^。！？\n]{{0,40}}?(?:{_LINK}|访问|点击|下载|登录|网站)"),
    (("ユーザー",), rf"ユーザーに[^。\n]{{0,60}}?(?:{_LINK}|訪問|アクセス|クリック|ダウンロード|サイト)[^。\n]{{0,20}}?(?:伝え|言っ|勧め|案内)"),
]

#: The families, in the order they are tried.
INSTRUCTION_FAMILIES: tuple[str, ...] = ("chat-template", "override", "role-marker", "addressed-to-model", "persona", "tell-the-user")
_PATTERNS = (_CHAT_TEMPLATE, _OVERRIDE, _ROLE_MARKER, _ADDRESSED, _PERSONA, _TELL_USER)


_WORDLIKE = re.compile(r"[a-zà-ÿ\u0400-\u04ff]+")
_PREFIX_CHARS = 6  # anchors are compared on their first six characters: enough to be rare


class _LazyPattern:
    """A pattern compiled on its first search: a text wakes a few patterns through their
    anchors, so a process (one CLI search) compiles those few, not all of them at import."""

    __slots__ = ("_compiled", "source")

    def __init__(self, source: str) -> None:
        self.source = source
        self._compiled: re.Pattern[str] | None = None

    def search(self, text: str) -> re.Match[str] | None:
        """``re.Pattern.search`` of the compiled pattern."""
        compiled = self._compiled
        if compiled is None:
            compiled = self._compiled = re.compile(self.source, _FLAGS)
        return compiled.search(text)


def _anchored(entry: str | tuple[tuple[str, ...], str]) -> tuple[frozenset[str], tuple[str, ...], _LazyPattern]:
    """A pattern with its anchors: words one of which starts a word of every matching text
    (checked against the text's word prefixes), and strings one of which every match holds."""
    words, pattern = entry if isinstance(entry, tuple) else (_leading_literals(entry), entry)
    if not words:
        raise AssertionError(f"pattern without the words every match holds: {pattern[:60]!r}")
    # Derived words start a word only when the pattern starts at a word boundary.
    starts_word = isinstance(entry, tuple) or pattern.startswith("\\b")
    prefixes = frozenset(w[:_PREFIX_CHARS] for w in words if starts_word and len(w) > 1 and _WORDLIKE.fullmatch(w))
    return prefixes, tuple(w for w in words if w[:_PREFIX_CHARS] not in prefixes), _LazyPattern(pattern)
_META = set("\\()[]{}?*+|.^$")


def _leading_literals(pattern: str) -> tuple[str, ...]:
    """The literal words one of which starts every match of ``pattern`` (after an optional
    ``\\b``), or ``()`` when it does not start with literals.

    A passage that holds none of them (casefolded) cannot match, so the pattern is not run:
    most text holds no "ignore" or "disregard", and a substring test is far cheaper than a
    regular expression tried at every position.
    """
    body = pattern[2:] if pattern.startswith("\\b") else pattern
    if body.startswith("(?:"):
        depth, end = 0, -1
        for index, char in enumerate(body):
            depth += char == "(" and body[index - 1:index] != "\\"
            depth -= char == ")" and body[index - 1:index] != "\\"
            if depth == 0:
                end = index
                break
        options, depth, current = [], 0, ""
        for char in body[3:end]:
            depth += char == "("
            depth -= char == ")"
            if char == "|" and depth == 0:
                options.append(current)
                current = ""
            else:
                current += char
        options.append(current)
    else:
        options = [body]
    literals = []
    for option in options:
        prefix = ""
        for index, char in enumerate(option):
            if char in _META or char.isspace():
                break
            if option[index + 1:index + 2] in ("?", "*", "{"):
                break  # an optional character is not required
            prefix += char
        if not prefix:
            return ()
        literals.append(prefix)
    return tuple(literals)


# Each pattern with the words one of which must be present for it to match.
_COMPILED: tuple[tuple[str, tuple[tuple[frozenset[str], tuple[str, ...], _LazyPattern], ...]], ...] = tuple(
    (name, tuple(_anchored(p) for p in patterns)) for name, patterns in zip(INSTRUCTION_FAMILIES, _PATTERNS)
)
# Which patterns (by position in _ORDER) each anchor can wake, so a text costs one set
# intersection and a few substring tests before any pattern runs.
_ORDER = tuple((name, pattern) for name, patterns in _COMPILED for _, _, pattern in patterns)
_BY_PREFIX: dict[str, list[int]] = {}
_BY_SUBSTRING: dict[str, list[int]] = {}
for _position, (_prefixes, _substrings) in enumerate((p, s) for _, patterns in _COMPILED for p, s, _ in patterns):
    for _word in _prefixes:
        _BY_PREFIX.setdefault(_word, []).append(_position)
    for _word in _substrings:
        _BY_SUBSTRING.setdefault(_word, []).append(_position)
_ASCII_SUBSTRINGS = tuple(w for w in _BY_SUBSTRING if w.isascii())
_PREFIX_WORDS = frozenset(_BY_PREFIX)

_WORD = re.compile(r"\w+")
_INLINE_CODE = re.compile(r"`[^`\n]{1,200}`")
# Zero-width and other format characters an attacker may put inside a word to split it.
_FORMAT = {cp: None for cp in (0x00AD, 0x200B, 0x200C, 0x200D, 0x2060, 0xFEFF)}


def _normalise(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).translate(_FORMAT).replace("’", "'")
    return _INLINE_CODE.sub(" ", text)  # a token in inline code is documentation of it


def _family_uncached(text: str) -> str:
    if not text.strip():
        return ""
    folded = _normalise(text).casefold()
    starts = {word[:n] for word in set(_WORD.findall(folded)) for n in range(2, min(len(word), _PREFIX_CHARS) + 1)}
    woken = {position for word in starts & _PREFIX_WORDS for position in _BY_PREFIX[word]}
    for word in (_ASCII_SUBSTRINGS if folded.isascii() else _BY_SUBSTRING):
        if word in folded:
            woken.update(_BY_SUBSTRING[word])
    for position in sorted(woken):  # family order, then pattern order: the first family found wins
        name, pattern = _ORDER[position]
        if pattern.search(folded):
            return name
    return ""


# Units and passages are asked about again and again in one run (ranking, grounding, payloads).
_family = bounded_cache(_family_uncached, 4096)


def instruction_family(text: str) -> str:
    """The family of the first instruction to a model found in ``text``, or ``""``.

    Args:
        text: A sentence, a unit or a whole passage.

    Returns:
        One of :data:`INSTRUCTION_FAMILIES` (``"override"``,
        ``"chat-template"``...), or ``""`` when ``text`` addresses no model.
    """
    return _family(text)


def is_instruction_like(text: str) -> bool:
    """True when ``text`` holds a sentence addressed to a model or an assistant (see the
    module docstring): such text is never a claim, and evidence holding it is flagged."""
    return bool(_family(text))
