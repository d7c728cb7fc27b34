"""Cards and suits: the vocabulary players use.

A card id is ``suit * 13 + rank`` with suits clubs, diamonds, hearts, spades (0..3) and ranks
2..A (0..12), so the spades are ids 39..51. A card prints as two characters (``AS``, ``TD``,
``2C``); parsing also accepts ``10D``, lower case and the suit symbols (``♠ ♥ ♦ ♣``).

Jokers keep the ids of the cards they replace (docs/rules.md): the big joker ``BJ`` is id 26 (2H),
the little joker ``LJ`` id 0 (2C). ``Card.parse("BJ")`` gives the big joker; the cards of a hand
played under ``Rules(jokers=...)`` or ``deuces_high=...`` come from ``Rules.card(id)``, which
prints the jokers as ``BJ`` / ``LJ`` and gives every joker and high deuce the suit spades and a
rank above the ace (13 and up, in trump order).

A ``CardSet`` may hold up to three copies of a card (the tables of 6 to 12 players shuffle two
or three decks): it prints them (``S: A A K``, ``CardSet('KS AS AS')``) and counts them. It packs
the levels of ``engine.copies`` (level k: the cards held at least k times) into one int,
``L1 | L2 << 64 | L3 << 128``, so a set without copies is exactly its bitboard.

Seats and sides, and ``Seat``, are ``spades_ai.seats``.
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


#: The most copies of a card a ``CardSet`` holds: three decks (tables of 9 to 12 players).
MAX_COPIES = 3
#: Bits per level in a ``CardSet``'s int: level k (cards held at least k times) starts at
#: bit ``64 * (k - 1)``, as one ``uint64`` per level in the engine (``engine.copies``).
LEVEL_BITS = 64
_LEVEL = (1 << LEVEL_BITS) - 1
_EVERY_LEVEL = 1 | 1 << LEVEL_BITS | 1 << 2 * LEVEL_BITS  # a mask times this: the mask at every level


def _split(value: int) -> tuple[int, int, int]:
    """The three levels packed in a ``CardSet``'s int."""
    return value & _LEVEL, value >> LEVEL_BITS & _LEVEL, value >> 2 * LEVEL_BITS


def _pack(l1: int, l2: int, l3: int) -> int:
    return l1 | l2 << LEVEL_BITS | l3 << 2 * LEVEL_BITS


def _copies(value: int, card: int) -> int:
    """How many copies of ``card`` the packed levels ``value`` hold."""
    return (value >> card & 1) + (value >> (LEVEL_BITS + card) & 1) + (value >> (2 * LEVEL_BITS + card) & 1)


def _times(n: int) -> str:
    return "once" if n == 1 else "twice" if n == 2 else f"{n} times"


#: The cards of each suit's 13-bit pattern, keyed by ``suit << 13 | bits``, filled on first use.
_SUIT_CARDS: dict[int, tuple[Card, ...]] = {}


def _suit_cards(key: int) -> tuple[Card, ...]:
    suit, bits = key >> 13, key & 0x1FFF
    cards = _SUIT_CARDS[key] = tuple(DECK[13 * suit + r] for r in range(13) if bits >> r & 1)
    return cards


def mask_to_cards(mask: int) -> list[Card]:
    """The cards of a bitboard, lowest id first; of a ``CardSet``'s packed levels (``int(s)``),
    each card as many times as the set holds it."""
    mask = int(mask)
    if mask >> LEVEL_BITS:
        return [c for c in mask_to_cards(mask & _LEVEL) for _ in range(_copies(mask, c))]
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


def _check_levels(value: int) -> None:
    """Refuse (``ValueError``) an int that is no ``CardSet``: bits off the cards, or a level
    holding a card that the level below lacks."""
    if 0 <= value <= FULL_MASK:  # one deck: no levels to nest
        return
    levels = _split(value)
    if value < 0 or value >> MAX_COPIES * LEVEL_BITS or max(levels) > FULL_MASK:
        where = " of its levels (bits 0..51, 64..115, 128..179)" if value > _LEVEL else ""
        raise ValueError(f"bitboard {value:#x} has bits outside 0..51{where}")
    for k in (1, 2):
        loose = levels[k] & ~levels[k - 1]
        if loose:
            names = " ".join(map(str, mask_to_cards(loose)))
            raise ValueError(f"bitboard {value:#x}: level {k + 1} (cards held at least {_times(k + 1)}) holds "
                             f"{names}, which level {k} lacks")


