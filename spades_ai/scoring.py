"""Scoring a hand and ending a match: validated wrappers around ``engine.score``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from spades_ai.engine import score as _k
from spades_ai.engine import state as _st
from spades_ai.rules import Rules


@dataclass(frozen=True)
class HandResult:
    """The score sheet of one hand. Per-seat fields have four entries, team fields are pairs
    (team 0, team 1).

    ``tricks_won`` are the seats' tricks; ``team_tricks`` the partners' sum and
    ``counted_tricks`` those that count toward the contract; ``new_bags`` the bags this hand
    added; ``points`` the hand's change (bag penalties included); ``scores`` and ``bag_count``
    the match totals after the hand; ``nil_made[seat]`` is None (no nil bid), True or False.
    """

    bids: tuple[int, int, int, int]
    blind: tuple[bool, bool, bool, bool]
    tricks_won: tuple[int, int, int, int]
    contract: tuple[int, int]
    team_tricks: tuple[int, int]
    counted_tricks: tuple[int, int]
    made: tuple[bool, bool]
    contract_points: tuple[int, int]
    new_bags: tuple[int, int]
    nil_points: tuple[int, int]
    bag_penalties: tuple[int, int]
    points: tuple[int, int]
    scores: tuple[int, int]
    bag_count: tuple[int, int]
    nil_made: tuple[bool | None, bool | None, bool | None, bool | None]

    def __str__(self) -> str:
        rows = [f"{'':14}{'team 0':>8}{'team 1':>8}"]
        for label, pair in (
            ("contract", self.contract),
            ("tricks", self.counted_tricks),
            ("made", tuple("yes" if m else "set" for m in self.made)),
            ("contract pts", self.contract_points),
            ("new bags", self.new_bags),
            ("nil pts", self.nil_points),
            ("bag penalties", self.bag_penalties),
            ("hand", self.points),
            ("score", self.scores),
            ("bag count", self.bag_count),
        ):
            rows.append(f"{label:14}{pair[0]!s:>8}{pair[1]!s:>8}")
        return "\n".join(rows)

    def _repr_html_(self) -> str:
        """The score sheet in a notebook (``spades_ai.render.result_html``)."""
        from spades_ai.render import result_html

        return result_html(self)

    @classmethod
    def from_arrays(cls, bids, blind, tricks_won, scores, bag_count, rules_array) -> HandResult:
        """Score checked engine arrays (int64 bids and tricks, bool blind flags, the scores and
        bag counts before the hand, ``Rules.as_array()``) with the engine's kernel."""
        out = np.zeros((2, _k.N_FIELDS), dtype=np.int64)
        nil = np.zeros(4, dtype=np.int64)
        _k.score_hand_kernel(bids, blind, tricks_won, scores, bag_count, rules_array, out, nil)

        def pair(field, kind=int):
            return (kind(out[0, field]), kind(out[1, field]))

        return cls(
            bids=tuple(int(x) for x in bids),
            blind=tuple(bool(x) for x in blind),
            tricks_won=tuple(int(x) for x in tricks_won),
            contract=pair(_k.F_CONTRACT),
            team_tricks=pair(_k.F_TRICKS),
            counted_tricks=pair(_k.F_COUNTED),
            made=pair(_k.F_MADE, bool),
            contract_points=pair(_k.F_CONTRACT_POINTS),
            new_bags=pair(_k.F_NEW_BAGS),
            nil_points=pair(_k.F_NIL_POINTS),
            bag_penalties=pair(_k.F_PENALTIES),
            points=pair(_k.F_POINTS),
            scores=pair(_k.F_SCORE),
            bag_count=pair(_k.F_BAGS),
            nil_made=tuple(None if x == _k.NIL_NONE else bool(x == _k.NIL_MADE) for x in nil),
        )

    @classmethod
    def from_public(cls, public: np.ndarray, rules_array: np.ndarray) -> HandResult:
        """Score the finished hand held in an engine public array (``engine.state``)."""
        return cls.from_arrays(
            public[_st.P_BIDS : _st.P_BIDS + 4],
            public[_st.P_BLIND : _st.P_BLIND + 4] != 0,
            public[_st.P_WON : _st.P_WON + 4],
            public[_st.P_SCORES : _st.P_SCORES + 2],
            public[_st.P_BAGS : _st.P_BAGS + 2],
            rules_array,
        )


def _ints(values, n: int, name: str, lo: int, hi: int) -> np.ndarray:
    values = list(values)
    if len(values) != n:
        raise ValueError(f"{name} must have {n} entries, not {len(values)}")
    for i, v in enumerate(values):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or not lo <= v <= hi:
            raise ValueError(f"{name}[{i}] must be an int in {lo}..{hi}, not {v!r}")
    return np.array(values, dtype=np.int64)


_BIG = 10**12


def score_hand(
    bids: Sequence[int],
    tricks_won: Sequence[int],
    rules: Rules | None = None,
    *,
    blind: Sequence[bool] = (False,) * 4,
    scores: Sequence[int] = (0, 0),
    bag_count: Sequence[int] = (0, 0),
) -> HandResult:
    """Score one hand from the four bids (0 = nil) and the four seats' tricks; ``scores`` and
    ``bag_count`` are the match totals before the hand.

    >>> r = score_hand([4, 3, 0, 2], [5, 3, 1, 4])
    >>> r.points, r.new_bags, r.nil_made
    ((-58, 52), (2, 2), (None, None, False, None))
    """
    rules = Rules() if rules is None else rules
    b = _ints(bids, 4, "bids", 0, 13)
    t = _ints(tricks_won, 4, "tricks_won", 0, 13)
    if t.sum() != 13:
        raise ValueError(f"tricks_won must add up to 13, not {int(t.sum())} ({list(map(int, t))})")
    s = _ints(scores, 2, "scores", -_BIG, _BIG)
    g = _ints(bag_count, 2, "bag_count", 0, _BIG)
    for team in range(2):
        if g[team] >= rules.bag_limit:
            raise ValueError(f"bag_count[{team}] = {g[team]} is not below the bag limit {rules.bag_limit}")
    blind = list(blind)
    if len(blind) != 4 or not all(isinstance(x, (bool, np.bool_)) for x in blind):
        raise ValueError(f"blind must be four booleans, not {blind!r}")
    for seat in range(4):
        if blind[seat] and b[seat] != 0:
            raise ValueError(f"seat {seat} is marked blind but bid {b[seat]}: only a nil can be blind")
    return HandResult.from_arrays(b, np.array(blind, dtype=np.bool_), t, s, g, rules.as_array())


def match_winner(scores: Sequence[int], rules: Rules | None = None, hands_played: int | None = None) -> int | None:
    """0 or 1 if the match is over at these ``scores``, None to play on.

    A team at the target or at the loss threshold ends the match, as does ``max_hands`` hands
    (give ``hands_played``); the higher score wins and an exact tie plays another hand.

    >>> match_winner((510, 480)), match_winner((500, 500)), match_winner((120, -200))
    (0, None, 0)
    """
    rules = Rules() if rules is None else rules
    s = _ints(scores, 2, "scores", -_BIG, _BIG)
    if hands_played is None:
        if rules.max_hands is not None:
            raise ValueError("these rules end after max_hands hands: give hands_played")
        hands_played = 0
    elif isinstance(hands_played, bool) or not isinstance(hands_played, int) or hands_played < 0:
        raise ValueError(f"hands_played must be an int >= 0, not {hands_played!r}")
    w = _k.match_winner_kernel(s[0], s[1], hands_played, rules.as_array())
    return None if w < 0 else int(w)
