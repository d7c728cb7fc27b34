"""``Hand``: phases and turns, every lead rule on hand-made deals, refused actions, records."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
from naive import card_id, naive_legal_cards, random_rules_kwargs

import spades_ai as sa
from spades_ai import Card, Hand, IllegalBidError, IllegalPlayError, Rules, score_hand

pytestmark = pytest.mark.nojit  # quick enough to run with the JIT off too (tests/test_nojit.py)


def ids(text: str) -> list[int]:
    return sorted(card_id(t) for t in text.split())


def legal(h: Hand) -> list[int]:
    return [int(c) for c in h.legal_cards()]


def held(h: Hand, seat: int) -> list[int]:
    return [int(c) for c in h.cards(seat)]


def snapshot(h: Hand):
    """Everything observable about a hand."""
    return (
        h.to_record(),
        str(h),
        repr(h),
        h.phase,
        h.to_act,
        h.leader,
        h.spades_broken,
        list(h.tricks_won),
        list(h.trick_leaders),
        list(h.plays),
        [held(h, s) for s in range(4)],
        legal(h),
        h.legal_bids(),
        h.legal_bids(blind=True),
        h.bids,
        h.blind,
        h.passers,
        h.public.tolist(),
        [list(p) for p in h.passes],
        h._pending.tolist(),
    )


def bid_all(h: Hand, bids=(3, 3, 3, 3)) -> None:
    for b in bids:
        h.bid(b)


# Deal A: seat 0 leads clubs from the top for nine tricks and nobody plays a spade; then seat 0
# holds only spades.
DEAL_A = [
    "AC KC QC JC TC 9C 8C 7C 6C 2S 3S 4S 5S",
    "2C 3C 4C 5C 2D 3D 4D 5D 6D 7D 6S 7S 8S",
    "2H 3H 4H 5H 6H 7H 8H 9H TH JH 9S TS JS",
    "8D 9D TD JD QD KD AD QH KH AH QS KS AS",
]
# The follows of seats 1, 2, 3 to seat 0's club leads AC, KC, ..., 6C (tricks 0..8).
FOLLOWS_A = [
    ("2C", "2H", "8D"),
    ("3C", "3H", "9D"),
    ("4C", "4H", "TD"),
    ("5C", "5H", "JD"),
    ("2D", "6H", "QD"),
    ("3D", "7H", "KD"),
    ("4D", "8H", "AD"),
    ("5D", "9H", "QH"),
    ("6D", "TH", "KH"),
]
CLUB_LEADS_A = ["AC", "KC", "QC", "JC", "TC", "9C", "8C", "7C", "6C"]

# Deal B: seat 0 holds all the clubs, seat 1 all the diamonds; seats 2 and 3 hold hearts and spades.
DEAL_B = [
    "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
    "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
    "2H 3H 4H 5H 6H 7H 8H 2S 3S 4S 5S 6S 7S",
    "9H TH JH QH KH AH 8S 9S TS JS QS KS AS",
]

# Deal C: seat 1 (first to act with dealer 0) holds hearts and spades; seat 2 can follow hearts.
DEAL_C = [
    "2C 3C 4C 5C 6C 7C 8C 2D 3D 4D 5D 6D 7D",
    "2H 3H 4H 5H 6H 7H 8H 2S 3S 4S 5S 6S 7S",
    "9C TC JC QC KC AC 9H TH JH QH KH AH 8D",
    "9D TD JD QD KD AD 8S 9S TS JS QS KS AS",
]

SPADE_LEADS = ["broken", "after_first_trick", "after_three_tricks", "after_three_tricks_or_broken", "anytime"]
# May a mixed hand lead a spade at trick t while spades are unbroken?
UNBROKEN_OK = {
    "broken": lambda t: False,
    "after_first_trick": lambda t: t >= 1,
    "after_three_tricks": lambda t: t >= 3,
    "after_three_tricks_or_broken": lambda t: t >= 3,
    "anytime": lambda t: True,
}


# -- phases and turns --------------------------------------------------------------------------


@pytest.mark.parametrize("dealer", range(4))
def test_bidding_starts_at_dealers_left(dealer):
    h = Hand(DEAL_C, dealer=dealer)
    assert h.phase == "bidding" and h.leader is None  # who leads is not public before the play
    order = []
    for k in range(4):
        order.append(h.to_act)
        h.bid(k + 1)
    assert order == [(dealer + 1 + k) % 4 for k in range(4)]
    assert h.bids == [((s - dealer - 1) % 4) + 1 for s in range(4)]
    assert h.phase == "playing"
    assert h.to_act == (dealer + 1) % 4  # the dealer's left leads the first trick
    assert h.current_trick == [] and h.trick_no == 0


def test_phases_and_history():
    h = Hand(DEAL_C, dealer=0)
    assert h.bids == [None] * 4 and h.legal_cards() == []
    bid_all(h, (4, 3, 0, 5))
    assert h.legal_bids() == [] and h.bids == [5, 4, 3, 0]
    rnd = random.Random(0)
    while h.phase == "playing":
        before = h.to_act
        c = rnd.choice(h.legal_cards())
        h.play(c)
        assert h.plays[-1] == (before, c)
        assert c not in h.cards(before)
    assert h.phase == "over" and h.to_act is None and h.leader is None
    assert len(h.tricks) == 13 and all(len(t) == 4 for t in h.tricks)
    assert sum(h.tricks_won) == 13
    assert [t[0][0] for t in h.tricks] == h.trick_leaders
    assert h.legal_cards() == [] and h.legal_bids() == []
    assert all(h.cards(s) == [] for s in range(4))


def test_result_before_the_end_raises():
    h = Hand(DEAL_C)
    with pytest.raises(ValueError, match="not over"):
        h.result()
    bid_all(h)
    h.play(h.legal_cards()[0])
    with pytest.raises(ValueError, match="not over"):
        h.result()


def test_result_is_score_hand():
    rules = Rules(nil_bonus=50, bag_limit=5)
    h = Hand(DEAL_C, dealer=2, rules=rules, scores=(120, -40), bag_count=(4, 1))
    bid_all(h, (0, 4, 2, 3))
    rnd = random.Random(3)
    while h.phase == "playing":
        h.play(rnd.choice(h.legal_cards()))
    r = h.result()
    assert r == score_hand(h.bids, h.tricks_won, rules, scores=(120, -40), bag_count=(4, 1))
    assert r.tricks_won == tuple(h.tricks_won)
    assert h.result() is r


# -- lead rules ---------------------------------------------------------------------------------


def play_deal_a(h: Hand, check_lead) -> None:
    """Play tricks 0..8 of deal A, calling ``check_lead(h, t)`` before each of seat 0's leads."""
    for t, (lead, follows) in enumerate(zip(CLUB_LEADS_A, FOLLOWS_A)):
        assert h.to_act == 0 and h.trick_no == t
        check_lead(h, t)
        h.play(lead)
        for c in follows:
            h.play(c)
        assert h.tricks_won[0] == t + 1
    assert not h.spades_broken


