"""The order a page's blocks are read in, as poppler's pdftotext sorts them.

The blocks come from :mod:`agentic_rag._ingest.pdf.layout`; the steps follow poppler's
``TextPage::coalesce``:

1. Tables: a block, the nearest block to its right on its row, the nearest below it and the
   nearest below and to the right, aligned in both directions (left, right or centre edges
   within 0.3 font sizes; top, bottom or centre within half a font size), are cells of one
   table. A man page's option tag and its description, set side by side, are such cells: read
   row by row, each tag comes before its own description, not before the next tag.
2. Each block's box is extended sideways over the blocks below it, up to its neighbours, so a
   heading reads before the margin notes under it (a table's cells take the table's box first).
3. Blocks are sorted topologically with the two rules of T. Breuel's reading order: a block
   comes before one it overlaps horizontally and starts above; a block comes before one to its
   right unless a chain of overlapping blocks leads from the right one down to it. Cells of one
   table are read by rows instead: a cell comes after the cells to its left on its row and
   after those wholly above it.
"""

from __future__ import annotations

from typing import Protocol

__all__ = ["MAX_ORDERED_BLOCKS", "order_blocks"]

MAX_ORDERED_BLOCKS = 600
COLUMN_SLACK = 0.3      # cells of a column line up within this many font sizes
ROW_SLACK = 0.5         # cells of a row line up within this many font sizes
_INF = float("inf")


class Box(Protocol):
    """What ordering needs of a block: its box, its font size and its extended box (set here)."""

    x0: float
    x1: float
    y0: float
    y1: float
    size: float
    ex0: float
    ex1: float
    ey0: float
    ey1: float


def _aligned(a: Box, right: Box, below: Box, diagonal: Box) -> bool:
    """Whether four blocks, ``a`` top-left, line up as the cells of a two by two table."""
    dx = COLUMN_SLACK * min(a.size, right.size, below.size, diagonal.size)
    dy = ROW_SLACK * min(a.size, right.size, below.size, diagonal.size)
    columns = ((abs((a.x0 + a.x1) - (below.x0 + below.x1)) / 2 <= dx and abs((right.x0 + right.x1) - (diagonal.x0 + diagonal.x1)) / 2 <= dx)
               or (abs(a.x0 - below.x0) <= dx and abs(right.x0 - diagonal.x0) <= dx)
               or (abs(a.x1 - below.x1) <= dx and abs(right.x1 - diagonal.x1) <= dx))
    rows = ((abs((a.y0 + a.y1) - (right.y0 + right.y1)) / 2 <= dy and abs((below.y0 + below.y1) - (diagonal.y0 + diagonal.y1)) / 2 <= dy)
            or (abs(a.y0 - right.y0) <= dy and abs(below.y0 - diagonal.y0) <= dy)
            or (abs(a.y1 - right.y1) <= dy and abs(below.y1 - diagonal.y1) <= dy))
    return columns and rows


def _tables(blocks: list[Box]) -> list[int]:
    """Each block's table (an index), ``-1`` for a block in none."""
    table = [-1] * len(blocks)
    count = 0
    for i, a in enumerate(blocks):
        right = below = diagonal = None
        right_x = below_y = diagonal_x = diagonal_y = _INF
        for j, b in enumerate(blocks):
            if j == i:
                continue
            if b.y0 <= a.y1 and b.y1 >= a.y0 and a.x1 < b.x0 < right_x:
                right_x, right = b.x0, j
            elif b.x0 <= a.x1 and b.x1 >= a.x0 and a.y1 < b.y0 < below_y:
                below_y, below = b.y0, j
            elif a.x1 < b.x0 < diagonal_x and a.y1 < b.y0 < diagonal_y:
                diagonal_x, diagonal_y, diagonal = b.x0, b.y0, j
        if right is None or below is None or diagonal is None:
            continue
        r, d, g = blocks[right], blocks[below], blocks[diagonal]
        # The diagonal cell sits under the right one and beside the one below; no other overlap.
        if (d.x0 <= g.x1 and d.x1 >= g.x0) or (r.y0 <= g.y1 and r.y1 >= g.y0) or (r.x0 <= d.x1 and r.x1 >= d.x0) \
                or (r.y0 <= d.y1 and r.y1 >= d.y0) or not (g.x0 <= r.x1 and g.x1 >= r.x0 and g.y0 <= d.y1 and g.y1 >= d.y0):
            continue
        if not _aligned(a, r, d, g):
            continue
        found = max(table[i], table[right], table[below], table[diagonal])
        if found < 0:
            found = count
            count += 1
        for k in (i, right, below, diagonal):
            table[k] = found
    return table


def _extend(blocks: list[Box], table: list[int]) -> None:
    """Give each block its extended box: a table's cells the table's, then every block
    stretched sideways over the blocks below it, up to its neighbours on its lines."""
    envelopes: dict[int, list[float]] = {}
    for block, t in zip(blocks, table):
        if t >= 0:
            box = envelopes.setdefault(t, [_INF, -_INF, _INF, -_INF])
            box[0], box[1] = min(box[0], block.x0), max(box[1], block.x1)
            box[2], box[3] = min(box[2], block.y0), max(box[3], block.y1)
    for block, t in zip(blocks, table):
        block.ex0, block.ex1, block.ey0, block.ey1 = envelopes[t] if t >= 0 else (block.x0, block.x1, block.y0, block.y1)
    for block in blocks:
        left, right = -_INF, _INF
        for other in blocks:
            if other is not block and block.y0 <= other.y1 and block.y1 >= other.y0:
                if block.x1 < other.x0 < right:
                    right = other.x0
                if left < other.x1 < block.x0:
                    left = other.x1
        for other in blocks:
            if other is not block and other.y0 >= block.y1:
                if block.ex1 < other.x1 <= right:
                    block.ex1 = other.x1
                if block.ex0 > other.x0 >= left:
                    block.ex0 = other.x0


def order_blocks(blocks: list[Box]) -> list[Box]:
    """The blocks in reading order (as given when there are more than
    :data:`MAX_ORDERED_BLOCKS`: the sort is quadratic)."""
    count = len(blocks)
    if count > MAX_ORDERED_BLOCKS:
        return blocks
    table = _tables(blocks)
    _extend(blocks, table)
    # above[i] has bit j when block i overlaps block j horizontally and starts above it.
    above = [0] * count
    below_of = [0] * count
    for i, first in enumerate(blocks):
        for j, second in enumerate(blocks):
            if i != j and first.ex0 <= second.ex1 and second.ex0 <= first.ex1 and first.ey0 < second.ey0:
                above[i] |= 1 << j
                below_of[j] |= 1 << i

    def before(i: int, j: int) -> bool:
        if table[i] >= 0 and table[i] == table[j]:
            # Cells of one table: by rows, left to right.
            first, second = blocks[i], blocks[j]
            return (first.x1 <= second.x0 and first.y0 <= second.y1 and first.y1 >= second.y0) or first.y1 <= second.y0
        if above[i] >> j & 1:
            return True
        # Rule 2: i is left of j, unless some block lies below j and above i.
        return blocks[i].ex1 <= blocks[j].ex0 and not above[j] & below_of[i]

    visited = [False] * count
    out: list[Box] = []
    for start in range(count):
        if visited[start]:
            continue
        visited[start] = True
        stack = [(start, 0)]
        while stack:
            node, index = stack[-1]
            while index < count and (visited[index] or not before(index, node)):
                index += 1
            if index < count:
                stack[-1] = (node, index + 1)
                visited[index] = True
                stack.append((index, 0))
            else:
                stack.pop()
                out.append(blocks[node])
    return out
