"""The engine at every table of part 1 (3 players, 4 solo, 5 players, 4 in pairs) held in lock
step against the slow reference ``naive_tables.py``.

* ``Hand`` beside the reference on random hands: the first leader, the legal cards at every
  turn (must win on and off), every trick's winner, the score sheet per side (failed bid 0, 10
  and 50) and the match end with several sides.
* ``deal`` and ``random_playouts`` card for card against a replica built from the reference's
  deck and legal cards, drawing from the engine's stream (``naive.NaiveStream``).
* Must win refused by name, bids up to ``cards_each`` and the hook at ``cards_each``.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from naive import NaiveStream
from naive_tables import (
    TableRules,
    card_id,
    cards_each,
    deck,
    first_leader,
    naive_table_legal_cards,
    naive_table_match_winner,
    naive_table_score,
    naive_table_trick_winner,
    sides,
)

import spades_ai as sa
from spades_ai.engine.score import N_FIELDS
from spades_ai.errors import IllegalPlayError
from spades_ai.simulate import deal_masks
from spades_ai.testing import check_agent

#: The tables of part 1, with the option that changes the play most.
TABLES = {
    "three": dict(players=3),
    "three must win": dict(players=3, must_win=True),
    "four solo": dict(players=4, teams="solo"),
    "four solo must win": dict(players=4, teams="solo", must_win=True),
    "five": dict(players=5),
    "five must win": dict(players=5, must_win=True),
    "four pairs": dict(players=4),
}
HANDS = 500  # random hands per table in the default run (about 1 s a table; the slow test 5,000)
SLOW_HANDS = 5000


def rule_variants(table: dict, rnd: random.Random, n: int = 8) -> list[sa.Rules]:
    """A few rules of the table under random scoring and lead options (each hand picks one)."""
    out = []
    for _ in range(n):
        out.append(sa.Rules(
            **table,
            failed_bid=rnd.choice([0, 10, 50]),
            spade_lead=rnd.choice(["broken", "after_first_trick", "anytime"]),
            first_lead=rnd.choice(["dealer_left", "low_club"]),
            nil_tricks_count=rnd.random() < 0.3,
            ten_for_200=rnd.random() < 0.3,
            bag_limit=rnd.choice([5, 10]),
            target_score=rnd.choice([250, 500]),
            loss_threshold=rnd.choice([-200, None]),
        ))  # fmt: skip
    return out


def play_in_lock_step(rules: sa.Rules, rnd: random.Random) -> None:
    """One random hand through ``Hand`` and the reference side by side (see the module
    docstring); asserts they agree at every step."""
    table = TableRules.from_rules(rules)
    n, each, k = rules.players, rules.cards_each, rules.n_sides
    assert (table.players, table.teams, len(sides(table)), cards_each(n)) == (n, rules.teams, k, each)
    cards = deck(n)
    rnd.shuffle(cards)
    hands = [sorted(cards[s * each : (s + 1) * each]) for s in range(n)]
    dealer = rnd.randrange(n)
    scores = [rnd.randint(-190, 490) for _ in range(k)]
    bags = [rnd.randrange(rules.bag_limit) for _ in range(k)]
    hand = sa.Hand(hands, dealer=dealer, rules=rules, scores=scores, bag_count=bags)
    for _ in range(n):
        legal = hand.legal_bids()
        assert legal and max(legal) <= each
        hand.bid(rnd.choice(legal[: rnd.choice([3, 6, len(legal)])]))
    leader = first_leader(hands, dealer, table)
    assert hand.to_act == leader
    held = [list(h) for h in hands]
    broken = False
    tricks_won = [0] * n
    for trick_no in range(each):
        trick: list[tuple[int, int]] = []
        for pos in range(n):
            seat = (leader + pos) % n
            assert hand.to_act == seat
            legal = naive_table_legal_cards(held[seat], [c for _, c in trick], broken, trick_no, table)
            assert [int(c) for c in hand.legal_cards()] == legal, (trick_no, trick, held[seat])
            card = rnd.choice(legal)
            hand.play(card)
            held[seat].remove(card)
            trick.append((seat, card))
        leader = naive_table_trick_winner(trick, table)
        assert [(s, int(c)) for s, c in hand.tricks[-1]] == trick
        tricks_won[leader] += 1
        assert hand.tricks_won == tricks_won
        broken = broken or any(c // 13 == 3 for _, c in trick)
    result = hand.result()
    want = naive_table_score(hand.bids, hand.blind, tricks_won, scores, bags, table)
    assert_result_agrees(result, want, rules, table, rnd)


def assert_result_agrees(result, want, rules: sa.Rules, table, rnd: random.Random) -> None:
    """``result`` (a ``HandResult``) field by field against the reference's ``want``
    (``naive_table_score``), and the match winner after a random number of hands."""
    for field, got in [
        ("contract", result.contract),
        ("side_tricks", result.team_tricks),
        ("counted", result.counted_tricks),
        ("made", result.made),
        ("contract_points", tuple(p - f for p, f in zip(result.contract_points, result.failed_bid_points))),
        ("failed_bid_points", result.failed_bid_points),
        ("new_bags", result.new_bags),
        ("nil_points", result.nil_points),
        ("penalties", result.bag_penalties),
        ("points", result.points),
        ("scores", result.scores),
        ("bags", result.bag_count),
    ]:
        assert want[field] == list(got), (field, rules)
    assert want["nil"] == list(result.nil_made)
    hands_played = rnd.randint(1, 30)
    assert sa.match_winner(result.scores, rules, hands_played) == naive_table_match_winner(result.scores, table, hands_played)


@pytest.mark.parametrize("name", TABLES)
def test_hands_agree_with_the_reference(name):
    rnd = random.Random(name)
    variants = rule_variants(TABLES[name], rnd)
    for _ in range(HANDS):
        play_in_lock_step(rnd.choice(variants), rnd)


@pytest.mark.slow
@pytest.mark.parametrize("name", TABLES)
def test_many_hands_agree_with_the_reference(name):
    rnd = random.Random(f"slow {name}")
    variants = rule_variants(TABLES[name], rnd, 24)
    for _ in range(SLOW_HANDS):
        play_in_lock_step(rnd.choice(variants), rnd)


def test_match_end_with_several_sides():
    three = sa.Rules(players=3)
    table = TableRules.from_rules(three)
    rnd = random.Random(3)
    for _ in range(2000):
        scores = [rnd.choice([-250, -200, 0, 300, 480, 500, 520]) for _ in range(3)]
        played = rnd.randint(1, 12)
        assert sa.match_winner(scores, three, played) == naive_table_match_winner(scores, table, played), scores
    assert sa.match_winner((505, 505, 90), three) is None  # a tie for the top plays on
    assert sa.match_winner((100, 150, -200), three) == 1  # the loss threshold ends it; the top wins below the target
    with pytest.raises(ValueError, match="scores must have 3 entries"):
        sa.match_winner((500, 0), three)


# -- deals and random playouts, card for card ------------------------------------------------


def replica_deal(stream: NaiveStream, n: int) -> list[list[int]]:
    """The engine's deal at ``n`` seats: seats 0..n-2 draw ``cards_each`` cards, each the r-th
    lowest card left of the table's deck; the last seat keeps the rest."""
    remaining = sorted(deck(n))
    hands = []
    for _ in range(n - 1):
        hands.append(sorted(remaining.pop(stream.below(len(remaining))) for _ in range(cards_each(n))))
    return hands + [remaining]


