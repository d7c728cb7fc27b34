"""House rules: one frozen dataclass, loadable from TOML, validated field by field.

The defaults are the standard game (docs/rules.md): 500 to win, -200 loses, nil worth 100, no blind
nil, a nil bidder's tricks are bags, 10 bags cost 100, spades may be led once broken, the
dealer's left leads, bids from 1 to 13 or nil. Every number is bounded (``MAX_*`` below, a
``RulesError`` naming the field and its range beyond them) so that no score of a match can
overflow what the engine and the results store.

The engine's kernels read the rules as a small int64 array (``Rules.as_array()``); the
``R_*`` constants below name its slots and the codes of the text options.

Jokers and high deuces are data in that array, not branches in the kernels. They are trumps
above the ace, so the engine moves them into its trump lane, the bits above the ace of spades
(``engine.bits``): the ``i``-th extra trump, counting from the lowest, is engine bit
``52 + i``; ``R_EXTRA + i`` holds its card id, ``R_N_EXTRA`` their number and ``R_DECK`` the
engine's deck (the 52 ids with the extra trumps moved). With neither option the layout is the
plain card-id layout. ``Rules.engine_mask`` / ``public_mask`` convert between the two.
"""

from __future__ import annotations

import dataclasses
import difflib
import functools
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from spades_ai.cards import DECK, Card, CardSet, TrumpCard, TrumpCardSet, parse_hands, to_card
from spades_ai.errors import RulesError

SPADE_LEADS = ("broken", "after_first_trick", "after_three_tricks", "after_three_tricks_or_broken", "anytime")
FIRST_LEADS = ("dealer_left", "low_club")
BIDDINGS = ("classic", "suicide", "mirror", "whiz")
TEAMS = ("pairs", "solo")
EQUAL_CARDS = ("first", "last")
FAILED_BIDS = (0, 10, 50)

# Slots of Rules.as_array().
(
    R_TARGET,
    R_LOSS,
    R_NIL,
    R_NIL_BONUS,
    R_BLIND_NIL,
    R_BLIND_BONUS,
    R_BLIND_DEFICIT,
    R_NIL_TRICKS_COUNT,
    R_BAG_LIMIT,
    R_BAG_PENALTY,
    R_SPADE_LEAD,
    R_FIRST_LEAD,
    R_MIN_BID,
    R_MIN_TEAM_BID,
    R_TEN_FOR_200,
    R_BIDDING,
    R_MAX_HANDS,
    R_HOOK,
    R_HALF_BLIND,
    R_CLOSED,
    R_PASS,
    R_BLIND_PASS,
    R_JOKERS,
    R_DEUCES_HIGH,
    R_N_EXTRA,
    R_DECK,
    R_EXTRA,  # four slots: R_EXTRA .. R_EXTRA + 3
) = range(27)
(
    R_SEATS,  # players at the table
    R_SIDES,  # sides that score (players // 2 with pairs, players solo)
    R_DECKS,  # 1..3
    R_CARDS_EACH,  # cards dealt to each player = tricks in a hand
    R_MUST_WIN,  # 1: a player who can beat the winning card must
    R_FAILED_BID,  # points a side loses beyond -10 x contract when a contract of 5 or more is set
    R_EQUAL_LAST,  # 1: of two identical cards on a trick the later one wins (several decks)
    R_DECK2,  # the deck's cards held at least twice (several decks; engine.copies)
    R_DECK3,  # and three times
) = range(30, 39)
N_RULE_SLOTS = 40
#: The tables of 3 to 12 players (docs/rules.md, "Tables of 3 to 12 players"): players ->
#: (decks, the cards taken out of the decks, one name per copy, and the cards each player is
#: dealt = tricks).
TABLES = {
    3: (1, ("2D",), 17),
    4: (1, (), 13),
    5: (1, ("2D", "2C"), 10),
    6: (2, ("2D",) * 2, 17),
    7: (2, ("2D", "2C", "2H") * 2, 14),
    8: (2, (), 13),
    9: (3, ("2D",) * 3, 17),
    10: (3, ("2D", "2C") * 3, 15),
    11: (3, ("2D",) * 2, 14),
    12: (3, (), 13),
}
#: The options refused with several decks (6 to 12 players), by name: where two copies of a
#: card would go is not written in the rules (docs/rules.md: jokers, high deuces), or what the
#: engine would have to count with copies is not built: the exchange of cards (passing), and a
#: bid that is the bidder's spades (mirror and whiz, ``ONE_DECK_BIDDINGS``: the bids read the
#: distinct cards of a hand, and the samplers would count a revealed seat apart at 8 and more).
ONE_DECK_OPTIONS = ("jokers", "deuces_high", "pass_cards", "blind_pass", "bidding")
ONE_DECK_BIDDINGS = ("mirror", "whiz")
#: The card ids of the deuces in the order they become high (deuces_high = k: the first k).
HIGH_DEUCES = (39, 13, 0, 26)  # 2S 2D 2C 2H
BIG_JOKER_ID, LITTLE_JOKER_ID = 26, 0  # the big joker replaces 2H, the little one 2C
#: Stand-ins in the array for "off": no score ever reaches them.
NO_TARGET = 1 << 60
NO_LOSS = -(1 << 60)

