"""The observation vector and the action ids that the learning environment, the PettingZoo and
OpenSpiel adapters, the datasets and the learned models share: one layout, a function of the
table, defined here below every layer that reads it (no optional dependency;
``spades_ai.learn.encoding`` re-exports it). As OpenSpiel's Oh Hell derives its tensor from the
number of players, ``observation_layout(rules)`` derives the size and place of every field from
the table's seats, sides, decks and cards each (``field_sizes``, the one definition: the numba
kernel ``write_observation`` and the Python layout both read it).

Actions (one id space everywhere; ``E`` = cards each, 13 at 4, 8 and 12 players)::

    0..51          play a card: our card id, suit * 13 + rank (suits C D H S, ranks 2..A): 0 = 2C, 51 = AS
    52..52+E       bid 0..E: 52 = nil, 53 = 1, ..., 52 + E = E
    53+E           blind nil: offered first, before the seat looks at its cards, when the rules allow one
    54+E           look: decline the blind nil, see the cards, then bid

At 13 cards each these are the constants ``BID_OFFSET`` (52), ``BLIND_NIL`` (66), ``LOOK`` (67)
and ``N_ACTIONS`` (68); ``Layout.blind_nil``, ``look`` and ``n_actions`` give any table's.

The vector (``Layout.size`` float32) is ``Layout.fields`` in order (``Layout.slices`` gives each
field's slice). Seats in it are relative to the observer, one block per seat: 0 = itself, 1 =
its left (plays next), ..., N - 1 = its right (at four in pairs 2 is its partner). Sides are
relative too: its own first, then the side of each next seat to its left. With several decks
the cards a seat holds or has played take a plane of 52 per copy level (held at least once,
twice, three times), so one deck has one plane. At four players in pairs this is the vector of
567 floats the shipped models and saved datasets were made with (``FIELDS``, ``SLICES``,
``OBSERVATION_SIZE``: that table's layout). Under ``jokers`` / ``deuces_high`` a joker or high
deuce keeps the card id of the card it replaces (``Rules``), so the 52 card ids still name every
card. ``spades_ai.interop.encoding.observation_vector(obs)`` runs the kernel on an
``Observation``. A decision's phase is its ``PHASES`` index (``PH_*``: a dataset's ``phase``
column). The actions express every rule but card passing (``check_rules``).

>>> SLICES["bids"], OBSERVATION_SIZE, action_to_string(BID_OFFSET + 4)
(slice(472, 528, None), 567, 'bid 4')
>>> three = observation_layout("cutthroat")
>>> three.size, three.slices["bids"], three.n_actions, three.action_to_string(three.look)
(455, slice(367, 421, None), 72, 'look')
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

import numpy as np

from spades_ai.capabilities import require_table
from spades_ai.cards import DECK
from spades_ai.engine.bits import N_SUITS, ONE, U64, lowest_index
from spades_ai.engine.deal import public_id
from spades_ai.engine.jit import hot_kernel, inline_kernel
from spades_ai.engine.seats import side_of
from spades_ai.engine.state import (
    P_BAGS,
    P_BIDS,
    P_BLIND,
    P_BROKEN,
    P_DEALER,
    P_LEADER,
    P_OWN2,
    P_OWN3,
    P_PHASE,
    P_PLAYED_BY,
    P_PLAYED_BY2,
    P_PLAYED_BY3,
    P_SCORES,
    P_TRICK,
    P_TRICK_LEN,
    P_TRICK_NO,
    P_VOIDS,
    P_WON,
    PHASE_BIDDING,
    PHASE_PLAYING,
)
from spades_ai.errors import RulesError
from spades_ai.rules import R_BAG_LIMIT, R_CARDS_EACH, R_DECKS, R_EXTRA, R_N_EXTRA, R_SEATS, R_SIDES, Rules
from spades_ai.seats import table_name

BID_OFFSET = 52
#: the blind nil, the look and the number of actions at 13 cards each (4, 8 and 12 players)
BLIND_NIL = 66
LOOK = 67
N_ACTIONS = 68


def table_rules(rules=None, players: int | None = None, teams: bool | str | None = None) -> Rules:
    """The rules of a table as a caller may choose it: a ``Rules``, a preset's name
    (``"cutthroat"``), a table of fields, a TOML file, or None (the defaults; ``Rules.load``),
    with ``players`` and ``teams`` (``"pairs"`` or ``True``, ``"solo"`` or ``False``; left out:
    the rules' own, or the default of that many players) set on them.

    >>> table_rules("cutthroat").players, table_rules(players=6, teams=True).n_sides
    (3, 3)
    """
    if rules is not None and not isinstance(rules, (Rules, str, dict)) and not hasattr(rules, "__fspath__"):
        raise TypeError(f"rules must be a spades_ai.Rules, a preset's name or a table of fields, not {type(rules).__name__}")
    rules = Rules.load(rules)
    if players is None and teams is None:
        return rules
    if isinstance(teams, bool):
        teams = "pairs" if teams else "solo"
    fields = rules.to_dict()
    if players is not None:
        fields["players"] = players
        fields["teams"] = teams  # None: that many players' default
    elif teams is not None:
        fields["teams"] = teams
    return Rules.from_dict(fields)


def bid_action(bid: int) -> int:
    """The action id of bid ``bid`` (0 = nil .. cards each)."""
    return BID_OFFSET + int(bid)


def action_to_string(action: int, rules=None) -> str:
    """``AS``, ``nil``, ``bid 4``, ``blind nil`` or ``look`` (at the table of ``rules``; the
    default: four players, 13 cards each)."""
    return observation_layout(rules).action_to_string(action)


PHASES = ("dealing", "blind_decision", "bidding", "playing", "over")
#: each decision's ``PHASES`` index (the vector's phase one-hot, a dataset's ``phase`` column)
PH_BLIND, PH_BIDDING, PH_PLAYING, PH_OVER = 1, 2, 3, 4


def check_rules(rules) -> Rules:
    """The rules (a ``Rules``, a preset's name, ..., ``table_rules``), refused with a
    ``RulesError`` if the actions cannot express them.

    Card passing (``pass_cards``, ``blind_pass``) has no action ids. Everything else is played:
    closed bidding (each seat's vector shows only what its view shows), jokers and high deuces
    (they keep the card id of the card they replace, so 0..51 still name every card), every
    bidding preset, blind nil (the blind nil and look actions), at the tables the learning
    environment plays (``require_table(rules, "learning")``)."""
    rules = table_rules(rules)
    require_table(rules, "learning")
    if rules.pass_cards or rules.blind_pass:
        raise RulesError(
            "the learning environment's actions (52 cards, the bids, blind nil, look) have none for card passing: "
            f"rules fields 'pass_cards' ({rules.pass_cards}) and 'blind_pass' ({rules.blind_pass}) must be 0"
        )
    return rules


# -- the layout ------------------------------------------------------------------------------------
#: The fields of the vector, in order (``field_sizes`` gives their sizes, ``Layout`` describes them).
FIELD_NAMES = ("own_cards", "played_by", "current_trick", "trick_leader", "bids", "blind_nil", "tricks_won", "phase",
               "dealer", "spades_broken", "voids", "scores", "bag_counts", "trick_no")  # fmt: skip
(F_OWN, F_PLAYED, F_TRICK, F_LEADER, F_BIDS, F_BLIND, F_WON, F_PHASE, F_DEALER, F_BROKEN, F_VOIDS, F_SCORES, F_BAGS,
 F_TRICK_NO) = range(len(FIELD_NAMES))  # fmt: skip
N_FIELDS = len(FIELD_NAMES)


@inline_kernel
def field_sizes(players, sides, decks, cards_each):
    """The size of each field of ``FIELD_NAMES`` at a table of ``players`` seats, ``sides``
    sides, ``decks`` decks and ``cards_each`` cards a seat: the layout's one definition."""
    return (
        decks * 52,  # own_cards: a plane of 52 card ids per copy level
        players * decks * 52,  # played_by: a block of planes per seat
        players * 52,  # current_trick: one card a seat
        players,  # trick_leader
        players * (cards_each + 1),  # bids: one-hot 0 (nil) .. cards_each
        players,  # blind_nil
        players,  # tricks_won
        5,  # phase: one-hot over PHASES
        players,  # dealer
        1,  # spades_broken
        players * 4,  # voids: seat x suit
        sides,  # scores
        sides,  # bag_counts
        1,  # trick_no
    )


@inline_kernel
def field_starts(rules):
    """Where each field of ``FIELD_NAMES`` starts in the vector of the table of ``rules``, and
    (last) the vector's size: the running sum of ``field_sizes``."""
    s = field_sizes(rules[R_SEATS], rules[R_SIDES], rules[R_DECKS], rules[R_CARDS_EACH])
    own = 0
    played = own + s[F_OWN]
    trick = played + s[F_PLAYED]
    leader = trick + s[F_TRICK]
    bids = leader + s[F_LEADER]
    blind = bids + s[F_BIDS]
    won = blind + s[F_BLIND]
    phase = won + s[F_WON]
    dealer = phase + s[F_PHASE]
    broken = dealer + s[F_DEALER]
    voids = broken + s[F_BROKEN]
    scores = voids + s[F_VOIDS]
    bags = scores + s[F_SCORES]
    trick_no = bags + s[F_BAGS]
    return (own, played, trick, leader, bids, blind, won, phase, dealer, broken, voids, scores, bags, trick_no,
            trick_no + s[F_TRICK_NO])  # fmt: skip


@inline_kernel
def observation_size(rules):
    """The length of the vector at the table of ``rules`` (``Layout.size``)."""
    return field_starts(rules)[N_FIELDS]


@inline_kernel
def n_actions(rules):
    """The number of action ids at the table of ``rules``: 52 cards, the bids 0..cards each,
    blind nil and look (``Layout.n_actions``)."""
    return BID_OFFSET + rules[R_CARDS_EACH] + 3


@inline_kernel
def blind_nil_action(rules):
    return BID_OFFSET + rules[R_CARDS_EACH] + 1


@inline_kernel
def look_action(rules):
    return BID_OFFSET + rules[R_CARDS_EACH] + 2


def _descriptions(players: int, sides: int, decks: int, cards_each: int) -> tuple[str, ...]:
    """What each field holds, in words (the 4-player wording of every table of one deck)."""
    planes = "" if decks == 1 else f" ({decks} planes of 52: held at least once, twice{', three times' if decks == 3 else ''})"
    block = "one block of 52 per seat" if decks == 1 else f"one block of {decks} x 52 per seat (a plane per copy level)"
    two = sides == 2
    order = "(own team, other team)" if two else "(own side, then the side of each next seat to the left)"
    return (
        f"cards the observer holds now (all 0 before it has looked at them){planes}",
        f"cards each seat has played so far, {block}",
        "the card each seat has played to the unfinished trick",
        "seat that led the unfinished trick (all 0 when it is empty)",
        f"each seat's bid, one-hot 0 (nil) .. {cards_each}; all 0 until the seat bids",
        "1 if the seat bid blind nil",
        f"tricks each seat has won / {cards_each}",
        "one-hot: dealing, blind_decision, bidding, playing, over",
        "one-hot dealer seat",
        "1 once a spade has been played",
        "seat x suit (C D H S): 1 once the seat has shown it holds none",
        f"match scores before the hand, {order}, score / 1000 clipped to [-1, 1]",
        f"match bag counts before the hand, {order} / bag_limit",
        f"tricks finished / {cards_each}",
    )


@dataclass(frozen=True, eq=False)
class Layout:
    """The observation vector and the action ids of one table (``observation_layout``)."""

    #: the table in words (``"3 players solo"``), as ``TableError`` and the models name it
    table: str
    players: int
    sides: int
    decks: int
    cards_each: int
    #: ``(name, size, what it holds)`` per field, in order
    fields: tuple
    #: each field's slice of the vector
    slices: dict = field(repr=False)
    #: the vector's length
    size: int = 0

    @property
    def n_actions(self) -> int:
        """52 cards, the bids 0..cards_each, blind nil, look."""
        return BID_OFFSET + self.cards_each + 3

    @property
    def blind_nil(self) -> int:
        return BID_OFFSET + self.cards_each + 1

    @property
    def look(self) -> int:
        return BID_OFFSET + self.cards_each + 2

    @property
    def low(self) -> np.ndarray:
        """The lowest value of each entry (only the scores can be negative)."""
        low = np.zeros(self.size, dtype=np.float32)
        low[self.slices["scores"]] = -1.0
        return low

    @property
    def high(self) -> np.ndarray:
        return np.ones(self.size, dtype=np.float32)

    def bid_action(self, bid: int) -> int:
        """The action id of bid ``bid`` (0 = nil .. cards_each)."""
        if not 0 <= int(bid) <= self.cards_each:
            raise ValueError(f"a bid at {self.table} is 0..{self.cards_each}, not {bid!r}")
        return BID_OFFSET + int(bid)

    def action_to_string(self, action: int) -> str:
        """``AS``, ``nil``, ``bid 4``, ``blind nil`` or ``look``."""
        action = int(action)
        if 0 <= action < BID_OFFSET:
            return str(DECK[action])
        if action == BID_OFFSET:
            return "nil"
        if BID_OFFSET < action < self.blind_nil:
            return f"bid {action - BID_OFFSET}"
        if action == self.blind_nil:
            return "blind nil"
        if action == self.look:
            return "look"
        raise ValueError(f"action {action} is not in 0..{self.n_actions - 1} (the actions at {self.table})")

    def relative_seat(self, seat: int, observer: int) -> int:
        """Where ``seat``'s block sits in ``observer``'s vector: 0 itself, 1 its left, ..."""
        return (int(seat) - int(observer)) % self.players


def observation_layout(rules=None) -> Layout:
    """The layout of the vector at the table of ``rules`` (a ``Rules``, a preset's name, ...:
    ``table_rules``); every table of the same seats, sides, decks and cards each shares one.

    >>> observation_layout().size, observation_layout(Rules(players=8)).size
    (567, 1551)
    """
    r = table_rules(rules)
    return _layout(r.players, r.n_sides, r.decks, r.cards_each, table_name(r))


@functools.lru_cache(maxsize=None)
def _layout(players: int, sides: int, decks: int, cards_each: int, table: str) -> Layout:
    sizes = getattr(field_sizes, "py_func", field_sizes)(players, sides, decks, cards_each)  # the plain function
    fields = tuple(zip(FIELD_NAMES, sizes, _descriptions(players, sides, decks, cards_each)))
    slices, at = {}, 0
    for name, size in zip(FIELD_NAMES, sizes):
        slices[name] = slice(at, at + size)
        at += size
    return Layout(table, players, sides, decks, cards_each, fields, slices, at)


#: The layout of four players in pairs, the default table: the 567 floats of every shipped
#: model and saved dataset, under the names the toolkit has always exported.
FOUR_IN_PAIRS_LAYOUT = observation_layout(Rules())
FIELDS = FOUR_IN_PAIRS_LAYOUT.fields
SLICES = FOUR_IN_PAIRS_LAYOUT.slices
OBSERVATION_SIZE = FOUR_IN_PAIRS_LAYOUT.size
#: Bounds of each entry at that table (only the scores can be negative).
OBSERVATION_LOW = FOUR_IN_PAIRS_LAYOUT.low
OBSERVATION_HIGH = FOUR_IN_PAIRS_LAYOUT.high


# -- cards in the engine's layout and as card ids ----------------------------------------------
@inline_kernel
def id_mask(mask, rules):
    """An engine bitboard as card ids (each joker or high deuce back on its card's id)."""
    for i in range(rules[R_N_EXTRA]):
        lane = ONE << U64(52 + i)
        if mask & lane:
            mask = (mask & ~lane) | (ONE << U64(rules[R_EXTRA + i]))
    return mask


@inline_kernel
def set_bits(out, base, mask):
    """``out[base + c] = 1`` for every bit ``c`` of ``mask``."""
    while mask:
        out[base + lowest_index(mask)] = 1
        mask &= mask - ONE


@inline_kernel
def set_levels(out, base, l1, l2, l3, decks, rules):
    """The planes of a multiset of cards (``engine.copies``' levels, engine layout) from
    ``out[base]``: level k, the cards held at least k + 1 times, at ``base + 52 * k``."""
    set_bits(out, base, id_mask(U64(l1), rules))
    if decks >= 2:
        set_bits(out, base + 52, id_mask(U64(l2), rules))
    if decks >= 3:
        set_bits(out, base + 104, id_mask(U64(l3), rules))


# -- the vector in numba ---------------------------------------------------------------------------
@hot_kernel
def write_observation(pub, seat, hand, blind_decision, rules, out):
    """``out`` (float32, at least ``observation_size(rules)``) = the observation vector of
    ``seat`` holding ``hand`` (engine layout, level 1; its copies are in its view's ``P_OWN2``
    and ``P_OWN3``) in ``pub`` (its view): see the module docstring."""
    st = field_starts(rules)
    n, decks, each = rules[R_SEATS], rules[R_DECKS], rules[R_CARDS_EACH]
    for k in range(st[N_FIELDS]):
        out[k] = 0.0
    if not blind_decision:
        set_levels(out, st[F_OWN], hand, pub[P_OWN2], pub[P_OWN3], decks, rules)
    for s in range(n):
        r = s - seat if s >= seat else s - seat + n
        set_levels(out, st[F_PLAYED] + 52 * decks * r, pub[P_PLAYED_BY + s], pub[P_PLAYED_BY2 + s],
                   pub[P_PLAYED_BY3 + s], decks, rules)  # fmt: skip
        b = pub[P_BIDS + s]
        if b >= 0:
            out[st[F_BIDS] + (each + 1) * r + b] = 1.0
        out[st[F_BLIND] + r] = 1.0 if pub[P_BLIND + s] != 0 else 0.0
        out[st[F_WON] + r] = pub[P_WON + s] / each
        for suit in range(N_SUITS):
            if (pub[P_VOIDS] >> (4 * s + suit)) & 1:
                out[st[F_VOIDS] + 4 * r + suit] = 1.0
    write_trick(pub, seat, n, st[F_TRICK], st[F_LEADER], rules, out)
    write_phase(pub[P_PHASE], blind_decision, st[F_PHASE], out)
    dealer = pub[P_DEALER] - seat
    out[st[F_DEALER] + (dealer if dealer >= 0 else dealer + n)] = 1.0
    out[st[F_BROKEN]] = 1.0 if pub[P_BROKEN] != 0 else 0.0
    sides = rules[R_SIDES]
    us = side_of(seat, rules)
    for j in range(sides):
        side = us + j if us + j < sides else us + j - sides
        out[st[F_SCORES] + j] = min(1.0, max(-1.0, pub[P_SCORES + side] / 1000.0))
        out[st[F_BAGS] + j] = pub[P_BAGS + side] / rules[R_BAG_LIMIT]
    out[st[F_TRICK_NO]] = pub[P_TRICK_NO] / each


@inline_kernel
def write_trick(pub, seat, n, at_trick, at_leader, rules, out):
    """The unfinished trick's cards (a block of 52 per seat from ``at_trick``) and its leader."""
    count = pub[P_TRICK_LEN]
    leader = pub[P_LEADER]
    for i in range(count):
        r = (leader + i - seat) % n
        out[at_trick + 52 * r + public_id(pub[P_TRICK + i], rules)] = 1.0
    if count > 0:
        out[at_leader + (leader - seat) % n] = 1.0


@inline_kernel
def write_phase(phase, blind_decision, at, out):
    """The phase one-hot (``PHASES``) from ``at``."""
    if blind_decision:
        out[at + PH_BLIND] = 1.0
    elif phase == PHASE_BIDDING:
        out[at + PH_BIDDING] = 1.0
    elif phase == PHASE_PLAYING:
        out[at + PH_PLAYING] = 1.0
    else:
        out[at + PH_OVER] = 1.0