def replica_playout(hands, dealer: int, stream: NaiveStream, table) -> list[int]:
    """A random playout as the engine's: the r-th lowest legal card, no draw for a single one."""
    n = table.players
    held = [list(h) for h in hands]
    leader, broken, won = first_leader(hands, dealer, table), False, [0] * n
    for trick_no in range(cards_each(n)):
        trick: list[tuple[int, int]] = []
        for pos in range(n):
            seat = (leader + pos) % n
            legal = naive_table_legal_cards(held[seat], [c for _, c in trick], broken, trick_no, table)
            card = legal[0] if len(legal) == 1 else legal[stream.below(len(legal))]
            held[seat].remove(card)
            trick.append((seat, card))
        leader = naive_table_trick_winner(trick, table)
        broken = broken or any(c // 13 == 3 for _, c in trick)
        won[leader] += 1
    return won


@pytest.mark.parametrize("name", TABLES)
def test_deals_and_random_playouts_match_the_replica(name):
    for k, first_lead in enumerate(["dealer_left", "low_club"]):
        rules = sa.Rules(**TABLES[name], first_lead=first_lead, spade_lead="after_first_trick")
        table = TableRules.from_rules(rules)
        n, seed, dealer = rules.players, 11 + k, k % rules.players
        got = sa.random_playouts(200, seed=seed, rules=rules, dealer=dealer)
        assert got.shape == (200, n)
        for i in range(200):
            stream = NaiveStream(seed, i, 0)
            hands = replica_deal(stream, n)
            if i < 20:
                assert [[int(c) for c in h] for h in sa.deal(seed, i, rules)] == hands
            assert got[i].tolist() == replica_playout(hands, dealer, stream, table), (i, name, first_lead)


def test_deal_masks_take_the_table():
    five = sa.Rules(players=5)
    masks = deal_masks(3, 0, 50, five)
    assert masks.shape == (50, 5)
    for row in masks:
        assert sum(int(m).bit_count() for m in row) == 50
        union = 0
        for m in row:
            assert int(m).bit_count() == 10 and not union & int(m)
            union |= int(m)
        assert union == sum(1 << c for c in deck(5))  # no 2C, no 2D


# -- refusals and bids -------------------------------------------------------------------------


def test_must_win_refuses_a_card_that_could_win_by_name():
    rules = sa.Rules(players=3, must_win=True)
    ids = lambda text: [card_id(t) for t in text.split()]  # noqa: E731
    others = sorted(set(deck(3)) - set(ids("9H KH 2H QH AH 5S 3C")))
    hands = [ids("9H") + others[:16], ids("KH") + others[16:32], ids("2H QH AH 5S 3C") + others[32:]]
    hand = sa.Hand(hands, dealer=2, rules=rules)
    for _ in range(3):
        hand.bid(1)
    hand.play("9H")
    hand.play("KH")
    assert [str(c) for c in hand.legal_cards()] == ["AH"]
    with pytest.raises(IllegalPlayError, match=r"must_win.*KH is winning.*AH") as exc:
        hand.play("QH")
    assert exc.value.reason == "must_win"
    with pytest.raises(IllegalPlayError, match="must follow hearts"):
        hand.play("5S")
    hand.play("AH")
    assert hand.tricks_won == [0, 0, 1]


def test_bids_run_to_cards_each_and_the_hook_counts_them():
    three = sa.Rules(players=3)
    hands = [sa.CardSet(int(m)) for m in deal_masks(5, 0, 1, three)[0]]
    hand = sa.Hand(hands, dealer=0, rules=three)
    assert hand.legal_bids() == list(range(18))
    hooked = sa.Rules(players=3, hook=True)
    hand = sa.Hand(hands, dealer=0, rules=hooked)
    hand.bid(6)
    hand.bid(5)
    assert 6 not in hand.legal_bids() and 5 in hand.legal_bids() and 7 in hand.legal_bids()
    with pytest.raises(sa.IllegalBidError, match="may not make the 3 bids add up to 17"):
        hand.bid(6)


def test_solo_blind_nil_trails_the_best_other_side():
    rules = sa.Rules(players=3, blind_nil=True, blind_nil_min_deficit=100)
    hands = [sa.CardSet(int(m)) for m in deal_masks(5, 0, 1, rules)[0]]
    behind = sa.Hand(hands, dealer=2, rules=rules, scores=(50, 100, 150))
    assert behind.legal_bids(blind=True) == [0]  # seat 0 trails seat 2 by 100
    close = sa.Hand(hands, dealer=2, rules=rules, scores=(60, 100, 150))
    assert close.legal_bids(blind=True) == []
    with pytest.raises(sa.IllegalBidError, match="trail by at least 100 the best other side"):
        close.bid(0, blind=True)


def test_hand_refuses_a_deal_of_another_table():
    with pytest.raises(ValueError, match="a deal has 3 hands, not 4"):
        sa.Hand(sa.deal(1), rules=sa.Rules(players=3))
    five = sa.Rules(players=5)
    hands = [list(h) for h in sa.deal(2, 0, five)]
    hands[0][0] = sa.Card.parse("2C")
    with pytest.raises(ValueError, match="seat 0's hand holds 2C, which a table of 5 removes"):
        sa.Hand(hands, rules=five)
    with pytest.raises(ValueError, match="scores must be 5 ints, one a side"):
        sa.Hand(sa.deal(2, 0, five), rules=five, scores=(0, 0))


# -- self-play and agents at every table --------------------------------------------------------


@pytest.mark.parametrize("name", ["three", "four solo must win", "five must win"])
@pytest.mark.parametrize("agent", ["random", "easy", "normal"])
def test_self_play_at_every_table_replays_through_hand(name, agent):
    """``play_hands`` at the table: per-seat and per-side shapes, every trick played, and each
    record replayed through ``Hand`` (bids, cards in order) to the same score sheet."""
    rules = sa.Rules(**TABLES[name])
    n, k, each = rules.players, rules.n_sides, rules.cards_each
    rec = sa.play_hands([agent] * n, 40, seed=5, rules=rules, dealer=n - 1, keep_plays=True)
    assert rec.bids.shape == rec.blind.shape == rec.tricks_won.shape == rec.nil_made.shape == (40, n)
    assert rec.sheet.shape == (40, k, N_FIELDS) and rec.points.shape == (40, k)
    assert rec.plays.shape == (40, n * each)
    assert (rec.tricks_won.sum(axis=1) == each).all()
    assert (rec.bids >= 0).all() and (rec.bids <= each).all()
    for i in range(0, 40, 4):
        hand = sa.Hand(sa.deal(5, i, rules), dealer=n - 1, rules=rules)
        for s in range(n):  # the dealer is the last seat: seat 0 bids first
            hand.bid(int(rec.bids[i, s]), blind=bool(rec.blind[i, s]))
        for c in rec.plays[i]:
            hand.play(int(c))
        assert list(hand.result().points) == rec.points[i].tolist()
        assert hand.tricks_won == rec.tricks_won[i].tolist()


def test_matches_at_three_players_carry_the_scores_to_one_winner():
    rules = sa.Rules(players=3, failed_bid=50)
    rec = sa.play_matches(["normal", "easy", "random"], 3, seed=2, rules=rules)
    assert rec.scores.shape[1] == 3
    for m in range(3):
        rows = np.flatnonzero(rec.match_no == m)
        scores = np.zeros(3, dtype=np.int64)
        for r in rows:
            scores = scores + rec.points[r]
            assert rec.scores[r].tolist() == scores.tolist()
        last = rows[-1]
        assert rec.winner[last] == sa.match_winner(rec.scores[last].tolist(), rules, int(rec.hand_no[last]) + 1)
        assert rec.winner[last] >= 0 and (rec.winner[rows[:-1]] == -1).all()
    assert set(rec.dealer[rec.hand_no == 0].tolist()) <= {0, 1, 2}


def test_lineups_take_the_table():
    with pytest.raises(ValueError, match="a lineup has 3 seats at this table, not 4"):
        sa.play_hands(["normal"] * 4, 1, rules=sa.Rules(players=3))
    with pytest.raises(ValueError, match="dealer must be a seat 0..4"):
        sa.play_hands(["random"] * 5, 1, rules=sa.Rules(players=5), dealer=5)


@pytest.mark.parametrize("name", ["learned"])
def test_learned_agent_refuses_other_tables_by_name(name):
    agent = sa.make_agent(name)
    with pytest.raises(sa.TableError, match=rf"agent '{name}' plays 4 players in pairs, 3 players, 4 solo, 5 players and 6 in pairs, not 7 players solo: .* \(docs/learning.md#at-every-table-the-learned-agent\)"):
        sa.play_hands([agent] + ["normal"] * 6, 1, rules=sa.Rules(players=7))
    hand = sa.Hand(sa.deal(1, 0, sa.Rules(players=6)), rules=sa.Rules(players=6))
    with pytest.raises(sa.TableError, match=rf"agent '{name}' plays 4 players in pairs, 3 players, 4 solo, 5 players and 6 in pairs, not 6 players solo"):
        agent.bid(hand.observation())


@pytest.mark.parametrize("name", ["three", "five"])
def test_check_agent_at_every_table(name):
    rules = sa.Rules(**TABLES[name])
    report = check_agent(sa.make_agent("normal"), hands=2 * rules.players, rules=rules, opponents="easy")
    assert report.startswith(f"normal: {2 * rules.players} hands")


def test_pbn_refuses_other_tables_by_name():
    five = sa.Rules(players=5)
    with pytest.raises(ValueError, match="PBN records play 4 players in pairs, not 5 players solo"):
        sa.Hand(sa.deal(1, 0, five), rules=five).to_pbn()


def test_observation_and_result_at_three_players():
    three = sa.Rules(players=3, failed_bid=10)
    hand = sa.Hand(sa.deal(4, 0, three), dealer=1, rules=three, scores=(10, 20, 30), bag_count=(1, 2, 3))
    obs = hand.observation()
    assert (obs.seat, obs.scores, obs.bag_count, obs.bids) == (2, (10, 20, 30), (1, 2, 3), [None] * 3)
    assert obs.received == sa.CardSet() and obs.partner_holds == sa.CardSet()  # solo: no partner
    for b in (6, 5, 4):
        hand.bid(b)
    while hand.phase == "playing":
        hand.play(hand.legal_cards()[0])
    result = hand.result()
    assert len(result.points) == len(result.failed_bid_points) == 3 and len(result.nil_made) == 3
    assert sum(result.team_tricks) == 17 and len(hand.tricks) == 17 and all(len(t) == 3 for t in hand.tricks)
    assert "seat 0" in str(result) and "seat 2" in str(result)
    for side in range(3):
        set_big = not result.made[side] and result.contract[side] >= 5
        assert result.failed_bid_points[side] == (-10 if set_big else 0)


def test_a_python_agent_plays_at_five_players():
    """A Python agent in the loop's questions: it sees the table's seats, and its cards stand."""

    class Lowest:
        name = "lowest"
        seen: set = set()

        def bid(self, obs):
            self.seen.add((len(obs.bids), len(obs.tricks_won), len(obs.scores)))
            return 1

        def play(self, obs):
            return obs.legal_cards()[0]

    rules = sa.Rules(players=5, must_win=True)
    rec = sa.play_hands([Lowest(), "normal", "easy", "random", "normal"], 30, seed=3, rules=rules, keep_plays=True)
    assert Lowest.seen == {(5, 5, 5)}
    assert (rec.bids[:, 0] == 1).all() and (rec.tricks_won.sum(axis=1) == 10).all()
    hand = sa.Hand(sa.deal(3, 7, rules), rules=rules)
    for s in range(5):
        hand.bid(int(rec.bids[7, (1 + s) % 5]), blind=bool(rec.blind[7, (1 + s) % 5]))
    for c in rec.plays[7]:
        hand.play(int(c))
    assert list(hand.result().points) == rec.points[7].tolist()


def test_normal_maps_its_trick_count_onto_the_four_player_line():
    """Normal's estimate is its own at four players and moves along TABLE_TRICKS elsewhere; the
    constants are what experiments/table_calibration.py fits (its lines, at a tiny size)."""
    import subprocess
    import sys
    from pathlib import Path

    from spades_ai.policies.normal import TABLE_TRICKS, table_estimate

    assert table_estimate(2.5, 4) == 2.5
    a3, b3 = TABLE_TRICKS[3]
    assert table_estimate(2.5, 3) == pytest.approx((a3 + b3 * 2.5 - TABLE_TRICKS[4, 0]) / TABLE_TRICKS[4, 1])
    assert table_estimate(3.0, 3) > 3.0 and table_estimate(3.0, 5) < 3.0  # 17 cards among 3 win more, 10 among 5 fewer
    script = Path(__file__).resolve().parent.parent / "experiments" / "table_calibration.py"
    out = subprocess.run([sys.executable, str(script), "--hands", "40"], capture_output=True, text=True, check=True).stdout
    assert [line.split(":")[0].strip() for line in out.splitlines()] == [f"{a} {p}" for a in ("easy", "normal") for p in (3, 4, 5)]


def test_easy_moves_its_count_by_the_tricks_it_takes_at_the_table():
    """Easy's count is its own at four players; elsewhere it moves by the tricks the count takes
    there beyond four players (EASY_TABLE_TRICKS), so its bids keep their four-player margin:
    at 3 players the same count bids more, at 5 fewer."""
    from spades_ai.policies.easy import EASY_TABLE_TRICKS, easy_bid, easy_count, table_count

    t = EASY_TABLE_TRICKS
    for count in range(9):
        assert table_count(count, 4) == count
        assert table_count(count, 3) == pytest.approx(count + t[3, 0] + t[3, 1] * count - t[4, 0] - t[4, 1] * count)
        assert table_count(count, 3) > count > table_count(count, 5) or count == 0 and table_count(0, 5) < 0
    hand = np.uint64(sum(1 << b for b in (12, 25, 38, 51, 50, 49, 48, 47, 46)))  # four aces, AKQJT9 of spades
    all_bids = np.int64((1 << 18) - 1)
    assert easy_count(hand) == 4 + 1 + 3  # four aces, the king of spades, 6 spades: 3 beyond three
    assert easy_bid(hand, all_bids, 4) == 8
    assert easy_bid(hand, all_bids, 3) == np.floor(table_count(8, 3) + 0.5) > 8
    assert easy_bid(hand, all_bids, 5) == np.floor(table_count(8, 5) + 0.5) < 8