# Bounds of the numeric fields, so that no score overflows what the engine and the results hold.
# A side's points in one hand are at most 340 (a made contract of 17 at ten_for_200; a set one
# of 26 costs 260 + failed_bid 50) + 17 bags + two nil bonuses + 17 bag penalties (bag_limit 1)
# in size: 190,357 with every bonus and penalty at MAX_BONUS. A match lasts at most MAX_MATCH_HANDS hands, so a score stays within
# +-1.91e9: inside the int32 score columns of the results, and far inside the engine's int64.
#: A match still tied (or undecided) after this many hands stops, reported unfinished; the
#: largest ``max_hands``.
MAX_MATCH_HANDS = 10_000
#: The largest ``nil_bonus``, ``blind_nil_bonus`` and ``bag_penalty``.
MAX_BONUS = 10_000
#: The largest ``bag_limit``: more bags than a match can gather.
MAX_BAG_LIMIT = 1_000_000
#: The largest ``target_score``, ``blind_nil_min_deficit`` and ``-loss_threshold``: beyond
#: any score a match can reach.
MAX_THRESHOLD = 10**10

LEAD_BROKEN, LEAD_AFTER_FIRST, LEAD_AFTER_THREE, LEAD_AFTER_THREE_OR_BROKEN, LEAD_ANYTIME = range(5)
FIRST_DEALER_LEFT, FIRST_LOW_CLUB = range(2)
BID_CLASSIC, BID_SUICIDE, BID_MIRROR, BID_WHIZ = 0, 1, 2, 3


