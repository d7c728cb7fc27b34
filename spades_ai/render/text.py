"""Text for a table of Spades: pure functions from a ``Hand`` (or its parts) to lines.

(Old import path: ``spades_ai.table.render``, which re-exports everything here.)

Nothing here reads input or decides a rule; the same functions draw the human's table
(``spades-ai play``) and the replay of a recorded hand (``spades-ai replay``), at every table
of 3 to 12 players. Seats are named by the caller (``names``, a string by seat); the sides
(partnerships, or each seat solo) by ``side_names`` (a string by side: ``team_names``).

>>> from spades_ai import Card
>>> format_cards("AS 7S QH 4H 9C", legal=["AS", "7S"])
'S: AS* 7S*  H: QH 4H  D: -  C: 9C'
>>> tricks_against_bids([3, 0, None, 2], [1, 0, 0, 2], ["You", "West", "North", "East"])
'You 1/3  West 0/nil  North 0/-  East 2/2'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from spades_ai.cards import SUIT_CHARS, SUIT_NAMES, Card, CardSet
from spades_ai.rules import Rules
from spades_ai.scoring import HandResult
from spades_ai.seats import left_of, seat_order, side_seats, sides

#: The table's seats as ``spades-ai play`` names them, by the number of players: you sit South
#: (seat 0) and the seats go clockwise, so seat 1 plays after you and the last seat before you;
#: at four, North (seat 2) sits across, your partner in pairs. Each name is the compass point
#: nearest to the seat's place on a round table (the 8 points up to 8 players, the 16 beyond),
#: which is where the pictures draw it (``render.html.seat_places``).
TABLE_SEATS = {
    3: ("You", "West", "East"),
    4: ("You", "West", "North", "East"),
    5: ("You", "West", "North-west", "North-east", "East"),
    6: ("You", "West", "North-west", "North", "North-east", "East"),
    7: ("You", "South-west", "West", "North-west", "North-east", "East", "South-east"),
    8: ("You", "South-west", "West", "North-west", "North", "North-east", "East", "South-east"),
    9: ("You", "South-west", "West", "West-north-west", "North-north-west", "North-north-east", "East-north-east",
        "East", "South-east"),
    10: ("You", "South-west", "West-south-west", "West-north-west", "North-west", "North", "North-east",
         "East-north-east", "East-south-east", "South-east"),
    11: ("You", "South-south-west", "West-south-west", "West", "North-west", "North-north-west", "North-north-east",
         "North-east", "East", "East-south-east", "South-south-east"),
    12: ("You", "South-south-west", "West-south-west", "West", "West-north-west", "North-north-west", "North",
         "North-north-east", "East-north-east", "East", "East-south-east", "South-south-east"),
}
TABLE_NAMES = TABLE_SEATS[4]
TABLE_TEAMS = ("You & North", "West & East")


def table_names(rules: Rules) -> tuple[str, ...]:
    """The seats' names at the table of ``rules`` (``TABLE_SEATS``: every table, 3 to 12 players)."""
    return TABLE_SEATS[rules.players]


def seat_names(labels: Sequence[str] | None = None, players: int = 4) -> tuple[str, ...]:
    """``seat 0`` .. ``seat N-1`` (N: ``players``, or one a label), each followed by its label if
    given (``seat 1 (easy)``)."""
    if labels is None:
        return tuple(f"seat {s}" for s in range(players))
    return tuple(f"seat {s} ({label})" for s, label in enumerate(labels))


def team_names(names: Sequence[str], rules: Rules | None = None) -> tuple[str, ...]:
    """Each side's name from its seats' names (the name from the partnership game): ``"seat 0 &
    seat 2"`` and ``"seat 1 & seat 3"`` at four in pairs (the default), the seat's own name solo."""
    rules = Rules() if rules is None else rules
    return tuple(" & ".join(names[s] for s in side_seats(k, rules)) for k in sides(rules))


