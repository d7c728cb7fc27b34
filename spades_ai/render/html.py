"""HTML pictures of a hand: pure functions from a ``Hand``, an ``Observation``, a
``HandResult`` or a ``CardSet`` to a string of HTML (one ``<div>`` with its own style sheet).

The table is drawn as players see it: seat 0 South at the bottom, seat 1 West on the left,
seat 2 North at the top, seat 3 East on the right (``SEAT_LETTERS``, as at ``spades-ai play``'s
table and in the PBN records of ``spades_ai.pbn``); at other tables the seats go clockwise from
the bottom the same way, each at the compass point ``spades-ai play`` names it by
(``seat_places``: up to 8 players around a 3 x 3 grid, 9 to 12 around a 5 x 5 one, the trick in
the middle). Each seat shows its cards by suit (spades
first, high cards first, hearts and diamonds in red), its bid and its tricks against the bid;
the middle shows the trick in progress. A finished hand shows the deal, its tricks in order
(who led, every card, who won) and its score sheet.

Every card carries ``data-card`` (its name, ``AS``) and ``data-where`` (``hand``: still held,
``dealt``: the deal of a finished hand, ``trick``: in the trick in progress, ``played``: in a
finished trick), so a test or a script can read the picture back.

>>> from spades_ai import CardSet
>>> "♠" in cards_html(CardSet("AS 7H"))
True
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence

from spades_ai.cards import RANK_CHARS, CardSet
from spades_ai.engine.state import P_TO_ACT
from spades_ai.pbn import SEAT_LETTERS
from spades_ai.seats import seats
from spades_ai.render.text import TABLE_SEATS, bid_text, result_side_seats, seat_names, sheet_rows, trick_winners

#: The suit symbols by suit id (clubs, diamonds, hearts, spades).
SUIT_SYMBOLS = "♣♦♥♠"
#: The 16 points of the compass clockwise from South, as ``render.text.TABLE_SEATS`` names the
#: seats (you are South); the 8 main points are every other one.
COMPASS = ("South", "South-south-west", "South-west", "West-south-west", "West", "West-north-west", "North-west",
           "North-north-west", "North", "North-north-east", "North-east", "East-north-east", "East", "East-south-east",
           "South-east", "South-south-east")  # fmt: skip


def _ring(size: int) -> list[tuple[int, int]]:
    """The border cells (row, column; from 1) of a ``size`` x ``size`` grid, clockwise from the
    middle of the bottom row: 8 cells at 3, 16 at 5."""
    mid = size // 2 + 1
    cells = [(size, c) for c in range(mid, 0, -1)] + [(r, 1) for r in range(size - 1, 0, -1)]
    cells += [(1, c) for c in range(2, size + 1)] + [(r, size) for r in range(2, size + 1)]
    return cells + [(size, c) for c in range(size - 1, mid, -1)]


def seat_places(players: int) -> tuple[int, tuple[tuple[int, int], ...]]:
    """``(size, places)``: the picture's grid is ``size`` x ``size`` (3 up to 8 players, 5 from
    9) and ``places[s]`` is seat s's (row, column) there, on the border at the compass point of
    its name (``TABLE_SEATS``); the trick fills the cells inside.

    >>> seat_places(4)
    (3, ((3, 2), (2, 1), (1, 2), (2, 3)))
    >>> seat_places(12)[1][:4]
    ((5, 3), (5, 2), (4, 1), (3, 1))
    """
    if players not in TABLE_SEATS:
        raise ValueError(f"the pictures seat {min(TABLE_SEATS)} to {max(TABLE_SEATS)} players, not {players}")
    size = 3 if players <= 8 else 5
    step = 2 if size == 3 else 1  # the 8 main points of COMPASS on the 8 cells of a 3 x 3 border
    ring = _ring(size)
    points = [COMPASS.index("South" if name == "You" else name) for name in TABLE_SEATS[players]]
    return size, tuple(ring[p // step] for p in points)

STYLE = """<style>
.sa-hand{font-family:system-ui,-apple-system,"Segoe UI",Helvetica,Arial,sans-serif;font-size:14px;color:#111;
 background:#fff;display:inline-block;padding:8px}
.sa-table{display:grid;gap:6px;
 background:#1d6b3a;padding:10px;border-radius:12px}
.sa-seat{background:#fff;border-radius:8px;padding:6px 8px;min-width:140px}
.sa-seat.sa-act{box-shadow:0 0 0 3px #f5c518}
.sa-name{font-weight:600}.sa-meta{color:#444;font-size:12px}
.sa-suit{white-space:nowrap;line-height:1.35}
.sa-card{font-weight:600;padding:0 1px}.sa-red{color:#c8102e}.sa-black{color:#111}
.sa-gone{opacity:.35}
.sa-center{background:#2e8b57;border-radius:8px;display:grid;min-height:120px;color:#fff;text-align:center;
 align-items:center}
.sa-center .sa-slot{background:#fff;border-radius:4px;padding:2px 4px;margin:auto;font-size:16px}
.sa-note{font-size:12px}
.sa-tricks,.sa-sheet{border-collapse:collapse;margin-top:8px;font-size:13px}
.sa-tricks td,.sa-tricks th,.sa-sheet td,.sa-sheet th{border:1px solid #ccc;padding:2px 6px;text-align:left}
.sa-won{text-decoration:underline;text-decoration-thickness:2px}
.sa-costly{background:#ffe08a}.sa-loss{color:#b00;font-size:11px;font-weight:600}
</style>"""


def card_html(card, where: str, loss: float | None = None, rank_only: bool = False) -> str:
    """One card as ``A♥`` (``10`` for a ten, ``BJ`` / ``LJ`` for a joker; ``rank_only``:
    ``A``, as in a suit's line), red or black; ``loss`` (points, from a review) marks it as
    a costly decision."""
    name = str(card)
    if name in ("BJ", "LJ"):
        face, colour = name, "sa-black"
    else:
        rank = RANK_CHARS[int(card) % 13]
        suit = int(card) // 13  # a high deuce keeps its printed suit (2D is a red card)
        face = ("10" if rank == "T" else rank) + ("" if rank_only and not _is_trump(card) else SUIT_SYMBOLS[suit])
        colour = "sa-red" if suit in (1, 2) else "sa-black"
    cls = f"sa-card {colour}" + (" sa-costly" if loss is not None else "")
    title = f' title="{name}: loses {loss:.1f} points against the best"' if loss is not None else ""
    badge = f'<span class="sa-loss">&minus;{loss:.1f}</span>' if loss is not None else ""
    return f'<span class="{cls}" data-card="{name}" data-where="{where}"{title}>{face}</span>{badge}'


def _is_trump(card) -> bool:
    """A high deuce, shown among the spades with its own suit symbol (``2♦``)."""
    return card.suit == 3 and int(card) // 13 != 3


def _holding(cards: CardSet, where: str) -> str:
    """Four lines, spades first, high cards first (jokers and high deuces above the ace)."""
    rows = []
    for suit in (3, 2, 1, 0):
        held = sorted(cards.suit(suit), key=lambda c: c.rank, reverse=True)
        colour = "sa-red" if suit in (1, 2) else "sa-black"
        body = " ".join(card_html(c, where, rank_only=True) for c in held) or "&ndash;"
        rows.append(f'<div class="sa-suit"><span class="{colour}">{SUIT_SYMBOLS[suit]}</span> {body}</div>')
    return "".join(rows)


def cards_html(cards: CardSet) -> str:
    """A set of cards by suit, as in a seat's box (``CardSet._repr_html_``)."""
    return f'<div class="sa-hand">{STYLE}<div class="sa-seat">{_holding(cards, "hand")}</div></div>'


def default_names(players: int = 4) -> tuple[str, ...]:
    """``S · seat 0`` .. ``E · seat 3``: the compass letter of the picture and the seat; at
    another number of players ``seat 0`` .. (``render.text.seat_names``)."""
    if players != 4:
        return seat_names(players=players)
    return tuple(f"{letter} · seat {s}" for s, letter in enumerate(SEAT_LETTERS))


def seat_letter(seat: int, players: int) -> str:
    """A seat's short name in a list of cards: its compass letter at four, else its number."""
    return SEAT_LETTERS[seat] if players == 4 else str(seat)


def _seat_box(view, seat: int, names: Sequence[str], body: str, bid_loss: float | None) -> str:
    bid, won = view.bids[seat], view.tricks_won[seat]
    badge = f' <span class="sa-costly sa-loss" title="the bid loses {bid_loss:.1f} points">&minus;{bid_loss:.1f}</span>' if bid_loss is not None else ""
    meta = f"bid {bid_text(bid, view.blind[seat])}{badge} &middot; tricks {won}/{'-' if bid is None else bid_text(bid)}"
    dealer = " &middot; dealer" if view.dealer == seat else ""
    row, col = seat_places(view.rules.players)[1][seat]
    act = " sa-act" if int(view.public[P_TO_ACT]) == seat else ""
    return (f'<div class="sa-seat{act}" data-seat="{seat}" style="grid-row:{row};grid-column:{col}">'
            f'<div class="sa-name">{html.escape(names[seat])}{dealer}</div><div class="sa-meta">{meta}</div>{body}</div>')


def _center(view, names: Sequence[str], marks: Mapping) -> str:
    trick = view.current_trick
    first = len(view.plays) - len(trick)
    size, places = seat_places(view.rules.players)
    mid = size // 2 + 1
    slots = []
    for i, (seat, card) in enumerate(trick):
        row, col = places[seat]
        slots.append(f'<div class="sa-slot" style="grid-row:{row};grid-column:{col}">{card_html(card, "trick", marks.get(("play", first + i)))}</div>')
    if view.phase == "over":
        note = "the hand is over"
    elif view.phase == "playing":
        note = f"trick {view.trick_no + 1} &middot; {'spades broken' if view.spades_broken else 'spades not broken'}"
    else:
        note = view.phase
    grid = f"grid-template-columns:repeat({size},1fr);grid-template-rows:repeat({size},1fr)"
    return (f'<div class="sa-center" style="grid-row:2/{size};grid-column:2/{size};{grid}">{"".join(slots)}'
            f'<div class="sa-note" style="grid-row:{mid};grid-column:{mid}">{note}</div></div>')


def tricks_html(view, names: Sequence[str] | None = None, marks: Mapping | None = None) -> str:
    """The finished tricks in order: who led, the cards in play order (the winning card
    underlined), who won; ``marks`` as in ``hand_html``."""
    n = view.rules.players
    names = default_names(n) if names is None else names
    marks = marks or {}
    plays, winners = list(view.plays), trick_winners(view)
    rows = [f"<tr><th>trick</th><th>led by</th><th colspan={n}>cards in play order</th><th>won by</th></tr>"]
    for k, winner in enumerate(winners):
        cells = []
        for i, (seat, card) in enumerate(plays[n * k : n * k + n]):
            won = ' class="sa-won"' if seat == winner else ""
            cells.append(f"<td><span{won}>{card_html(card, 'played', marks.get(('play', n * k + i)))}</span> <small>{seat_letter(seat, n)}</small></td>")
        rows.append(f"<tr><td>{k + 1}</td><td>{html.escape(names[plays[n * k][0]])}</td>{''.join(cells)}<td>{html.escape(names[winner])}</td></tr>")
    return f'<table class="sa-tricks">{"".join(rows)}</table>'


def sheet_html(result, names: Sequence[str] | None = None, side_names: Sequence[str] | None = None) -> str:
    """A finished hand's score sheet (the rows of ``render.text.sheet_rows``) as a table, a
    column a side (``side_names``: by default ``NS (seats 0, 2)`` ...)."""
    names = default_names(len(result.bids)) if names is None else names
    side_names = side_names or _side_names(result)
    head = "<tr><th></th>" + "".join(f"<th>{html.escape(t)}</th>" for t in side_names) + "</tr>"
    body = "".join(f"<tr><td>{label}</td>" + "".join(f"<td>{html.escape(c)}</td>" for c in cells) + "</tr>"
                   for label, cells in sheet_rows(result, names))
    return f'<table class="sa-sheet">{head}{body}</table>'


def _side_names(result) -> tuple[str, ...]:
    """The sides of a sheet by their seats: ``NS (seats 0, 2)`` and ``EW (seats 1, 3)`` at four
    in pairs, ``seat 2`` solo."""
    if len(result.bids) == 4 and len(result.contract) == 2:
        return ("NS (seats 0, 2)", "EW (seats 1, 3)")
    return tuple("seat " + ", ".join(map(str, result_side_seats(result, k))) for k in range(len(result.contract)))


def result_html(result, names: Sequence[str] | None = None) -> str:
    """A ``HandResult`` on its own: the score sheet (``HandResult._repr_html_``)."""
    return f'<div class="sa-hand">{STYLE}{sheet_html(result, names)}</div>'


def hand_html(hand, names: Sequence[str] | None = None, marks: Mapping | None = None, title: str | None = None) -> str:
    """The picture of a ``Hand`` (every card visible) or an ``Observation`` (its own cards
    only; the others' are counted). A finished hand shows the deal, its tricks and its score
    sheet. ``marks`` maps ``("play", i)`` (the i-th card played) and ``("bid", seat)`` to a
    loss in points, drawn on that card or bid (``spades_ai.review`` makes them).

    >>> from spades_ai import Hand, deal
    >>> picture = hand_html(Hand(deal(seed=1)))
    >>> picture.count('data-where="hand"')
    52
    """
    names = default_names(hand.rules.players) if names is None else names
    marks = marks or {}
    boxes = [_seat_box(hand, s, names, _seat_cards(hand, s), marks.get(("bid", s))) for s in seats(hand.rules)]
    parts = [STYLE, f"<div><b>{html.escape(title)}</b></div>" if title else ""]
    size = seat_places(hand.rules.players)[0]
    grid = f"grid-template-columns:repeat({size},minmax(150px,auto));grid-template-rows:repeat({size},auto)"
    parts.append(f'<div class="sa-table" style="{grid}">{"".join(boxes)}{_center(hand, names, marks)}</div>')
    if len(hand.plays) >= hand.rules.players:
        parts.append(tricks_html(hand, names, marks))
    if hand.phase == "over" and hasattr(hand, "result"):
        parts.append(sheet_html(hand.result(), names))
    return f'<div class="sa-hand">{"".join(parts)}</div>'


def _seat_cards(view, seat: int) -> str:
    if hasattr(view, "deal"):  # a Hand: every card visible
        if view.phase == "over":
            return _holding(view.deal[seat], "dealt")
        return _holding(view.cards(seat), "hand")
    if seat == view.seat:
        return _holding(view.cards, "hand")
    left = view.rules.cards_each - len(view.played_by[seat])
    return f'<div class="sa-meta">{left} hidden card{"s" if left != 1 else ""}</div>'


def page(body: str, title: str = "spades_ai hand") -> str:
    """A standalone HTML file around a picture."""
    return (f'<!doctype html>\n<html><head><meta charset="utf-8"><title>{html.escape(title)}</title></head>'
            f'<body style="margin:12px;background:#fff">{body}</body></html>\n')