@dataclass(frozen=True)
class Rules:
    """The house rules of a match. Every field is checked when the object is made.

    >>> Rules(target_score=250, nil_bonus=50).bag_limit
    10
    >>> Rules.preset("suicide").bidding
    'suicide'
    """

    target_score: int | None = 500
    """Score that ends the match (the higher score wins; a tie plays on). None: no target, only
    with ``max_hands``. At most ``MAX_THRESHOLD``."""
    loss_threshold: int | None = -200
    """A side (two partners, or a player solo) at or below this score ends the match at once, and the
    highest score wins (negative). None: off. At least ``-MAX_THRESHOLD``."""
    nil: bool = True
    """Whether a player may bid nil (0)."""
    nil_bonus: int = 100
    """Won by a nil bidder who takes no trick, lost otherwise. At most ``MAX_BONUS``."""
    blind_nil: bool = False
    """Whether a player may bid nil before seeing the cards (needs ``nil``)."""
    blind_nil_bonus: int = 200
    """Won or lost by a blind nil. At most ``MAX_BONUS``."""
    blind_nil_min_deficit: int = 0
    """Blind nil only when the bidder's side trails the best other side by at least this many
    points; 0: always. At most ``MAX_THRESHOLD``."""
    nil_tricks_count: bool = False
    """Whether a nil bidder's tricks count toward the partner's contract (else they are bags)."""
    bag_limit: int = 10
    """Bags that cost ``bag_penalty`` and are then taken off the count. At most ``MAX_BAG_LIMIT``."""
    bag_penalty: int = 100
    """Points lost each time the bag count reaches ``bag_limit``. At most ``MAX_BONUS``."""
    spade_lead: str = "broken"
    """When spades may be led: one of ``SPADE_LEADS``. An all-spade hand may always lead one."""
    first_lead: str = "dealer_left"
    """Who leads the first trick: the dealer's left, or (``low_club``) the holder of the lowest
    club, who must lead it."""
    min_bid: int = 1
    """Smallest non-nil bid of one player."""
    min_team_bid: int = 0
    """Smallest contract a side of partners may bid: the second partner's bid must reach it (classic
    only; the name is the partnership game's)."""
    ten_for_200: bool = False
    """A side's made contract of 10 or more scores 20 per trick bid (double)."""
    bidding: str = "classic"
    """Bidding preset: ``classic``; ``suicide`` (each side of partners ends the bidding with at least one nil:
    the first partner bids nil or at least 4, the second must bid nil after a number and may bid
    nil or at least 4 after a nil);
    ``mirror`` (bid the number of spades held; none is nil); ``whiz`` (nil or that number)."""
    max_hands: int | None = None
    """Stop after this many hands (the higher score wins; a tie plays on). None: off. At most
    ``MAX_MATCH_HANDS``, the hands after which any match stops."""
    hook: bool = False
    """The dealer, who bids last, may not make the bids add up to exactly the tricks of the hand
    (13 at four players; unless every bid it could make would: the hook never leaves it without
    a bid). Not with mirror bidding."""
    half_blind_penalty: bool = False
    """A failed blind nil costs half of ``blind_nil_bonus`` (rounded down); a made one still
    wins all of it. Needs ``blind_nil``."""
    closed_bidding: bool = False
    """Every player bids without seeing any other bid (the same bids, taken in the usual order);
    all are shown when the play starts. Not with suicide bidding, ``min_team_bid`` or
    ``hook``, whose limits depend on the bids before."""
    pass_cards: int = 0
    """0..3 cards each player passes to its partner after the deal, before the bidding; both
    choose before seeing what the other passes, and only the two partners see what they
    exchanged. Not with ``blind_nil`` (a player who has passed has looked at its cards)."""
    blind_pass: int = 0
    """0..3 cards exchanged the same way after the bidding, only by a side with a blind nil
    bidder (the blind nil bidder and its partner). Needs ``blind_nil``."""
    jokers: int = 0
    """0, 1 or 2 jokers, the highest trumps: the big joker (``BJ``) replaces 2H, the little
    joker (``LJ``) 2C, keeping their card ids. Every joker counts as a spade."""
    deuces_high: int = 0
    """0..4 deuces made trumps just below the jokers, in the order 2S, 2D, 2C, 2H (the first
    ``deuces_high`` of them), each counting as a spade. ``jokers + deuces_high <= 4``."""
    players: int = 4
    """Players at the table, seats 0..players-1 clockwise: 3 to 12. ``TABLES`` gives the decks
    (one for 3 to 5, two for 6 to 8, three for 9 to 12), the cards taken out and the cards
    each; with several decks a hand may hold two or three copies of a card."""
    teams: str | None = None
    """``pairs`` (seat s and seat s + players/2 are partners, an even number of players) or
    ``solo`` (every player is its own side). None: pairs at 4 players, solo otherwise."""
    must_win: bool = False
    """A player holding a legal card that would beat the card now winning the trick must play
    such a card (the leader is free). Solo only."""
    failed_bid: int = 0
    """0, 10 or 50: points a side loses beyond the usual -10 a trick bid when its contract of 5
    or more is set."""
    equal_cards: str = "first"
    """With several decks, which of two identical cards on one trick is ahead: ``first`` (a
    card must be higher to win) or ``last``. Changes nothing with one deck."""

    def __post_init__(self) -> None:
        if self.teams is None and _is_int(self.players):
            object.__setattr__(self, "teams", "pairs" if self.players == 4 else "solo")
        _validate(self)

    # -- the table ------------------------------------------------------------------------
    @property
    def four_in_pairs(self) -> bool:
        """Whether this is the default table, four players in two partnerships: the one that
        the parts written for it alone (the learned models, the adapters, the people's tables,
        PBN records) accept."""
        return self.players == 4 and self.teams == "pairs"

    @property
    def n_sides(self) -> int:
        """Sides that score: ``players // 2`` with pairs, ``players`` solo."""
        return self.players // 2 if self.teams == "pairs" else self.players

    @property
    def decks(self) -> int:
        """Decks shuffled together (``TABLES``)."""
        return TABLES[self.players][0]

    @property
    def cards_each(self) -> int:
        """Cards dealt to each player, which is also the tricks of a hand and the highest bid."""
        return TABLES[self.players][2]

    @functools.cached_property
    def removed_cards(self) -> tuple[Card, ...]:
        """The cards taken out of the decks at this table size, one entry per copy."""
        return tuple(Card.parse(name) for name in TABLES[self.players][1])

    # -- construction -------------------------------------------------------------------
    @classmethod
    def from_dict(cls, data: dict) -> Rules:
        """Rules from a mapping; an unknown key raises ``RulesError`` naming it."""
        if not isinstance(data, dict):
            raise RulesError(f"rules must be a table of fields, not {type(data).__name__}")
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise RulesError(
                f"unknown rules field(s) {', '.join(map(repr, unknown))}; valid fields: {', '.join(sorted(known))}"
            )
        return cls(**data)

    @classmethod
    def from_toml(cls, path: str | Path) -> Rules:
        """Rules from a TOML file, either at top level or under a ``[rules]`` table.

        ``"off"`` or ``"none"`` stands for None (TOML has no null), e.g. ``loss_threshold = "off"``.
        """
        from spades_ai.tomlfile import read_toml

        path = Path(path)
        data = read_toml(path, "rules file", RulesError)
        if "rules" in data and isinstance(data["rules"], dict):
            data = data["rules"]
        try:
            return cls.from_dict(_off_as_none(data))
        except RulesError as exc:
            raise RulesError(f"{path}: {exc}") from None

    @classmethod
    def load(cls, rules: Rules | dict | str | Path | None, base: Path | None = None) -> Rules:
        """Rules from a ``Rules``, a table of fields (``"off"`` or ``"none"`` for None, as in a
        TOML file), a preset's name (``PRESETS``: ``"cutthroat"``), a TOML file name (relative
        to ``base`` when given), or None (the defaults): what the command line and experiment
        files accept. A preset's name wins over a file of that name without a suffix.

        >>> Rules.load({"loss_threshold": "off"}).loss_threshold is None
        True
        >>> Rules.load("cutthroat").players
        3
        """
        if rules is None:
            return cls()
        if isinstance(rules, Rules):
            return rules
        if isinstance(rules, str) and rules in PRESETS:
            return cls.preset(rules)
        try:
            if isinstance(rules, dict):
                return cls.from_dict(_off_as_none(rules))
            if isinstance(rules, (str, Path)):
                path = Path(rules)
                full = base / path if base is not None and not path.is_absolute() else path
                if not path.suffix and not full.exists():  # a misspelled preset, most likely
                    raise RulesError(_unknown_rules_name(str(rules)))
                return cls.from_toml(full)
        except RulesError:
            raise
        except (TypeError, ValueError) as exc:
            raise RulesError(f"bad rules: {exc}") from None
        raise RulesError(f"rules must be a Rules, a table or a TOML file name, not {type(rules).__name__}")

    @classmethod
    def preset(cls, name: str, **overrides) -> Rules:
        """A named preset: ``classic``, ``blind``, ``suicide``, ``mirror``, ``whiz``, ``solo``
        (4 players, each its own side, must win) and ``cutthroat`` (3 players, solo).

        >>> Rules.preset("cutthroat").cards_each
        17
        """
        if name not in PRESETS:
            raise RulesError(f"unknown preset {name!r}; valid presets: {', '.join(PRESETS)}")
        return cls(**{**PRESETS[name], **overrides})

    def replace(self, **changes) -> Rules:
        """A copy with some fields changed (and validated)."""
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)

    # -- cards under these rules ---------------------------------------------------------
    @functools.cached_property
    def extra_trumps(self) -> tuple[int, ...]:
        """The card ids of the jokers and high deuces, lowest trump first (empty by default)."""
        deuces = HIGH_DEUCES[: self.deuces_high][::-1]
        jokers = (LITTLE_JOKER_ID, BIG_JOKER_ID)[2 - self.jokers :] if self.jokers else ()
        return tuple(deuces) + tuple(jokers)

    @functools.cached_property
    def deck(self) -> tuple[Card, ...]:
        """``deck[id]``: the card of each id under these rules (``Rules.card``)."""
        cards = list(DECK)
        names = {BIG_JOKER_ID: "BJ", LITTLE_JOKER_ID: "LJ"}
        first_joker = len(self.extra_trumps) - self.jokers
        for i, c in enumerate(self.extra_trumps):
            cards[c] = TrumpCard(c, names[c] if i >= first_joker else str(DECK[c]), 13 + i)
        return tuple(cards)

    def card(self, card_id: int) -> Card:
        """The card with this id under these rules: a joker or high deuce is a ``TrumpCard``
        (suit spades, rank above the ace; ``BJ`` / ``LJ`` print as such)."""
        return self.deck[card_id]

    def cardset(self, mask: int) -> CardSet:
        """The cards of a bitboard (card ids) as these rules name them."""
        if not self.extra_trumps:
            return CardSet(mask)
        return TrumpCardSet(int(mask), self.deck, tuple(self.deck[c] for c in self.extra_trumps))

    @functools.cached_property
    def engine_deck(self) -> tuple:
        """``engine_deck[engine id]``: the card at each of the 56 engine bits (None where
        these rules put no card)."""
        cards: list = [self.deck[c] for c in range(52)] + [None] * 4
        for i, c in enumerate(self.extra_trumps):
            cards[52 + i], cards[c] = cards[c], None
        return tuple(cards)

    def engine_card(self, engine_id: int) -> Card:
        """The card at an engine bit (``engine.bits``), as these rules name it."""
        return self.engine_deck[int(engine_id)]

    def engine_cards(self, mask: int, twice: int = 0, thrice: int = 0) -> CardSet:
        """The cards of an engine bitboard, as these rules name them (a ``CardSet`` of ids);
        with several decks ``twice`` and ``thrice`` are the multiset's levels 2 and 3 (the
        cards held at least twice, three times: ``engine.copies``)."""
        if twice or thrice:
            return CardSet.from_levels(int(mask), int(twice), int(thrice))
        if not self.extra_trumps:
            return CardSet.from_mask(int(mask))
        return self.cardset(self.public_mask(mask))

    def engine_hands(self, deal) -> np.ndarray:
        """The hidden hands of the engine (``uint64[decks * players]``, copy level k of seat s at
        ``(k - 1) * players + s``: ``engine.copies``) of a deal given as one ``CardSet`` a seat."""
        n = self.players
        hands = np.zeros(self.decks * n, dtype=np.uint64)
        for s, cards in enumerate(deal):
            for k, level in enumerate(cards.levels()[: self.decks], start=1):
                hands[(k - 1) * n + s] = self.engine_mask(level) if k == 1 else level
        return hands

    def named(self, card: Card | str | int) -> Card:
        """The card of these rules that ``card`` names (a string, a ``Card`` or an id). A card
        named in text (or a parsed joker, ``Card.parse("BJ")``) must be one these rules have:
        ``BJ`` / ``LJ`` need that joker, and a deuce a joker replaced is gone (``ValueError``
        says so); a ``Card`` or an int is the card of that id."""
        named = to_card(card)
        ruled = self.deck[named]
        if ruled is named or not isinstance(card, (str, TrumpCard)) or str(ruled) == str(named):
            return ruled
        if str(named) in ("BJ", "LJ"):
            raise ValueError(f"{named} is not in the deck: these rules play with {self.jokers} joker(s)")
        raise ValueError(f"{named} is not in the deck: {ruled} replaces it in these rules")

    def named_cards(self, cards) -> list[Card]:
        """The cards of these rules named by ``cards``: text (``"BJ 7H"``, spaces or commas)
        or a collection of cards, strings or ids, each through ``named``."""
        if isinstance(cards, str):
            cards = [t for t in re.split(r"[\s,]+", cards) if t]
        return [self.named(c) for c in cards]

    def check_names(self, cards) -> None:
        """Refuse (``ValueError``) a card named in ``cards`` (text, or a collection of cards,
        strings or ids) that these rules do not have (see ``named``); bitboards pass."""
        if not isinstance(cards, (int, np.integer)):
            self.named_cards(cards)

    def parse_hands(self, hands, size: int | None = None) -> tuple[CardSet, ...]:
        """``cards.parse_hands`` for this table (``players`` hands) under these rules: the same
        checks against the table's deck (``decks`` decks less the ``removed_cards``: no hand holds
        a card the table removes, nor more copies of a card than its decks have, nor all hands
        together), a card named in text must be one these rules have (``named``), and the hands
        come back as ``cardset``s."""
        deck = CardSet.full_decks(self.decks).take(self.removed_cards)
        sets = parse_hands(hands, size, self.players, deck)
        parts = hands.split("/") if isinstance(hands, str) else list(hands)
        for seat, part in enumerate(parts):
            if not isinstance(part, (int, np.integer)):
                try:
                    self.check_names(part)
                except ValueError as exc:
                    raise ValueError(f"seat {seat}'s hand: {exc}") from None
        return tuple(self.cardset(m) for m in sets)

    def engine_mask(self, mask: int) -> int:
        """A bitboard of card ids in the engine's layout (the extra trumps in the trump lane)."""
        mask = int(mask)
        for i, c in enumerate(self.extra_trumps):
            if mask >> c & 1:
                mask ^= (1 << c) | (1 << (52 + i))
        return mask

    def public_mask(self, mask: int) -> int:
        """The inverse of ``engine_mask``: an engine bitboard as card ids."""
        mask = int(mask)
        for i, c in enumerate(self.extra_trumps):
            if mask >> (52 + i) & 1:
                mask ^= (1 << c) | (1 << (52 + i))
        return mask

    def engine_id(self, card_id: int) -> int:
        """The engine bit of a card id."""
        card_id = int(card_id)
        extra = self.extra_trumps
        return 52 + extra.index(card_id) if card_id in extra else card_id

    def public_id(self, engine_id: int) -> int:
        """The card id of an engine bit (``engine_id``'s inverse)."""
        engine_id = int(engine_id)
        return self.extra_trumps[engine_id - 52] if engine_id >= 52 else engine_id

    # -- the engine's view --------------------------------------------------------------
    def as_array(self) -> np.ndarray:
        """The int64 array the kernels read; slots are the ``R_*`` constants (read-only, made once)."""
        return self._array

    @functools.cached_property
    def _array(self) -> np.ndarray:
        a = np.zeros(N_RULE_SLOTS, dtype=np.int64)
        a[R_TARGET] = NO_TARGET if self.target_score is None else self.target_score
        a[R_LOSS] = NO_LOSS if self.loss_threshold is None else self.loss_threshold
        a[R_NIL] = self.nil
        a[R_NIL_BONUS] = self.nil_bonus
        a[R_BLIND_NIL] = self.blind_nil
        a[R_BLIND_BONUS] = self.blind_nil_bonus
        a[R_BLIND_DEFICIT] = self.blind_nil_min_deficit
        a[R_NIL_TRICKS_COUNT] = self.nil_tricks_count
        a[R_BAG_LIMIT] = self.bag_limit
        a[R_BAG_PENALTY] = self.bag_penalty
        a[R_SPADE_LEAD] = SPADE_LEADS.index(self.spade_lead)
        a[R_FIRST_LEAD] = FIRST_LEADS.index(self.first_lead)
        a[R_MIN_BID] = self.min_bid
        a[R_MIN_TEAM_BID] = self.min_team_bid
        a[R_TEN_FOR_200] = self.ten_for_200
        a[R_BIDDING] = BIDDINGS.index(self.bidding)
        a[R_MAX_HANDS] = 0 if self.max_hands is None else self.max_hands
        a[R_HOOK] = self.hook
        a[R_JOKERS] = self.jokers
        a[R_DEUCES_HIGH] = self.deuces_high
        a[R_N_EXTRA] = len(self.extra_trumps)
        copies = {c: self.decks for c in range(52)}
        for card in self.removed_cards:
            copies[int(card)] -= 1
        deck = sum(1 << c for c, k in copies.items() if k >= 1)
        for i, c in enumerate(self.extra_trumps):
            a[R_EXTRA + i] = c
            deck ^= (1 << c) | (1 << (52 + i))
        a[R_DECK] = deck
        a[R_DECK2] = sum(1 << c for c, k in copies.items() if k >= 2)
        a[R_DECK3] = sum(1 << c for c, k in copies.items() if k >= 3)
        a[R_SEATS] = self.players
        a[R_SIDES] = self.n_sides
        a[R_DECKS] = self.decks
        a[R_CARDS_EACH] = self.cards_each
        a[R_MUST_WIN] = self.must_win
        a[R_FAILED_BID] = self.failed_bid
        a[R_EQUAL_LAST] = self.equal_cards == "last"
        a[R_HALF_BLIND] = self.half_blind_penalty
        a[R_CLOSED] = self.closed_bidding
        a[R_PASS] = self.pass_cards
        a[R_BLIND_PASS] = self.blind_pass
        a.setflags(write=False)
        return a


