"""An SVG picture of a hand, for papers and issue reports: a pure function of a ``Hand``.

The same table as the HTML picture (``render.html``): South (seat 0) at the bottom, West on
the left, North at the top, East on the right, each seat's cards by suit (hearts and diamonds
in red), bid and tricks; the trick in progress in the middle; for a finished hand the deal,
its tricks in order (leader first, the winner's card underlined) and each team's points.
Every card is a ``<tspan>`` with ``data-card`` and ``data-where`` as in the HTML.

>>> from spades_ai import Hand, deal
>>> hand_svg(Hand(deal(seed=1))).startswith("<svg")
True
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from spades_ai.cards import RANK_CHARS
from spades_ai.pbn import SEAT_LETTERS
from spades_ai.render.html import SUIT_SYMBOLS, default_names
from spades_ai.render.text import bid_text, trick_winners
from spades_ai.seats import table_name

_RED, _BLACK = "#c8102e", "#111111"
#: the top-left corner of each seat's block, seat 0 at the bottom
_AT = {0: (250, 300), 1: (20, 160), 2: (250, 20), 3: (480, 160)}
_TRICK_AT = {0: (320, 250), 1: (250, 205), 2: (320, 160), 3: (390, 205)}


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


def _seat_block(hand, seat: int, names: Sequence[str]) -> list[str]:
    x, y = _AT[seat]
    over = hand.phase == "over"
    cards = hand.deal[seat] if over else hand.cards(seat)
    bid = hand.bids[seat]
    head = f"{names[seat]}{' (dealer)' if hand.dealer == seat else ''}"
    meta = f"bid {bid_text(bid, hand.blind[seat])} · tricks {hand.tricks_won[seat]}"
    out = [f'<rect x="{x - 6}" y="{y - 4}" width="200" height="118" rx="8" fill="#fff"/>',
           f'<text x="{x}" y="{y + 12}" font-weight="bold">{escape(head)}</text>',
           f'<text x="{x}" y="{y + 28}" font-size="12" fill="#444">{escape(meta)}</text>']
    for i, suit in enumerate((3, 2, 1, 0)):
        held = sorted(cards.suit(suit), key=lambda c: c.rank, reverse=True)
        colour = _RED if suit in (1, 2) else _BLACK
        spans = " ".join(_tspan(c, "dealt" if over else "hand", rank_only=True) for c in held) or "–"
        out.append(f'<text x="{x}" y="{y + 48 + 18 * i}"><tspan fill="{colour}">{SUIT_SYMBOLS[suit]}</tspan> {spans}</text>')
    return out


def _tricks_column(hand, x: int) -> list[str]:
    plays, winners = list(hand.plays), trick_winners(hand)
    out = [f'<text x="{x}" y="30" font-weight="bold">Tricks (leader first, winner underlined)</text>']
    for k, winner in enumerate(winners):
        cells = " ".join(f"{SEAT_LETTERS[s]} {_tspan(c, 'played', s == winner)}" for s, c in plays[4 * k : 4 * k + 4])
        out.append(f'<text x="{x}" y="{52 + 22 * k}" font-size="13">{k + 1:>2}. {cells} → {SEAT_LETTERS[winner]}</text>')
    return out


def hand_svg(hand, names: Sequence[str] | None = None, title: str | None = None) -> str:
    """The SVG picture of a ``Hand`` (see the module docstring), as a standalone document; four
    players in pairs only (``hand_html`` draws every table)."""
    if not hand.rules.four_in_pairs:
        raise ValueError(f"the SVG picture draws 4 players in pairs, not {table_name(hand.rules)}: save it as .html")
    names = default_names() if names is None else names
    finished = len(hand.plays) >= 4
    width = 1010 if finished else 700
    body = ['<rect x="0" y="0" width="700" height="430" rx="14" fill="#1d6b3a"/>']
    for seat in range(4):
        body += _seat_block(hand, seat, names)
    for seat, card in hand.current_trick:
        cx, cy = _TRICK_AT[seat]
        body.append(f'<rect x="{cx - 6}" y="{cy - 16}" width="44" height="24" rx="4" fill="#fff"/>')
        body.append(f'<text x="{cx}" y="{cy + 2}" font-size="16">{_tspan(card, "trick")}</text>')
    if finished:
        body += _tricks_column(hand, 715)
    if hand.phase == "over":
        r = hand.result()
        body.append(f'<text x="715" y="{52 + 22 * 13 + 16}" font-weight="bold">Points: NS {r.points[0]:+d}, EW {r.points[1]:+d}</text>')
        body.append(f'<text x="715" y="{52 + 22 * 13 + 36}">Match: NS {r.scores[0]}, EW {r.scores[1]}</text>')
    if title:
        body.append(f'<text x="20" y="424" fill="#fff" font-size="12">{escape(title)}</text>')
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="440" viewBox="0 0 {width} 440" '
            f'font-family="Helvetica, Arial, sans-serif" font-size="15">' + "".join(body) + "</svg>\n")
