"""Normal on hand-made positions (issue 3, section 3; seed 004's strategy tips).

Each test sets up one position by dealing and replaying bids and cards, asks Normal for its bid
or card through ``hand.observation()``, and names the behaviour it pins down. We are always
seat 0 (partner seat 2, opponents 1 and 3) unless a test says otherwise. ``position`` needs
only our 13 cards and the cards played: the other seats are dealt the cards they play plus
filler (none of a suit they have shown void in), since an agent sees only its own cards and the
public record.
"""

from __future__ import annotations

import pytest

from spades_ai import Hand, Rules, make_agent, parse_cards

NORMAL = make_agent("normal")
EVEN = [3, 3, 3, 3]  # bids by seat: a contract that is not yet safe for anyone


def _trick_winner(trick):
    led = trick[0][1].suit
    spades = [(c, s) for s, c in trick if c.suit == 3]
    return max(spades)[1] if spades else max((c, s) for s, c in trick if c.suit == led)[1]


def position(cards, *, dealer, bids, plays="", me=0, rules=None, scores=(0, 0), bag_count=(0, 0)) -> Hand:
    """The hand where seat ``me`` was dealt ``cards``, after ``bids`` (by seat; None: not yet)
    made in turn from the dealer's left and ``plays`` (cards in play order). ``me`` is to act."""
    mine = parse_cards(cards)
    assert len(mine) == 13
    held = {s: set() for s in range(4)}
    held[me] = set(mine)
    voids = {s: set() for s in range(4)}
    leader, trick = (dealer + 1) % 4, []
    for c in parse_cards(plays):
        seat = (leader + len(trick)) % 4
        assert seat != me or c in held[me], f"seat {me} does not hold {c}"
        held[seat].add(c)
        if trick and c.suit != trick[0][1].suit:
            voids[seat].add(trick[0][1].suit)
        trick.append((seat, c))
        if len(trick) == 4:
            leader, trick = _trick_winner(trick), []
    rest = [c for c in parse_cards(range(52)) if not any(c in h for h in held.values())]
    rest.sort(key=lambda c: (sum(c.suit not in voids[s] for s in range(4)), c))  # most constrained first
    for c in rest:
        fits = [s for s in range(4) if s != me and len(held[s]) < 13 and c.suit not in voids[s]]
        held[max(fits, key=lambda s: 13 - len(held[s]))].add(c)
    hand = Hand([sorted(held[s]) for s in range(4)], dealer, rules, scores, bag_count)
    for i in range(4):
        seat = (dealer + 1 + i) % 4
        if bids[seat] is None:
            break
        hand.bid(bids[seat])
    for c in parse_cards(plays):
        hand.play(c)
    assert hand.to_act == me
    return hand


def card(hand: Hand) -> str:
    """Normal's card in this position."""
    return str(NORMAL.play(hand.observation()))


def bid(cards, bids=(None,) * 4, *, me=0, dealer=3, **kw) -> int:
    """Normal's bid at seat ``me`` holding ``cards`` after ``bids`` (seat 0 bids first by default)."""
    return NORMAL.bid(position(cards, dealer=dealer, bids=list(bids), me=me, **kw).observation())


def test_position_helper_deals_what_was_asked():
    hand = position("AS KS QS AH 7H 6H 5H AD 4D 3D AC 8C 2C", dealer=0, bids=EVEN, plays="5C 3C 4S")
    assert [str(c) for c in hand.cards(0)] == [
        "2C",
        "8C",
        "AC",
        "3D",
        "4D",
        "AD",
        "5H",
        "6H",
        "7H",
        "AH",
        "QS",
        "KS",
        "AS",
    ]
    assert hand.observation().voids[3] == {0}
    assert [str(c) for c in hand.legal_cards()] == ["2C", "8C", "AC"]


# == bidding ================================================================================
def test_bid_counts_sure_tricks_top_spades_and_side_aces():
    """A K Q of spades and three side aces are six sure tricks: Normal bids six."""
    assert bid("AS KS QS AH 7H 6H 5H AD 4D 3D AC 8C 2C") == 6


