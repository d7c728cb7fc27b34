"""The reference for every table (``naive_tables.py``) checked by hand and against the 4-player game.

* Hand-worked vectors from RULES.md at 3, 5, 6, 8 and 12 players: decks, removed cards and cards
  per player; legal cards under must win; identical cards on a trick under both
  ``equal_cards``; score sheets per side, solo and pairs, with the failed-bid option; match ends
  with three or more sides.
* Properties of random hands at every size, solo and pairs: every card dealt and played as many
  times as the deck holds it, the winner holds the highest card by the rule, legal cards follow
  suit and must win, and the score sheet adds up.
* At 4 players in pairs with one deck, the reference agrees with ``naive.py`` and with the engine
  (``spades_ai.Hand``, ``score_hand``, ``match_winner``) on thousands of random hands.
"""

from __future__ import annotations

import random
from collections import Counter
from math import factorial

import pytest
from naive import naive_legal_cards, naive_match_winner, naive_score, naive_trick_winner
from naive_tables import (
    SIDE_FIELDS,
    TableRules,
    card_id,
    cards_each,
    deck,
    decks,
    first_leader,
    naive_table_deal,
    naive_table_hand,
    naive_table_legal_cards,
    naive_table_match_winner,
    naive_table_score,
    naive_table_trick_winner,
    naive_worlds,
    partner,
    removed_cards,
    side_of,
    sides,
)

import spades_ai as sa

HANDS_VS_ENGINE = 3000  # 4-player hands driven through Hand beside both references
HANDS_PER_TABLE = 80  # random hands per table size and setting in the property checks


def ids(text: str) -> list[int]:
    """``"AH KH"`` -> the card ids, in the order written."""
    return [card_id(t) for t in text.split()]


# -- decks and deals -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "players, n_decks, removed, each",
    [
        (3, 1, "2D", 17),
        (4, 1, "", 13),
        (5, 1, "2D 2C", 10),
        (6, 2, "2D 2D", 17),
        (7, 2, "2D 2D 2C 2C 2H 2H", 14),
        (8, 2, "", 13),
        (9, 3, "2D 2D 2D", 17),
        (10, 3, "2D 2D 2D 2C 2C 2C", 15),
        (11, 3, "2D 2D", 14),
        (12, 3, "", 13),
    ],
)
def test_decks_follow_the_rules_table(players, n_decks, removed, each):
    assert decks(players) == n_decks
    assert removed_cards(players) == Counter(ids(removed))
    assert cards_each(players) == each
    assert len(deck(players)) == players * each


def test_deck_copies_by_hand():
    three, five, six, eight, twelve = (Counter(deck(n)) for n in (3, 5, 6, 8, 12))
    assert len(three) == 51 and card_id("2D") not in three and set(three.values()) == {1}
    assert len(five) == 50 and not {card_id("2D"), card_id("2C")} & set(five) and set(five.values()) == {1}
    assert len(six) == 51 and card_id("2D") not in six and set(six.values()) == {2}
    assert len(eight) == 52 and set(eight.values()) == {2}
    assert len(twelve) == 52 and set(twelve.values()) == {3}
    eleven = Counter(deck(11))
    assert eleven[card_id("2D")] == 1 and eleven[card_id("AS")] == 3


@pytest.mark.parametrize("players", range(3, 13))
def test_deal_hands_out_the_deck(players):
    rnd = random.Random(players)
    rules = TableRules(players=players)
    for _ in range(20):
        hands = naive_table_deal(rules, rnd)
        assert len(hands) == players
        assert all(len(h) == cards_each(players) and h == sorted(h) for h in hands)
        assert Counter(c for h in hands for c in h) == Counter(deck(players))


def test_sides_partners_and_refusals():
    assert sides(TableRules()) == [(0, 2), (1, 3)]
    six = TableRules(players=6, teams="pairs")
    assert sides(six) == [(0, 3), (1, 4), (2, 5)]
    assert [side_of(s, six) for s in range(6)] == [0, 1, 2, 0, 1, 2]
    assert [partner(s, six) for s in range(6)] == [3, 4, 5, 0, 1, 2]
    three = TableRules(players=3)
    assert three.teams == "solo" and sides(three) == [(0,), (1,), (2,)] and partner(1, three) is None
    assert TableRules(players=4, teams="solo").teams == "solo"
    for bad, words in [
        (dict(players=2), "players"),
        (dict(players=5, teams="pairs"), "even"),
        (dict(players=4, must_win=True), "must_win"),
        (dict(failed_bid=20), "failed_bid"),
        (dict(equal_cards="random"), "equal_cards"),
    ]:
        with pytest.raises(ValueError, match=words):
            TableRules(**bad)
    with pytest.raises(ValueError, match="jokers"):
        TableRules.from_rules(sa.Rules(jokers=1))