@pytest.mark.parametrize("spade_lead", SPADE_LEADS)
def test_spade_lead_options_unbroken(spade_lead):
    h = Hand(DEAL_A, dealer=3, rules=Rules(spade_lead=spade_lead))
    bid_all(h)

    def check(h, t):
        hand0 = held(h, 0)
        clubs = [c for c in hand0 if c < 13]
        if UNBROKEN_OK[spade_lead](t):
            assert legal(h) == hand0
        else:
            assert legal(h) == clubs
            before = snapshot(h)
            with pytest.raises(IllegalPlayError) as info:
                h.play("2S")
            msg = str(info.value)
            assert "seat 0" in msg and "2S" in msg and "may not lead spades" in msg
            assert snapshot(h) == before

    play_deal_a(h, check)
    # Trick 9: seat 0 holds only spades, so it may lead one under every option.
    assert legal(h) == ids("2S 3S 4S 5S")
    h.play("2S")
    assert h.spades_broken  # leading a spade from an all-spade hand breaks spades
    assert legal(h) == ids("6S 7S 8S")  # seat 1 must follow spades
    h.play("8S")
    h.play("JS")
    h.play("AS")
    assert h.to_act == 3 and h.tricks_won[3] == 1
    assert legal(h) == ids("AH QS KS")  # broken: a mixed hand may lead spades now