def _count_cards(cards) -> int:
    """The packed levels of some cards (text or an iterable), each repeat one more copy; a card
    more than ``MAX_COPIES`` times raises ``ValueError`` naming it."""
    cards = parse_cards(cards)
    l1 = l2 = l3 = 0
    for card in cards:
        b = 1 << card
        if not l1 & b:
            l1 |= b
        elif not l2 & b:
            l2 |= b
        elif not l3 & b:
            l3 |= b
        else:
            raise ValueError(f"card {card} appears {cards.count(card)} times: a set of cards holds at most "
                             f"{MAX_COPIES} copies of a card (three decks)")
    return _pack(l1, l2, l3)


def _difference(a: int, b: int) -> int:
    """``Counter``'s ``a - b`` on packed levels: each card's copies in ``a`` less those in ``b``,
    none below zero (``engine.copies.levels_diff``, which holds for any ``b``)."""
    if not (a | b) >> LEVEL_BITS:
        return a & ~b
    (a1, a2, a3), (b1, b2, b3) = _split(a), _split(b)
    return _pack((a1 & ~b1) | (a2 & ~b2) | (a3 & ~b3), (a2 & ~b1) | (a3 & ~b2), a3 & ~b1)


class CardSet(int):
    """A set of cards held as a bitboard (bit = card id), like python-chess's ``SquareSet``,
    which may hold up to three copies of a card (tables of two and three decks).

    It is the int the engine uses (``int(s)``, ``np.uint64(s)``, ``s >> 51 & 1`` all work), and
    it iterates, counts, tests membership, combines and prints as a set of cards. Built from a
    bitboard, a string of cards or any iterable of cards; a card more than three times or a bit
    outside 0..51 raises ``ValueError``.

    >>> s = CardSet("AS KS 7H")
    >>> len(s), "KS" in s, s
    (3, True, CardSet('7H KS AS'))
    >>> print(s)
    S: A K  H: 7  D: -  C: -
    >>> list(s & CardSet("AS 2C")), s - CardSet("AS"), s == ["AS", "KS", "7H"], s[0]
    ([AS], CardSet('7H KS'), True, 7H)

    Copies: the int packs the levels ``L1 | L2 << 64 | L3 << 128`` (level k: the cards held at
    least k times, ``levels()``), so a set without copies is its bitboard and one with copies is
    a larger int (``np.uint64`` refuses it: the engine takes ``levels()``). The operators are
    ``collections.Counter``'s: ``+`` adds the copies (more than three of a card raises), ``-``
    takes away what there is to take (``take`` refuses a card the set lacks), ``&`` and ``|``
    keep the fewer and the more copies of each card (the levels' and, or), ``^`` the difference
    in copies (``(a - b) | (b - a)``); without copies each is the set operation of the bitboards.

    >>> h = CardSet("AS KH AS")
    >>> h, len(h), h.count("AS"), str(h), h.take("AS")
    (CardSet('KH AS AS'), 3, 2, 'S: A A  H: K  D: -  C: -', CardSet('KH AS'))
    >>> h.levels() == (CardSet("AS KH"), CardSet("AS"), 0), h + CardSet("AS") == "AS AS AS KH"
    (True, True)
    """

    __slots__ = ()

    def __new__(cls, cards: int | str | Iterable[Card | str | int] = 0) -> CardSet:
        if isinstance(cards, (int, np.integer)) and not isinstance(cards, bool):
            value = int(cards)
            _check_levels(value)
        else:
            value = _count_cards(cards)
        return super().__new__(cls, value)

    @classmethod
    def from_mask(cls, mask: int) -> CardSet:
        """A card set from a bitboard known to be valid (the engine's): no checks."""
        return int.__new__(cls, mask)

    @classmethod
    def from_levels(cls, *levels: int) -> CardSet:
        """The set whose level k (1 to 3 masks, ints or numpy ints) holds the cards held at
        least k times: ``levels()``'s inverse, and how the engine's hands (level k of seat s at
        ``hands[(k - 1) * players + s]``) read as cards. A mask with bits outside 0..51, or a level holding a card the level below
        lacks, raises ``ValueError``.

        >>> CardSet.from_levels(1 << 51 | 1, 1 << 51)
        CardSet('2C AS AS')
        """
        if not 1 <= len(levels) <= MAX_COPIES:
            raise ValueError(f"a set of cards has 1 to {MAX_COPIES} levels, not {len(levels)}")
        for k, mask in enumerate(levels, 1):
            if not is_int(mask) or not 0 <= int(mask) <= FULL_MASK:
                raise ValueError(f"level {k} must be a bitboard of cards 0..51, not {mask!r}")
        return cls(_pack(*(int(m) for m in levels), *(0,) * (MAX_COPIES - len(levels))))

    @classmethod
    def full_decks(cls, decks: int = 1) -> CardSet:
        """Every card ``decks`` times (1 to 3): the cards of ``decks`` decks shuffled together.

        >>> len(CardSet.full_decks(2)), CardSet.full_decks(2).count("AS")
        (104, 2)
        """
        if not is_int(decks) or not 1 <= decks <= MAX_COPIES:
            raise ValueError(f"decks must be an int in 1..{MAX_COPIES}, not {decks!r}")
        return cls.from_levels(*(FULL_MASK,) * int(decks))

    def levels(self) -> tuple[int, int, int]:
        """The bitboards of the cards held at least once, twice and three times (the engine's
        levels, ``engine.copies``); ``(int(s), 0, 0)`` for a set without copies."""
        return _split(int(self))

    def count(self, card: Card | str | int) -> int:
        """How many copies of ``card`` (a card, a string or an id) the set holds, 0 to 3."""
        return _copies(int(self), to_card(card))

    def _same(self, value: int) -> CardSet:
        """A set of this kind (a rules' set keeps its names) with the packed levels ``value``,
        which come from valid sets."""
        return CardSet.from_mask(value)

    def __iter__(self):
        """The cards, lowest id first (clubs 2 .. spades A), a card held twice twice."""
        return iter(mask_to_cards(self))

    def __len__(self) -> int:
        """The cards held, copies counted."""
        return self.bit_count()

    def __getitem__(self, i):
        """The ``i``-th card (or a list, for a slice) in id order, as in the list it replaced."""
        return list(self)[i]

    def __contains__(self, card) -> bool:
        try:
            return bool(int(self) >> to_card(card) & 1)
        except ValueError:
            return False

    def __eq__(self, other) -> bool:
        """Equal to the same bitboard (packed levels), or to any collection of the same cards,
        copies counted (``== []``, ``== "AS AS"``)."""
        if isinstance(other, (int, np.integer)) and not isinstance(other, bool):
            return int(self) == int(other)
        if isinstance(other, (list, tuple, set, frozenset, str)):
            try:
                return int(self) == _count_cards(other)
            except ValueError:
                return False
        return NotImplemented

    def __ne__(self, other) -> bool:
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    __hash__ = int.__hash__

    def _bitwise(self, other, value: int) -> CardSet:
        if not isinstance(other, CardSet):  # a bare int (a mask, or its complement): check the result
            _check_levels(value)
        return self._same(value)

    def __and__(self, other) -> CardSet:
        """Each card as few times as either set holds it."""
        return self._bitwise(other, int(self) & int(other))

    def __or__(self, other) -> CardSet:
        """Each card as many times as either set holds it."""
        return self._bitwise(other, int(self) | int(other))

    def __xor__(self, other) -> CardSet:
        """Each card as many times as one set holds it more than the other."""
        a, b = int(self), int(_as_cardset(other))
        return self._same(_difference(a, b) | _difference(b, a))

    def __sub__(self, other) -> CardSet:
        """The cards of this set less those of ``other``, copies counted (a card ``other``
        holds more times than this set is simply gone; see ``take``)."""
        return self._same(_difference(int(self), int(_as_cardset(other))))

    def __add__(self, other) -> CardSet:
        """Both sets' cards, copies added; a card held more than three times in all raises
        ``ValueError`` naming it."""
        a, b = int(self), int(_as_cardset(other))
        (a1, a2, a3), (b1, b2, b3) = _split(a), _split(b)
        over = (a1 & b3) | (a2 & b2) | (a3 & b1)
        if over:
            card = mask_to_cards(over)[0]
            raise ValueError(f"{card} would be held {_copies(a, card) + _copies(b, card)} times: a set of cards "
                             f"holds at most {MAX_COPIES} copies of a card (three decks)")
        return self._same(_pack(a1 | b1, a2 | b2 | (a1 & b1), a3 | b3 | (a2 & b1) | (a1 & b2)))

    __rand__, __ror__, __rxor__, __radd__ = __and__, __or__, __xor__, __add__

    def take(self, cards) -> CardSet:
        """This set less ``cards`` (a set, text, cards or a bitboard), which it must hold, copies
        counted: a card it holds fewer times raises ``ValueError`` naming it (``-`` takes what
        there is).

        >>> CardSet("AS AS 7H").take("AS 7H")
        CardSet('AS')
        """
        other = int(_as_cardset(cards))
        lacking = _difference(other, int(self))
        if lacking:
            card = mask_to_cards(lacking)[0]
            have = _copies(int(self), card)
            holds = f"holds it {_times(have)}" if have else "does not hold it"
            raise ValueError(f"cannot take {card} {_times(_copies(other, card))} from {self!r}: it {holds}")
        return self._same(_difference(int(self), other))

    def suit(self, suit: int) -> CardSet:
        """The cards of one suit (0 clubs .. 3 spades), copies kept."""
        return self._same(int(self) & (0x1FFF << (13 * int(suit))) * _EVERY_LEVEL)

    def __str__(self) -> str:
        return format_hand(self)

    def __repr__(self) -> str:
        return f"CardSet({' '.join(map(str, self))!r})"