def test_bid_counts_ruffs_from_short_suits_with_spare_spades():
    """Short suits are tricks: the same honours bid more with a singleton, more still with a void."""
    two_clubs = bid("AS 7S 5S 3S AH 8H 6H 4H AD 9D 5D 8C 2C")
    singleton = bid("AS 7S 5S 3S AH 8H 6H 4H 2H AD 9D 5D 4C")
    void = bid("AS 7S 5S 3S AH 8H 6H 4H 2H AD 9D 5D 4D")
    assert two_clubs < singleton < void
    assert (two_clubs, void) == (3, 5)


def test_bid_adjusts_to_partners_high_bid():
    """Bid with the partner: after the partner's 7 Normal keeps its bid honest (one lower)."""
    cards = "AS 7S 5S AH 8H 6H 4H KD 9D 5D QC 8C 2C"
    after_low = bid(cards, (2, 2, None, None), me=2)
    after_high = bid(cards, (7, 2, None, None), me=2)
    assert after_high == after_low - 1 == 2


def test_bid_trims_when_the_table_has_overbid():
    """Last to bid after 4, 3, 4, Normal trims the bid it makes after 2, 2, 2."""
    cards = "AS 7S 5S AH 8H 6H 4H KD 9D 5D QC 8C 2C"
    assert bid(cards, (None, 4, 3, 4), dealer=0) < bid(cards, (None, 2, 2, 2), dealer=0)


NIL_HAND = "2S 3S 2H 3H 4H 6H 2D 3D 5D 7D 2C 4C 6C"


@pytest.mark.parametrize("bids, me", [((None,) * 4, 0), ((4, 3, None, None), 2)], ids=["first", "after-partner-4"])
def test_bids_nil_with_a_safe_hand(bids, me):
    """Low cards, two low spades, no ace or lonely honour: Normal bids nil."""
    assert bid(NIL_HAND, bids, me=me) == 0


def test_no_nil_after_partners_nil():
    """The same safe hand bids a number once the partner has bid nil."""
    assert bid(NIL_HAND, (0, 3, None, None), me=2) >= 1


@pytest.mark.parametrize(
    "cards",
    [
        "2S 3S 2H 3H 4H 6H 2D 3D 5D 7D AC 4C 6C",  # a side ace
        "2S KS 2H 3H 4H 6H 2D 3D 5D 7D 2C 4C 6C",  # a high spade
        "2S QS 2H 3H 4H 6H 2D 3D 5D 7D 2C 4C 6C",
        "2S 3S 4S 5S 3H 4H 6H 2D 3D 5D 7D 2C 4C",  # four spades
        "2S 3S KH 3H 8H 9H 2D 3D 5D 7D 2C 4C 6C",  # a king with one low guard
    ],
    ids=["ace", "king-of-spades", "queen-of-spades", "four-spades", "lonely-king"],
)
def test_no_nil_with_an_ace_high_or_long_spades_or_a_lonely_honour(cards):
    """No nil with a card that is likely to win a trick."""
    assert bid(cards) >= 1


def test_nil_with_a_well_guarded_king():
    """A king with three low guards can be ducked: the hand is still a nil."""
    assert bid("2S 3S KH 3H 4H 6H 2D 3D 5D 7D 2C 4C 6C") == 0


def test_bid_takes_the_extra_trick_near_the_bag_limit():
    """Mind the bags: with 8 bags (limit 10) Normal bids the borderline trick instead of bagging it."""
    cards = "AS 5S 4S AH QH 7H 3H AD 8D 6D 9C 7C 5C"
    assert bid(cards) == bid(cards, bag_count=(6, 0)) == 3
    assert bid(cards, bag_count=(8, 0)) == 4


def test_bid_obeys_the_bidding_preset():
    """Mirror bids the spade count; suicide bids nil when the partner bid a number."""
    cards = "AS 7S 5S AH 8H 6H 4H KD 9D 5D QC 8C 2C"
    assert bid(cards, rules=Rules.preset("mirror")) == 3
    assert bid(cards, (None, 4, 5, 0), dealer=0, rules=Rules.preset("suicide")) == 0
    assert bid(cards, (None, 4, 0, 0), dealer=0, rules=Rules.preset("suicide")) >= 4