@pytest.mark.parametrize(
    "spade_lead, may_lead",
    [
        ("broken", True),
        ("after_first_trick", True),
        ("after_three_tricks", False),  # broken, but the fourth trick has not come
        ("after_three_tricks_or_broken", True),
        ("anytime", True),
    ],
)
def test_spade_lead_options_after_a_trump(spade_lead, may_lead):
    h = Hand(DEAL_B, dealer=3, rules=Rules(spade_lead=spade_lead))
    bid_all(h)
    assert h.to_act == 0 and legal(h) == ids(DEAL_B[0])
    h.play("2C")
    assert legal(h) == ids(DEAL_B[1])  # void in clubs: any card
    h.play("2D")
    assert legal(h) == ids(DEAL_B[2])  # void: a spade too
    h.play("2S")
    assert h.spades_broken
    h.play("9H")
    assert h.to_act == 2 and h.tricks_won == [0, 0, 1, 0]  # the lowest spade beats the clubs
    hand2 = held(h, 2)
    hearts = [c for c in hand2 if c // 13 == 2]
    assert legal(h) == (hand2 if may_lead else hearts)


def test_low_club_first_lead():
    rules = Rules(first_lead="low_club")
    h = Hand(DEAL_A, dealer=2, rules=rules)  # 2C is in seat 1's hand
    assert h.to_act == 3  # bidding still starts at the dealer's left
    bid_all(h)
    assert h.to_act == 1 and h.leader == 1
    assert legal(h) == [card_id("2C")]
    before = snapshot(h)
    with pytest.raises(IllegalPlayError) as info:
        h.play("3C")
    assert "seat 1" in str(info.value) and "3C" in str(info.value) and "lowest club" in str(info.value)
    assert snapshot(h) == before
    h.play("2C")
    h.play("6H")  # seat 2: void in clubs
    h.play("8D")  # seat 3: void
    h.play("AC")  # seat 0 wins
    assert h.to_act == 0 and h.trick_leaders == [1]
    assert legal(h) == ids("KC QC JC TC 9C 8C 7C 6C")  # trick 1: ordinary lead rules


@pytest.mark.parametrize("spade_lead", SPADE_LEADS)
def test_low_club_beats_every_spade_lead_option(spade_lead):
    h = Hand(DEAL_C, dealer=1, rules=Rules(first_lead="low_club", spade_lead=spade_lead))
    bid_all(h)
    assert h.to_act == 0 and legal(h) == [0]


def test_low_club_holder_may_be_the_dealer_left():
    h = Hand(DEAL_B, dealer=3, rules=Rules(first_lead="low_club"))
    bid_all(h)
    assert h.to_act == 0 and legal(h) == [0]
    h = Hand(DEAL_B, dealer=0, rules=Rules(first_lead="low_club"))
    bid_all(h)
    assert h.to_act == 0 and legal(h) == [0]


def test_all_spade_hand_may_lead_first_trick_under_every_option():
    deal = [DEAL_B[3].replace("9H TH JH QH KH AH", "2S 3S 4S 5S 6S 7S"), DEAL_B[0], DEAL_B[1],
            DEAL_B[2].replace("2S 3S 4S 5S 6S 7S", "9H TH JH QH KH AH")]
    for spade_lead in SPADE_LEADS:
        h = Hand(deal, dealer=3, rules=Rules(spade_lead=spade_lead))
        bid_all(h)
        assert legal(h) == list(range(39, 52))
        h.play("AS")
        assert h.spades_broken


# -- refused actions --------------------------------------------------------------------------


def test_illegal_plays_name_seat_card_and_reason():
    h = Hand(DEAL_C, dealer=0)
    bid_all(h)
    assert h.to_act == 1
    cases = [
        ("2S", ["seat 1", "2S", "may not lead spades", "spades are not broken"]),
        ("AS", ["seat 1", "does not hold AS"]),
        ("1X", ["seat 1", "'1X'"]),
        (52, ["seat 1", "52"]),
        (True, ["seat 1"]),
    ]
    before = snapshot(h)
    for card, words in cases:
        with pytest.raises(IllegalPlayError) as info:
            h.play(card)
        for w in words:
            assert w in str(info.value), (w, str(info.value))
        assert snapshot(h) == before
    h.play("5H")
    assert h.to_act == 2
    before = snapshot(h)
    for card, words in [
        ("9C", ["seat 2 may not play 9C", "seat 2 must follow hearts", "9H TH JH QH KH AH"]),
        ("8D", ["seat 2", "8D", "must follow hearts"]),
        (card_id("AC"), ["seat 2", "AC", "must follow hearts"]),
        ("2C", ["seat 2 does not hold 2C"]),
        ("5H", ["seat 2 does not hold 5H"]),
    ]:
        with pytest.raises(IllegalPlayError) as info:
            h.play(card)
        for w in words:
            assert w in str(info.value), (w, str(info.value))
        assert snapshot(h) == before
    h.play(Card.parse("9h"))
    assert h.to_act == 3 and legal(h) == ids(DEAL_C[3])  # void in hearts: anything


def test_play_accepts_every_card_form():
    h = Hand(DEAL_C, dealer=0)
    bid_all(h)
    h.play("5H")
    h.play(Card.parse("TH"))
    h.play(card_id("AS"))
    h.play(np.int64(card_id("2D")))  # a numpy id, as an agent reading a bitboard would pass
    assert [str(c) for _, c in h.plays] == ["5H", "TH", "AS", "2D"]
    assert all(type(c) is Card for _, c in h.plays)
    assert h.tricks_won[3] == 1


@pytest.mark.parametrize(
    "bid, blind, words",
    [
        (14, False, ["seat 1 may not bid 14", "0 (nil) to 13"]),
        (-1, False, ["seat 1 may not bid -1"]),
        (3, True, ["seat 1", "3", "only a nil can be blind"]),
        (0, True, ["seat 1", "blind nil", "off"]),
        ("3", False, ["seat 1", "'3'"]),
        (True, False, ["seat 1", "True"]),
        (3.0, False, ["seat 1", "3.0"]),
        (3, "yes", ["seat 1", "'yes'"]),
    ],
)
def test_illegal_bids_name_seat_bid_and_reason(bid, blind, words):
    h = Hand(DEAL_C, dealer=0)
    before = snapshot(h)
    with pytest.raises(IllegalBidError) as info:
        h.bid(bid, blind=blind)
    for w in words:
        assert w in str(info.value), (w, str(info.value))
    assert snapshot(h) == before
    assert issubclass(IllegalBidError, ValueError) and issubclass(IllegalPlayError, ValueError)


def test_actions_out_of_phase():
    h = Hand(DEAL_C, dealer=0)
    before = snapshot(h)
    with pytest.raises(IllegalPlayError, match="no card is due"):
        h.play("2H")
    assert snapshot(h) == before
    bid_all(h)
    before = snapshot(h)
    with pytest.raises(IllegalBidError, match="no bid is due"):
        h.bid(3)
    assert snapshot(h) == before
    rnd = random.Random(1)
    while h.phase == "playing":
        h.play(rnd.choice(h.legal_cards()))
    before = snapshot(h)
    with pytest.raises(IllegalPlayError, match="over"):
        h.play("2H")
    with pytest.raises(IllegalBidError, match="over"):
        h.bid(1)
    assert snapshot(h) == before


def pass_randomly(h: Hand, rnd: random.Random) -> None:
    """A passing round with random cards, if one is due; a refused pass first, now and then."""
    while h.phase == "passing":
        s = h.to_act
        n = h.observation().pass_count
        if rnd.random() < 0.3:
            before = snapshot(h)
            with pytest.raises(sa.IllegalPassError, match=f"seat {s}"):
                h.pass_cards(s, rnd.sample(list(h.cards(s)), n - 1))
            assert snapshot(h) == before
        h.pass_cards(s, rnd.sample(list(h.cards(s)), n))


def test_refused_actions_change_nothing_in_random_hands():
    """At random points of random hands, an unheld card, a held illegal card and a bad bid are refused
    and leave the hand exactly as it was."""
    rnd = random.Random(17)
    refused = 0
    for i in range(150):
        rules = Rules(**random_rules_kwargs(rnd))
        h = Hand(sa.deal(31, i), dealer=rnd.randrange(4), rules=rules)
        pass_randomly(h, rnd)
        while h.phase == "bidding":
            illegal = [b for b in range(-1, 15) if b not in h.legal_bids()]
            if illegal and rnd.random() < 0.5:
                before = snapshot(h)
                with pytest.raises(IllegalBidError, match=f"seat {h.to_act}"):
                    h.bid(rnd.choice(illegal))
                assert snapshot(h) == before
                refused += 1
            h.bid(rnd.choice(h.legal_bids()))
        pass_randomly(h, rnd)
        while h.phase == "playing":
            seat = h.to_act
            ok = legal(h)
            mine = held(h, seat)
            if rnd.random() < 0.2:
                wrong = [c for c in range(52) if c not in ok]
                before = snapshot(h)
                c = rnd.choice(wrong)
                with pytest.raises(IllegalPlayError) as info:
                    h.play(c)
                assert f"seat {seat}" in str(info.value) and str(rules.card(c)) in str(info.value)
                assert ("does not hold" in str(info.value)) == (c not in mine)
                assert snapshot(h) == before
                refused += 1
            h.play(rnd.choice(ok))
    assert refused > 1000


# -- bad deals ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "deal, words",
    [
        (DEAL_C[:3], ["4 hands", "3"]),
        ([DEAL_C[0], DEAL_C[1], DEAL_C[2].replace(" 8D", ""), DEAL_C[3]], ["seat 2", "12 cards"]),
        ([DEAL_C[0], DEAL_C[1] + " 8D", DEAL_C[2], DEAL_C[3]], ["seat 1", "14 cards"]),
        ([DEAL_C[0], DEAL_C[1], DEAL_C[2], DEAL_C[3].replace("8S", "AS")], ["seat 3", "AS appears twice"]),
        ([DEAL_C[0], DEAL_C[1], DEAL_C[2].replace("8D", "2C"), DEAL_C[3]], ["seats 0 and 2", "2C"]),
        ([DEAL_C[0], DEAL_C[1].replace("2H", "ZZ"), DEAL_C[2], DEAL_C[3]], ["seat 1", "'ZZ'"]),
        ([1 << 52 | 1, DEAL_C[1], DEAL_C[2], DEAL_C[3]], ["seat 0"]),
        ([DEAL_C[0], DEAL_C[1], DEAL_C[2], (1 << 13) - 1], ["seats 0 and 3", "2C"]),
        ([DEAL_C[0], DEAL_C[1], DEAL_C[2], [52] + list(range(12))], ["seat 3"]),
    ],
)
def test_bad_deals_name_the_seat(deal, words):
    with pytest.raises(ValueError) as info:
        Hand(deal)
    for w in words:
        assert w in str(info.value), (w, str(info.value))


