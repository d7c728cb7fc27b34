"""The small types a researcher holds: CardSet, Hand.clone, HandRecords equality and repr."""

import copy

import numpy as np
import pytest

import spades_ai as sa
from spades_ai import CardSet, Hand, play_hands, play_matches


# -- CardSet ---------------------------------------------------------------------------------
def test_cardset_is_the_bitboard_and_a_set_of_cards():
    s = CardSet("AS KS 7H")
    assert int(s) == (1 << 51) | (1 << 50) | (1 << (2 * 13 + 5))
    assert np.uint64(s) == np.uint64(int(s))
    assert len(s) == 3 and list(s) == sa.parse_cards("7H KS AS") and s[0] == sa.Card.parse("7H") and s[1:] == list(s)[1:]
    assert "KS" in s and sa.Card.parse("AS") in s and "2C" not in s and "XX" not in s
    assert s == ["AS", "KS", "7H"] and s == CardSet(int(s)) and s != ["AS"] and s == int(s)
    assert str(s) == "S: A K  H: 7  D: -  C: -" and repr(s) == "CardSet('7H KS AS')"
    assert eval(repr(s), {"CardSet": CardSet}) == s


def test_cardset_operations_stay_cardsets():
    a, b = CardSet("AS KS 2C"), CardSet("KS 3D")
    for result, expected in ((a & b, "KS"), (a | b, "AS KS 2C 3D"), (a ^ b, "AS 2C 3D"), (a - b, "AS 2C")):
        assert isinstance(result, CardSet) and result == CardSet(expected)
    assert a.suit(3) == CardSet("AS KS") and len(a.suit(1)) == 0
    assert {a: 1}[CardSet("2C KS AS")] == 1  # hashes as the bitboard


@pytest.mark.parametrize("bad, words", [("AS AS AS AS", "4 times"), (1 << 52, "outside"), (-1, "outside"), ("ZZ", "bad card")])
def test_cardset_refuses_bad_input(bad, words):
    with pytest.raises(ValueError, match=words):
        CardSet(bad)


def test_deals_and_observations_hand_out_cardsets():
    hands = sa.deal(7, 0)
    assert all(isinstance(h, CardSet) and len(h) == 13 for h in hands)
    hand = Hand(hands)
    assert hand.deal == hands and hand.cards(1) == hands[1]
    obs = hand.observation()
    assert isinstance(obs.cards, CardSet) and obs.cards == hands[1]
    assert obs.played_by == [CardSet()] * 4


# -- Hand.clone --------------------------------------------------------------------------------
def test_clone_is_independent():
    h = Hand(sa.deal(3, 2))
    for b in (3, 4, 2, 3):
        h.bid(b)
    h.play(h.legal_cards()[0])
    for twin in (h.clone(), copy.copy(h), copy.deepcopy(h)):
        before = (h.to_json(), h.public.tobytes(), [int(c) for c in (h.cards(s) for s in range(4))])
        while twin.phase == "playing":
            twin.play(twin.legal_cards()[-1])
        assert twin.phase == "over" and h.phase == "playing"
        assert (h.to_json(), h.public.tobytes(), [int(c) for c in (h.cards(s) for s in range(4))]) == before


def test_public_view_is_read_only():
    h = Hand(sa.deal(3, 2))
    with pytest.raises(ValueError):
        h.public[0] = 3


# -- HandRecords -------------------------------------------------------------------------------
def test_records_compare_by_value():
    a = play_hands(["normal", "easy"], 50, seed=2)
    assert a == play_hands(["normal", "easy"], 50, seed=2)
    assert a != play_hands(["normal", "easy"], 50, seed=3)
    assert a != play_hands(["normal", "easy"], 49, seed=2)
    assert a != play_matches(["normal", "easy"], 1, seed=2)
    assert (a == "something else") is False
    with pytest.raises(TypeError):
        hash(a)


def test_records_print_briefly():
    rec = play_hands(["normal", "easy"], 1000, seed=2)
    text = repr(rec)
    assert len(text) < 150 and "1,000 hands" in text and "deals 0..999" in text
    m = repr(play_matches(["normal", "easy"], 3, seed=2))
    assert "matches 0..2" in m and "(matches" in m


def test_records_vocabulary():
    rec = play_hands(["normal", "easy"], 200, seed=5)
    assert rec.mode == "hands" and rec.match_no is None and rec.hand_no is None
    assert (rec.team_tricks == rec.tricks_won[:, [0, 1]] + rec.tricks_won[:, [2, 3]]).all()
    assert (rec.nil_made <= rec.nil_bid).all() and rec.nil_made.dtype == bool
    matches = play_matches(["normal", "easy"], 2, seed=5)
    assert matches.mode == "matches" and matches.deal_no is None