# == following suit =========================================================================
KD83 = "KD 8D 3D AH 9H 5H 2H QC 7C 4C 6S 5S 2S"


def test_follows_suit_cheaply_when_it_cannot_win():
    """The ace is led: Normal follows with its lowest diamond, keeping the king."""
    assert card(position(KD83, dealer=2, bids=EVEN, plays="AD")) == "3D"


def test_second_hand_low():
    """Second to a low lead with K 8 3 and the ace out: Normal plays low."""
    assert card(position(KD83, dealer=2, bids=EVEN, plays="5D")) == "3D"


def test_third_hand_high():
    """Partner leads low, second hand plays low: Normal plays its king third."""
    assert card(position(KD83, dealer=1, bids=EVEN, plays="4D 6D")) == "KD"


def test_counts_what_is_out_king_is_a_winner_once_the_ace_is_gone():
    """The ace of diamonds fell on an earlier trick: second hand, the king is now a sure winner."""
    assert card(position(KD83, dealer=2, bids=EVEN, plays="5C 4C AD 2C  5D")) == "KD"


def test_wins_with_the_lowest_sure_winner():
    """Holding A K Q, Normal wins second hand with the queen (all three are sure)."""
    assert card(position("AD KD QD 4D 9H 5H 2H QC 7C 4C 6S 5S 2S", dealer=2, bids=EVEN, plays="5D")) == "QD"


def test_last_hand_wins_with_the_cheapest_winner():
    """Fourth to a trick an opponent wins with the jack: the queen is enough, not the ace."""
    hand = position("AH QH 4H 8D 3D 9C 7C 4C 2C 6S 5S 3S 2S", dealer=0, bids=EVEN, plays="5H 3H JH")
    assert card(hand) == "QH"


# == trumping ===============================================================================
def test_trumps_with_its_lowest_spade():
    """Void in clubs under the ace of clubs: Normal ruffs with its lowest spade, not the ace or king."""
    hand = position("AS KS 4S 3S AH 9H 5H 2H KD 8D 6D 3D 2D", dealer=2, bids=EVEN, plays="AC")
    assert card(hand) == "3S"


def test_overtrumps_with_the_lowest_spade_that_wins():
    """An opponent ruffed with the 7: Normal overruffs with the 9, never wasting its ace or queen."""
    hand = position("AS QS 9S 2S AH 9H 5H 3H KD 8D 6D 3D 2D", dealer=0, bids=EVEN, plays="KC 5C 7S")
    assert card(hand) == "9S"


def test_second_seat_does_not_ruff_a_low_lead():
    """Void second hand to a low club: the partner may still win it, so Normal discards low."""
    hand = position("AS KS 4S 3S AH 9H 5H 2H KD 8D 6D 3D 2D", dealer=2, bids=EVEN, plays="5C")
    assert card(hand) in ("2D", "2H")


# == the partner's winners ==================================================================
def test_never_overtakes_partners_sure_winner():
    """Partner's king holds (our ace is the only higher heart): Normal plays its low heart."""
    hand = position("AH 8H 2H KD 8D 3D QC 7C 4C 6S 5S 4S 2S", dealer=1, bids=EVEN, plays="KH 5H")
    assert card(hand) == "2H"


def test_never_trumps_partners_sure_winner():
    """Partner's ace of hearts holds: void in hearts, Normal discards its lowest side card."""
    hand = position("AS 9S 5S 2S KD 8D 6D 3D QC 9C 7C 4C 2C", dealer=1, bids=EVEN, plays="AH 5H")
    assert card(hand) == "2C"


def test_never_overtrumps_partners_winning_ruff():
    """Last to play, partner ruffed with the 4 of spades: Normal discards instead of overtrumping."""
    hand = position("AS 9S 5S 2S KD 8D 6D 3D AH 9H 7H 4H 2H", dealer=0, bids=EVEN, plays="KC 4S 6C")
    assert card(hand) == "2H"


