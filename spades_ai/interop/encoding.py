"""What the OpenSpiel game and the PettingZoo environment share: actions, the observation vector
and the ``Table`` that drives our ``Hand`` one action at a time. No optional dependency here.

Actions (one id space for both frameworks; ``E`` = the table's cards each, 13 at 4, 8 and 12
players, 17 at 3, 6 and 9, 10 at 5: ``observation_layout(rules)`` gives every id)::

    0..51          play a card: our card id, suit * 13 + rank (suits C D H S, ranks 2..A): 0 = 2C, 51 = AS
    52..52+E       bid 0..E: 52 = nil, 53 = 1, ..., 52 + E = E (65 = 13 at four players)
    53+E           blind nil (66 at 13 cards each): offered first, before the seat looks at its cards
    54+E           look (67 at 13 cards each): decline the blind nil, see the cards, then bid

With several decks (6 to 12 players) a card id names every copy of the card: playing it plays
one. Seats in the observation vector are relative to the observer: 0 = itself, 1 = its left
(plays next), ..., N - 1 = its right (at four players in pairs 2 is its partner). The layout is
``FIELDS`` (documented in ``spades_ai.interop.pettingzoo``) at four players in pairs and
``observation_layout(rules)`` at any table, defined in ``spades_ai.encoding`` and re-exported
here; ``observation_vector`` runs that module's kernel, the one every learner reads.

>>> from spades_ai import Rules, deal
>>> t = Table(Rules())
>>> t.start([sum(1 << c for c in h) for h in deal(seed=1)])
>>> t.to_act, [action_to_string(a) for a in t.legal_actions()[:3]]
(1, ['nil', 'bid 1', 'bid 2'])
>>> observation_vector(t.view(1)).shape
(567,)
>>> three = Table(Rules.preset("cutthroat"))
>>> three.start(deal(seed=1, rules=three.rules))
>>> three.to_act, action_to_string(three.legal_actions()[-1], three.rules), three.vector(1).shape
(1, 'bid 17', (455,))
"""

from __future__ import annotations

import copy
import functools

import numpy as np

from spades_ai.cards import Card, CardSet, format_hand
from spades_ai.errors import IllegalBidError, IllegalPlayError, RulesError
from spades_ai.game import Hand

# The layout lives in spades_ai.encoding (shared with the batched environment and the learned
# models); every name stays importable from here.
from spades_ai.encoding import (  # noqa: F401 -- re-exported
    BID_OFFSET,
    BLIND_NIL,
    FIELDS,
    LOOK,
    N_ACTIONS,
    OBSERVATION_HIGH,
    OBSERVATION_LOW,
    OBSERVATION_SIZE,
    PHASES,
    SLICES,
    Layout,
    action_to_string,
    bid_action,
    observation_layout,
)
from spades_ai.capabilities import require_table
from spades_ai.encoding import write_observation
from spades_ai.observation import Observation
from spades_ai.rules import Rules
from spades_ai.seats import cards_dealt, seats, side_of, table_name


def _seat_view(hand: Hand, seat: int, hide_cards: bool) -> Observation:
    """What ``seat`` sees while another seat acts (``Hand.observation`` is for the seat to act
    only)."""
    return hand.view(seat, hide_cards=hide_cards)


# -- the observation vector ------------------------------------------------------------------
def _match_fields(v: np.ndarray, rules: Rules, seat: int, scores, bags) -> None:
    """The scores and bag counts of the sides, the observer's first (as the kernel writes them)."""
    layout = observation_layout(rules)
    order = [(side_of(seat, rules) + j) % layout.sides for j in range(layout.sides)]
    v[layout.slices["scores"]] = np.clip([scores[k] / 1000 for k in order], -1.0, 1.0)
    v[layout.slices["bag_counts"]] = [bags[k] / rules.bag_limit for k in order]