def test_first_leader():
    rules = TableRules(players=5)
    assert first_leader([[]] * 5, dealer=4, rules=rules) == 0
    low = TableRules(players=8, first_lead="low_club")
    hands = [ids("5C") if s in (2, 6) else ids("9C") for s in range(8)]
    assert first_leader(hands, dealer=4, rules=low) == 6  # two 5C: the first clockwise from the dealer's left
    assert first_leader(hands, dealer=0, rules=low) == 2


# -- legal cards and must win --------------------------------------------------------------------

MUST_WIN = TableRules(players=5, must_win=True)


@pytest.mark.parametrize(
    "trick, hand, legal, why",
    [
        ("9H KH", "2H QH AH 5S", "AH", "must beat KH with AH"),
        ("9H KH", "2H QH 5S", "2H QH", "no heart beats KH: any heart"),
        ("9H KH", "4C 7D 3S", "3S", "void in hearts: must trump"),
        ("9H 5S", "4C 7D 3S 9S", "9S", "must over-trump"),
        ("9H 5S", "4C 7D 3S", "4C 7D 3S", "nothing beats 5S: anything"),
        ("9H 5S", "2H QH 9S", "2H QH", "following suit comes first: the spade is not legal"),
    ],
)
def test_must_win_positions(trick, hand, legal, why):
    got = naive_table_legal_cards(ids(hand), ids(trick), True, 4, MUST_WIN)
    assert got == sorted(ids(legal)), why


def test_must_win_leaves_the_leader_free_and_is_off_by_default():
    assert naive_table_legal_cards(ids("AH 2C KS"), [], True, 4, MUST_WIN) == sorted(ids("AH 2C KS"))
    assert naive_table_legal_cards(ids("AH 2C KS"), [], False, 4, MUST_WIN) == sorted(ids("AH 2C"))
    off = TableRules(players=5)
    assert naive_table_legal_cards(ids("2H QH AH 5S"), ids("9H KH"), True, 4, off) == sorted(ids("2H QH AH"))


@pytest.mark.parametrize("equal_cards, legal", [("first", "3H AH"), ("last", "AH")])
def test_must_win_with_a_copy_of_the_winning_card(equal_cards, legal):
    rules = TableRules(players=8, must_win=True, equal_cards=equal_cards)
    got = naive_table_legal_cards(ids("AH AH 3H"), ids("9H AH"), False, 2, rules)
    assert got == sorted(ids(legal))


# -- trick winners with identical cards ----------------------------------------------------------


@pytest.mark.parametrize(
    "players, leader, cards, first, last",
    [
        (8, 3, "KH AH 2C AH 5H QH 3D 4H", 4, 6),
        (8, 3, "KH 7S 7S AH 5H QH 3D 4H", 4, 5),
        (8, 0, "KH 7S 7S AH 9S QH 3D 4H", 4, 4),
        (12, 5, "AS 2H AS KS 3C 4C 5C 6C 7C AS 8C 9C", 5, 2),
        (6, 0, "4D 4D 4D 3D 2H 2H", 0, 2),
    ],
)
def test_identical_cards_on_a_trick(players, leader, cards, first, last):
    trick = [((leader + i) % players, c) for i, c in enumerate(ids(cards))]
    assert naive_table_trick_winner(trick, TableRules(players=players, equal_cards="first")) == first
    assert naive_table_trick_winner(trick, TableRules(players=players, equal_cards="last")) == last


# -- scoring -------------------------------------------------------------------------------------


def sheet(out: dict, side: int) -> dict:
    return {k: out[k][side] for k in SIDE_FIELDS}


def test_score_solo_three_players():
    rules = TableRules(players=3)
    out = naive_table_score([4, 0, 6], [False] * 3, [5, 1, 11], [0, 0, 0], [9, 0, 2], rules)
    assert sheet(out, 0) == dict(
        contract=4, side_tricks=5, counted=5, made=True, contract_points=40, failed_bid_points=0,
        new_bags=1, nil_points=0, penalties=1, points=-59, scores=-59, bags=0,
    )  # 9 old bags + 1 new: a penalty
    assert sheet(out, 1) == dict(
        contract=0, side_tricks=1, counted=0, made=True, contract_points=0, failed_bid_points=0,
        new_bags=1, nil_points=-100, penalties=0, points=-99, scores=-99, bags=1,
    )  # a failed nil alone: -100, and its trick is a bag
    assert sheet(out, 2)["points"] == 65 and sheet(out, 2)["bags"] == 7
    assert out["nil"] == [None, False, None]