# == contract made: ducking and bags ========================================================
# We bid 1 + 1 and take the first two tricks; the third goes to seat 1, who leads the fourth.
SAFE = "AC KC 9C 8C 5C AD 2H 9D 8D 7S 5S 3S 2S"
TWO_WON = "2C AC 3C 4C  AD 2D 3D 4D"
THREE_PLAYED = TWO_WON + "  2H KH 3H 4H"


def test_ducks_once_the_contract_is_safe_shedding_the_highest_loser():
    """Contract made, last to a jack of clubs: Normal ducks with the 9 (its highest club that loses)."""
    assert card(position(SAFE, dealer=2, bids=[1, 3, 1, 3], plays=THREE_PLAYED + "  6C 7C JC")) == "9C"


def test_ducks_when_void_by_shedding_its_highest_side_card():
    """Contract made and void in hearts: Normal throws its highest side card rather than ruff."""
    assert card(position(SAFE, dealer=2, bids=[1, 3, 1, 3], plays=THREE_PLAYED + "  6H 7H JH")) == "KC"


def test_leads_a_safe_low_card_once_the_contract_is_made():
    """On lead with the contract made, Normal leads the low card most likely to be beaten."""
    assert card(position(SAFE, dealer=2, bids=[1, 3, 1, 3], plays=TWO_WON)) == "2H"


@pytest.mark.parametrize("opp_bids", [(6, 5), (5, 5)], ids=["need-all", "need-all-but-one"])
def test_sets_opponents_who_need_almost_every_remaining_trick(opp_bids):
    """Our contract is made but the opponents need 10 or 9 of the last 10 tricks: Normal takes
    the trick (the set is worth far more than a bag)."""
    bids = [1, opp_bids[0], 1, opp_bids[1]]
    assert card(position(SAFE, dealer=2, bids=bids, plays=THREE_PLAYED + "  6C 7C JC")) == "KC"


def test_near_the_bag_limit_does_not_chase_a_set_with_a_trick_to_spare():
    """With 8 bags the opponents needing 9 of 10 is not worth a bag: Normal ducks; if they
    need all 10 it still takes the trick."""
    at_8_bags = {"dealer": 2, "plays": THREE_PLAYED + "  6C 7C JC", "bag_count": (8, 0)}
    assert card(position(SAFE, bids=[1, 5, 1, 5], **at_8_bags)) == "9C"
    assert card(position(SAFE, bids=[1, 6, 1, 5], **at_8_bags)) == "KC"


# == our own nil ============================================================================
NIL_BIDS = [0, 3, 4, 3]


def test_nil_bidder_plays_under_the_current_winner():
    """Nil, second to the queen of hearts with K J 4: Normal drops the jack (the highest loser)."""
    hand = position("KH JH 4H 9D 7D 3D 2D 8C 6C 4C 2C 3S 2S", dealer=2, bids=NIL_BIDS, plays="QH")
    assert card(hand) == "JH"


def test_nil_bidder_discards_its_highest_card_when_void():
    """Nil and void in clubs: Normal throws its most dangerous card, the ace of hearts."""
    hand = position("AH 9H 4H 3H KD 7D 3D 2D 6D 5D 4D 3S 2S", dealer=2, bids=NIL_BIDS, plays="5C")
    assert card(hand) == "AH"


def test_nil_bidder_leads_low():
    """Nil on the opening lead: Normal leads a deuce."""
    hand = position("9H 4H 3H KD 7D 3D 2D 8C 6C 4C 2C 3S 2S", dealer=3, bids=NIL_BIDS)
    assert card(hand) == "2C"


def test_nil_bidder_forced_to_win_wins_with_its_highest_card():
    """Last to three low hearts holding only 9 7 of hearts: the nil is lost, so shed the 9."""
    hand = position("9H 7H KD 7D 3D 2D 8C 6C 4C 2C 5D 3S 2S", dealer=0, bids=NIL_BIDS, plays="2H 3H 4H")
    assert card(hand) == "9H"


# == covering the partner's nil =============================================================
COVER_BIDS = [4, 3, 0, 3]