def test_deal_forms():
    masks = [sum(1 << c for c in ids(t)) for t in DEAL_C]
    forms = [
        DEAL_C,
        " / ".join(DEAL_C),
        masks,
        [np.uint64(m) for m in masks],
        [[Card(c) for c in ids(t)] for t in DEAL_C],
        [ids(t) for t in DEAL_C],
        sa.parse_deal(DEAL_C),
    ]
    for form in forms:
        h = Hand(form)
        assert [held(h, s) for s in range(4)] == [ids(t) for t in DEAL_C]


@pytest.mark.parametrize(
    "kwargs, error, words",
    [
        (dict(dealer=4), ValueError, ["dealer"]),
        (dict(dealer=True), ValueError, ["dealer"]),
        (dict(bag_count=(10, 0)), ValueError, ["bag_count[0]"]),
        (dict(bag_count=(0, 4), rules=Rules(bag_limit=4)), ValueError, ["bag_count[1]"]),
        (dict(scores=(1, 2, 3)), ValueError, ["scores"]),
        (dict(scores=(1.5, 0)), ValueError, ["scores", "1.5"]),
        (dict(bag_count=("3", 0)), ValueError, ["bag_count"]),
        (dict(hands_played=-1), ValueError, ["hands_played"]),
        (dict(rules={"nil": False}), TypeError, ["Rules"]),
    ],
)
def test_bad_hand_arguments(kwargs, error, words):
    with pytest.raises(error) as info:
        Hand(DEAL_C, **kwargs)
    for w in words:
        assert w in str(info.value)
    if error is ValueError and "dealer" not in kwargs:  # the refused argument, named as a field
        assert isinstance(info.value, sa.errors.FieldError) and info.value.field == next(iter(kwargs))


