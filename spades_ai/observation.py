"""What one seat may know: the ``Observation`` handed to an agent.

It holds exactly what the seat has seen: its own cards (none before a blind-nil decision), the
dealer, the bids so far with blind flags, every card played and by whom (in order), the current
trick, tricks won, whether spades are broken, the voids shown, the match scores and bags, and
the rules. The engine's public array (``public``) carries the same facts for numba agents.
"""

from __future__ import annotations

import numpy as np

from spades_ai.cards import Card, mask_to_cards
from spades_ai.engine import bids as _bids
from spades_ai.engine import state as _st
from spades_ai.rules import Rules


class PublicFacts:
    """What every seat sees, read from the engine's public array (``_public_array``): shared by
    ``Hand`` and ``Observation``."""

    __slots__ = ()

    @property
    def phase(self) -> str:
        """``"bidding"``, ``"playing"`` or ``"over"``."""
        return ("bidding", "playing", "over")[self._public_array[_st.P_PHASE]]

    @property
    def bids(self) -> list[int | None]:
        """Bids by seat (0 = nil, None = not yet)."""
        return [None if b < 0 else int(b) for b in self._public_array[_st.P_BIDS : _st.P_BIDS + 4]]

    @property
    def blind(self) -> list[bool]:
        """Blind-nil flags by seat."""
        return [bool(b) for b in self._public_array[_st.P_BLIND : _st.P_BLIND + 4]]

    @property
    def tricks_won(self) -> list[int]:
        """Tricks won so far, by seat."""
        return [int(t) for t in self._public_array[_st.P_WON : _st.P_WON + 4]]

    @property
    def trick_no(self) -> int:
        """Tricks finished so far (the index, 0..12, of the trick in play)."""
        return int(self._public_array[_st.P_TRICK_NO])

    @property
    def spades_broken(self) -> bool:
        return bool(self._public_array[_st.P_BROKEN])


class Observation(PublicFacts):
    """A seat's view of a hand. Read-only; build one with ``Hand.observation()``."""

    __slots__ = ("seat", "hand", "public", "rules", "rules_array", "plays", "blind_decision")

    def __init__(self, seat: int, hand: int, public: np.ndarray, rules: Rules, plays=(), blind_decision: bool = False):
        self.seat = int(seat)
        #: the seat's own cards as a bitboard (0 before a blind-nil decision)
        self.hand = int(hand)
        public = np.array(public, dtype=np.int64)
        public.setflags(write=False)
        self.public = public
        self.rules = rules
        self.rules_array = rules.as_array()
        #: every card played so far, in order, as (seat, card)
        self.plays = tuple(plays)
        #: True when the seat is asked about a blind nil before seeing its cards
        self.blind_decision = bool(blind_decision)

    # -- facts ---------------------------------------------------------------------------
    @property
    def _public_array(self) -> np.ndarray:
        return self.public

    @property
    def cards(self) -> list[Card]:
        return mask_to_cards(self.hand)

    @property
    def dealer(self) -> int:
        return int(self.public[_st.P_DEALER])

    @property
    def played_by(self) -> list[list[Card]]:
        """The cards each seat has played."""
        return [mask_to_cards(self.public[_st.P_PLAYED_BY + s]) for s in range(4)]

    @property
    def current_trick(self) -> list[tuple[int, Card]]:
        n = int(self.public[_st.P_TRICK_LEN])
        leader = int(self.public[_st.P_LEADER])
        return [((leader + i) % 4, Card(int(self.public[_st.P_TRICK + i]))) for i in range(n)]

    @property
    def voids(self) -> list[set[int]]:
        """The suits (0..3) each seat has shown it lacks."""
        v = int(self.public[_st.P_VOIDS])
        return [{s for s in range(4) if v >> (4 * seat + s) & 1} for seat in range(4)]

    @property
    def scores(self) -> tuple[int, int]:
        return (int(self.public[_st.P_SCORES]), int(self.public[_st.P_SCORES + 1]))

    @property
    def bags(self) -> tuple[int, int]:
        return (int(self.public[_st.P_BAGS]), int(self.public[_st.P_BAGS + 1]))

    # -- choices -------------------------------------------------------------------------
    def legal_bids(self) -> list[int]:
        """The bids this seat may make now (0 = nil); ``[0]`` or ``[]`` for a blind-nil decision."""
        if self.phase != "bidding":
            return []
        mask = int(_bids.legal_bids(self.seat, np.uint64(self.hand), self.public, self.rules_array))
        if self.blind_decision:
            return [0] if mask >> _bids.BLIND_NIL_BIT & 1 else []
        return [b for b in range(14) if mask >> b & 1]

    def legal_cards(self) -> list[Card]:
        if self.phase != "playing":
            return []
        return mask_to_cards(_st.legal_now(self.public, np.uint64(self.hand), self.rules_array))

    def __repr__(self) -> str:
        return f"<Observation seat={self.seat} phase={self.phase} trick={self.trick_no} cards={len(self.cards)}>"
