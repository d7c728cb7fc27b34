"""What one seat may know: the ``Observation`` handed to an agent, and the public facts that a
``Hand`` and an ``Observation`` both read from the engine's public array.

An observation holds exactly what the seat has seen: its own cards (none before a blind-nil
decision), the dealer, the bids so far with blind flags (under ``closed_bidding``, only its own
until the play starts), the cards it and its partner passed each other (``gave``,
``received``, ``blind_gave``, ``blind_received``; never the opponents'), every card played and
by whom (in order), the current trick, tricks won, whether spades are broken, the voids shown, the match
scores and bag counts, and the rules. The engine's public array (``public``) carries the same
facts for numba agents (layout: ``spades_ai.engine.state``).

Cards are named as the rules name them (``Rules.card``: under jokers ``BJ`` is id 26, ...);
the public array and ``engine_cards`` are in the engine's layout (``engine.bits``: jokers and
high deuces in the trump lane), as the kernels read them.
"""

from __future__ import annotations

import numpy as np

from spades_ai.cards import Card, CardSet, Suit, mask_to_cards
from spades_ai.engine import bids as _bids
from spades_ai.engine import state as _st
from spades_ai.rules import Rules
from spades_ai.seats import partner as _partner, seats

PHASES = ("bidding", "playing", "over", "passing")


def bids_in_mask(mask: int, blind: bool = False) -> list[int]:
    """The bids of an engine bid mask (bit b = bid b, 0 = nil) as a list; with ``blind``,
    ``[0]`` if the mask allows a blind nil, else ``[]``."""
    mask = int(mask)
    if blind:
        return [0] if mask >> _bids.BLIND_NIL_BIT & 1 else []
    return [b for b in range(_bids.BLIND_NIL_BIT) if mask >> b & 1]


class PublicFacts:
    """What every seat sees, read from the engine's public array ``self.public``: shared by
    ``Hand`` and ``Observation``."""

    __slots__ = ()
    public: np.ndarray
    rules: Rules

    @property
    def _facts(self) -> np.ndarray:
        """The public array the facts are read from: ``public`` (``Hand`` reads its own array,
        without making the read-only view its ``public`` gives callers)."""
        return self.public

    @property
    def phase(self) -> str:
        """``"passing"``, ``"bidding"``, ``"playing"`` or ``"over"``."""
        return PHASES[self._facts[_st.P_PHASE]]

    @property
    def pass_count(self) -> int:
        """How many cards each passer gives in the passing round under way (0 outside one)."""
        return int(_st.pass_count(self._facts, self.rules.as_array()))

    @property
    def dealer(self) -> int:
        return int(self._facts[_st.P_DEALER])

    @property
    def bids(self) -> list[int | None]:
        """Bids by seat (0 = nil, None = not yet)."""
        return [None if b < 0 else b for b in self._facts[_st.P_BIDS : _st.P_BIDS + self.rules.players].tolist()]

    @property
    def blind(self) -> list[bool]:
        """Blind-nil flags by seat."""
        return [b != 0 for b in self._facts[_st.P_BLIND : _st.P_BLIND + self.rules.players].tolist()]

    @property
    def tricks_won(self) -> list[int]:
        """Tricks won so far, by seat."""
        return self._facts[_st.P_WON : _st.P_WON + self.rules.players].tolist()

    @property
    def trick_no(self) -> int:
        """Tricks finished so far (the index, from 0, of the trick in play)."""
        return int(self._facts[_st.P_TRICK_NO])

    @property
    def spades_broken(self) -> bool:
        return bool(self._facts[_st.P_BROKEN])

    @property
    def leader(self) -> int | None:
        """The seat that led (or is to lead) the trick in play; None outside the play."""
        return int(self._facts[_st.P_LEADER]) if self.phase == "playing" else None

    @property
    def current_trick(self) -> list[tuple[int, Card]]:
        """The (seat, card) pairs of the unfinished trick, in play order."""
        n = int(self._facts[_st.P_TRICK_LEN])
        leader = int(self._facts[_st.P_LEADER])
        deck = self.rules.engine_deck
        return [((leader + i) % self.rules.players, deck[int(self._facts[_st.P_TRICK + i])]) for i in range(n)]

    @property
    def played_by(self) -> list[CardSet]:
        """The cards each seat has played."""
        f = self._facts
        return [self.rules.engine_cards(f[_st.P_PLAYED_BY + s], f[_st.P_PLAYED_BY2 + s], f[_st.P_PLAYED_BY3 + s])
                for s in range(self.rules.players)]  # fmt: skip

    @property
    def voids(self) -> list[set[int]]:
        """The suits (0..3) each seat has shown it lacks."""
        v = int(self._facts[_st.P_VOIDS])
        return [{int(suit) for suit in Suit if v >> (4 * seat + suit) & 1} for seat in seats(self.rules)]

    @property
    def scores(self) -> tuple[int, ...]:
        """The match scores by side (sides 0 .. n_sides - 1) before this hand."""
        return tuple(self._facts[_st.P_SCORES : _st.P_SCORES + self.rules.n_sides].tolist())

    @property
    def bag_count(self) -> tuple[int, ...]:
        """The sides' running bag counts before this hand."""
        return tuple(self._facts[_st.P_BAGS : _st.P_BAGS + self.rules.n_sides].tolist())

    @property
    def hands_played(self) -> int:
        """Hands of the match finished before this one."""
        return int(self._facts[_st.P_HANDS_PLAYED])