# -- records ------------------------------------------------------------------------------------


def test_record_round_trip_random_hands():
    rnd = random.Random(5)
    for i in range(120):
        rules = Rules(**random_rules_kwargs(rnd))
        scores = (rnd.randint(-150, 450), rnd.randint(-150, 450))
        bags = (rnd.randrange(rules.bag_limit), rnd.randrange(rules.bag_limit))
        h = Hand(sa.deal(8, i), dealer=rnd.randrange(4), rules=rules, scores=scores, bag_count=bags)
        stop = rnd.choice([0, 2, 4, 5, 17, 30, 64, 64, 64])  # actions (passes, 4 bids, 52 cards)
        for _ in range(stop):
            if h.phase == "over":
                break
            if h.phase == "passing":
                s = h.to_act
                h.pass_cards(s, rnd.sample(list(h.cards(s)), h.observation().pass_count))
            elif h.phase == "bidding":
                if h.legal_bids(blind=True) and rnd.random() < 0.3:
                    h.bid(0, blind=True)
                else:
                    h.bid(rnd.choice(h.legal_bids()))
            else:
                h.play(rnd.choice(h.legal_cards()))
        rec = h.to_record()
        assert json.loads(json.dumps(rec)) == rec
        keys = {"deal", "dealer", "rules", "scores", "bag_count", "hands_played", "bids", "blind", "plays"}
        assert set(rec) == keys | ({"passes"} if rules.pass_cards or rules.blind_pass else set())
        for again in (Hand.from_record(rec), Hand.from_record(h.to_json()), Hand.from_record(json.loads(h.to_json()))):
            assert snapshot(again) == snapshot(h)
            assert again.rules == rules
            if h.phase == "over":
                assert again.result() == h.result()


