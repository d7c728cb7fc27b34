"""Cards that repeat (tables of two and three decks): ``CardSet`` with copies against
``collections.Counter``, parsing and printing round trips, the refusals naming the card, and
the one-deck sets that stay their bitboards."""

from __future__ import annotations

import pickle
import random
import types
from collections import Counter

import numpy as np
import pytest

from spades_ai import CardSet, Rules, format_hand, parse_cards
from spades_ai.cards import DECK, MAX_COPIES, mask_to_cards, parse_hands
from spades_ai.engine.copies import levels_diff, levels_sum
from spades_ai.pbn import PBNError, read_pbn, to_pbn
from spades_ai.render import cards_html
from spades_ai.render.text import format_cards
from spades_ai.seats import table_name


def random_counts(rnd: random.Random, most: int = MAX_COPIES) -> Counter:
    """A random multiset of card ids: a few dozen cards, each 1..most times."""
    return Counter({c: rnd.randint(1, most) for c in rnd.sample(range(52), rnd.randint(0, 40))})


def as_set(counts: Counter) -> CardSet:
    cards = list(map(DECK.__getitem__, counts.elements()))
    random.Random(len(cards)).shuffle(cards)  # any order in, id order out
    return CardSet(cards)


def as_counter(cards: CardSet) -> Counter:
    return Counter(int(c) for c in cards)


# -- one deck: the bitboard as before ---------------------------------------------------------------
def test_a_set_without_copies_is_its_bitboard_and_operates_as_one():
    rnd = random.Random(1)
    for _ in range(300):
        a, b = rnd.getrandbits(52), rnd.getrandbits(52)
        x, y = CardSet(a), CardSet(b)
        assert int(x) == a and x.levels() == (a, 0, 0) and CardSet.from_levels(a) == x
        assert np.uint64(x) == np.uint64(a) and hash(x) == hash(a)
        assert len(x) == a.bit_count() and list(x) == mask_to_cards(a)
        assert all(x.count(c) == (a >> c & 1) for c in range(52))
        assert (int(x & y), int(x | y), int(x ^ y), int(x - y)) == (a & b, a | b, a ^ b, a & ~b)
        assert int(x + (y - x)) == a | b  # disjoint sets add up to their union
        assert str(x) == format_hand(a) and eval(repr(x), {"CardSet": CardSet}) == x


# -- copies against Counter -----------------------------------------------------------------------
def test_sets_with_copies_agree_with_counter():
    rnd = random.Random(2)
    for _ in range(400):
        ca, cb = random_counts(rnd), random_counts(rnd)
        a, b = as_set(ca), as_set(cb)
        assert as_counter(a) == ca and len(a) == sum(ca.values()) == a.bit_count()
        assert [int(c) for c in a] == sorted(ca.elements()) and a[-1:] == list(a)[-1:]
        assert all(a.count(c) == ca[c] and (c in a) == (ca[c] > 0) for c in range(52))
        assert as_counter(a & b) == ca & cb and as_counter(a | b) == ca | cb
        assert as_counter(a - b) == ca - cb and as_counter(a ^ b) == (ca - cb) | (cb - ca)
        assert (a == b) == (ca == cb) and a == list(ca.elements()) and a == CardSet(int(a))
        over = [c for c in range(52) if ca[c] + cb[c] > MAX_COPIES]
        if over:
            with pytest.raises(ValueError, match=f"{DECK[over[0]]} would be held {ca[over[0]] + cb[over[0]]} times"):
                a + b
        else:
            assert as_counter(a + b) == ca + cb and as_counter(sum([a, b])) == ca + cb
        if cb <= ca:
            assert as_counter(a.take(b)) == ca - cb
        else:
            with pytest.raises(ValueError, match="cannot take"):
                a.take(b)


def test_operators_are_the_engine_formulas():
    rnd = random.Random(3)
    for _ in range(100):
        ca = random_counts(rnd)
        cb = Counter({c: rnd.randint(0, ca[c]) for c in ca})  # a part of ca, and a sum within 3
        a, b = as_set(ca), as_set(cb)
        ends = tuple(map(np.uint64, a.levels() + b.levels()))
        assert a - b == CardSet.from_levels(*map(int, levels_diff(*ends)))
        small = as_set(Counter({c: min(k, MAX_COPIES - ca[c]) for c, k in cb.items()}))
        ends = tuple(map(np.uint64, a.levels() + small.levels()))
        assert a + small == CardSet.from_levels(*map(int, levels_sum(*ends)))