def observation_vector(obs: Observation, out: np.ndarray | None = None) -> np.ndarray:
    """The float32 vector of ``observation_layout(obs.rules)`` for an ``Observation``, written by
    the kernel every learner reads (``spades_ai.encoding.write_observation``): a policy trained
    on the PettingZoo or OpenSpiel vector can play in our tournaments through this."""
    size = observation_layout(obs.rules).size
    if out is None:
        out = np.zeros(size, dtype=np.float32)
    elif out.shape != (size,) or out.dtype != np.float32:
        raise ValueError(f"out must be a float32 array of {size} (the vector at {table_name(obs.rules)}), not {out.dtype} {out.shape}")
    write_observation(obs.public, obs.seat, obs.engine_cards, obs.blind_decision, obs.rules_array, out)
    return out


# -- the table ---------------------------------------------------------------------------------
class Table:
    """One hand as the adapters drive it: the deal (card by card, or all at once with ``start``),
    then our ``Hand`` for every bid and card, plus which seats have looked at their cards.

    Any table of the rules (``rules.players`` seats, solo or in pairs, one to three decks). The
    rules are our engine's: a bid or card it refuses raises ``IllegalBidError`` or
    ``IllegalPlayError`` and changes nothing. When the rules offer a seat a blind nil, its turn
    to bid starts with a choice between blind nil and look (``layout.blind_nil``,
    ``layout.look``), taken without its cards. ``scores`` and ``bag_count`` are the sides' match
    totals before the hand (0 when left out).
    """

    def __init__(self, rules: Rules, dealer: int = 0, scores=None, bag_count=None, hands_played: int = 0):
        require_table(rules, "adapters")
        if rules.pass_cards or rules.blind_pass or rules.closed_bidding:
            raise RulesError(
                "the OpenSpiel and PettingZoo adapters have no actions for card passing and no hidden bids: "
                "rules fields 'pass_cards', 'blind_pass' and 'closed_bidding' must be off"
            )
        if rules.jokers or rules.deuces_high:
            raise RulesError(
                "the OpenSpiel and PettingZoo adapters name and encode the 52 cards of the plain deck: "
                f"rules fields 'jokers' ({rules.jokers}) and 'deuces_high' ({rules.deuces_high}) must be 0"
            )
        self.rules = rules
        #: the table's action ids and observation vector
        self.layout = observation_layout(rules)
        self.dealer = dealer
        self.scores = tuple(scores) if scores is not None else (0,) * rules.n_sides
        self.bag_count = tuple(bag_count) if bag_count is not None else (0,) * rules.n_sides
        self.hands_played = hands_played
        self.dealt: list[int] = []  # card ids in the order dealt, the dealer's left first
        self.hand: Hand | None = None
        self.phase = "dealing"  # the hand's phase, read once after each action (it is asked often)
        self.looked = [False] * rules.players
        self.actions: list[int] = []  # every seat's action, in order (all are public)

    def __deepcopy__(self, memo) -> Table:
        new = copy.copy(self)
        new.dealt = list(self.dealt)
        new.looked = list(self.looked)
        new.actions = list(self.actions)
        new.hand = None if self.hand is None else self.hand.clone()
        return new

    # -- the deal ----------------------------------------------------------------------
    @property
    def dealing(self) -> bool:
        return self.hand is None

    @property
    def cards_dealt(self) -> int:
        """The cards of a whole deal: every seat's cards each."""
        return cards_dealt(self.rules)

    def deal_seat(self, k: int) -> int:
        """The seat that receives the ``k``-th card dealt (the dealer's left first)."""
        return (self.dealer + 1 + k) % self.rules.players

    def undealt_copies(self) -> list[tuple[int, int]]:
        """``(card id, copies)`` of every card still to be dealt, ascending: the table's decks
        less the cards it removes and those dealt so far."""
        left = _table_deck(self.rules) - CardSet(self.dealt)
        return [(c, left.count(c)) for c in sorted(set(map(int, left)))]

    def undealt(self) -> list[int]:
        """The card ids still to be dealt, each once, ascending."""
        return [c for c, _ in self.undealt_copies()]

    def deal_card(self, card: int) -> None:
        """Deal card id ``card`` to the next seat (a chance outcome)."""
        card = int(card)
        if not self.dealing:
            raise ValueError("the deal is complete: no card is to be dealt")
        if card not in self.undealt():
            why = "not a card id" if not 0 <= card < 52 else f"no copy of {Card(card)} is left to deal at {table_name(self.rules)}"
            raise ValueError(f"card {card} cannot be dealt: {why}")
        self.dealt.append(card)
        if len(self.dealt) == self.cards_dealt:
            hands = [CardSet() for _ in seats(self.rules)]
            for k, c in enumerate(self.dealt):
                hands[self.deal_seat(k)] += CardSet([c])
            self.start(hands)

    def start(self, hands) -> None:
        """Start the hand on a complete deal: every seat's cards (bitboards or ``CardSet``s,
        copies included), seats 0..N-1."""
        self.hand = Hand(list(hands), self.dealer, self.rules, self.scores, self.bag_count, self.hands_played)
        if not self.rules.blind_nil:
            self.looked = [True] * self.rules.players
        self._settle()

    # -- whose turn, what may be done ----------------------------------------------------
    @property
    def over(self) -> bool:
        return self.phase == "over"

    @property
    def to_act(self) -> int | None:
        """The seat to act; None while dealing and once the hand is over."""
        return None if self.hand is None else self.hand.to_act

    @property
    def blind_pending(self) -> bool:
        """The seat to act must first choose between a blind nil and looking at its cards."""
        return self.phase == "bidding" and not self.looked[self.hand.to_act]

    def _settle(self) -> None:
        # A seat whose turn to bid comes without a blind-nil option simply looks at its cards.
        h = self.hand
        self.phase = h.phase
        if self.phase == "bidding" and not self.looked[h.to_act] and not h.legal_bids(blind=True):
            self.looked[h.to_act] = True
        if self.phase != "bidding":
            self.looked = [True] * self.rules.players

    def legal_actions(self) -> list[int]:
        """The legal action ids of the seat to act, ascending (empty while dealing or over)."""
        h = self.hand
        if h is None or self.phase == "over":
            return []
        if self.blind_pending:
            return [self.layout.blind_nil, self.layout.look]
        if self.phase == "bidding":
            return [BID_OFFSET + b for b in h.legal_bids()]
        return [int(c) for c in h.legal_cards()]

    def legal_mask(self) -> np.ndarray:
        mask = np.zeros(self.layout.n_actions, dtype=np.int8)
        mask[self.legal_actions()] = 1
        return mask

    def apply(self, action) -> None:
        """Apply the seat to act's action id; a refused action raises and changes nothing."""
        n_actions, blind_nil, look = self.layout.n_actions, self.layout.blind_nil, self.layout.look
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise ValueError(f"an action is an int in 0..{n_actions - 1}, not {action!r}")
        action = int(action)
        h = self.hand
        if h is None:
            raise ValueError("the cards are being dealt: no seat is to act")
        seat = h.to_act
        if self.phase == "over":
            raise ValueError(f"the hand is over: action {action} is not due")
        if not 0 <= action < n_actions:
            raise ValueError(f"seat {seat}: action {action} is not in 0..{n_actions - 1} (the actions at {self.layout.table})")
        if self.blind_pending:
            self._blind_choice(seat, action)
        elif action in (look, blind_nil):
            why = "it has already looked at its cards" if self.phase == "bidding" else f"the hand is {self.phase}"
            raise IllegalBidError(f"seat {seat} may not choose {self.layout.action_to_string(action)}: {why}")
        elif action >= BID_OFFSET:
            h.bid(action - BID_OFFSET)
        elif self.phase == "bidding":
            bids = f"{BID_OFFSET}..{blind_nil - 1}"
            raise IllegalPlayError(f"seat {seat} played {Card(action)}, but the hand is bidding: bids are {bids}")
        else:
            h.play(action)
        self.actions.append(action)
        self._settle()

    def _blind_choice(self, seat: int, action: int) -> None:
        """The seat to act chooses blind nil or to look at its cards (nothing else)."""
        if action == self.layout.look:
            self.looked[seat] = True
        elif action == self.layout.blind_nil:
            self.hand.bid(0, blind=True)
            self.looked[seat] = True  # bid made: now it may look
        else:
            raise IllegalBidError(
                f"seat {seat} must first choose blind nil ({self.layout.blind_nil}) or look at its cards "
                f"({self.layout.look}), not {self.layout.action_to_string(action)}"
            )

    # -- what each seat sees ---------------------------------------------------------------
    def view(self, seat: int) -> Observation:
        """``seat``'s ``Observation``: without its cards while it has not looked at them, and a
        blind-nil decision (``blind_decision``) when that is what it is to choose."""
        if self.hand is None:
            raise ValueError("the cards are being dealt: there is no observation yet")
        if seat == self.to_act:
            return self.hand.observation(blind_decision=not self.looked[seat])
        return _seat_view(self.hand, seat, hide_cards=not self.looked[seat])

    def vector(self, seat: int, out: np.ndarray | None = None) -> np.ndarray:
        """``observation_vector`` of ``seat``'s view (during the deal: the phase and match facts)."""
        if self.hand is not None:
            return observation_vector(self.view(seat), out)
        layout = self.layout
        v = np.zeros(layout.size, dtype=np.float32) if out is None else out
        v[:] = 0.0
        v[layout.slices["phase"].start + PHASES.index("dealing")] = 1.0
        v[layout.slices["dealer"].start + layout.relative_seat(self.dealer, seat)] = 1.0
        _match_fields(v, self.rules, seat, self.scores, self.bag_count)
        return v

    def initial_cards(self, seat: int) -> CardSet:
        """The cards ``seat`` was dealt (copies included), once it has looked (empty before)."""
        if self.hand is None or not self.looked[seat]:
            return CardSet()
        return CardSet(int(self.hand.deal[seat]))

    def points(self) -> tuple[int, ...]:
        """The hand's points per side (bag penalties included); all 0 until it is over."""
        return tuple(self.hand.result().points) if self.over else (0,) * self.rules.n_sides

    def __str__(self) -> str:
        if self.hand is None:
            return f"dealer {self.dealer}, dealing: {len(self.dealt)} of {self.cards_dealt} cards dealt"
        looked = "".join("L" if x else "-" for x in self.looked)
        return f"{self.hand}\n  looked: {looked}  actions: {' '.join(map(str, self.actions))}"

    def seat_summary(self, seat: int, show_cards: bool = True) -> str:
        """One line of what ``seat`` sees, for observation strings (``show_cards=False``: the
        public part only)."""
        if self.hand is None:
            return f"seat {seat}, dealer {self.dealer}, dealing ({len(self.dealt)} of {self.cards_dealt})"
        obs = self.view(seat)
        phase = "blind_decision" if obs.blind_decision else obs.phase
        own = "(private)" if not show_cards else format_hand(int(obs.cards)) if self.looked[seat] else "(not looked)"
        bids = " ".join("-" if b is None else ("B" if bl else str(b)) for b, bl in zip(obs.bids, obs.blind))
        trick = " ".join(f"{s}:{c}" for s, c in obs.current_trick) or "-"
        won = " ".join(map(str, obs.tricks_won))
        return f"seat {seat}, dealer {obs.dealer}, {phase}; cards {own}; bids {bids}; won {won}; trick {trick}"


@functools.lru_cache(maxsize=None)
def _table_deck(rules: Rules) -> CardSet:
    """Every card a deal of the table gives out: its decks less the cards it removes."""
    return CardSet.full_decks(rules.decks).take(rules.removed_cards)