@pytest.mark.parametrize("failed_bid, seat0", [(0, -50), (10, -60), (50, -100)])
def test_score_solo_five_players_failed_bid(failed_bid, seat0):
    rules = TableRules(players=5, failed_bid=failed_bid)
    out = naive_table_score([5, 4, 1, 0, 2], [False] * 5, [3, 2, 1, 0, 4], [0] * 5, [0] * 5, rules)
    assert out["points"] == [seat0, -40, 10, 100, 22]  # a set 4 is below the failed-bid line
    assert out["failed_bid_points"] == [seat0 + 50, 0, 0, 0, 0]
    assert out["nil"] == [None, None, None, True, None]


def test_score_pairs_six_players():
    rules = TableRules(players=6, teams="pairs", failed_bid=50)
    out = naive_table_score([3, 4, 2, 0, 5, 3], [False] * 6, [4, 3, 2, 1, 3, 4], [100, 0, -50], [0, 0, 0], rules)
    # side 0 = seats 0 and 3: 3 bid, 4 made (+30 +1), a failed nil (-100, one bag)
    assert sheet(out, 0) == dict(
        contract=3, side_tricks=5, counted=4, made=True, contract_points=30, failed_bid_points=0,
        new_bags=2, nil_points=-100, penalties=0, points=-68, scores=32, bags=2,
    )
    # side 1 = seats 1 and 4: 9 bid, 6 taken: set, and a failed bid of 5 or more
    assert sheet(out, 1)["points"] == -140 and sheet(out, 1)["failed_bid_points"] == -50
    # side 2 = seats 2 and 5: 5 bid, 6 taken
    assert sheet(out, 2)["points"] == 51 and sheet(out, 2)["scores"] == 1


def test_score_twelve_players_blind_nil():
    rules = TableRules(players=12, half_blind_penalty=True)
    bids = [0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]
    blind = [True, True] + [False] * 10
    tricks = [0, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2]
    out = naive_table_score(bids, blind, tricks, [0] * 12, [0] * 12, rules)
    assert out["nil_points"][:2] == [200, -100] and out["points"][:2] == [200, -98]
    assert out["points"][2:] == [10] * 9 + [11]


@pytest.mark.parametrize(
    "players, teams, scores, hands_played, max_hands, winner",
    [
        (3, "solo", (510, 520, 100), None, None, 1),
        (3, "solo", (520, 520, 100), None, None, None),  # a tie for the highest plays on
        (3, "solo", (490, 300, 100), None, None, None),
        (3, "solo", (300, 100, -200), None, None, 0),  # the loss threshold ends it for all
        (3, "solo", (300, 300, -250), None, None, None),
        (6, "pairs", (505, 480, 499), None, None, 0),
        (5, "solo", (100, 50, 20, 120, 0), 10, 10, 3),
        (5, "solo", (100, 50, 20, 120, 0), 9, 10, None),
    ],
)
def test_match_end_with_three_or_more_sides(players, teams, scores, hands_played, max_hands, winner):
    rules = TableRules(players=players, teams=teams, max_hands=max_hands)
    assert naive_table_match_winner(scores, rules, hands_played) == winner


# -- worlds with copies -------------------------------------------------------------------------


def test_worlds_weigh_the_copies():
    """Two aces and two kings of spades between two hidden seats: three worlds, but the split
    one comes from four of the six deals of the physical cards."""
    worlds = naive_worlds(ids("AS AS KS KS"), [2, 2])
    aces, kings = tuple(ids("AS AS")), tuple(ids("KS KS"))
    split = tuple(sorted(ids("AS KS")))
    assert worlds == {(aces, kings): 1, (kings, aces): 1, (split, split): 4}
    # a seat void in spades takes the hearts; the copies of 3H split 2 + 1 in three ways
    worlds = naive_worlds(ids("AS AS 3H 3H 3H"), [2, 3], voids=[{3}, set()])
    assert worlds == {(tuple(ids("3H 3H")), tuple(sorted(ids("AS AS 3H")))): 3}


@pytest.mark.parametrize("players", [3, 8, 12])
def test_world_weights_add_up_to_every_deal(players):
    """Without voids the weights count every deal of the physical cards: the multinomial."""
    rnd = random.Random(players)
    for _ in range(5):
        unseen = rnd.sample(deck(players), 7)
        sizes = [3, 2, 2]
        worlds = naive_worlds(unseen, sizes)
        assert sum(worlds.values()) == factorial(7) // (factorial(3) * factorial(2) * factorial(2))
        for world in worlds:
            assert Counter(c for h in world for c in h) == Counter(unseen)