def test_record_keeps_hands_played():
    """``hands_played`` is part of the match state a hand starts from: it must survive the record."""
    h = Hand(DEAL_C, dealer=0, scores=(100, 50), bag_count=(3, 4), hands_played=7)
    bid_all(h)
    h.play("5H")
    again = Hand.from_record(h.to_json())
    assert again.hands_played == 7
    assert snapshot(again) == snapshot(h)


def test_record_replays_in_play_order():
    h = Hand(DEAL_C, dealer=0)
    bid_all(h, (4, 0, 3, 5))
    for c in ("5H", "9H", "AS", "2D"):
        h.play(c)
    rec = h.to_record()
    assert rec["plays"] == ["5H", "9H", "AS", "2D"]
    assert rec["bids"] == [4, 0, 3, 5]  # in bidding order, from the dealer's left
    assert rec["dealer"] == 0 and rec["deal"][1] == " ".join(str(Card(c)) for c in ids(DEAL_C[1]))
    again = Hand.from_record(rec)
    assert again.bids == [5, 4, 0, 3] and again.to_act == 3 and again.tricks_won == [0, 0, 0, 1]


def test_bad_records():
    h = Hand(DEAL_C, dealer=0)
    bid_all(h)
    rec = h.to_record()
    with pytest.raises(IllegalPlayError, match="seat 1"):
        Hand.from_record({**rec, "plays": ["2S"]})  # a refused card is refused on replay too
    with pytest.raises(IllegalBidError, match="14"):
        Hand.from_record({**rec, "bids": [3, 3, 14, 3]})
    with pytest.raises(ValueError, match="keys"):
        Hand.from_record({k: v for k, v in rec.items() if k != "plays"})
    with pytest.raises(ValueError, match="keys"):
        Hand.from_record({**rec, "extra": 1})
    with pytest.raises(ValueError, match="blind"):
        Hand.from_record({**rec, "blind": [False]})
    with pytest.raises(sa.RulesError, match="nil_bonsu"):
        Hand.from_record({**rec, "rules": {"nil_bonsu": 5}})