def test_levels_round_trip_and_nest():
    h = CardSet("AS KH AS 2C 2C 2C")
    l1, l2, l3 = h.levels()
    assert (CardSet(l1), CardSet(l2), CardSet(l3)) == (CardSet("2C KH AS"), CardSet("2C AS"), CardSet("2C"))
    assert CardSet.from_levels(*map(np.uint64, h.levels())) == h == CardSet.from_levels(l1, l2, l3)
    assert int(h) == l1 | l2 << 64 | l3 << 128 and CardSet(int(h)) == h
    assert pickle.loads(pickle.dumps(h)) == h and type(pickle.loads(pickle.dumps(h))) is CardSet  # to workers
    assert CardSet.full_decks(3) == CardSet(DECK * 3) and len(CardSet.full_decks(2)) == 104
    assert h.suit(0) == "2C 2C 2C" and h.suit(3) == "AS AS" and len(h.suit(1)) == 0


# -- printing -------------------------------------------------------------------------------------
def test_copies_print_plainly_and_parse_back():
    h = CardSet("AS KH as A♠ 10h")
    assert repr(h) == "CardSet('TH KH AS AS AS')" and eval(repr(h), {"CardSet": CardSet}) == h
    assert str(h) == "S: A A A  H: K T  D: -  C: -" == format_hand(int(h))
    assert CardSet(" ".join(map(str, h))) == h and parse_cards(" ".join(map(str, h))) == list(h)
    assert format_cards(h, legal="AS") == "S: AS* AS* AS*  H: KH TH  D: -  C: -"
    assert format_cards("AS AS 2C") == "S: AS AS  H: -  D: -  C: 2C"
    assert cards_html(CardSet("AS AS 7H")).count('data-card="AS"') == 2


def test_one_deck_printing_is_unchanged():
    assert str(CardSet("AS KS 7H")) == "S: A K  H: 7  D: -  C: -" and repr(CardSet("AS KS 7H")) == "CardSet('7H KS AS')"
    assert format_cards("AS 7S QH 4H 9C", legal=["AS", "7S"]) == "S: AS* 7S*  H: QH 4H  D: -  C: 9C"
    rules = Rules(jokers=2, deuces_high=1)
    assert str(rules.cardset(CardSet("2H 2C 2S AS"))) == "S: BJ LJ 2S A  H: -  D: -  C: -"


# -- refusals ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "make, words",
    [
        (lambda: CardSet("AS AS KH AS AS"), "card AS appears 4 times: a set of cards holds at most 3 copies"),
        (lambda: CardSet([51, 51, 52]), "a card id is an int in 0..51, not 52"),
        (lambda: CardSet("AS ZZ"), "bad card 'ZZ'"),
        (lambda: CardSet(1 << 64 | 1 << 51), r"level 2 \(cards held at least twice\) holds 2C, which level 1 lacks"),
        (lambda: CardSet(1 << 116), "bits outside 0..51 of its levels"),
        (lambda: CardSet.from_levels(1, 2), "level 2 .* holds 3C, which level 1 lacks"),
        (lambda: CardSet.from_levels(1 << 52), "level 1 must be a bitboard of cards 0..51"),
        (lambda: CardSet.from_levels(1, 1, 1, 1), "1 to 3 levels, not 4"),
        (lambda: CardSet.from_levels(), "1 to 3 levels, not 0"),
        (lambda: CardSet.full_decks(4), "decks must be an int in 1..3, not 4"),
        (lambda: CardSet("AS AS") + CardSet("AS KS AS"), "AS would be held 4 times"),
        (lambda: CardSet("AS KS").take("AS AS"), r"cannot take AS twice from CardSet\('KS AS'\): it holds it once"),
        (lambda: CardSet("AS").take("QH"), "cannot take QH once .* it does not hold it"),
        (lambda: CardSet("AS") - (1 << 52), "bits outside 0..51"),
        (lambda: CardSet("KH AS AS").count("XX"), "bad card 'XX'"),
    ],
)
def test_bad_cards_are_refused_by_name(make, words):
    with pytest.raises(ValueError, match=words):
        make()


# -- hands at the tables of several decks --------------------------------------------------------------
def shuffled_deal(rules: Rules, seed: int) -> list[str]:
    """A deal of ``rules``' table as text: its decks less the removed cards, shuffled."""
    cards = list(CardSet.full_decks(rules.decks).take(rules.removed_cards))
    random.Random(seed).shuffle(cards)
    n = rules.cards_each
    return [" ".join(map(str, cards[n * s: n * s + n])) for s in range(rules.players)]


