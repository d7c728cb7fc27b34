"""Cards, suits and seats: parsing, printing and seat arithmetic."""

from __future__ import annotations

import pytest

from spades_ai import Card, Seat, Suit, format_hand, parse_cards
from spades_ai.cards import DECK, cards_to_mask, mask_to_cards, to_card


@pytest.mark.parametrize(
    "text, card_id",
    [
        ("2C", 0),
        ("AC", 12),
        ("2D", 13),
        ("TD", 21),
        ("10D", 21),
        ("10d", 21),
        ("td", 21),
        ("QH", 36),
        ("2S", 39),
        ("AS", 51),
        ("as", 51),
        ("aS", 51),
        ("A♠", 51),
        ("K♥", 37),
        ("3♦", 14),
        ("J♣", 9),
        ("10♤", 47),
        ("Q♡", 36),
        ("5♢", 16),
        ("9♧", 7),
        (" KS ", 50),
    ],
)
def test_parse(text, card_id):
    assert int(Card.parse(text)) == card_id


def test_ids_follow_suit_times_13_plus_rank():
    ranks = "23456789TJQKA"
    for s, suit_char in enumerate("CDHS"):
        for r, rank_char in enumerate(ranks):
            c = Card(s * 13 + r)
            assert str(c) == repr(c) == rank_char + suit_char
            assert c.suit == Suit(s) and c.rank == r and c.bit == 1 << (s * 13 + r)
            assert Card.parse(str(c)) == c


def test_suits():
    assert [int(s) for s in Suit] == [0, 1, 2, 3]
    assert str(Suit.HEARTS) == "hearts" and Suit.SPADES.char == "S"
    assert Card.parse("2S").suit is Suit.SPADES


@pytest.mark.parametrize("token", ["XS", "1S", "11H", "AX", "A", "S", "", "AS2", "0D", "KK", "10", "ZZ", "A S"])
def test_bad_token_names_it(token):
    with pytest.raises(ValueError) as info:
        Card.parse(token)
    assert repr(token) in str(info.value)


@pytest.mark.parametrize("value", [-1, 52, 100, True, 3.0, "AS", None])
def test_bad_ids(value):
    with pytest.raises(ValueError):
        Card(value)


def test_parse_cards():
    assert parse_cards("AS KS 7H") == [Card(51), Card(50), Card(31)]
    assert parse_cards("AS, 10d 7♥") == [Card(51), Card(21), Card(31)]
    assert parse_cards("  2c,,3c  ") == [Card(0), Card(1)]
    assert parse_cards("") == []
    assert parse_cards(["AS", 0, Card(13)]) == [Card(51), Card(0), Card(13)]


def test_parse_cards_bad_token_named():
    with pytest.raises(ValueError, match="'7X'"):
        parse_cards("AS 7X KD")
    with pytest.raises(ValueError, match="'QQ'"):
        parse_cards(["AS", "QQ"])
    with pytest.raises(ValueError, match="52"):
        parse_cards([52])


def test_to_card():
    assert to_card("AS") == to_card(51) == to_card(Card(51)) == Card(51)
    assert type(to_card(51)) is Card


def test_masks():
    assert cards_to_mask("2C AS") == 1 | 1 << 51
    assert mask_to_cards(1 | 1 << 51) == [Card(0), Card(51)]
    assert cards_to_mask([]) == 0
    with pytest.raises(ValueError, match="AS appears twice"):
        cards_to_mask("AS KS as")
    assert mask_to_cards((1 << 52) - 1) == list(DECK)


def test_format_hand():
    assert format_hand(cards_to_mask("AS KS 7S QH 4H 2C")) == "S: A K 7  H: Q 4  D: -  C: 2"
    assert format_hand(0) == "S: -  H: -  D: -  C: -"
    assert format_hand(cards_to_mask("TD 2D AD JC")) == "S: -  H: -  D: A T 2  C: J"


@pytest.mark.parametrize(
    "seat, partner, left, right, team",
    [(0, 2, 1, 3, 0), (1, 3, 2, 0, 1), (2, 0, 3, 1, 0), (3, 1, 0, 2, 1)],
)
def test_seat(seat, partner, left, right, team):
    s = Seat(seat)
    assert (s.partner, s.left, s.right, s.team) == (partner, left, right, team)
    assert isinstance(s.partner, Seat) and isinstance(s.left, Seat)
    assert s.left.right == s and s.partner.partner == s
    assert repr(s) == f"Seat({seat})"


@pytest.mark.parametrize("value", [-1, 4, True, 1.0, "0"])
def test_bad_seat(value):
    with pytest.raises(ValueError):
        Seat(value)


def test_numpy_ints_are_ids():
    """Agents read card ids and seats off numpy bitboards: numpy ints are accepted, numpy bools not."""
    import numpy as np

    assert Card(np.int64(51)) == Card(51) and type(Card(np.uint8(0))) is Card
    assert to_card(np.int32(13)) == Card(13)
    assert Seat(np.int64(1)).partner == 3
    for bad in (np.bool_(True), np.float64(3.0), np.int64(52), np.int64(-1)):
        with pytest.raises(ValueError):
            Card(bad)
    with pytest.raises(ValueError):
        Seat(np.int64(4))