def test_str_and_repr():
    h = Hand(DEAL_C, dealer=0)
    bid_all(h)
    h.play("5H")
    text = str(h)
    assert "seat 1: S: 7 6 5 4 3 2  H: 8 7 6 4 3 2  D: -  C: -" in text
    assert "trick: 1:5H" in text
    assert repr(h) == "<Hand dealer=0 phase=playing to_act=2 plays=1>"


def test_legal_cards_match_naive_in_scripted_deals():
    """A cross-check of the hand-made deals against the reference (the scripts above are fixed)."""
    rules = Rules()
    h = Hand(DEAL_A, dealer=3, rules=rules)
    bid_all(h)

    def check(h, t):
        assert legal(h) == naive_legal_cards(held(h, 0), [], False, t, rules)

    play_deal_a(h, check)


def test_record_written_by_version_0_1_still_replays():
    """0.1 called the running bag count "bags"; such a record loads and replays the same hand."""
    from pathlib import Path

    old = json.loads((Path(__file__).parent / "data" / "hand_record_0.1.json").read_text())
    assert "bags" in old and "bag_count" not in old
    h = Hand.from_record(old)
    assert h.bag_count == tuple(old["bags"]) and h.scores == tuple(old["scores"])
    assert [str(c) for _, c in h.plays] == old["plays"] and h.to_record()["bag_count"] == old["bags"]


# -- jokers and high deuces -----------------------------------------------------------------
def test_jokers_print_and_parse():
    rules = Rules(jokers=2, deuces_high=2)
    assert [str(rules.card(i)) for i in rules.extra_trumps] == ["2D", "2S", "LJ", "BJ"]
    assert str(sa.Card.parse("BJ")) == "BJ" and int(sa.Card.parse("lj")) == 0
    bj = rules.card(26)
    assert bj == 26 and bj.suit == sa.Suit.SPADES and bj.rank == 16 and rules.card(13).rank == 13
    cards = rules.cardset(sa.CardSet("2H 2C 2D AS 5H"))
    assert str(cards) == "S: BJ LJ 2D A  H: 5  D: -  C: -"
    assert [str(c) for c in cards] == ["LJ", "2D", "BJ", "5H", "AS"]  # id order
    assert len(cards.suit(3)) == 4 and len(cards.suit(2)) == 1 and len(cards.suit(0)) == 0
    assert str(Rules(jokers=1).card(0)) == "2C"  # one joker: only the big one