class Observation(PublicFacts):
    """A seat's view of a hand. Read-only; build one with ``Hand.observation()``."""

    __slots__ = ("seat", "cards", "public", "rules", "rules_array", "blind_decision", "_plays", "_history", "_legal",
                 "_engine")

    def __init__(self, seat: int, cards: int, public: np.ndarray, rules: Rules, plays=(), blind_decision: bool = False):
        """``cards`` (a bitboard) and ``public`` are in the engine's layout (``engine.state``)."""
        self.seat = int(seat)
        self._engine = int(cards)
        #: the seat's own cards (empty before a blind-nil decision); ``int(obs.cards)`` is the
        #: bitboard of their card ids
        self.cards = rules.engine_cards(self._engine, int(public[_st.P_OWN2]), int(public[_st.P_OWN3]))
        public = public.copy() if isinstance(public, np.ndarray) and public.dtype == np.int64 else np.array(public, np.int64)
        public.flags.writeable = False
        self.public = public
        self.rules = rules
        self.rules_array = rules.as_array()
        #: True when the seat is asked about a blind nil before seeing its cards
        self.blind_decision = bool(blind_decision)
        self._plays = tuple(plays)
        self._history = None
        self._legal = None

    @classmethod
    def of_question(cls, seat: int, cards: int, public: np.ndarray, rules: Rules, rules_array: np.ndarray,
               blind_decision: bool, seqs: np.ndarray, q: int, n: int, legal: int) -> Observation:  # fmt: skip
        """The observation of a question of the self-play loop (``selfplay.python_seats``), built
        with as little work as possible: ``public`` is the loop's own read-only copy (a row),
        the play history stays row ``q`` of ``seqs`` (``64 * seat + card``, ``n`` of them) until
        ``plays`` is read, and the legal mask is the loop's."""
        obs = cls.__new__(cls)
        obs.seat = seat
        obs._engine = cards
        obs.cards = rules.engine_cards(cards, int(public[_st.P_OWN2]), int(public[_st.P_OWN3]))
        obs.public = public
        obs.rules = rules
        obs.rules_array = rules_array
        obs.blind_decision = blind_decision
        obs._plays = None
        obs._history = (seqs, q, n)
        obs._legal = legal
        return obs

    @property
    def plays(self) -> tuple[tuple[int, Card], ...]:
        """Every card played so far, in order, as (seat, card)."""
        if self._plays is None:
            seqs, q, n = self._history
            deck = self.rules.engine_deck
            self._plays = tuple((v >> 6, deck[v & 63]) for v in seqs[q, :n].tolist())
        return self._plays

    def play_codes(self) -> list[int]:
        """Every card played so far, in order, as ``64 * seat + engine id`` (the self-play loop's
        own encoding, read straight from its row when the observation came from the loop)."""
        if self._history is not None:
            seqs, q, n = self._history
            return seqs[q, :n].tolist()
        return [64 * seat + self.rules.engine_id(card) for seat, card in self.plays]

    def legal_mask(self) -> int:
        """The actions legal now as the engine's bitmask: in the bidding bit ``b`` for bid ``b``
        (``bids_in_mask`` reads it), in the play bit ``id`` for the card of engine id ``id``; 0
        in any other phase."""
        if self._legal is None:
            if self.phase == "bidding":
                self.legal_bids()
            elif self.phase == "playing":
                self.legal_cards()
            else:
                return 0
        return self._legal

    @property
    def engine_cards(self) -> np.uint64:
        """The seat's cards in the engine's layout, as the kernels take them: equal to
        ``np.uint64(obs.cards)`` unless jokers or high deuces sit in the trump lane."""
        return np.uint64(self._engine)

    # -- passes (this seat's and its partner's only; passing is played in pairs) ---------------
    def _slot_cards(self, slot: int) -> CardSet:
        return self.rules.engine_cards(int(self.public[slot]))

    def _partner_cards(self, block: int) -> CardSet:
        mate = _partner(self.seat, self.rules)
        return self.rules.cardset(0) if mate is None else self._slot_cards(block + mate)

    @property
    def gave(self) -> CardSet:
        """The cards this seat passed to its partner before the bidding (empty: none yet)."""
        return self._slot_cards(_st.P_GAVE + self.seat)

    @property
    def received(self) -> CardSet:
        """The cards its partner passed to it before the bidding."""
        return self._partner_cards(_st.P_GAVE)

    @property
    def blind_gave(self) -> CardSet:
        """The cards this seat passed in the blind pass."""
        return self._slot_cards(_st.P_BLIND_GAVE + self.seat)

    @property
    def blind_received(self) -> CardSet:
        """The cards its partner passed to it in the blind pass."""
        return self._partner_cards(_st.P_BLIND_GAVE)

    @property
    def partner_holds(self) -> CardSet:
        """The cards this seat knows its partner holds: those it passed it and that neither
        came back in the blind pass nor were played since."""
        mate = _partner(self.seat, self.rules)
        if mate is None:
            return self.rules.cardset(0)
        gave = (int(self.gave) & ~int(self.blind_received)) | int(self.blind_gave)
        return self.rules.cardset(gave & ~int(self.played_by[mate]))

    def __getstate__(self):
        """Pickled or copied with its plays decoded, without the self-play loop's arrays that
        an observation from the loop shares with the other questions of its batch."""
        state = {name: getattr(self, name) for name in self.__slots__}
        state["_plays"], state["_history"] = self.plays, None
        return None, state

    # -- choices -------------------------------------------------------------------------
    def legal_bids(self) -> list[int]:
        """The bids this seat may make now (0 = nil); ``[0]`` or ``[]`` for a blind-nil decision."""
        if self.phase != "bidding":
            return []
        if self._legal is None:
            self._legal = int(_bids.legal_bids(self.seat, self.engine_cards, self.public, self.rules_array))
        return bids_in_mask(self._legal, self.blind_decision)

    def legal_cards(self) -> list[Card]:
        """The cards this seat may play now, lowest id first (empty outside the play)."""
        if self.phase != "playing":
            return []
        if self._legal is None:
            self._legal = int(_st.legal_now(self.public, self.engine_cards, self.rules_array))
        if self.rules.extra_trumps:
            return list(self.rules.engine_cards(self._legal))
        return mask_to_cards(self._legal)

    def __repr__(self) -> str:
        return f"<Observation seat={self.seat} phase={self.phase} trick={self.trick_no} cards={len(self.cards)}>"
