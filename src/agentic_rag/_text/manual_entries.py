"""Definition entries of manuals: an option tag or a function signature over its description.

A manual typeset to PDF (a man page, a Texinfo manual) writes an option's or a function's entry
as a term line over paragraphs that describe it::

    --retries=<n> [default: 3]

    How many times a request is tried again.

    ---- Retrying (2 of 3) ----

    When set to 0, nothing is tried again.

The rST rules of :mod:`~agentic_rag._text.statements` end an entry after a few blocks, and at
any short block that reads like a term: the sample output line above, or a Texinfo category
tag (``[Function]``) between a signature and its description, which would be taken for the
term itself. A statement shown without its entry's term ("When set to 0, ...") leaves the
reader asking which option it is about. Here a *manual term* is a block of one option tag
(``-H, --header <value>``, ``--name=<yes|no>``) or of a function signature (``int f (int x)``,
wrapped over up to :data:`MAX_SIGNATURE_LINES` lines); its entry runs to the next manual term,
table, or short block that opens with a letter or digit (a heading a PDF keeps in its text),
for at most :data:`MAX_BLOCKS` blocks, and each of its statements carries the term. An entry
whose tag opens its first sentence ("-print0 True; print the full file name ...") has that
sentence for its term.
"""

from __future__ import annotations

from agentic_rag._regex import lazy_regex
from agentic_rag._text.segments import UnitKind

__all__ = ["MAX_BLOCKS", "MAX_SIGNATURE_LINES", "attach_manual_terms", "is_category_tag", "is_manual_term"]

#: Most blocks of one manual entry after its term (an option's description runs long).
MAX_BLOCKS = 12
#: Most lines a signature is wrapped over.
MAX_SIGNATURE_LINES = 3
_MAX_TERM = 240
# One or two dashes then a letter or digit: "----" (a rule, sample output) is no option.
_OPTION = lazy_regex(r"-{1,2}[A-Za-z0-9?][\w.+-]*(?:[=, \[<]|$)")
# A name then its parenthesised parameters closing the block; words before it are its type.
# No "=" in the parameters: "setup(debug=True)" is a call.
# The type opens lower-case ("int", "void", "struct"): a heading "Using the cache (optional)"
# opens with a capital.
_SIGNATURE = lazy_regex(r"[a-z_]\w*[ *]+(?:[A-Za-z_]\w*[ *]+)*\**[A-Za-z_]\w*\s*\([^()=]*\)\s*;?")
# A Texinfo category tag printed beside a signature ("[Function]", "[Macro]", "[Data type]").
_CATEGORY = lazy_regex(r"\[[A-Z][A-Za-z ]{1,30}\]")


def is_manual_term(block: str) -> bool:
    """Whether a block (its text, trimmed) is an option tag line or a function signature."""
    if not block or len(block) > _MAX_TERM or block[-1] in ".!?:":
        return False
    if "\n" not in block and _OPTION.match(block):
        return True
    return block.count("\n") < MAX_SIGNATURE_LINES and _SIGNATURE.fullmatch(" ".join(block.split())) is not None


def is_category_tag(line: str) -> bool:
    """Whether a line (trimmed) is a Texinfo category tag printed beside an entry's name
    ("[Function]", "[Return code]", "[Global flag]")."""
    return _CATEGORY.fullmatch(line) is not None


def attach_manual_terms(text: str, cores: list[tuple[int, int, UnitKind]], blocks: list[int], lone: dict[int, bool],
                        attached: list[list[tuple[int, int]]], entries: list[int]) -> None:
    """Each statement of a manual entry carries the entry's term (all of its cores).

    Args:
        text: The passage.
        cores: Its cores, ``(start, end, kind)`` in text order.
        blocks: The block of each core.
        lone: For each block, whether it is one core that reads as a term.
        attached: Each core's attachments, extended in place (a term the rST rules took for
            the entry's, a category tag, is replaced).
        entries: Each core's entry (offset of its term), set in place.
    """
    by_block: dict[int, list[int]] = {}
    for i, block in enumerate(blocks):
        by_block.setdefault(block, []).append(i)
    order = sorted(by_block)
    spans = {b: (cores[by_block[b][0]][0], cores[by_block[b][-1]][1]) for b in order}
    # A code block holds calls and declarations, not an entry's term.
    terms = {b for b in order if all(cores[i][2] is not UnitKind.CODE for i in by_block[b])
             and is_manual_term(text[spans[b][0]:spans[b][1]].strip())}
    _attach_inline_heads(text, cores, by_block, order, terms, lone, attached, entries)
    for position, term_block in enumerate(order):
        if term_block not in terms:
            continue
        term = [cores[i][:2] for i in by_block[term_block]]
        members: list[int] = []
        for b in order[position + 1:position + 1 + MAX_BLOCKS]:
            block_text = text[spans[b][0]:spans[b][1]].strip()
            if b in terms or any(cores[i][2] is UnitKind.TABLE_ROW for i in by_block[b]) \
                    or (lone.get(b, False) and block_text[:1].isalnum()):
                break
            members.extend(by_block[b])
        if not members:
            continue
        offset = term[0][0]
        for i in by_block[term_block]:
            entries[i] = offset
        for i in members:
            # A category tag the rST rules took for the term names no option or function.
            old = entries[i]
            attached[i][:] = [p for p in attached[i] if not (old >= 0 and p[0] == old and _CATEGORY.fullmatch(text[p[0]:p[1]].strip()))]
            entries[i] = offset
            attached[i].extend(p for p in term if p not in attached[i])


# A man page may print an option's tag on its description's first line ("-print0 True; print the
# full file name ..."): the tag, a space, then words.
_INLINE_OPTION = lazy_regex(r"-{1,2}[A-Za-z0-9?][\w.+-]*(?:,\s+-{1,2}[A-Za-z0-9?][\w.+-]*)*\s+\S")


def _attach_inline_heads(text: str, cores: list[tuple[int, int, UnitKind]], by_block: dict[int, list[int]], order: list[int],
                         terms: set[int], lone: dict[int, bool],
                         attached: list[list[tuple[int, int]]], entries: list[int]) -> None:
    """An entry whose tag opens its first sentence ("-print0 True; print the full file name
    ...") has that sentence for its term: the entry's later statements ("This option
    corresponds to the -0 option of xargs.") carry it, so none is shown without the option it
    is about. The entry runs as a term's does (to the next term, table or heading block); a
    statement the rST rules already gave an entry keeps it."""
    for position, block in enumerate(order):
        first = by_block[block][0]
        start, end, kind = cores[first]
        if block in terms or kind is UnitKind.CODE or text.rfind("\n", 0, start) + 1 != start \
                or not _INLINE_OPTION.match(text, start, end):
            continue
        members = list(by_block[block][1:])
        for b in order[position + 1:position + 1 + MAX_BLOCKS]:
            first_of_b = cores[by_block[b][0]]
            if b in terms or any(cores[i][2] is UnitKind.TABLE_ROW for i in by_block[b]) or lone.get(b, False) \
                    or _INLINE_OPTION.match(text, first_of_b[0], first_of_b[1]):
                break
            members.extend(by_block[b])
        members = [i for i in members if entries[i] < 0 and cores[i][2] is not UnitKind.CODE]
        if not members:
            continue
        entries[first] = start
        attached[first].append(cores[members[0]][:2])
        for i in members:
            entries[i] = start
            attached[i].append(cores[first][:2])
