"""Text for a table of Spades: pure functions from a ``Hand`` (or its parts) to lines.

(Old import path: ``spades_ai.table.render``, which re-exports everything here.)

Nothing here reads input or decides a rule; the same functions draw the human's table
(``spades-ai play``) and the replay of a recorded hand (``spades-ai replay``). Seats are
named by the caller (``names``, four strings by seat); the teams by ``teams`` (two strings).

>>> from spades_ai import Card
>>> format_cards("AS 7S QH 4H 9C", legal=["AS", "7S"])
'S: AS* 7S*  H: QH 4H  D: -  C: 9C'
>>> tricks_against_bids([3, 0, None, 2], [1, 0, 0, 2], ["You", "West", "North", "East"])
'You 1/3  West 0/nil  North 0/-  East 2/2'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from spades_ai.cards import SUIT_CHARS, SUIT_NAMES, Card, CardSet
from spades_ai.scoring import HandResult

#: The table's seats as ``spades-ai play`` names them: you sit South (seat 0), your partner
#: North (seat 2) across; West (seat 1) plays after you, East (seat 3) before you.
TABLE_NAMES = ("You", "West", "North", "East")
TABLE_TEAMS = ("You & North", "West & East")


def seat_names(labels: Sequence[str] | None = None) -> tuple[str, str, str, str]:
    """``seat 0`` .. ``seat 3``, each followed by its label if given (``seat 1 (easy)``)."""
    if labels is None:
        return tuple(f"seat {s}" for s in range(4))
    return tuple(f"seat {s} ({labels[s]})" for s in range(4))


def team_names(names: Sequence[str]) -> tuple[str, str]:
    """``"seat 0 & seat 2"`` and ``"seat 1 & seat 3"`` from the seats' names."""
    return (f"{names[0]} & {names[2]}", f"{names[1]} & {names[3]}")


def format_cards(cards: CardSet | str | Iterable, legal: CardSet | Iterable | None = None) -> str:
    """A seat's cards by suit, spades first and high cards first, each written as it is typed
    (``AS``); with ``legal``, the cards that may be played are marked ``*``."""
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
    return "  ".join(f"{names[s]} {tricks_won[s]}/{'-' if bids[s] is None else bid_text(bids[s])}" for s in range(4))


def team_tricks_against_contracts(bids: Sequence[int | None], tricks_won: Sequence[int]) -> str:
    """Each team's tricks against its contract (the non-nil bids): ``4/7, 3/5``."""
    parts = []
    for team in (0, 1):
        seats = (team, team + 2)
        contract = sum(bids[s] or 0 for s in seats)
        parts.append(f"{sum(tricks_won[s] for s in seats)}/{contract}")
    return ", ".join(parts)


def format_bids(hand, names: Sequence[str]) -> str:
    """The bids made so far, in bidding order: ``Bids: North 3, East 4, You -``."""
    order = [(hand.dealer + 1 + i) % 4 for i in range(4)]
    made = [f"{names[s]} {bid_text(hand.bids[s], hand.blind[s])}" for s in order if hand.bids[s] is not None]
    return "Bids: " + (", ".join(made) if made else "none yet")


def format_trick(cards: Sequence[tuple[int, Card]], names: Sequence[str]) -> str:
    """The cards of a trick in play order: ``West 7H, North QH``."""
    return ", ".join(f"{names[s]} {c}" for s, c in cards)


def format_match_score(scores: Sequence[int], bag_count: Sequence[int], teams: Sequence[str], target: int | None = None) -> str:
    """``Match: You & North 120 (3 bags), West & East 98 (7 bags); 250 to win``."""
    def bags(n):
        return f"{n} bag" if n == 1 else f"{n} bags"

    text = f"Match: {teams[0]} {scores[0]} ({bags(bag_count[0])}), {teams[1]} {scores[1]} ({bags(bag_count[1])})"
    return text + (f"; {target} to win" if target is not None else "")