@pytest.mark.parametrize("players", range(3, 13))
def test_deals_of_every_table_parse_and_print_back(players):
    rules = Rules(players=players)
    hands = shuffled_deal(rules, players)
    sets = rules.parse_hands(hands, rules.cards_each)
    assert [CardSet(h) for h in hands] == list(sets)
    assert sum(sets) == CardSet.full_decks(rules.decks).take(rules.removed_cards)
    assert rules.parse_hands(" / ".join(" ".join(map(str, s)) for s in sets)) == sets
    assert rules.parse_hands([int(s) for s in sets]) == sets  # the ints keep the copies


@pytest.mark.parametrize(
    "players, hand, words",
    [
        (8, "AS AS", None),
        (8, "AS AS AS", "seat 0's hand: card AS appears 3 times, and a table of 8 players has it twice"),
        (4, "AS AS", "seat 0's hand: card AS appears twice, and a table of 4 players has it once"),
        (12, "AS AS AS", None),
        (6, "2D", "seat 0's hand holds 2D, which a table of 6 removes from the deck"),
        (7, "2H", "holds 2H, which a table of 7 removes"),
        (11, "2D", None),
        (11, "2D 2D", "seat 0's hand: card 2D appears twice, and a table of 11 players has it once"),
        (10, "AS AS AS 2C", "holds 2C, which a table of 10 removes"),
        (9, [51, 51, 60], "seat 0's hand: a card id is an int in 0..51, not 60"),
        (9, "AS XS", "seat 0's hand: bad card 'XS'"),
        (9, 1 << 52, "seat 0's hand: bitboard .* has bits outside 0..51"),
    ],
)
def test_a_hand_holds_no_more_copies_than_the_table_has(players, hand, words):
    rules = Rules(players=players)
    hands = [hand] + [""] * (players - 1)
    if words is None:
        assert rules.parse_hands(hands)[0] == CardSet(hand)
        return
    with pytest.raises(ValueError, match=words):
        rules.parse_hands(hands)


@pytest.mark.parametrize(
    "players, hands, words",
    [
        (8, ["AS", "", "AS", "AS"], "seats 0, 2 and 3 hold AS 3 times in all, and a table of 8 players has it twice"),
        (8, ["AS AS", "KS", "AS"], "seats 0 and 2 hold AS 3 times in all"),
        (11, ["2D", "", "", "2D"], "seats 0 and 3 hold 2D twice in all, and a table of 11 players has it once"),
        (12, ["AS AS", "AS", "KS", "AS"], "seats 0, 1 and 3 hold AS 4 times in all, and a table of 12 players has it 3 times"),
        (4, ["AS 2C", "KS 2C AS"], "seats 0 and 1 both hold 2C AS"),
    ],
)
def test_the_hands_together_hold_no_more_copies_than_the_table_has(players, hands, words):
    with pytest.raises(ValueError, match=words):
        Rules(players=players).parse_hands(hands + [""] * (players - len(hands)))
    assert Rules(players=players).parse_hands(hands[:1] + [""] * (players - 1))  # each alone is fine


def test_parse_hands_reads_one_deck_unless_given_another():
    assert parse_hands(["AS", "KS", "", ""]) == (CardSet("AS"), CardSet("KS"), CardSet(), CardSet())
    with pytest.raises(ValueError, match="seat 0's hand: card AS appears twice"):
        parse_hands(["AS AS", "", "", ""])
    two = CardSet.full_decks(2)
    assert parse_hands(["AS AS", "KS", "KS"], players=3, deck=two)[0].count("AS") == 2
    with pytest.raises(ValueError, match="seats 1 and 2 hold KS 3 times in all, and a table of 3 players has it twice"):
        parse_hands(["AS", "KS", "KS KS"], players=3, deck=two)


# -- the records that hold four in pairs only ---------------------------------------------------------
@pytest.mark.parametrize("players", [6, 8, 11])
def test_pbn_refuses_the_tables_of_several_decks_by_name(players):
    table = f"not {table_name(Rules(players=players))}"
    record = f'[Game "Spades"]\n[Rules "players={players}"]\n'
    with pytest.raises(PBNError, match=rf"^line 2 \[Rules\]: PBN records play 4 players in pairs, {table}: PBN is a four-hand"):
        read_pbn(record)
    hand = types.SimpleNamespace(rules=Rules(players=players))  # what it reads before anything else
    with pytest.raises(ValueError, match=table):
        to_pbn(hand)