def format_cards(cards: CardSet | str | Iterable, legal: CardSet | Iterable | None = None) -> str:
    """A seat's cards by suit, spades first and high cards first, each written as it is typed
    (``AS``), a card held twice written twice (``S: AS AS``, with several decks); with
    ``legal``, the cards that may be played are marked ``*``."""
    cards = cards if isinstance(cards, CardSet) else CardSet(cards)  # a rules' set keeps BJ, LJ
    marked = CardSet(legal) if legal is not None else CardSet()
    parts = []
    for suit in (3, 2, 1, 0):
        held = sorted(cards.suit(suit), key=lambda c: c.rank, reverse=True)  # jokers above the ace
        text = " ".join(f"{c}*" if c in marked else str(c) for c in held)
        parts.append(f"{SUIT_CHARS[suit]}: {text or '-'}")
    return "  ".join(parts)


def bid_text(bid: int | None, blind: bool = False) -> str:
    """``3``, ``nil``, ``blind nil``, or ``-`` before the seat has bid."""
    if bid is None:
        return "-"
    if bid == 0:
        return "blind nil" if blind else "nil"
    return str(bid)


def tricks_against_bids(bids: Sequence[int | None], tricks_won: Sequence[int], names: Sequence[str]) -> str:
    """Each seat's tricks against its bid, as on the table's badges: ``You 1/3  West 0/nil``."""
    return "  ".join(f"{names[s]} {tricks_won[s]}/{'-' if bids[s] is None else bid_text(bids[s])}" for s in range(len(bids)))


def team_tricks_against_contracts(bids: Sequence[int | None], tricks_won: Sequence[int], rules: Rules | None = None) -> str:
    """Each side's tricks against its contract (the non-nil bids): ``4/7, 3/5`` (``rules``:
    the table, four in pairs by default)."""
    rules = Rules() if rules is None else rules
    parts = []
    for side in sides(rules):
        mine = side_seats(side, rules)
        parts.append(f"{sum(tricks_won[s] for s in mine)}/{sum(bids[s] or 0 for s in mine)}")
    return ", ".join(parts)


def format_bids(hand, names: Sequence[str]) -> str:
    """The bids made so far, in bidding order: ``Bids: North 3, East 4, You -``."""
    order = seat_order(left_of(hand.dealer, hand.rules), hand.rules)
    made = [f"{names[s]} {bid_text(hand.bids[s], hand.blind[s])}" for s in order if hand.bids[s] is not None]
    return "Bids: " + (", ".join(made) if made else "none yet")


def format_trick(cards: Sequence[tuple[int, Card]], names: Sequence[str]) -> str:
    """The cards of a trick in play order: ``West 7H, North QH``."""
    return ", ".join(f"{names[s]} {c}" for s, c in cards)


def format_match_score(scores: Sequence[int], bag_count: Sequence[int], side_names: Sequence[str],
                       target: int | None = None) -> str:
    """``Match: You & North 120 (3 bags), West & East 98 (7 bags); 250 to win``: each side's
    score and bags."""
    def bags(n):
        return f"{n} bag" if n == 1 else f"{n} bags"

    text = "Match: " + ", ".join(f"{t} {s} ({bags(b)})" for t, s, b in zip(side_names, scores, bag_count))
    return text + (f"; {target} to win" if target is not None else "")


def _signed(n: int) -> str:
    return f"{n:+d}" if n else "0"


def result_side_seats(result: HandResult, side: int) -> tuple[int, ...]:
    """The seats of ``side`` on a score sheet, read from its shape (a seat by bid, a side by
    contract): ``seats.side_seats`` of the sheet's table, ``(k, k + n_sides)`` in pairs, ``(k,)``
    solo."""
    return tuple(range(side, len(result.bids), len(result.contract)))