def _signed(n: int) -> str:
    return f"{n:+d}" if n else "0"


def sheet_rows(result: HandResult, names: Sequence[str]) -> list[tuple[str, tuple[str, str]]]:
    """The rows of a finished hand's score sheet, ``(label, (team 0, team 1))``: bids, tricks,
    contract, contract points, bags, nil bonus or penalty, bag penalty, the hand's points and
    the match totals (the text sheet and the HTML picture both print these)."""

    def per_team(fn) -> tuple[str, str]:
        return fn(0), fn(1)

    def seats_of(team, value) -> str:
        return " + ".join(value(s) for s in (team, team + 2))

    def nil_of(team) -> str:
        parts = []
        for s in (team, team + 2):
            if result.nil_made[s] is not None:
                kind = "blind nil" if result.blind[s] else "nil"
                parts.append(f"{names[s]} {kind} {'made' if result.nil_made[s] else 'lost'}")
        return f"{_signed(result.nil_points[team])} ({', '.join(parts)})" if parts else "-"

    def penalty_of(team) -> str:
        k = result.bag_penalties[team]
        amount = result.points[team] - result.contract_points[team] - result.new_bags[team] - result.nil_points[team]
        return (f"{_signed(amount)} (bag limit reached)" if k == 1 else f"{_signed(amount)} ({k} penalties)") if k else "0"

    return [
        ("bids", per_team(lambda t: seats_of(t, lambda s: bid_text(result.bids[s], result.blind[s])))),
        ("tricks", per_team(lambda t: seats_of(t, lambda s: str(result.tricks_won[s])) + f" = {result.team_tricks[t]}")),
        (
            "contract",
            per_team(
                lambda t: f"{result.counted_tricks[t]} of {result.contract[t]}: {'made' if result.made[t] else 'set'}"
            ),
        ),
        ("contract points", per_team(lambda t: _signed(result.contract_points[t]))),
        ("bags", per_team(lambda t: f"{_signed(result.new_bags[t])} (bag count {result.bag_count[t]})")),
        ("nil", per_team(nil_of)),
        ("bag penalty", per_team(penalty_of)),
        ("hand", per_team(lambda t: _signed(result.points[t]))),
        ("match", per_team(lambda t: str(result.scores[t]))),
    ]


def format_sheet(result: HandResult, names: Sequence[str], teams: Sequence[str], title: str = "Score sheet") -> str:
    """The score sheet of a finished hand, one column per team (the rows of ``sheet_rows``)."""
    rows = sheet_rows(result, names)
    w0 = max(len(teams[0]), *(len(r[1][0]) for r in rows)) + 3
    lines = [f"{title}", f"  {'':16}{teams[0]:{w0}}{teams[1]}"]
    lines += [f"  {label:16}{a:{w0}}{b}" for label, (a, b) in rows]
    return "\n".join(lines)


def follow_suit_name(hand) -> str:
    """The suit led to the trick in play, in words (``hearts``)."""
    return SUIT_NAMES[hand.current_trick[0][1].suit]


def trick_winners(hand) -> list[int]:
    """The seat that won each finished trick of a ``Hand`` or an ``Observation`` (both hold
    ``plays`` and ``tricks_won``): the leader of the next trick, and for the last finished
    trick the seat whose trick count is one more than the earlier tricks give it.

    >>> from spades_ai import Hand, deal
    >>> h = Hand(deal(seed=1)); [h.bid(3) for _ in range(4)] and None
    >>> trick_winners(h)
    []
    """
    plays = list(hand.plays)
    done = len(plays) // 4
    winners = [plays[4 * (k + 1)][0] for k in range(done - 1)]
    if done:
        won = [0, 0, 0, 0]
        for w in winners:
            won[w] += 1
        winners.append(next(s for s in range(4) if hand.tricks_won[s] > won[s]))
    return winners