def test_jokers_and_high_deuces_win_and_follow_as_spades():
    deal = [
        "BJ LJ AS KS 3S 4H 5H 6H 7H 8H 9H TH JH",  # seat 0: the jokers (the ids of 2H and 2C)
        "2S 2D QS JS 3C 4C 5C 6C 7C 8C 9C TC JC",  # seat 1: the high deuces
        "TS 9S 8S 7S 6S 5S 4S QC KC AC QH KH AH",
        "3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD 3H",
    ]
    rules = Rules(jokers=2, deuces_high=2, spade_lead="anytime")
    with pytest.raises(ValueError, match="seat 0's hand: 2H is not in the deck: BJ replaces it"):
        Hand([deal[0].replace("BJ", "2H")] + deal[1:], dealer=3, rules=rules)
    with pytest.raises(ValueError, match="seat 0's hand: BJ is not in the deck: these rules play with 0 joker"):
        Hand(deal, dealer=3)
    assert Hand([sa.CardSet(d.replace("BJ", "2H").replace("LJ", "2C")) for d in deal], 3, rules).deal[0] == deal[0]
    h = Hand(deal, dealer=3, rules=rules)
    for _ in range(4):
        h.bid(3)
    with pytest.raises(sa.IllegalPlayError, match="2H is not in the deck: BJ replaces it"):
        h.play("2H")
    h.play("AS")  # seat 0 leads a spade
    assert [str(c) for c in h.legal_cards()] == ["2D", "2S", "JS", "QS"]  # high deuces follow spades
    h.play("2D")
    h.play("TS")
    h.play("3D")  # void in spades
    assert h.tricks_won == [0, 1, 0, 0]  # 2D beats AS
    h.play("2S")
    h.play("9S")
    h.play("4D")
    assert [str(c) for c in h.legal_cards()] == ["LJ", "BJ", "3S", "KS"]
    h.play("LJ")
    assert h.tricks_won == [1, 1, 0, 0]  # the little joker beats the high 2S
    assert str(h.tricks[-1][3][1]) == "LJ" and h.observation().played_by[0] == ["AS", "LJ"]
    assert "S: BJ K 3" in str(h)
    record = h.to_record()
    assert "LJ" in record["plays"] and "BJ" in record["deal"][0]
    assert Hand.from_record(record).tricks_won == h.tricks_won


def test_jokers_are_refused_without_jokers_in_the_rules():
    h = Hand(sa.deal(3), rules=Rules(deuces_high=1))
    for _ in range(4):
        h.bid(3)
    with pytest.raises(sa.IllegalPlayError, match="BJ is not in the deck: these rules play with 0 joker"):
        h.play("BJ")


def test_mirror_counts_jokers_and_high_deuces_as_spades():
    rules = Rules(jokers=1, deuces_high=1, bidding="mirror")
    h = Hand(sa.deal(0), rules=rules)
    for seat in (1, 2, 3, 0):
        held = h.deal[seat]
        assert h.legal_bids() == [len(held.suit(3))]
        assert len(held.suit(3)) == sum(c.suit == 3 or int(c) in (26, 39) for c in sa.deal(0)[seat])
        h.bid(h.legal_bids()[0])


def test_play_codes_and_legal_mask_read_the_observation():
    """``play_codes`` gives every card played as ``64 * seat + engine id`` and ``legal_mask`` the
    legal actions as the engine's mask (bids, or cards with jokers in the trump lane)."""
    rules = Rules(jokers=2)
    hand = Hand(sa.simulate.match_deal(3, 0, 1, rules), dealer=0, rules=rules)
    agent = sa.make_agent("normal")
    while hand.phase != "over":
        obs = hand.observation()
        mask = obs.legal_mask()
        if hand.phase == "bidding":
            assert sa.observation.bids_in_mask(mask, False) == obs.legal_bids()
            hand.bid(agent.bid(obs))
            continue
        assert list(rules.engine_cards(mask)) == obs.legal_cards()
        codes = obs.play_codes()
        assert [(c >> 6, next(iter(rules.engine_cards(1 << (c & 63))))) for c in codes] == [(s, c) for s, c in obs.plays]
        hand.play(agent.play(obs))
