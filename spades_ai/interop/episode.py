"""What one episode of the OpenSpiel game and the PettingZoo environment is: one hand (the
default, ``episode="hand"``) or a whole match (``episode="match"``).

A match is the engine's, as ``play_matches`` and the learning environment's ``VectorEnv`` play
it: hand after hand, the scores and bag counts carried from each hand's result into the next,
the dealer moving one seat to the left, until ``match_winner`` names a team (the target, the
loss threshold or ``max_hands``; a tie plays on). A match still undecided after ``MAX_MATCH_HANDS``
hands ends unfinished, as in ``play_matches``.

Returns (both adapters): a hand episode pays each player its team's points for the hand; a match
episode pays +1 to each player of the winning team and -1 to the losers (OpenSpiel's convention
for a game won or lost: zero-sum), and 0 to all four for an unfinished match.

>>> from spades_ai import Rules
>>> from spades_ai.simulate import match_deal
>>> e = Episode(Rules(target_score=100), dealer=3, episode="match")
>>> e.table.start(match_deal(seed=1, match_no=0, hand_no=0, rules=e.rules))
>>> e.table.dealer, e.table.scores, e.over
(3, (0, 0), False)
"""

from __future__ import annotations

import copy
from dataclasses import dataclass

from spades_ai.interop.encoding import Table
from spades_ai.learn.env import EPISODES
from spades_ai.rules import Rules
from spades_ai.scoring import match_winner
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
    #: card ids in the order dealt, seat (dealer + 1 + k) % 4 first (empty if started whole)
    dealt: tuple[int, ...]
    #: every seat's action in order (bids, blind-nil choices, cards)
    actions: tuple[int, ...]
    #: the hand's points per team, and the match scores and bag counts after it
    points: tuple[int, int]
    scores: tuple[int, int]
    bag_count: tuple[int, int]


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
        #: the winning team once a match is decided
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
            self.table = Table(self.rules, (t.dealer + 1) % 4, result.scores, result.bag_count, k)
            return True
        self.unfinished = self.winner is None
        return False

    def team_returns(self) -> tuple[float, float]:
        """Each team's return once the episode is over, (0, 0) before (see the module docstring)."""
        if not self.over:
            return (0.0, 0.0)
        if not self.match:
            return tuple(float(p) for p in self.table.points())
        if self.winner is None:
            return (0.0, 0.0)
        return (1.0, -1.0) if self.winner == 0 else (-1.0, 1.0)

    def summary(self) -> str:
        """The match before the hand in progress, in one line (empty for a hand episode)."""
        if not self.match:
            return ""
        t = self.table
        s, b = t.scores, t.bag_count
        return f"match hand {t.hands_played}, scores {s[0]} / {s[1]}, bags {b[0]} / {b[1]}"