# -- properties of random hands ------------------------------------------------------------------


def table_settings():
    for players in range(3, 13):
        for teams in ("solo", "pairs") if players % 2 == 0 else ("solo",):
            yield players, teams


def winner_by_highest_card(trick, rules) -> int:
    """A second statement of the rule: among the spades, else the cards of the led suit, the
    highest rank; of several copies of it the first (or the last) played."""
    cards = [c for _, c in trick]
    spades = [i for i, c in enumerate(cards) if c // 13 == 3]
    pool = spades or [i for i, c in enumerate(cards) if c // 13 == cards[0] // 13]
    top = max(cards[i] % 13 for i in pool)
    copies = [i for i in pool if cards[i] % 13 == top]
    return trick[copies[0] if rules.equal_cards == "first" else copies[-1]][0]


@pytest.mark.parametrize("players, teams", list(table_settings()))
def test_random_hands_properties(players, teams):
    rnd = random.Random(100 * players + (teams == "pairs"))
    n_sides = players // 2 if teams == "pairs" else players
    for k in range(HANDS_PER_TABLE):
        rules = TableRules(
            players=players,
            teams=teams,
            must_win=teams == "solo" and k % 2 == 0,
            equal_cards=("first", "last")[k // 2 % 2],
            failed_bid=(0, 10, 50)[k % 3],
            spade_lead=rnd.choice(["broken", "after_first_trick", "anytime"]),
        )
        hand = naive_table_hand(rules, rnd, dealer=rnd.randrange(players))
        each = cards_each(players)
        assert Counter(c for h in hand["hands"] for c in h) == Counter(deck(players))
        played = [c for t in hand["tricks"] for _, c in t]
        assert Counter(played) == Counter(deck(players)) and len(hand["tricks"]) == each
        turn = 0
        for trick, winner in zip(hand["tricks"], hand["winners"]):
            assert winner == winner_by_highest_card(trick, rules)
            for pos, (seat, card) in enumerate(trick):
                legal = hand["legal"][turn]
                turn += 1
                assert card in legal
                if pos and any(c // 13 == trick[0][1] // 13 for c in legal):
                    assert all(c // 13 == trick[0][1] // 13 for c in legal)  # follow suit
                if pos and rules.must_win:
                    partial = trick[:pos] + [(seat, card)]
                    # a card that could win was played whenever the seat had one
                    could = [c for c in legal if winner_by_highest_card(trick[:pos] + [(seat, c)], rules) == seat]
                    assert not could or len(could) == len(legal)
                    assert not could or winner_by_highest_card(partial, rules) == seat
        bids = [rnd.randint(0, min(each, 6)) for _ in range(players)]
        blind = [b == 0 and rnd.random() < 0.3 for b in bids]
        scores = [rnd.randint(-150, 450) for _ in range(n_sides)]
        bags = [rnd.randrange(rules.bag_limit) for _ in range(n_sides)]
        out = naive_table_score(bids, blind, hand["tricks_won"], scores, bags, rules)
        assert sum(out["side_tricks"]) == each
        for side in range(n_sides):
            s = sheet(out, side)
            assert s["points"] == (
                s["contract_points"] + s["failed_bid_points"] + s["new_bags"] + s["nil_points"]
                - s["penalties"] * rules.bag_penalty
            )
            assert s["scores"] == scores[side] + s["points"]
            assert bags[side] + s["new_bags"] == s["bags"] + s["penalties"] * rules.bag_limit
            assert 0 <= s["bags"] < rules.bag_limit
            assert s["failed_bid_points"] == (-rules.failed_bid if not s["made"] and s["contract"] >= 5 else 0)


# -- the 4-player game: the reference, naive.py and the engine agree -----------------------------


@pytest.mark.parametrize("block", range(4))
def test_four_players_agree_with_naive_and_engine(block):
    """Random 4-player hands under the default rules, through ``Hand`` and both references:
    the legal cards at every turn, every trick's winner, the score sheet and the match end."""
    rnd = random.Random(7000 + block)
    rules = sa.Rules()
    table = TableRules.from_rules(rules)
    assert (table.players, table.teams, decks(4)) == (4, "pairs", 1)
    for _ in range(HANDS_VS_ENGINE // 4):
        hands = naive_table_deal(table, rnd)
        dealer = rnd.randrange(4)
        scores = (rnd.randint(-190, 490), rnd.randint(-190, 490))
        bags = (rnd.randrange(10), rnd.randrange(10))
        hand = sa.Hand(hands, dealer=dealer, rules=rules, scores=scores, bag_count=bags)
        for _ in range(4):
            hand.bid(rnd.choice(hand.legal_bids()[:7]))
        held = [list(h) for h in hands]
        leader = first_leader(hands, dealer, table)
        broken = False
        tricks_won = [0] * 4
        for trick_no in range(13):
            trick: list[tuple[int, int]] = []
            for pos in range(4):
                seat = (leader + pos) % 4
                assert hand.to_act == seat
                so_far = [c for _, c in trick]
                legal = naive_table_legal_cards(held[seat], so_far, broken, trick_no, table)
                assert legal == naive_legal_cards(held[seat], so_far, broken, trick_no, rules)
                assert legal == [int(c) for c in hand.legal_cards()]
                card = rnd.choice(legal)
                hand.play(card)
                held[seat].remove(card)
                trick.append((seat, card))
            leader = naive_table_trick_winner(trick, table)
            assert leader == naive_trick_winner(trick, rules)
            assert [(s, int(c)) for s, c in hand.tricks[-1]] == trick
            tricks_won[leader] += 1
            assert hand.tricks_won == tricks_won
            broken = broken or any(c // 13 == 3 for _, c in trick)
        result = hand.result()
        ours = naive_table_score(hand.bids, hand.blind, tricks_won, scores, bags, table)
        theirs = naive_score(hand.bids, hand.blind, tricks_won, scores, bags, rules)
        for mine, other, engine in [
            ("points", "points", result.points),
            ("scores", "scores", result.scores),
            ("bags", "bags", result.bag_count),
            ("made", "made", result.made),
            ("contract", "contract", result.contract),
            ("new_bags", "new_bags", result.new_bags),
            ("nil_points", "nil_points", result.nil_points),
            ("penalties", "penalties", result.bag_penalties),
            ("counted", None, result.counted_tricks),
            ("side_tricks", None, result.team_tricks),
        ]:
            assert ours[mine] == list(engine), mine
            if other:
                assert ours[mine] == theirs[other], mine
        assert ours["nil"] == theirs["nil"] == list(result.nil_made)
        assert ours["failed_bid_points"] == [0, 0]
        hands_played = rnd.randint(1, 30)
        want = sa.match_winner(result.scores, rules, hands_played=hands_played)
        assert naive_table_match_winner(result.scores, table, hands_played) == want
        assert naive_match_winner(result.scores, rules, hands_played) == want


def test_four_player_scores_agree_under_random_scoring_options():
    """Random score sheets under random scoring options: the reference equals ``score_hand``
    and ``match_winner`` (loss threshold, target and a fixed number of hands included)."""
    rnd = random.Random(77)
    for _ in range(1500):
        options = dict(
            nil_bonus=rnd.choice([50, 100, 200]),
            blind_nil=True,
            blind_nil_bonus=rnd.choice([150, 200, 300]),
            half_blind_penalty=rnd.random() < 0.5,
            nil_tricks_count=rnd.random() < 0.5,
            ten_for_200=rnd.random() < 0.5,
            bag_limit=rnd.choice([1, 2, 5, 10]),
            bag_penalty=rnd.choice([0, 50, 100]),
            target_score=rnd.choice([250, 500]),
            loss_threshold=rnd.choice([-200, -500, None]),
            max_hands=rnd.choice([None, 8]),
        )
        rules = sa.Rules(**options)
        table = TableRules.from_rules(rules)
        cuts = sorted(rnd.randint(0, 13) for _ in range(3))
        tricks = [b - a for a, b in zip([0, *cuts], [*cuts, 13])]
        bids = [rnd.choice([0, 0, 1, 3, 4, 6, 10, 13]) for _ in range(4)]
        blind = [b == 0 and rnd.random() < 0.5 for b in bids]
        scores = [rnd.randint(-300, 600), rnd.randint(-300, 600)]
        bags = [rnd.randrange(rules.bag_limit), rnd.randrange(rules.bag_limit)]
        result = sa.score_hand(bids, tricks, rules, blind=blind, scores=scores, bag_count=bags)
        ours = naive_table_score(bids, blind, tricks, scores, bags, table)
        assert ours["points"] == list(result.points) and ours["bags"] == list(result.bag_count), (options, bids, tricks)
        assert ours["nil"] == list(result.nil_made)
        played = rnd.randint(1, 12)
        assert naive_table_match_winner(result.scores, table, played) == sa.match_winner(result.scores, rules, played)
