"""Cards, suits and seats: the vocabulary players use.

A card id is ``suit * 13 + rank`` with suits clubs, diamonds, hearts, spades (0..3) and ranks
2..A (0..12), so the spades are ids 39..51. A card prints as two characters (``AS``, ``TD``,
``2C``); parsing also accepts ``10D``, lower case and the suit symbols (``♠ ♥ ♦ ♣``).

Jokers keep the ids of the cards they replace (docs/rules.md): the big joker ``BJ`` is id 26 (2H),
the little joker ``LJ`` id 0 (2C). ``Card.parse("BJ")`` gives the big joker; the cards of a hand
played under ``Rules(jokers=...)`` or ``deuces_high=...`` come from ``Rules.card(id)``, which
prints the jokers as ``BJ`` / ``LJ`` and gives every joker and high deuce the suit spades and a
rank above the ace (13 and up, in trump order).

Seats are 0..3 clockwise; partners sit opposite (team 0 = seats 0 and 2, team 1 = seats 1, 3).
"""

from __future__ import annotations

import re
from enum import IntEnum
from typing import Iterable

import numpy as np

from spades_ai.checks import is_int

RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "CDHS"
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
_SUIT_ALIASES = {"♣": 0, "♧": 0, "♦": 1, "♢": 1, "♥": 2, "♡": 2, "♠": 3, "♤": 3}
_TOKEN = re.compile(r"^(10|[2-9TJQKA])([CDHS♣♧♦♢♥♡♠♤])$", re.IGNORECASE)
_JOKERS = {"BJ": 26, "LJ": 0}