def test_covers_partners_nil_by_overtaking_its_card():
    """Partner (nil) is winning with the 9 of diamonds: Normal overtakes with the jack."""
    hand = position("AD JD 3D AH 9H 5H 2H QC 7C 4C 6S 5S 2S", dealer=1, bids=COVER_BIDS, plays="9D 4D")
    assert card(hand) == "JD"


def test_covers_partners_nil_by_playing_high_in_second_seat():
    """Second seat, the nil partner still to play: Normal plays its ace so the partner can drop low."""
    hand = position("AH 9H 2H KD 8D 3D QC 7C 4C 6S 5S 4S 2S", dealer=2, bids=COVER_BIDS, plays="7H")
    assert card(hand) == "AH"


def test_covers_partners_nil_by_leading_winners():
    """On lead with a nil partner: Normal leads its ace, not a low card the partner might win."""
    hand = position("AD KD 5D AH 7H 3H 9C 6C 4C 8S 6S 4S 2S", dealer=3, bids=COVER_BIDS)
    assert card(hand) == "AD"


@pytest.mark.parametrize(
    "cards, expected",
    [("AH 3H KD 8D 3D QC 7C 4C 9C 6S 5S 4S 2S", "AH"), ("AS 3S KD 8D 3D QC 7C 4C 9C 6D 5D 4D 2D", "3S")],
    ids=["follow", "ruff"],
)
def test_covering_partner_still_takes_a_needed_trick_the_nil_has_lost(cards, expected):
    """Last to play, an opponent wins and the nil partner has played under: the nil is safe on
    this trick and we need tricks, so Normal wins it cheaply (with the ace, or its lowest spade)."""
    hand = position(cards, dealer=0, bids=COVER_BIDS, plays="KH 2H 5H")
    assert card(hand) == expected


# == attacking an opponent's nil ============================================================
ATTACK_BIDS = [4, 0, 3, 3]


def test_attacks_nil_by_leading_low_in_a_suit_the_nil_bidder_holds():
    """Seat 1 bid nil and showed a club void: Normal leads low, but a diamond, not the 2 of clubs."""
    hand = position("AC 2C 5C 7C 3D 8D TD 4H 9H QH 6S 7S 8S", dealer=2, bids=ATTACK_BIDS, plays="3C AC 9D 4C")
    assert card(hand) == "3D"


def test_attacks_nil_by_not_overtaking_the_nil_bidders_card():
    """The nil bidder is winning with the 8 of hearts: Normal plays under (the 6), not the king."""
    hand = position("KH 6H 2H KD 8D 3D QC 7C 4C 6S 5S 4S 2S", dealer=0, bids=ATTACK_BIDS, plays="8H 3H 5H")
    assert card(hand) == "6H"


# == leading ================================================================================
def test_draws_trumps_with_the_top_spade():
    """Spades broken, contract to make, holding A K of spades: Normal leads the ace of spades."""
    hand = position("AS KS 7S 2S AH 9H 5H 3H KD 8D 6D 3D 2D", dealer=2, bids=EVEN, plays="KC 2S 3C 4C")
    assert card(hand) == "AS"


def test_cashes_a_sure_side_suit_winner():
    """Spades unbroken, contract to make: Normal cashes the ace of diamonds."""
    hand = position("AD 9D 5D 8H 7H 3H 9C 6C 4C KS 6S 4S 2S", dealer=3, bids=EVEN)
    assert card(hand) == "AD"


def test_remembers_voids_and_does_not_cash_into_a_ruff():
    """Seat 1 showed a diamond void: the ace of diamonds would be ruffed, so Normal leads low
    from its longest side suit instead."""
    hand = position("AD KD 9D 5D 8H 7H 3H 9C 6C 4C 3C 6S 4S", dealer=2, bids=EVEN, plays="3D KD 2H 4D")
    assert card(hand) == "3C"


def test_leads_low_from_its_longest_side_suit_without_a_sure_winner():
    """No sure winner and tricks to make: Normal leads low from its four hearts, keeping its spades."""
    hand = position("KH 9H 7H 4H QD 5D JC 3C 8C KS 6S 4S 2S", dealer=3, bids=EVEN)
    assert card(hand) == "4H"