def _as_cardset(cards) -> CardSet:
    """``cards`` as a ``CardSet`` (a set stays itself; an int is read as packed levels)."""
    return cards if isinstance(cards, CardSet) else CardSet(cards)


def parse_hands(hands, size: int | None = None, players: int = 4, deck: CardSet | None = None) -> tuple[CardSet, ...]:
    """``players`` hands (four by default) from as many card collections (strings, card lists
    or bitboards), or from one string with ``/`` between the hands; with ``size``, each must
    hold that many.

    ``deck`` is the cards the hands are dealt from, copies counted: one deck of 52 by default;
    ``Rules.parse_hands`` passes the table's (two or three decks less the cards it removes).
    No hand may hold a card more times than the deck has it, nor all hands together (with one
    deck: no card in two hands). Anything else raises ``ValueError`` naming the seat, the card
    and the problem. ``parse_deal`` (the table's cards each) and the solver (any equal sizes) both read
    their hands through this.
    """
    deck = _ONE_DECK if deck is None else _as_cardset(deck)
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
        extra = cards - deck
        if extra:
            card = extra[0]
            if not deck.count(card):
                raise ValueError(f"seat {seat}'s hand holds {card}, which a table of {players} removes from the deck")
            raise ValueError(f"seat {seat}'s hand: card {card} appears {_times(cards.count(card))}, and a table of "
                             f"{players} players has it {_times(deck.count(card))}")
        if size is not None and len(cards) != size:
            raise ValueError(f"seat {seat}'s hand has {len(cards)} cards, not {size}")
        sets.append(cards)
    left = deck
    for seat, cards in enumerate(sets):
        short = cards - left
        if short:
            raise ValueError(_held_too_often(sets[: seat + 1], short[0], deck, players))
        left -= cards
    return tuple(sets)