class Suit(IntEnum):
    """The four suits in id order; spades are always trump."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    def __str__(self) -> str:
        return SUIT_NAMES[self]

    @property
    def char(self) -> str:
        return SUIT_CHARS[self]


class Card(int):
    """A card id 0..51 that prints as ``AS``.

    >>> Card.parse("10d"), int(Card.parse("AS")), Card(39).suit
    (TD, 51, <Suit.SPADES: 3>)
    """

    __slots__ = ()

    def __new__(cls, value: int) -> Card:
        # numpy ints are ids too (agents read them off bitboards); bools are not.
        if not is_int(value) or not 0 <= value < 52:
            raise ValueError(f"a card id is an int in 0..51, not {value!r}")
        return super().__new__(cls, int(value))

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse ``AS``, ``10D``, ``td``, ``Q♥``, ``BJ``, ``LJ`` ...; a bad token raises
        ``ValueError`` naming it."""
        if isinstance(text, str) and text.strip().upper() in _JOKERS:
            return BIG_JOKER if text.strip().upper() == "BJ" else LITTLE_JOKER
        match = _TOKEN.match(text.strip()) if isinstance(text, str) else None
        if match is None:
            raise ValueError(
                f"bad card {text!r}: expected a rank (2-9, T or 10, J, Q, K, A) "
                f"followed by a suit (C D H S or a suit symbol), or BJ / LJ for a joker"
            )
        rank_text, suit_text = match.groups()
        rank = 8 if rank_text == "10" else RANK_CHARS.index(rank_text.upper())
        suit = _SUIT_ALIASES.get(suit_text)
        if suit is None:
            suit = SUIT_CHARS.index(suit_text.upper())
        return cls(suit * 13 + rank)

    @property
    def suit(self) -> Suit:
        return Suit(self // 13)

    @property
    def rank(self) -> int:
        """0 for a two up to 12 for an ace."""
        return self % 13

    @property
    def bit(self) -> int:
        return 1 << self

    def __str__(self) -> str:
        return RANK_CHARS[self.rank] + SUIT_CHARS[self.suit]

    __repr__ = __str__


DECK = tuple(Card(i) for i in range(52))


class TrumpCard(Card):
    """A joker or a high deuce: a card id that counts as a spade ranking above the ace.

    Made by ``Rules.card(id)`` (with its rank in trump order, 13 just above the ace) or by
    ``Card.parse("BJ")`` / ``"LJ"``. It equals its id like any ``Card``.
    """

    def __new__(cls, value: int, name: str, rank: int) -> TrumpCard:
        card = super().__new__(cls, value)
        card._name = name
        card._rank = rank
        return card

    def __getnewargs__(self):
        return (int(self), self._name, self._rank)

    @property
    def suit(self) -> Suit:
        return Suit.SPADES

    @property
    def rank(self) -> int:
        """13 for the lowest trump above the ace, and up."""
        return self._rank

    def __str__(self) -> str:
        return self._name

    __repr__ = __str__


#: The jokers as ``Card.parse`` gives them, ranked as with two jokers and no high deuce.
BIG_JOKER = TrumpCard(26, "BJ", 14)
LITTLE_JOKER = TrumpCard(0, "LJ", 13)


def to_card(value: Card | str | int) -> Card:
    """A ``Card`` from a card, a string such as ``"AS"`` or an id 0..51."""
    if isinstance(value, Card):
        return value
    if isinstance(value, str):
        return Card.parse(value)
    return Card(value)


def parse_cards(text: str | Iterable[Card | str | int]) -> list[Card]:
    """Cards from ``"AS KS 7H"`` (spaces or commas) or from an iterable of cards, strings or ids.

    >>> parse_cards("AS, 10d 7♥")
    [AS, TD, 7H]
    """
    if isinstance(text, str):
        tokens = [t for t in re.split(r"[\s,]+", text) if t]
        return [Card.parse(t) for t in tokens]
    return [to_card(c) for c in text]


def cards_to_mask(cards: Iterable[Card | str | int]) -> int:
    """The bitboard (bit = card id) of some cards; a repeated card raises ``ValueError``."""
    mask = 0
    for card in parse_cards(cards) if isinstance(cards, str) else map(to_card, cards):
        if mask >> card & 1:
            raise ValueError(f"card {card} appears twice")
        mask |= 1 << card
    return mask


#: The cards of each suit's 13-bit pattern, keyed by ``suit << 13 | bits``, filled on first use.
_SUIT_CARDS: dict[int, tuple[Card, ...]] = {}


def _suit_cards(key: int) -> tuple[Card, ...]:
    suit, bits = key >> 13, key & 0x1FFF
    cards = _SUIT_CARDS[key] = tuple(DECK[13 * suit + r] for r in range(13) if bits >> r & 1)
    return cards


def mask_to_cards(mask: int) -> list[Card]:
    """The cards of a bitboard, lowest id first."""
    mask = int(mask)
    out = []
    if mask.bit_count() < 6:
        while mask:  # one step per card held, not per card of the deck
            low = mask & -mask
            out.append(DECK[low.bit_length() - 1])
            mask ^= low
        return out
    for suit in (0, 1, 2, 3):  # a whole hand: one step per suit (a hand is asked for often)
        bits = mask >> 13 * suit & 0x1FFF
        if bits:
            key = suit << 13 | bits
            cards = _SUIT_CARDS.get(key)
            out += cards if cards is not None else _suit_cards(key)
    return out


FULL_MASK = (1 << 52) - 1


class CardSet(int):
    """A set of cards held as a bitboard (bit = card id), like python-chess's ``SquareSet``.

    It is the int the engine uses (``int(s)``, ``np.uint64(s)``, ``s >> 51 & 1`` all work), and
    it iterates, counts, tests membership, combines and prints as a set of cards. Built from a
    bitboard, a string of cards or any iterable of cards; a repeated card or a bit outside
    0..51 raises ``ValueError``.

    >>> s = CardSet("AS KS 7H")
    >>> len(s), "KS" in s, s
    (3, True, CardSet('7H KS AS'))
    >>> print(s)
    S: A K  H: 7  D: -  C: -
    >>> list(s & CardSet("AS 2C")), s - CardSet("AS"), s == ["AS", "KS", "7H"], s[0]
    ([AS], CardSet('7H KS'), True, 7H)
    """

    __slots__ = ()

    def __new__(cls, cards: int | str | Iterable[Card | str | int] = 0) -> CardSet:
        if isinstance(cards, (int, np.integer)) and not isinstance(cards, bool):
            mask = int(cards)
            if not 0 <= mask <= FULL_MASK:
                raise ValueError(f"bitboard {mask:#x} has bits outside 0..51")
        else:
            mask = cards_to_mask(cards)
        return super().__new__(cls, mask)

    @classmethod
    def from_mask(cls, mask: int) -> CardSet:
        """A card set from a bitboard known to be valid (the engine's): no checks."""
        return int.__new__(cls, mask)

    def __iter__(self):
        """The cards, lowest id first (clubs 2 .. spades A)."""
        return iter(mask_to_cards(self))

    def __len__(self) -> int:
        return self.bit_count()

    def __getitem__(self, i):
        """The ``i``-th card (or a list, for a slice) in id order, as in the list it replaced."""
        return mask_to_cards(self)[i]

    def __contains__(self, card) -> bool:
        try:
            return bool(int(self) >> to_card(card) & 1)
        except ValueError:
            return False

    def __eq__(self, other) -> bool:
        """Equal to the same bitboard, or to any collection of the same cards (``== []``)."""
        if isinstance(other, (int, np.integer)) and not isinstance(other, bool):
            return int(self) == int(other)
        if isinstance(other, (list, tuple, set, frozenset, str)):
            try:
                return int(self) == cards_to_mask(other)
            except ValueError:
                return False
        return NotImplemented

    def __ne__(self, other) -> bool:
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    __hash__ = int.__hash__

    def __and__(self, other) -> CardSet:
        return CardSet(int(self) & int(other))

    def __or__(self, other) -> CardSet:
        return CardSet(int(self) | int(other))

    def __xor__(self, other) -> CardSet:
        return CardSet(int(self) ^ int(other))

    def __sub__(self, other) -> CardSet:
        """The cards of this set that are not in ``other``."""
        return CardSet(int(self) & ~int(other))

    __rand__, __ror__, __rxor__ = __and__, __or__, __xor__

    def suit(self, suit: int) -> CardSet:
        """The cards of one suit (0 clubs .. 3 spades)."""
        return CardSet(int(self) & (0x1FFF << (13 * int(suit))))

    def __str__(self) -> str:
        return format_hand(self)

    def _repr_html_(self) -> str:
        """The cards by suit with suit symbols, in a notebook (``spades_ai.render.cards_html``)."""
        from spades_ai.render import cards_html

        return cards_html(self)

    def __repr__(self) -> str:
        return f"CardSet({' '.join(map(str, self))!r})"


def parse_hands(hands, size: int | None = None, players: int = 4) -> tuple[CardSet, ...]:
    """``players`` disjoint hands (four by default) from as many card collections (strings,
    card lists or bitboards), or from one string with ``/`` between the hands; with ``size``,
    each must hold that many.

    Anything else raises ``ValueError`` naming the seat and the problem. ``parse_deal`` (13
    cards each) and the solver (any equal sizes) both read their hands through this.
    """
    if isinstance(hands, str):
        hands = hands.split("/")
    try:
        hands = list(hands)
    except TypeError:
        many = "four" if players == 4 else players  # (the words of every earlier version at four)
        raise ValueError(f"hands must be {many} card collections, not {type(hands).__name__}") from None
    if len(hands) != players:
        raise ValueError(f"a deal has {players} hands, not {len(hands)}")
    sets = []
    for seat, h in enumerate(hands):
        try:
            cards = CardSet(h)
        except (ValueError, TypeError) as exc:
            raise ValueError(f"seat {seat}'s hand: {exc}") from None
        if size is not None and len(cards) != size:
            raise ValueError(f"seat {seat}'s hand has {len(cards)} cards, not {size}")
        sets.append(cards)
    for a in range(players):
        for b in range(a + 1, players):
            both = sets[a] & sets[b]
            if both:
                raise ValueError(f"seats {a} and {b} both hold {' '.join(map(str, both))}")
    return tuple(sets)


def format_hand(mask: int, trumps: tuple = ()) -> str:
    """A hand as players write it, spades first, high cards first: ``S: A K 7  H: Q 4  D: -  C: 2``.

    ``trumps`` are the jokers and high deuces of the rules (``TrumpCard``, lowest first): they
    lead the spades, highest first (``S: BJ 2D A K  H: ...``).
    """
    mask = int(mask)
    special = {int(c): c for c in trumps}
    parts = []
    for suit in (3, 2, 1, 0):
        ranks = [str(c) for c in reversed(trumps) if mask >> c & 1] if suit == 3 else []
        ids = [suit * 13 + r for r in range(12, -1, -1)]
        ranks += [RANK_CHARS[c % 13] for c in ids if mask >> c & 1 and c not in special]
        parts.append(f"{SUIT_CHARS[suit]}: {' '.join(ranks) if ranks else '-'}")
    return "  ".join(parts)


class TrumpCardSet(CardSet):
    """A ``CardSet`` under rules with jokers or high deuces (``Rules.cardset``): its cards are
    ``Rules.card``'s, so they print as ``BJ`` / ``LJ``, and ``suit(3)`` holds every trump."""

    def __new__(cls, cards, deck: tuple, trumps: tuple) -> TrumpCardSet:
        s = super().__new__(cls, cards)
        s._deck = deck
        s._trumps = trumps
        return s

    def __getnewargs__(self):
        return (int(self), self._deck, self._trumps)

    def _same(self, mask: int) -> TrumpCardSet:
        return TrumpCardSet(int(mask), self._deck, self._trumps)

    def __iter__(self):
        return (self._deck[c] for c in mask_to_cards(self))

    def __getitem__(self, i):
        cards = [self._deck[c] for c in mask_to_cards(self)]
        return cards[i]

    def __and__(self, other):
        return self._same(int(self) & int(other))

    def __or__(self, other):
        return self._same(int(self) | int(other))

    def __xor__(self, other):
        return self._same(int(self) ^ int(other))

    def __sub__(self, other):
        return self._same(int(self) & ~int(other))

    __rand__, __ror__, __rxor__ = __and__, __or__, __xor__

    def suit(self, suit: int) -> TrumpCardSet:
        """The cards that count as ``suit``: the trumps (jokers and high deuces included) for 3."""
        special = 0
        for c in self._trumps:
            special |= 1 << c
        own = int(self) & (0x1FFF << (13 * int(suit))) & ~special
        return self._same(own | (int(self) & special) if int(suit) == 3 else own)

    def __str__(self) -> str:
        return format_hand(self, self._trumps)

    def __repr__(self) -> str:
        return f"CardSet({' '.join(map(str, self))!r})"


class Seat(int):
    """A seat 0..3 of the four-player table in pairs, clockwise. ``Seat(0).partner == 2``,
    ``.left`` is the next seat to play. Other tables name their seats and sides with
    ``spades_ai.seats`` (``partner``, ``left_of``, ``side_of`` take the rules), which this class
    agrees with at four.

    >>> s = Seat(1); (s.partner, s.left, s.right, s.team)
    (Seat(3), Seat(2), Seat(0), 1)
    """

    __slots__ = ()

    def __new__(cls, value: int) -> Seat:
        if not is_int(value) or not 0 <= value < 4:
            raise ValueError(f"a seat is an int in 0..3, not {value!r}")
        return super().__new__(cls, int(value))

    @property
    def partner(self) -> Seat:
        return Seat((self + 2) % 4)

    @property
    def left(self) -> Seat:
        """The seat to this one's left, which plays next (clockwise)."""
        return Seat((self + 1) % 4)

    @property
    def right(self) -> Seat:
        return Seat((self + 3) % 4)

    @property
    def team(self) -> int:
        return self % 2

    def __repr__(self) -> str:
        return f"Seat({int(self)})"