#: The named presets (``Rules.preset``, ``Rules.load``, ``--rules NAME``): fields over the defaults.
PRESETS = {
    "classic": {},
    "blind": {"blind_nil": True},
    "suicide": {"bidding": "suicide"},
    "mirror": {"bidding": "mirror"},
    "whiz": {"bidding": "whiz"},
    "solo": {"players": 4, "teams": "solo", "must_win": True},
    "cutthroat": {"players": 3, "teams": "solo"},
}


def _unknown_rules_name(name: str) -> str:
    """Why ``name`` (no preset, no file, no suffix) names no rules, with the presets it may mean."""
    close = difflib.get_close_matches(name, PRESETS, n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    return f"no preset or rules file {name!r}{hint}: presets are {', '.join(PRESETS)}; a rules file is FILE.toml"


def _fail(name: str, value, expected: str) -> None:
    raise RulesError(f"rules field {name!r} must be {expected}, not {value!r}")


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _in_range(v, lo: int, hi: int) -> bool:
    return _is_int(v) and lo <= v <= hi


def _validate_table(r: Rules) -> None:
    """The table fields, checked first: the card counts of every other check follow from them."""
    if not _in_range(r.players, min(TABLES), max(TABLES)):
        _fail("players", r.players, f"an int in {min(TABLES)}..{max(TABLES)}")
    if r.teams not in TEAMS:
        _fail("teams", r.teams, "one of " + ", ".join(map(repr, TEAMS)) + " (or None: pairs at 4 players, solo otherwise)")
    if r.teams == "pairs" and r.players % 2:
        raise RulesError(f"rules field 'teams' = 'pairs' needs an even number of players, not {r.players}")
    if not isinstance(r.must_win, bool):
        _fail("must_win", r.must_win, "true or false")
    if r.must_win and r.teams != "solo":
        raise RulesError("rules field 'must_win' is played solo only: set teams = 'solo'")
    if not (_is_int(r.failed_bid) and r.failed_bid in FAILED_BIDS):
        _fail("failed_bid", r.failed_bid, "one of " + ", ".join(map(str, FAILED_BIDS)))
    if r.equal_cards not in EQUAL_CARDS:
        _fail("equal_cards", r.equal_cards, "one of " + ", ".join(map(repr, EQUAL_CARDS)))


def _validate_partners(r: Rules) -> None:
    """The options that need partners, refused solo; and the deuces a table size has removed."""
    if r.teams == "solo":
        for name, used in (("pass_cards", r.pass_cards), ("blind_pass", r.blind_pass), ("min_team_bid", r.min_team_bid),
                           ("bidding", r.bidding == "suicide")):  # fmt: skip
            if used:
                raise RulesError(
                    f"rules field {name!r} = {getattr(r, name)!r} needs partners: it is not played with teams = 'solo'"
                )
    if r.decks > 1:
        for name in ONE_DECK_OPTIONS:
            if getattr(r, name) and (name != "bidding" or r.bidding in ONE_DECK_BIDDINGS):
                raise RulesError(
                    f"rules field {name!r} = {getattr(r, name)!r} is played with one deck only: a table of "
                    f"{r.players} players shuffles {r.decks} decks (3 to 5 players play it)"
                )
    removed = {int(c) for c in r.removed_cards}
    for name, ids in (("deuces_high", HIGH_DEUCES[: r.deuces_high]), ("jokers", (BIG_JOKER_ID, LITTLE_JOKER_ID)[: r.jokers])):
        gone = [str(DECK[c]) for c in ids if c in removed]
        if gone:
            raise RulesError(
                f"rules field {name!r} = {getattr(r, name)} needs {', '.join(gone)}, which a table of {r.players} "
                "players takes out of the deck"
            )


def _validate(r: Rules) -> None:
    _validate_table(r)
    _validate_values(r)
    _validate_combinations(r)


def _validate_values(r: Rules) -> None:
    """Each field on its own: its type and its range."""
    for name in ("nil", "blind_nil", "nil_tricks_count", "ten_for_200", "hook", "half_blind_penalty", "closed_bidding"):
        if not isinstance(getattr(r, name), bool):
            _fail(name, getattr(r, name), "true or false")
    if r.target_score is not None and not _in_range(r.target_score, 1, MAX_THRESHOLD):
        _fail("target_score", r.target_score, f"an int in 1..{MAX_THRESHOLD:_} (or None with max_hands)")
    if r.loss_threshold is not None and not _in_range(r.loss_threshold, -MAX_THRESHOLD, -1):
        _fail("loss_threshold", r.loss_threshold, f"an int in -{MAX_THRESHOLD:_}..-1 or None (off)")
    if r.max_hands is not None and not _in_range(r.max_hands, 1, MAX_MATCH_HANDS):
        _fail("max_hands", r.max_hands, f"an int in 1..{MAX_MATCH_HANDS:_} or None (off)")
    if r.target_score is None and r.max_hands is None:
        raise RulesError("rules field 'target_score' may be None only when 'max_hands' is set")
    for name, lo, hi in (("nil_bonus", 1, MAX_BONUS), ("blind_nil_bonus", 1, MAX_BONUS), ("bag_penalty", 0, MAX_BONUS),
                         ("bag_limit", 1, MAX_BAG_LIMIT), ("blind_nil_min_deficit", 0, MAX_THRESHOLD)):  # fmt: skip
        v = getattr(r, name)
        if not _in_range(v, lo, hi):
            _fail(name, v, f"an int in {lo}..{hi:_}")
    for name, options in (("spade_lead", SPADE_LEADS), ("first_lead", FIRST_LEADS), ("bidding", BIDDINGS)):
        if getattr(r, name) not in options:
            _fail(name, getattr(r, name), "one of " + ", ".join(map(repr, options)))
    if not _in_range(r.min_bid, 1, r.cards_each):
        _fail("min_bid", r.min_bid, f"an int in 1..{r.cards_each}")
    if not _in_range(r.min_team_bid, 0, r.cards_each):
        _fail("min_team_bid", r.min_team_bid, f"an int in 0..{r.cards_each}")
    if not (_is_int(r.jokers) and 0 <= r.jokers <= 2):
        _fail("jokers", r.jokers, "0, 1 or 2")
    if not (_is_int(r.deuces_high) and 0 <= r.deuces_high <= 4):
        _fail("deuces_high", r.deuces_high, "an int in 0..4")
    if r.jokers + r.deuces_high > 4:
        raise RulesError(
            f"rules fields 'jokers' + 'deuces_high' must be at most 4, not {r.jokers} + {r.deuces_high}: "
            "a joker replaces a deuce (2H, then 2C), which then cannot be high"
        )


def _validate_combinations(r: Rules) -> None:
    """The fields that need or exclude one another (and the passes' counts, which they name)."""
    if r.blind_nil and not r.nil:
        raise RulesError("rules field 'blind_nil' needs 'nil' to be true")
    if r.bidding != "classic" and r.min_team_bid:
        raise RulesError(f"rules field 'min_team_bid' applies only to classic bidding, not {r.bidding!r}")
    if r.bidding in ("suicide", "mirror", "whiz") and not r.nil:
        raise RulesError(f"bidding {r.bidding!r} needs nil bids: rules field 'nil' must be true")
    if r.bidding == "mirror" and r.min_bid != 1:
        raise RulesError("rules field 'min_bid' does not apply to mirror bidding (the bid is the spade count)")
    if r.bidding in ("mirror", "whiz") and r.blind_nil:
        raise RulesError(f"rules field 'blind_nil' does not combine with {r.bidding!r} bidding")
    if r.hook and r.bidding == "mirror":
        raise RulesError("rules field 'hook' does not apply to mirror bidding (every bid is forced)")
    if r.half_blind_penalty and not r.blind_nil:
        raise RulesError("rules field 'half_blind_penalty' needs 'blind_nil' to be true")
    if r.closed_bidding:
        for name, clash in (("bidding", r.bidding == "suicide"), ("min_team_bid", r.min_team_bid), ("hook", r.hook)):
            if clash:
                raise RulesError(
                    f"rules field 'closed_bidding' does not combine with {name!r} = {getattr(r, name)!r}: "
                    "its limits depend on bids a closed bidder has not seen"
                )
    for name in ("pass_cards", "blind_pass"):
        if not (_is_int(getattr(r, name)) and 0 <= getattr(r, name) <= 3):
            _fail(name, getattr(r, name), "an int in 0..3")
    if r.blind_pass and not r.blind_nil:
        raise RulesError("rules field 'blind_pass' needs 'blind_nil' to be true")
    _validate_partners(r)
    if r.pass_cards and r.blind_nil:
        raise RulesError(
            "rules field 'pass_cards' does not combine with 'blind_nil': a player who has passed cards "
            "has looked at them (use 'blind_pass' for a blind nil bidder's exchange)"
        )


def _off_as_none(data: dict) -> dict:
    """A rules table with ``"off"`` / ``"none"`` (TOML has no null) read as None."""
    return {k: (None if isinstance(v, str) and v.lower() in ("off", "none") else v) for k, v in data.items()}
