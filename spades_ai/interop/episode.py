"""What one episode of the OpenSpiel game and the PettingZoo environment is: one hand (the
default, ``episode="hand"``) or a whole match (``episode="match"``).

A match is the engine's, as ``play_matches`` and the learning environment's ``VectorEnv`` play
it: hand after hand, the scores and bag counts carried from each hand's result into the next,
the dealer moving one seat to the left, until ``match_winner`` names a side (the target, the
loss threshold or ``max_hands``; a tie plays on), at any table: a side is a pair of partners,
or solo one player. A match still undecided after ``MAX_MATCH_HANDS``
hands ends unfinished, as in ``play_matches``.

Returns (both adapters, ``seat_returns``): a hand episode pays each player its side's points for
the hand; a match episode pays +1 to each player of the winning side and -1 / (sides - 1) to the
others (-1 with two sides, -0.5 with three: OpenSpiel's convention for a game won or lost,
zero-sum, as every side has as many players), and 0 to all for an unfinished match.

>>> from spades_ai import Rules
>>> from spades_ai.simulate import match_deal
>>> e = Episode(Rules(target_score=100), dealer=3, episode="match")
>>> e.table.start(match_deal(seed=1, match_no=0, hand_no=0, rules=e.rules))
>>> e.table.dealer, e.table.scores, e.over
(3, (0, 0), False)
>>> side_returns(1, Rules(players=3))
(-0.5, 1.0, -0.5)
"""

from __future__ import annotations

import copy
from dataclasses import dataclass

from spades_ai.interop.encoding import Table
from spades_ai.learn.env import EPISODES
from spades_ai.rules import Rules
from spades_ai.scoring import match_winner
from spades_ai.seats import left_of, seats, side_of, sides
from spades_ai.selfplay.loop_kernels import MAX_MATCH_HANDS


def check_episode(episode) -> str:
    """``"hand"`` or ``"match"``; anything else is refused by name."""
    if episode not in EPISODES:
        raise ValueError(f"episode must be one of {', '.join(map(repr, EPISODES))}, not {episode!r}")
    return episode


@dataclass(frozen=True)
class PlayedHand:
    """A finished hand of a match. Every card of it has been played, so all of it is public."""

    dealer: int
    #: card ids in the order dealt, the dealer's left first (empty if started whole)
    dealt: tuple[int, ...]
    #: every seat's action in order (bids, blind-nil choices, cards)
    actions: tuple[int, ...]
    #: the hand's points per side, and the match scores and bag counts after it
    points: tuple[int, ...]
    scores: tuple[int, ...]
    bag_count: tuple[int, ...]


class Episode:
    """The ``Table`` of the hand in progress and, in a match, the hands finished before it.

    ``end_hand()`` is called once the table's hand is over: in a match it records the hand and,
    unless the match is decided, replaces ``table`` with the next hand's (its cards still to be
    dealt). ``start`` is any object kept for the adapter and shared, not copied, by ``deepcopy``
    (the OpenSpiel game keeps the state at the start of the hand there).
    """

    def __init__(self, rules: Rules, dealer: int, episode: str = "hand"):
        self.rules = rules
        self.match = check_episode(episode) == "match"
        self.table = Table(rules, dealer)
        self.played: tuple[PlayedHand, ...] = ()
        #: the winning side once a match is decided
        self.winner: int | None = None
        #: a match still undecided after MAX_MATCH_HANDS hands
        self.unfinished = False
        self.start = None

    def __deepcopy__(self, memo) -> Episode:
        new = copy.copy(self)  # played (a tuple of frozen hands) and start are shared
        new.table = copy.deepcopy(self.table, memo)
        return new

    @property
    def over(self) -> bool:
        """The episode is over: its hand, or the match's last hand, is finished."""
        return self.table.over and (not self.match or self.winner is not None or self.unfinished)

    def end_hand(self) -> bool:
        """After the table's hand is over; True if a next hand of the match has started."""
        t = self.table
        if not t.over:
            raise ValueError("the hand is not over: there is no next hand yet")
        if not self.match or self.over:
            return False
        result = t.hand.result()
        k = t.hands_played + 1
        hand = PlayedHand(t.dealer, tuple(t.dealt), tuple(t.actions), result.points, result.scores, result.bag_count)
        self.played += (hand,)
        self.winner = match_winner(result.scores, self.rules, hands_played=k)
        if self.winner is None and k < MAX_MATCH_HANDS:
            self.table = Table(self.rules, left_of(t.dealer, self.rules), result.scores, result.bag_count, k)
            return True
        self.unfinished = self.winner is None
        return False

    def seat_returns(self) -> tuple[float, ...]:
        """Each seat's return once the episode is over, all 0.0 before (see the module docstring)."""
        rules = self.rules
        if not self.over:
            by_side = (0.0,) * rules.n_sides
        elif not self.match:
            by_side = tuple(float(p) for p in self.table.points())
        elif self.winner is None:
            by_side = (0.0,) * rules.n_sides
        else:
            by_side = side_returns(self.winner, rules)
        return tuple(by_side[side_of(seat, rules)] for seat in seats(rules))

    def summary(self) -> str:
        """The match before the hand in progress, in one line (empty for a hand episode)."""
        if not self.match:
            return ""
        t = self.table
        scores, bags = " / ".join(map(str, t.scores)), " / ".join(map(str, t.bag_count))
        return f"match hand {t.hands_played}, scores {scores}, bags {bags}"


def side_returns(winner: int, rules: Rules) -> tuple[float, ...]:
    """Each side's return of a match won by side ``winner`` at the table of ``rules``: +1, and
    -1 / (sides - 1) to every other side, so that the players' returns sum to 0 (every side
    has as many players)."""
    loss = -1.0 / (rules.n_sides - 1)
    return tuple(1.0 if side == winner else loss for side in sides(rules))
