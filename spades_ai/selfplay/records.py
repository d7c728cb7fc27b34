"""``HandRecords``: the result of self-play, one row per hand, as tidy arrays."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from spades_ai.engine import score as _sc


@dataclass(frozen=True, eq=False, repr=False)
class HandRecords:
    """One row per hand. Per-seat arrays are ``(n, players)``, per-side arrays ``(n, n_sides)``
    (at four players in pairs ``(n, 4)`` and ``(n, 2)``: a side is two partners).

    ``deal_no`` is the deal index ``i`` of ``(seed, i)`` (``play_hands``; None in matches,
    whose cards come from their own streams); ``tricks_won`` the seats' tricks; ``sheet`` the
    engine's score sheet ``(n, n_sides, engine.score.N_FIELDS)`` behind the side properties;
    ``nil_made`` whether each seat bid nil and made it. In matches, ``match_no``, ``hand_no``
    (from 0 in each match) and ``winner`` (the match winner on a match's last row, -1
    elsewhere) are set. ``plays``, kept only when asked for (``keep_plays=True``), holds each
    hand's card ids in play order (``players * cards_each``: 52 at four, 51 at three, 50 at
    five). Two record sets are equal when every array is.
    """

    dealer: np.ndarray
    bids: np.ndarray
    blind: np.ndarray
    tricks_won: np.ndarray
    sheet: np.ndarray
    nil_made: np.ndarray
    deal_no: np.ndarray | None = None
    match_no: np.ndarray | None = None
    hand_no: np.ndarray | None = None
    winner: np.ndarray | None = None
    plays: np.ndarray | None = None

    def __len__(self) -> int:
        return len(self.bids)

    def team_field(self, field: int) -> np.ndarray:
        """``(n, n_sides)`` values of one score-sheet field (``engine.score.F_*``)."""
        return self.sheet[:, :, field]

    contract = property(lambda self: self.team_field(_sc.F_CONTRACT))
    team_tricks = property(lambda self: self.team_field(_sc.F_TRICKS))
    counted_tricks = property(lambda self: self.team_field(_sc.F_COUNTED))
    made = property(lambda self: self.team_field(_sc.F_MADE).astype(bool))
    contract_points = property(lambda self: self.team_field(_sc.F_CONTRACT_POINTS))
    new_bags = property(lambda self: self.team_field(_sc.F_NEW_BAGS))
    nil_points = property(lambda self: self.team_field(_sc.F_NIL_POINTS))
    bag_penalties = property(lambda self: self.team_field(_sc.F_PENALTIES))
    points = property(lambda self: self.team_field(_sc.F_POINTS))
    scores = property(lambda self: self.team_field(_sc.F_SCORE))
    bag_count = property(lambda self: self.team_field(_sc.F_BAGS))
    nil_bid = property(lambda self: self.bids == 0, doc="``(n, players)``: whether each seat bid nil")

    @property
    def mode(self) -> str:
        return "hands" if self.match_no is None else "matches"

    def __eq__(self, other) -> bool:
        if not isinstance(other, HandRecords):
            return NotImplemented
        for name in self.__dataclass_fields__:
            a, b = getattr(self, name), getattr(other, name)
            if (a is None) != (b is None) or (a is not None and not np.array_equal(a, b)):
                return False
        return True

    __hash__ = None

    def __repr__(self) -> str:
        n = len(self)
        if self.mode == "hands":
            span = f"deals {self.deal_no[0]}..{self.deal_no[-1]}" if n else "no deals"
        else:
            span = f"matches {self.match_no[0]}..{self.match_no[-1]}" if n else "no matches"
        return f"<HandRecords {n:,} hands ({self.mode}, {span}); mean points {self.points.mean(axis=0).round(1).tolist() if n else '-'}>"


def make_records(arrays, plays, keep_plays: bool, **extra) -> HandRecords:
    bids, blind, tricks_won, sheet, nil = arrays
    return HandRecords(
        bids=bids, blind=blind, tricks_won=tricks_won, sheet=sheet, nil_made=nil == _sc.NIL_MADE,
        plays=plays if keep_plays else None, **extra,
    )  # fmt: skip
