"""An SVG picture of a hand, for papers and issue reports: a pure function of a ``Hand``.

The same table as the HTML picture (``render.html``), at every table of 3 to 12 players: the
seats clockwise from South (seat 0) at the bottom, each on the border of the picture's grid at
the compass point ``spades-ai play`` names it by (``render.html.seat_places``: a 3 x 3 grid up
to 8 players, 5 x 5 from 9), each seat's cards by suit (hearts and diamonds in red; a card
held twice is written twice), bid and tricks; the trick in progress in the middle, each card
on the side of its seat; for a finished hand the deal, its tricks in order (leader first, the
winner's card underlined) and each side's points. Every card is a ``<tspan>`` with
``data-card`` and ``data-where`` as in the HTML.

>>> from spades_ai import Hand, deal
>>> hand_svg(Hand(deal(seed=1))).startswith("<svg")
True
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import NamedTuple

from spades_ai.cards import RANK_CHARS
from spades_ai.capabilities import require_table
from spades_ai.render.html import SUIT_SYMBOLS, default_names, seat_letter, seat_places
from spades_ai.render.text import bid_text, trick_winners
from spades_ai.seats import seats, side_seats, sides

_RED, _BLACK = "#c8102e", "#111111"
#: a seat's box (name, bid and tricks, four suits) and the gaps between the boxes, in pixels
_BOX_W, _BOX_H, _GAP_X, _GAP_Y, _MARGIN = 200, 118, 30, 22, 20
#: the column of tricks at the right of a finished hand: its least width and a line's height
_TRICKS_W, _LINE = 295, 22


class Layout(NamedTuple):
    """Where a table's picture puts things: the grid (``size`` x ``size`` cells of ``box``
    pixels wide), each seat's cell (``places``: row, column from 1), and the picture's size."""

    size: int
    places: tuple[tuple[int, int], ...]
    box: int
    width: int
    height: int

    def cell(self, row: int, col: int) -> tuple[int, int]:
        """The top-left corner of a seat's box (its text's left edge and top)."""
        return _MARGIN + (col - 1) * (self.box + _GAP_X), _MARGIN + (row - 1) * (_BOX_H + _GAP_Y)

    def trick_slot(self, row: int, col: int) -> tuple[int, int]:
        """Where the card of the seat at (row, col) lies in the trick: in the middle of the
        table, below (or beside) the seat's box, against the middle's edge on the seat's side."""
        x0, y0 = self.cell(2, 2)
        x1, y1 = self.cell(self.size - 1, self.size - 1)
        x, y = self.cell(row, col)
        x = {1: x0, self.size: x1 + self.box - 60}.get(col, x + (self.box - 60) // 2)
        y = {1: y0, self.size: y1 + _BOX_H - 28}.get(row, y + (_BOX_H - 28) // 2)
        return x, y


def layout(hand) -> Layout:
    """The ``Layout`` of a hand's table: the boxes are ``_BOX_W`` wide at a table of one deck,
    and as wide as the longest line of cards needs with copies (a card held two or three times)."""
    size, places = seat_places(hand.rules.players)
    box = _BOX_W if hand.rules.decks == 1 else max(_BOX_W, max(_line_width(hand, s) for s in seats(hand.rules)))
    right, bottom = Layout(size, places, box, 0, 0).cell(size, size)
    return Layout(size, places, box, right + box + 20, bottom + _BOX_H + 12)  # 700 x 430 at 3 x 3 of 200


def _line_width(hand, seat: int) -> int:
    """The pixels the seat's longest suit needs at 15 px (a rank about 10, a space 4.5)."""
    cards = _seat_cards(hand, seat)
    faces = [[_face(c, True)[0] for c in cards.suit(suit)] for suit in (3, 2, 1, 0)]
    return max(28 + sum(10 * len(f) + 5 for f in line) for line in faces)


def _face(card, rank_only: bool) -> tuple[str, str]:
    name = str(card)
    if name in ("BJ", "LJ"):
        return name, _BLACK
    suit = int(card) // 13
    rank = RANK_CHARS[int(card) % 13]
    symbol = "" if rank_only and card.suit == suit else SUIT_SYMBOLS[suit]  # a high deuce keeps its symbol
    return ("10" if rank == "T" else rank) + symbol, _RED if suit in (1, 2) else _BLACK


def _tspan(card, where: str, underline: bool = False, rank_only: bool = False) -> str:
    face, colour = _face(card, rank_only)
    deco = ' text-decoration="underline"' if underline else ""
    return f'<tspan fill="{colour}" data-card="{card}" data-where="{where}"{deco}>{face}</tspan>'


def _seat_cards(hand, seat: int):
    return hand.deal[seat] if hand.phase == "over" else hand.cards(seat)


def _seat_block(hand, seat: int, names: Sequence[str], at: Layout) -> list[str]:
    x, y = at.cell(*at.places[seat])
    over = hand.phase == "over"
    cards = _seat_cards(hand, seat)
    bid = hand.bids[seat]
    head = f"{names[seat]}{' (dealer)' if hand.dealer == seat else ''}"
    meta = f"bid {bid_text(bid, hand.blind[seat])} · tricks {hand.tricks_won[seat]}"
    out = [f'<rect x="{x - 6}" y="{y - 4}" width="{at.box}" height="{_BOX_H}" rx="8" fill="#fff"/>',
           f'<text x="{x}" y="{y + 12}" font-weight="bold">{escape(head)}</text>',
           f'<text x="{x}" y="{y + 28}" font-size="12" fill="#444">{escape(meta)}</text>']
    for i, suit in enumerate((3, 2, 1, 0)):
        held = sorted(cards.suit(suit), key=lambda c: c.rank, reverse=True)
        colour = _RED if suit in (1, 2) else _BLACK
        spans = " ".join(_tspan(c, "dealt" if over else "hand", rank_only=True) for c in held) or "–"
        out.append(f'<text x="{x}" y="{y + 48 + 18 * i}"><tspan fill="{colour}">{SUIT_SYMBOLS[suit]}</tspan> {spans}</text>')
    return out


def _tricks_column(hand, x: int) -> list[str]:
    n = hand.rules.players
    plays, winners = list(hand.plays), trick_winners(hand)
    out = [f'<text x="{x}" y="30" font-weight="bold">Tricks (leader first, winner underlined)</text>']
    for k, winner in enumerate(winners):
        cells = " ".join(f"{seat_letter(s, n)} {_tspan(c, 'played', s == winner)}" for s, c in plays[n * k : n * k + n])
        out.append(f'<text x="{x}" y="{52 + _LINE * k}" font-size="13">{k + 1:>2}. {cells} → {seat_letter(winner, n)}</text>')
    return out


def _tricks_width(hand) -> int:
    """The column of tricks: ``_TRICKS_W``, or what its longest line needs at 13 px (a seat's
    number's or a rank's digit about 8.5 px, a suit 12, a space 4.5)."""
    n = hand.rules.players
    least = _TRICKS_W if n == 4 else _TRICKS_W + 35  # four seats keep their picture byte for byte
    lines = [hand.plays[k : k + n] for k in range(0, len(hand.plays), n)]
    return max([least] + [80 + sum(round(8.5 * (len(seat_letter(s, n)) + len(_face(c, False)[0])) + 12) for s, c in line)
                          for line in lines])  # fmt: skip


def side_labels(rules) -> tuple[str, ...]:
    """Each side's short name on the sheet: ``NS``, ``EW`` at four in pairs (its compass
    letters), else its seats (``seat 2``, ``seats 1, 4``)."""
    if rules.players == 4 and rules.n_sides == 2:
        return ("NS", "EW")
    return tuple(f"seat{'s' if len(side_seats(k, rules)) > 1 else ''} {', '.join(map(str, side_seats(k, rules)))}"
                 for k in sides(rules))  # fmt: skip


def _points_lines(hand, x: int, y: int) -> list[str]:
    """The hand's points and the match's score by side: two lines with two sides, else a line a side."""
    r, labels = hand.result(), side_labels(hand.rules)
    if len(labels) == 2:
        return [f'<text x="{x}" y="{y}" font-weight="bold">Points: {labels[0]} {r.points[0]:+d}, {labels[1]} {r.points[1]:+d}</text>',
                f'<text x="{x}" y="{y + 20}">Match: {labels[0]} {r.scores[0]}, {labels[1]} {r.scores[1]}</text>']
    out = [f'<text x="{x}" y="{y}" font-weight="bold">Points (match)</text>']
    for k, label in enumerate(labels):
        out.append(f'<text x="{x}" y="{y + 20 * (k + 1)}">{label}: {r.points[k]:+d} ({r.scores[k]})</text>')
    return out


def hand_svg(hand, names: Sequence[str] | None = None, title: str | None = None) -> str:
    """The SVG picture of a ``Hand`` (see the module docstring), as a standalone document, at
    every table (the ``svg`` part of ``spades_ai.capabilities``)."""
    require_table(hand.rules, "svg")
    at = layout(hand)
    names = default_names(hand.rules.players) if names is None else names
    finished = len(hand.plays) >= hand.rules.players
    body = [f'<rect x="0" y="0" width="{at.width}" height="{at.height}" rx="14" fill="#1d6b3a"/>']
    for seat in seats(hand.rules):
        body += _seat_block(hand, seat, names, at)
    for seat, card in hand.current_trick:
        cx, cy = at.trick_slot(*at.places[seat])
        body.append(f'<rect x="{cx - 6}" y="{cy - 16}" width="44" height="24" rx="4" fill="#fff"/>')
        body.append(f'<text x="{cx}" y="{cy + 2}" font-size="16">{_tspan(card, "trick")}</text>')
    x = at.width + 15
    width, bottom = (x + _tricks_width(hand), 52 + _LINE * hand.rules.cards_each) if finished else (at.width, 0)
    if finished:
        body += _tricks_column(hand, x)
    if hand.phase == "over":
        body += _points_lines(hand, x, bottom + 16)
        bottom += 16 + 20 * max(2, hand.rules.n_sides + 1)
    if title:
        body.append(f'<text x="20" y="{at.height - 6}" fill="#fff" font-size="12">{escape(title)}</text>')
    height = max(at.height + 10, bottom + 10)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
            f'font-family="Helvetica, Arial, sans-serif" font-size="15">' + "".join(body) + "</svg>\n")