def _held_too_often(sets, card: Card, deck: CardSet, players: int) -> str:
    """Why the hands ``sets`` cannot all be dealt from ``deck``: the last one takes a copy of
    ``card`` that the others left none of."""
    holders = [s for s, cards in enumerate(sets) if card in cards]
    if not int(deck) >> LEVEL_BITS:  # one deck: the words of every earlier version
        first, last = holders[0], len(sets) - 1
        return f"seats {first} and {last} both hold {' '.join(map(str, sets[first] & sets[last]))}"
    names = ", ".join(map(str, holders[:-1])) + f" and {holders[-1]}"
    held = sum(cards.count(card) for cards in sets)
    has = _times(deck.count(card))
    return f"seats {names} hold {card} {_times(held)} in all, and a table of {players} players has it {has}"


def format_hand(mask: int, trumps: tuple = ()) -> str:
    """A hand as players write it, spades first, high cards first: ``S: A K 7  H: Q 4  D: -  C: 2``.

    ``trumps`` are the jokers and high deuces of the rules (``TrumpCard``, lowest first): they
    lead the spades, highest first (``S: BJ 2D A K  H: ...``). ``mask`` may be a ``CardSet``
    with copies (or its int): a card held twice is written twice (``S: A A K``).
    """
    mask = int(mask)
    special = {int(c): c for c in trumps}
    parts = []
    for suit in (3, 2, 1, 0):
        ranks = [str(c) for c in reversed(trumps) if mask >> c & 1 for _ in range(_copies(mask, c))] if suit == 3 else []
        ids = [suit * 13 + r for r in range(12, -1, -1)]
        ranks += [RANK_CHARS[c % 13] for c in ids if mask >> c & 1 and c not in special for _ in range(_copies(mask, c))]
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

    def _same(self, value: int) -> TrumpCardSet:
        return TrumpCardSet(int(value), self._deck, self._trumps)

    def __iter__(self):
        return (self._deck[c] for c in mask_to_cards(self))

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


_ONE_DECK = CardSet.full_decks(1)
