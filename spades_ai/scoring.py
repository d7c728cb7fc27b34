"""Scoring a hand and ending a match: validated wrappers around ``engine.score``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from spades_ai.engine import score as _k
from spades_ai.engine import state as _st
from spades_ai.rules import R_SEATS, R_SIDES, Rules
from spades_ai.seats import sides


@dataclass(frozen=True)
class HandResult:
    """The score sheet of one hand. Per-seat fields have an entry a seat, side fields an entry
    a side (at four players in pairs side 0 is seats 0 and 2, side 1 seats 1 and 3; solo, a side
    is a seat).

    ``tricks_won`` are the seats' tricks; ``team_tricks`` the side's sum and
    ``counted_tricks`` those that count toward the contract; ``contract_points`` include a
    failed bid's extra loss (``failed_bid_points``); ``new_bags`` the bags this hand added;
    ``points`` the hand's change (bag penalties included); ``scores`` and ``bag_count`` the
    match totals after the hand; ``nil_made[seat]`` is None (no nil bid), True or False.
    """

    bids: tuple[int, ...]
    blind: tuple[bool, ...]
    tricks_won: tuple[int, ...]
    contract: tuple[int, ...]
    team_tricks: tuple[int, ...]
    counted_tricks: tuple[int, ...]
    made: tuple[bool, ...]
    contract_points: tuple[int, ...]
    new_bags: tuple[int, ...]
    nil_points: tuple[int, ...]
    bag_penalties: tuple[int, ...]
    points: tuple[int, ...]
    scores: tuple[int, ...]
    bag_count: tuple[int, ...]
    nil_made: tuple[bool | None, ...]

    @property
    def failed_bid_points(self) -> tuple[int, ...]:
        """Each side's loss beyond -10 a trick for a set contract (``Rules.failed_bid``: a set
        contract of 5 or more), 0 where none; part of ``contract_points``."""
        return tuple(0 if m else p + 10 * c for m, p, c in zip(self.made, self.contract_points, self.contract))

    def __str__(self) -> str:
        who = "team" if len(self.bids) == 2 * len(self.contract) else "seat"
        rows = [f"{'':14}" + "".join(f"{f'{who} {k}':>8}" for k in range(len(self.contract)))]
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
            rows.append(f"{label:14}" + "".join(f"{v!s:>8}" for v in pair))
        return "\n".join(rows)

    @classmethod
    def from_arrays(cls, bids, blind, tricks_won, scores, bag_count, rules_array) -> HandResult:
        """Score checked engine arrays (int64 bids and tricks and bool blind flags by seat, the
        scores and bag counts by side before the hand, ``Rules.as_array()``) with the engine's
        kernel."""
        out = np.zeros((len(scores), _k.N_FIELDS), dtype=np.int64)
        nil = np.zeros(len(bids), dtype=np.int64)
        _k.score_hand_kernel(bids, blind, tricks_won, scores, bag_count, rules_array, out, nil)

        def pair(field, kind=int):
            return tuple(kind(v) for v in out[:, field])

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
        n, k = int(rules_array[R_SEATS]), int(rules_array[R_SIDES])
        return cls.from_arrays(
            public[_st.P_BIDS : _st.P_BIDS + n],
            public[_st.P_BLIND : _st.P_BLIND + n] != 0,
            public[_st.P_WON : _st.P_WON + n],
            public[_st.P_SCORES : _st.P_SCORES + k],
            public[_st.P_BAGS : _st.P_BAGS + k],
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
    blind: Sequence[bool] | None = None,
    scores: Sequence[int] | None = None,
    bag_count: Sequence[int] | None = None,
) -> HandResult:
    """Score one hand from the bids (0 = nil) and tricks of every seat of the table of
    ``rules``; ``scores`` and ``bag_count`` are the sides' match totals before the hand (0
    when left out), ``blind`` the seats' blind-nil flags (none when left out).

    >>> r = score_hand([4, 3, 0, 2], [5, 3, 1, 4])
    >>> r.points, r.new_bags, r.nil_made
    ((-58, 52), (2, 2), (None, None, False, None))
    >>> score_hand([6, 5, 4], [3, 5, 9], Rules(players=3, failed_bid=50)).points
    (-110, 50, 45)
    """
    rules = Rules() if rules is None else rules
    n, k, each = rules.players, rules.n_sides, rules.cards_each
    b = _ints(bids, n, "bids", 0, each)
    t = _ints(tricks_won, n, "tricks_won", 0, each)
    if t.sum() != each:
        raise ValueError(f"tricks_won must add up to {each}, not {int(t.sum())} ({list(map(int, t))})")
    s = _ints((0,) * k if scores is None else scores, k, "scores", -_BIG, _BIG)
    g = _ints((0,) * k if bag_count is None else bag_count, k, "bag_count", 0, _BIG)
    for side in sides(rules):
        if g[side] >= rules.bag_limit:
            raise ValueError(f"bag_count[{side}] = {g[side]} is not below the bag limit {rules.bag_limit}")
    blind = [False] * n if blind is None else list(blind)
    if len(blind) != n or not all(isinstance(x, (bool, np.bool_)) for x in blind):
        raise ValueError(f"blind must be {n} booleans, not {blind!r}")
    for seat in range(n):
        if blind[seat] and b[seat] != 0:
            raise ValueError(f"seat {seat} is marked blind but bid {b[seat]}: only a nil can be blind")
    return HandResult.from_arrays(b, np.array(blind, dtype=np.bool_), t, s, g, rules.as_array())


def match_winner(scores: Sequence[int], rules: Rules | None = None, hands_played: int | None = None) -> int | None:
    """The winning side (0 or 1 at four players in pairs) if the match is over at these
    ``scores`` (one per side), None to play on.

    A side at the target or at the loss threshold ends the match for every side, as does
    ``max_hands`` hands (give ``hands_played``); the single highest score wins (even below the
    target) and a tie for it plays another hand.

    >>> match_winner((510, 480)), match_winner((500, 500)), match_winner((120, -200))
    (0, None, 0)
    >>> match_winner((320, 505, 340), Rules(players=3)), match_winner((505, 505, 90), Rules(players=3))
    (1, None)
    """
    rules = Rules() if rules is None else rules
    s = _ints(scores, rules.n_sides, "scores", -_BIG, _BIG)
    if hands_played is None:
        if rules.max_hands is not None:
            raise ValueError("these rules end after max_hands hands: give hands_played")
        hands_played = 0
    elif isinstance(hands_played, bool) or not isinstance(hands_played, int) or hands_played < 0:
        raise ValueError(f"hands_played must be an int >= 0, not {hands_played!r}")
    w = _k.match_winner_kernel(s, hands_played, rules.as_array())
    return None if w < 0 else int(w)