def sheet_rows(result: HandResult, names: Sequence[str]) -> list[tuple[str, tuple[str, ...]]]:
    """The rows of a finished hand's score sheet, ``(label, (side 0, side 1, ...))``: bids,
    tricks, contract, contract points, bags, nil bonus or penalty, bag penalty, the hand's
    points and the match totals (the text sheet and the HTML picture both print these)."""

    def per_side(fn) -> tuple[str, ...]:
        return tuple(fn(side) for side in range(len(result.contract)))

    def seats_of(side, value) -> str:
        return " + ".join(value(s) for s in result_side_seats(result, side))

    def tricks_of(side) -> str:
        mine = result_side_seats(result, side)
        total = f" = {result.team_tricks[side]}" if len(mine) > 1 else ""
        return seats_of(side, lambda s: str(result.tricks_won[s])) + total

    def nil_of(side) -> str:
        parts = []
        for s in result_side_seats(result, side):
            if result.nil_made[s] is not None:
                kind = "blind nil" if result.blind[s] else "nil"
                parts.append(f"{names[s]} {kind} {'made' if result.nil_made[s] else 'lost'}")
        return f"{_signed(result.nil_points[side])} ({', '.join(parts)})" if parts else "-"

    def penalty_of(side) -> str:
        k = result.bag_penalties[side]
        amount = result.points[side] - result.contract_points[side] - result.new_bags[side] - result.nil_points[side]
        return (f"{_signed(amount)} (bag limit reached)" if k == 1 else f"{_signed(amount)} ({k} penalties)") if k else "0"

    return [
        ("bids", per_side(lambda k: seats_of(k, lambda s: bid_text(result.bids[s], result.blind[s])))),
        ("tricks", per_side(tricks_of)),
        (
            "contract",
            per_side(
                lambda k: f"{result.counted_tricks[k]} of {result.contract[k]}: {'made' if result.made[k] else 'set'}"
            ),
        ),
        ("contract points", per_side(lambda k: _signed(result.contract_points[k]))),
        ("bags", per_side(lambda k: f"{_signed(result.new_bags[k])} (bag count {result.bag_count[k]})")),
        ("nil", per_side(nil_of)),
        ("bag penalty", per_side(penalty_of)),
        ("hand", per_side(lambda k: _signed(result.points[k]))),
        ("match", per_side(lambda k: str(result.scores[k]))),
    ]


def format_sheet(result: HandResult, names: Sequence[str], side_names: Sequence[str], title: str = "Score sheet") -> str:
    """The score sheet of a finished hand, one column per side (the rows of ``sheet_rows``)."""
    rows = [("", tuple(side_names))] + sheet_rows(result, names)
    widths = [max(len(r[1][k]) for r in rows) + 3 for k in range(len(side_names))]
    widths[-1] = 0  # the last column unpadded: no trailing spaces

    def line(label: str, cells) -> str:
        return f"  {label:16}" + "".join(f"{c:{w}}" for c, w in zip(cells, widths))

    return "\n".join([title] + [line(label, cells) for label, cells in rows])


def follow_suit_name(hand) -> str:
    """The suit led to the trick in play, in words (``hearts``)."""
    return SUIT_NAMES[hand.current_trick[0][1].suit]


def trick_winners(hand) -> list[int]:
    """The seat that won each finished trick of a ``Hand`` or an ``Observation`` (both hold
    ``plays`` and ``tricks_won``): the leader of the next trick, and for the last finished
    trick the seat whose trick count is one more than the earlier tricks give it.

    >>> from spades_ai import Hand, deal
    >>> h = Hand(deal(seed=1)); [h.bid(3) for _ in range(h.rules.players)] and None
    >>> trick_winners(h)
    []
    """
    plays, n = list(hand.plays), len(hand.tricks_won)
    done = len(plays) // n
    winners = [plays[n * (k + 1)][0] for k in range(done - 1)]
    if done:
        won = [0] * n
        for w in winners:
            won[w] += 1
        winners.append(next(s for s in range(n) if hand.tricks_won[s] > won[s]))
    return winners
