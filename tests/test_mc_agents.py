"""Hard and Crazy (issue 4, deliverables 3-5): equal-card classes, conformance under several
rule sets, reproducible decisions keyed by the observation only (no peeking at hidden cards),
the utility of a finished hand, rollouts, the bid-aware fallback counter, and strength.

Budgets are kept small (8-32 worlds) so the default run stays fast; the strength study against
Normal is marked slow (``pytest -m slow``).
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from spades_ai import Hand, Rules, make_agent, play_hands, play_matches
from spades_ai.montecarlo import candidates, rollouts, sampling, search
from spades_ai.kernels import decision_stream
from spades_ai.montecarlo.candidates import distinct_cards
from spades_ai.montecarlo.rollouts import rollout
from spades_ai.montecarlo.utility import MATCH_BONUS, utility
from spades_ai.cards import cards_to_mask, parse_cards
from spades_ai.engine import state as st
from spades_ai.engine.score import F_PENALTIES, N_FIELDS
from spades_ai.errors import IllegalBidError, IllegalPlayError
from spades_ai.simulate import deal_masks
from spades_ai.testing import check_agent

FULL = (1 << 52) - 1
U64 = np.uint64


def mask(text: str) -> int:
    return cards_to_mask(parse_cards(text))


def bits(m: int) -> list[int]:
    return [c for c in range(52) if m >> c & 1]


def normal_positions(seed: int, n_hands: int, rules_cycle=None):
    """Every observation of ``n_hands`` deals played by Normal at all seats: ``(hand, obs)``."""
    normal = make_agent("normal")
    rules_cycle = rules_cycle or [Rules()]
    masks = deal_masks(seed, 0, n_hands)
    for i in range(n_hands):
        hand = Hand(masks[i].tolist(), dealer=i % 4, rules=rules_cycle[i % len(rules_cycle)])
        while hand.phase != "over":
            obs = hand.observation()
            yield hand, obs
            if hand.phase == "bidding":
                hand.bid(normal.bid(obs))
            else:
                hand.play(normal.play(obs))


def decide(agent, obs):
    return agent.bid(obs) if obs.phase == "bidding" else agent.play(obs)


def n_choices(obs) -> int:
    """Distinct choices the agent really weighs: legal bids, or classes of equal cards."""
    if obs.phase == "bidding":
        return len(obs.legal_bids())
    legal = sum(1 << c for c in obs.legal_cards())
    return int(candidates.play_candidates(obs.public, U64(obs.cards), U64(legal))).bit_count()


# -- equal cards ------------------------------------------------------------------------------
def distinct_reference(legal: int, hand: int, played: int) -> int:
    """The lowest legal card of each class: two cards are equivalent when they share a suit and
    every rank between them is in the hand or already played."""
    gone = hand | played

    def equivalent(lo, hi):
        return lo // 13 == hi // 13 and all(gone >> x & 1 for x in range(lo + 1, hi))

    cards = bits(legal)
    return sum(1 << c for c in cards if not any(equivalent(lo, c) for lo in cards if lo < c))


@pytest.mark.nojit
@pytest.mark.parametrize(
    "legal, hand, played, kept",
    [
        ("AS KS QS", "AS KS QS 2H", "", "QS"),  # a run of honours: one class
        ("AS QS", "AS QS 2H", "KS", "QS"),  # the king is gone: ace and queen are equal
        ("AS QS", "AS QS 2H", "", "QS AS"),  # the king is out: two classes
        ("2C 4C 7C", "2C 4C 7C", "3C 5C", "2C 7C"),  # 6C is out
        ("AC 2D", "AC 2D", "", "AC 2D"),  # adjacent bits, different suits: never merged
        ("2H", "2H 3H 4H", "", "2H"),
        ("3H 5H", "2H 3H 4H 5H", "", "3H"),  # a card held but not legal still counts as gone
    ],
)
def test_distinct_cards_hand_picked(legal, hand, played, kept):
    got = int(distinct_cards(U64(mask(legal)), U64(mask(hand)), U64(mask(played) if played else 0)))
    assert got == mask(kept) == distinct_reference(mask(legal), mask(hand), mask(played) if played else 0)


@pytest.mark.nojit
def test_distinct_cards_matches_the_reference_on_random_hands():
    rng = random.Random(5)
    merged = 0
    for _ in range(4000):
        deck = list(range(52))
        rng.shuffle(deck)
        n_hand = rng.randint(1, 13)
        hand = sum(1 << c for c in deck[:n_hand])
        played = sum(1 << c for c in deck[n_hand : n_hand + rng.randint(0, 52 - n_hand)])
        kind = rng.randrange(3)
        if kind == 0:
            legal = hand
        elif kind == 1:
            s = rng.choice(sorted({c // 13 for c in bits(hand)}))
            legal = hand & (0x1FFF << 13 * s)
        else:
            legal = sum(1 << c for c in bits(hand) if rng.random() < 0.6) or hand
        got = int(distinct_cards(U64(legal), U64(hand), U64(played)))
        assert got == distinct_reference(legal, hand, played), (hex(legal), hex(hand), hex(played))
        assert got & ~legal == 0 and got != 0
        merged += got != legal
    assert merged > 1000  # the classes really merge cards in many cases


# -- the candidates of a play: a card of the current trick separates ------------------------------
# Trick 12 of a hand with spades led freely: seat 0 wins the first eleven tricks with its top
# cards, then leads 10H; seat 3, last to play, holds JH 9H. The jack wins the trick, the nine
# loses it, and the 2S (seat 1) takes the last trick either way, so the jack makes team 1's
# contract of 2 where the nine sets it.
SPLIT_DEAL = [
    "AC KC QC AD KD QD AH KH AS KS QS 10H 2C",
    "3C 6C 9C 3D 6D 9D 4H 7H 3S 6S 9S 2H 2S",
    "4C 7C 10C 4D 7D 10D 5H 8H 4S 7S 10S 3H 2D",
    "5C 8C JC 5D 8D JD 6H QH 5S 8S JS JH 9H",
]
SPLIT_TRICKS = [
    "AC 3C 4C 5C", "KC 6C 7C 8C", "QC 9C 10C JC", "AD 3D 4D 5D", "KD 6D 7D 8D", "QD 9D 10D JD",
    "AH 4H 5H 6H", "KH 7H 8H QH", "AS 3S 4S 5S", "KS 6S 7S 8S", "QS 9S 10S JS", "10H 2H 3H",
]


def split_position() -> Hand:
    hand = Hand(SPLIT_DEAL, dealer=3, rules=Rules(spade_lead="anytime"))
    for b in (5, 1, 5, 1):
        hand.bid(b)
    for trick in SPLIT_TRICKS:
        for card in trick.split():
            hand.play(card)
    return hand


def beats(card: int, win: int) -> bool:
    if card // 13 == 3:
        return win // 13 != 3 or card > win
    return card // 13 == win // 13 and card > win


def test_a_card_of_the_current_trick_keeps_the_cards_around_it_apart():
    obs = split_position().observation()
    assert obs.seat == 3 and sorted(map(str, obs.legal_cards())) == ["9H", "JH"]
    legal, cards = U64(mask("9H JH")), U64(int(obs.cards))
    assert int(candidates.play_candidates(obs.public, cards, legal)) == mask("9H JH")
    # Counting the 10H on the trick as gone merges the jack into the nine, which loses the trick.
    assert int(distinct_cards(legal, cards, U64(int(obs.public[st.P_PLAYED])))) == mask("9H")
    for name in ("hard", "crazy"):
        assert str(make_agent(name, worlds=16, seed=1).play(obs)) == "JH"


def test_candidates_keep_every_effect_on_the_current_trick():
    """Every legal card left out of the candidates has a stand-in (the candidate just below it
    in its suit) that wins or loses the current trick as it does. Counting the trick's cards as
    gone breaks this in many positions of Normal's play."""
    checked = old_wrong = 0
    for _, obs in normal_positions(seed=7, n_hands=60):
        if obs.phase != "playing" or obs.public[st.P_TRICK_LEN] == 0:
            continue
        legal = sum(1 << c for c in obs.legal_cards())
        win = int(obs.public[st.P_WIN_CARD])
        cards = U64(int(obs.cards))
        new = int(candidates.play_candidates(obs.public, cards, U64(legal)))
        old = int(distinct_cards(U64(legal), cards, U64(int(obs.public[st.P_PLAYED]))))
        for cands, is_new in ((new, True), (old, False)):
            for c in bits(legal & ~cands):
                stand_in = max(x for x in bits(cands) if x < c and x // 13 == c // 13)
                if beats(c, win) != beats(stand_in, win):
                    assert not is_new, (obs, c, stand_in)
                    old_wrong += 1
        checked += 1
    assert checked > 1000 and old_wrong > 0


# -- conformance ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "name, worlds, rules, hands",
    [
        ("hard", 8, Rules(), 24),
        ("crazy", 16, Rules(), 24),
        ("hard", 8, Rules.preset("suicide"), 12),
        ("crazy", 16, Rules.preset("whiz"), 12),
        ("hard", 16, Rules.preset("mirror"), 8),
        ("hard", 8, Rules(spade_lead="anytime", first_lead="low_club", nil_tricks_count=True, min_team_bid=4), 12),
        ("crazy", 8, Rules(bag_limit=5, bag_penalty=50, target_score=250, nil_bonus=50), 12),
        ("hard", 8, Rules(jokers=2, deuces_high=2, closed_bidding=True), 12),
        ("crazy", 8, Rules.preset("mirror", jokers=1, deuces_high=1, hook=False), 8),
        ("hard", 8, Rules(hook=True, deuces_high=4), 8),
    ],
)
def test_hard_and_crazy_pass_check_agent(name, worlds, rules, hands):
    agent = make_agent(name, worlds=worlds, seed=3)
    report = check_agent(agent, hands=hands, seed=17, rules=rules)
    decisions = int(report.split()[3])
    assert report.endswith("all legal and reproducible") and decisions >= 20 * hands
    assert agent.stats["decisions"] == 2 * decisions  # every decision was asked twice
    if not agent.options["bid_aware"]:
        assert agent.stats["uniform_fallbacks"] == 0


def test_make_agent_worlds_rollouts_and_bid_aware_options():
    hard, crazy = make_agent("hard"), make_agent("crazy")
    assert hard.options == {
        "seed": 0, "worlds": hard.options["worlds"], "rollouts": hard.options["rollouts"], "bid_aware": False, "rollout": None,
        "solver_tricks": hard.options["solver_tricks"],
        "blind_nil": True, "racing": True, "thrift": True, "read_play": False, "play_noise": hard.options["play_noise"],
        "play_model": None, "utility": hard.options["utility"], "bidder": hard.options["bidder"],
    }
    assert crazy.options["bid_aware"] == "one_deck"  # weighed by the bids with one deck only (measured)
    # Crazy solves the last 3 tricks of every world exactly (registry.CRAZY_SOLVER_TRICKS, measured)
    assert crazy.options["solver_tricks"] == 3 == crazy.params[search.MC_SOLVER_TRICKS] and hard.options["solver_tricks"] == 0
    assert crazy.options["worlds"] > hard.options["worlds"] >= 16  # Crazy imagines far more
    a = make_agent("hard", worlds=8, bid_aware=True, seed=9)
    assert a.params[search.MC_WORLDS] == 8 and a.params[search.MC_BID_AWARE] == 1 and a.params[search.MC_SEED] == 9
    assert a.label == "hard(seed=9, worlds=8, bid_aware=True)"
    assert make_agent("crazy", worlds=np.int64(12)).options["worlds"] == 12
    for w in (1, 100_000):
        assert make_agent("hard", worlds=w).options["worlds"] == w
    for bad in (0, -1, 100_001, 1.5, "8", True, None):
        with pytest.raises(ValueError, match="option 'worlds'"):
            make_agent("hard", worlds=bad)
    assert make_agent("hard", bid_aware="one_deck").params[search.MC_BID_AWARE] == search.BIDS_ONE_DECK
    for bad in (1, 0, "yes", None, np.True_):
        with pytest.raises(ValueError, match="option 'bid_aware'"):
            make_agent("crazy", bid_aware=bad)
    r = make_agent("hard", rollouts=64)
    assert r.params[search.MC_ROLLOUTS] == 64 and r.label == "hard(rollouts=64)"
    for bad in (-1, 10_000_001, 2.0, True):
        with pytest.raises(ValueError, match="option 'rollouts'"):
            make_agent("hard", rollouts=bad)
    with pytest.raises(ValueError, match="has no option 'careless'.*worlds"):
        make_agent("hard", careless=0.1)
    with pytest.raises(ValueError, match="option 'seed'"):
        make_agent("crazy", seed=-1)


# -- reproducibility and seeds ----------------------------------------------------------------
def test_decisions_are_reproducible_and_change_with_the_seed():
    positions = [obs for _, obs in normal_positions(seed=77, n_hands=6) if n_choices(obs) > 1]
    assert len(positions) >= 150
    a = make_agent("hard", worlds=16, seed=5)
    first = [decide(a, o) for o in positions]
    again = [decide(make_agent("hard", worlds=16, seed=5), o) for o in reversed(positions)][::-1]
    assert first == again  # a fresh agent, the other order: the same decisions
    crazy = make_agent("crazy", worlds=16, seed=5)
    c1 = [decide(crazy, o) for o in positions[::3]]
    assert c1 == [decide(make_agent("crazy", worlds=16, seed=5), o) for o in positions[::3]]
    others = [[decide(make_agent("hard", worlds=16, seed=s), o) for o in positions] for s in range(1, 6)]
    changed = sum(len({first[i], *(row[i] for row in others)}) > 1 for i in range(len(positions)))
    # measured: a quarter of these positions get a different decision from one of six seeds
    # (Hard keeps Normal's choice unless another is clearly better, which damps the seed)
    assert changed >= 0.1 * len(positions)


@pytest.mark.nojit
def test_decision_stream_is_keyed_by_seed_and_observation():
    _, obs = next((h, o) for h, o in normal_positions(seed=3, n_hands=1) if o.phase == "playing")
    hand = U64(obs.cards)
    s = [decision_stream(seed, obs.public, obs.seat, hand) for seed in (0, 0, 1)]
    assert s[0] == s[1] != s[2]
    other = obs.public.copy()
    other[st.P_PLAYED] ^= 1 << 51
    assert decision_stream(0, other, obs.seat, hand) != s[0]


# -- no peeking -------------------------------------------------------------------------------
def redeal(rng: random.Random, hand: Hand, obs) -> Hand | None:
    """The same bids and cards on another deal that fits ``obs``: the cards ``obs.seat`` cannot
    see dealt again at random (each seat keeps its count and its voids). None if no such deal
    replays (e.g. a spade led before spades were broken tells more than the voids)."""
    seat = obs.seat
    played_by = [sum(1 << c for c in cards) for cards in obs.played_by]
    unseen = [c for c in range(52) if not (obs.cards | int(obs.public[st.P_PLAYED])) >> c & 1]
    others = [o for o in range(4) if o != seat]
    need = [len(hand.cards(o)) for o in others]
    for _ in range(5000):
        rng.shuffle(unseen)
        deal = [0] * 4
        deal[seat] = hand.deal[seat]
        at = 0
        for o, n in zip(others, need):
            deal[o] = played_by[o] | sum(1 << c for c in unseen[at : at + n])
            at += n
        if any(deal[o] & (0x1FFF << 13 * s) & ~played_by[o] for o in others for s in obs.voids[o]):
            continue
        if tuple(deal) == hand.deal:
            continue
        record = hand.to_record()
        record["deal"] = deal
        try:
            return Hand.from_record(record)
        except (IllegalBidError, IllegalPlayError):
            continue
    return None


def test_no_peeking_hard_and_crazy_decide_the_same_on_any_deal_that_fits_the_observation():
    rng = random.Random(99)
    hard = make_agent("hard", worlds=16, seed=11)
    crazy = make_agent("crazy", worlds=16, seed=11)
    checked = 0
    # with the lowest club leading, the public state must not tell who holds it before the play
    rules_cycle = (Rules(), Rules(first_lead="low_club"))
    for hand, obs in normal_positions(seed=99, n_hands=8, rules_cycle=rules_cycle):
        if n_choices(obs) < 2 or rng.random() > 0.25:
            continue
        want = decide(hard, obs), decide(crazy, obs)
        for _ in range(2):
            other = redeal(rng, hand, obs)
            if other is None:
                continue
            obs2 = other.observation()
            assert obs2.seat == obs.seat and obs2.cards == obs.cards
            assert np.array_equal(obs2.public, obs.public)
            assert other.deal != hand.deal
            assert (decide(hard, obs2), decide(crazy, obs2)) == want
            checked += 1
    assert checked >= 60


# -- utility ----------------------------------------------------------------------------------
def finished(bids, tricks, scores=(0, 0), bag_count=(0, 0), hands_played=0, blind=(0, 0, 0, 0)):
    """The public array of a finished hand."""
    assert sum(tricks) == 13
    pub = np.zeros(st.N_PUBLIC, dtype=np.int64)
    pub[st.P_BIDS : st.P_BIDS + 4] = bids
    pub[st.P_BLIND : st.P_BLIND + 4] = blind
    pub[st.P_N_BIDS] = 4
    pub[st.P_PLAYED] = FULL
    pub[st.P_WON : st.P_WON + 4] = tricks
    pub[st.P_SCORES : st.P_SCORES + 2] = scores
    pub[st.P_BAGS : st.P_BAGS + 2] = bag_count
    pub[st.P_HANDS_PLAYED] = hands_played
    pub[st.P_TRICK_NO] = 13
    pub[st.P_TO_ACT] = -1
    pub[st.P_PHASE] = st.PHASE_OVER
    return pub


def value(pub, team, rules=None, sheet=None):
    rules = Rules() if rules is None else rules
    sheet = np.zeros((2, N_FIELDS), dtype=np.int64) if sheet is None else sheet
    return utility(pub, rules.as_array(), team, sheet, np.zeros(4, dtype=np.int64))


# Seats 0 and 2 are team 0, seats 1 and 3 team 1.
MADE = {"bids": (4, 3, 3, 2), "tricks": (5, 3, 3, 2)}  # team 0: 7 bid, 8 taken; team 1: 5 and 5


@pytest.mark.nojit
def test_utility_made_contract_and_a_set():
    # team 0: 70 + 1 overtrick = 71, minus one bag at 100/10 = 61; team 1: 50
    assert value(finished(**MADE), 0) == pytest.approx(11.0)
    assert value(finished(**MADE), 1) == pytest.approx(-11.0)
    # team 0 takes 6 of 7: set, -70; team 1 takes 7 of 5: 52, minus 2 bags = 32
    assert value(finished((4, 3, 3, 2), (3, 4, 3, 3)), 0) == pytest.approx(-102.0)


@pytest.mark.nojit
def test_utility_bag_cost_is_penalty_over_limit():
    # one overtrick for team 0 (71 points): a bag costs 100/5 = 20, then 50/10 = 5
    assert value(finished(**MADE), 0, Rules(bag_limit=5)) == pytest.approx(71 - 20 - 50)
    assert value(finished(**MADE), 0, Rules(bag_penalty=50)) == pytest.approx(71 - 5 - 50)
    # three overtricks (63 points) against team 1's 40
    assert value(finished((3, 2, 3, 2), (5, 2, 4, 2)), 0) == pytest.approx(63 - 30 - 40)


@pytest.mark.nojit
def test_utility_counts_a_penalty_crossing():
    """Team 0 sits on 8 bags and takes 3 more: 60 + 3 - 100 = -37 points and 1 bag left. The
    penalty is counted, and so are the 7 old bags it clears (they were already charged 10 each):
    -37 + 70 = 33, the same as 3 bags at 10 without a crossing."""
    hand = {"bids": (3, 2, 3, 2), "tricks": (5, 2, 4, 2)}
    sheet = np.zeros((2, N_FIELDS), dtype=np.int64)
    crossing = value(finished(**hand, bag_count=(8, 0)), 0, sheet=sheet)
    assert sheet[0, F_PENALTIES] == 1
    assert crossing == pytest.approx(33 - 40)
    assert crossing == pytest.approx(value(finished(**hand, bag_count=(0, 0)), 0))
    # near the target bags are charged half: the same crossing then costs more than 3 bags
    near = value(finished(**hand, scores=(400, 0), bag_count=(8, 0)), 0)
    assert near == pytest.approx(-37 - 5 * (1 - 8) - 40)
    assert near < value(finished(**hand, scores=(400, 0)), 0) == pytest.approx(63 - 15 - 40)


@pytest.mark.nojit
def test_utility_match_ending_bonus_has_the_winners_sign():
    # team 0 goes 450 -> 521 and wins: 71 - 5 (half bag cost near the end) - 50 + bonus
    won = finished(**MADE, scores=(450, 100))
    assert value(won, 0) == pytest.approx(16 + MATCH_BONUS)
    assert value(won, 1) == pytest.approx(-16 - MATCH_BONUS)
    # team 1 goes 480 -> 530 and wins although team 0 scored more this hand
    lost = finished(**MADE, scores=(100, 480))
    assert value(lost, 0) == pytest.approx(11 - MATCH_BONUS)
    assert value(lost, 1) == pytest.approx(-11 + MATCH_BONUS)
    # team 1 is set to -200 (loss threshold): team 0 (72 points, 2 bags) wins
    thresh = finished((4, 3, 3, 2), (5, 2, 4, 2), scores=(0, -150))
    assert value(thresh, 0) == pytest.approx(72 - 20 + 50 + MATCH_BONUS)
    # both on 510: a tie plays on, no bonus
    tie = finished((3, 3, 4, 3), (3, 3, 4, 3), scores=(440, 450))
    assert value(tie, 0) == pytest.approx(10.0)
    # a fixed number of hands: the last one ends the match
    assert value(finished(**MADE, hands_played=2), 0, Rules(max_hands=3)) == pytest.approx(11 + MATCH_BONUS)
    assert value(finished(**MADE, hands_played=1), 0, Rules(max_hands=3)) == pytest.approx(11.0)


@pytest.mark.nojit
def test_utility_nil_made_and_failed():
    # seat 0's nil made (+100), seat 2 takes 5 of 4 (41, one bag); team 1 takes 8 of 5 (53 - 30)
    assert value(finished((0, 3, 4, 2), (0, 4, 5, 4)), 0) == pytest.approx(141 - 10 - 23)
    # the nil takes a trick: -100, and the trick is a bag (1 point, 10 cost)
    assert value(finished((0, 3, 4, 2), (1, 4, 4, 4)), 0) == pytest.approx(40 + 1 - 100 - 10 - 23)


# -- rollouts and play --------------------------------------------------------------------------
@pytest.mark.nojit
def test_rollout_from_the_deal_plays_normal_at_every_seat():
    rules = Rules()
    masks = deal_masks(41, 0, 20)
    rec = play_hands(["normal", "normal"], 20, seed=41)
    for i in range(20):
        hand = Hand(masks[i].tolist(), dealer=0)
        pub, hands = np.array(hand.observation().public), masks[i].copy()
        rollout(pub, hands, rules.as_array())
        assert pub[st.P_PHASE] == st.PHASE_OVER and (hands == 0).all()
        assert list(pub[st.P_BIDS : st.P_BIDS + 4]) == list(rec.bids[i])
        assert list(pub[st.P_WON : st.P_WON + 4]) == list(rec.tricks_won[i])


@pytest.mark.nojit
def test_rollouts_reach_the_end_from_any_point():
    rng = random.Random(42)
    rules = Rules()
    done = 0
    for hand, obs in normal_positions(seed=42, n_hands=6):
        if rng.random() > 0.3:
            continue
        pub = np.array(obs.public)
        hands = np.array([sum(1 << c for c in hand.cards(s)) for s in range(4)], dtype=np.uint64)
        rollout(pub, hands, rules.as_array())
        assert pub[st.P_PHASE] == st.PHASE_OVER and pub[st.P_TO_ACT] == -1
        assert pub[st.P_WON : st.P_WON + 4].sum() == 13 and pub[st.P_TRICK_NO] == 13
        assert pub[st.P_PLAYED] == FULL and (hands == 0).all()
        assert (pub[st.P_BIDS : st.P_BIDS + 4] >= 0).all()
        # the cards already played stay with the seats that played them
        for s in range(4):
            assert int(obs.public[st.P_PLAYED_BY + s]) & ~int(pub[st.P_PLAYED_BY + s]) == 0
        done += 1
    assert done >= 50


def test_hard_plays_hands_through_play_hands():
    hard = make_agent("hard", worlds=16, seed=1)
    rec = play_hands([hard, "normal"], 10, seed=3)
    assert len(rec) == 10 and (rec.tricks_won.sum(axis=1) == 13).all()
    assert ((rec.bids >= 0) & (rec.bids <= 13)).all()
    assert rec == (play_hands([make_agent("hard", worlds=16, seed=1), "normal"], 10, seed=3))
    # the Python loop (Hand + observations) gives the very same hands as the numba loop
    rec_py = play_hands([hard, "normal", hard, _PythonNormal()], 4, seed=3)
    assert np.array_equal(rec_py.tricks_won, rec.tricks_won[:4]) and np.array_equal(rec_py.bids, rec.bids[:4])


class _PythonNormal:
    """Normal behind a plain Python object, which sends ``play_hands`` down its Python loop."""

    name = "python-normal"

    def __init__(self):
        self._a = make_agent("normal")

    def bid(self, obs):
        return self._a.bid(obs)

    def play(self, obs):
        return self._a.play(obs)


# -- bid-aware fallback counter -----------------------------------------------------------------
def _after_bids(bids, seed=8):
    """Seat 0 to lead (dealer 3) after the bids (seats 0..3) are made."""
    hand = Hand(deal_masks(seed, 0, 1)[0].tolist(), dealer=3)
    for b in bids:
        hand.bid(b)
    return hand.observation()


def test_crazy_counts_fallbacks_and_hard_never_falls_back():
    absurd = _after_bids((3, 13, 13, 13))
    assert n_choices(absurd) > 1
    crazy = make_agent("crazy", worlds=64)
    crazy.play(absurd)
    assert crazy.stats == {"decisions": 1, "uniform_fallbacks": 1}
    for agent in (make_agent("hard", worlds=64), make_agent("crazy", worlds=64, bid_aware=False)):
        agent.play(absurd)
        assert agent.stats == {"decisions": 1, "uniform_fallbacks": 0}
    # on Normal's own bids most decisions keep their weights
    crazy = make_agent("crazy", worlds=64)
    for _, obs in normal_positions(seed=8, n_hands=4):
        if obs.phase == "playing":
            crazy.play(obs)
    assert crazy.stats["decisions"] > 150
    assert crazy.stats["uniform_fallbacks"] < 0.5 * crazy.stats["decisions"]


# -- strength (slow) --------------------------------------------------------------------------
@pytest.mark.slow
def test_hard_beats_normal_on_duplicate_deals():
    """Hard (default budget) against Normal, each deal played twice with the seats swapped;
    the mean per-deal point difference must be above zero with 95% confidence."""
    n = 600
    hard, normal = make_agent("hard"), make_agent("normal")
    a = play_hands([hard, normal], n, seed=2024)
    b = play_hands([normal, hard], n, seed=2024)
    diff = (a.points[:, 0] - a.points[:, 1] + b.points[:, 1] - b.points[:, 0]) / 2
    half = 1.96 * diff.std(ddof=1) / np.sqrt(n)
    assert diff.mean() - half > 0, f"{diff.mean():+.1f} +- {half:.1f} points per deal"


@pytest.mark.nojit
def test_rollouts_cap_the_worlds_of_a_decision():
    from spades_ai.montecarlo.selection import worlds_for

    assert worlds_for(512, 0, 7) == 512  # no cap
    assert worlds_for(512, 1000, 4) == 250  # 250 worlds x 4 candidates
    assert worlds_for(100, 1000, 4) == 100  # the cap never adds worlds
    assert worlds_for(512, 3, 7) == 1  # at least one world


# -- exact finishes (solver_tricks) -------------------------------------------------------------
def naive_finish(pub, hands, rules, team) -> float:
    """Brute-force minimax (``naive.py``) of the position ``(pub, hands)`` on ``utility``."""
    from naive import naive_minimax

    leader = int(pub[st.P_LEADER])
    trick = [((leader + i) % 4, int(pub[st.P_TRICK + i])) for i in range(int(pub[st.P_TRICK_LEN]))]
    scratch = pub.copy()
    sheet, nil_out = np.zeros((2, N_FIELDS), dtype=np.int64), np.zeros(4, dtype=np.int64)

    def leaf(*won):
        scratch[st.P_WON : st.P_WON + 4] = won
        return utility(scratch, rules.as_array(), team, sheet, nil_out)

    cards = [bits(int(h)) for h in hands]
    won = [int(w) for w in pub[st.P_WON : st.P_WON + 4]]
    return naive_minimax(cards, leader, trick, bool(pub[st.P_BROKEN]), int(pub[st.P_TRICK_NO]), won, rules, leaf, team)


def mc_inputs(obs, seed=5):
    """``(pub, seat, hand, rules array, candidate ids, state)`` of a play decision."""
    hand = U64(int(obs.cards))
    legal = U64(sum(1 << c for c in obs.legal_cards()))
    ids = np.array(bits(int(candidates.play_candidates(obs.public, hand, legal))), dtype=np.int64)
    state = U64(decision_stream(np.int64(seed), obs.public, obs.seat, hand))
    return obs.public, obs.seat, hand, obs.rules_array, ids, state


def positions_with(tricks_left, n_hands=30, seed=41, rules_cycle=None):
    """Play decisions of Normal's hands with 2+ candidates and ``tricks_left`` tricks to play."""
    for hand, obs in normal_positions(seed, n_hands, rules_cycle):
        if obs.phase == "playing" and 13 - obs.trick_no in tricks_left and n_choices(obs) >= 2:
            yield hand, obs


RULE_MIX = (Rules(), Rules(spade_lead="anytime", nil_tricks_count=True), Rules(bag_limit=5, bag_penalty=50, target_score=250))


def test_exact_values_when_the_solver_takes_the_whole_rest():
    """With solver_tricks covering every trick left, Hard's value of each card in each world
    is the brute-force minimax value of that world on Hard's utility."""
    checked = 0
    for hand, obs in positions_with({1, 2, 3}, rules_cycle=RULE_MIX):
        pub, seat, cards, rules, ids, state = mc_inputs(obs)
        values, _, _, _, _ = search.evaluate(pub, seat, cards, rules, ids, False, 6, search.SearchSettings(6, 0, False, 3, 0.0, False, 0.0), state, 0)
        _, worlds = sampling.sample_worlds_kernel(state, pub, seat, cards, rules, 6)
        for i, world in enumerate(worlds):
            for j, card in enumerate(ids):
                sim, hs = pub.copy(), world.copy()
                st.apply_card(sim, hs, int(card), rules)
                if sim[st.P_PHASE] == st.PHASE_OVER:
                    want = utility(sim, rules, seat & 1, np.zeros((2, N_FIELDS), np.int64), np.zeros(4, np.int64))
                else:
                    want = naive_finish(sim, hs, hand.rules, seat & 1)
                assert values[i, j] == pytest.approx(want, abs=1e-9), (obs, i, card)
                checked += 1
    assert checked > 300


def test_rollouts_hand_the_last_tricks_to_the_solver():
    """With k tricks solved and more left, each value is Normal's play down to k tricks, then
    the brute-force minimax of the rest."""
    checked = 0
    for k in (2, 3):
        for hand, obs in positions_with({k + 1, k + 2}, n_hands=4, seed=43 + k, rules_cycle=RULE_MIX):
            pub, seat, cards, rules, ids, state = mc_inputs(obs)
            values, _, _, _, _ = search.evaluate(pub, seat, cards, rules, ids, False, 4, search.SearchSettings(4, 0, False, k, 0.0, False, 0.0), state, 0)
            _, worlds = sampling.sample_worlds_kernel(state, pub, seat, cards, rules, 4)
            for i, world in enumerate(worlds):
                for j, card in enumerate(ids):
                    sim, hs = pub.copy(), world.copy()
                    st.apply_card(sim, hs, int(card), rules)
                    rollouts.rollout_until(sim, hs, rules, k)
                    assert sim[st.P_TRICK_LEN] == 0 and 13 - sim[st.P_TRICK_NO] == k
                    assert values[i, j] == pytest.approx(naive_finish(sim, hs, hand.rules, seat & 1), abs=1e-9)
                    checked += 1
    assert checked > 200


def test_bids_weighed_with_the_last_tricks_solved():
    """A bid's value per world: the rollout bids and plays down to 2 tricks, then the exact
    finish on the utility of the bids made in that world."""
    checked = 0
    for hand, obs in normal_positions(seed=47, n_hands=6):
        if obs.phase != "bidding" or len(obs.legal_bids()) < 2:
            continue
        cards = U64(int(obs.cards))
        state = U64(decision_stream(np.int64(2), obs.public, obs.seat, cards))
        bids = np.array([1, 3, 0] if obs.legal_bids()[0] == 0 else [1, 3], dtype=np.int64)
        values, _, _, _, _ = search.evaluate(obs.public, obs.seat, cards, obs.rules_array, bids, True, 3, search.SearchSettings(3, 0, False, 2, 0.0, False, 0.0), state, 0)
        _, worlds = sampling.sample_worlds_kernel(state, obs.public, obs.seat, cards, obs.rules_array, 3)
        for i, world in enumerate(worlds):
            for j, b in enumerate(bids):
                sim, hs = obs.public.copy(), world.copy()
                st.apply_bid(sim, hs, int(b), False, obs.rules_array)
                rollouts.rollout_until(sim, hs, obs.rules_array, 2)
                assert values[i, j] == pytest.approx(naive_finish(sim, hs, hand.rules, obs.seat & 1), abs=1e-9)
                checked += 1
    assert checked >= 24


def test_rollout_until_is_a_prefix_of_the_rollout():
    for hand, obs in normal_positions(seed=53, n_hands=3):
        for k in (0, 1, 4, 13):
            world = np.array(hand._hands, dtype=np.uint64)
            a, ha = obs.public.copy(), world.copy()
            rollouts.rollout_until(a, ha, obs.rules_array, k)
            left = 13 - obs.trick_no
            mid_trick = obs.phase == "playing" and obs.public[st.P_TRICK_LEN] > 0
            want = k if left > k else left - mid_trick  # a trick begun is finished
            if want == 0:
                assert a[st.P_PHASE] == st.PHASE_OVER
            else:
                assert a[st.P_PHASE] == st.PHASE_PLAYING and a[st.P_TRICK_LEN] == 0 and 13 - a[st.P_TRICK_NO] == want
            b, hb = obs.public.copy(), world.copy()
            rollout(a, ha, obs.rules_array)
            rollout(b, hb, obs.rules_array)
            assert np.array_equal(a, b) and np.array_equal(ha, hb)


def test_one_solved_trick_changes_nothing():
    """The last trick is forced: solving it exactly gives the rollout's values."""
    for hand, obs in positions_with({5, 9, 13}, n_hands=6, seed=59):
        pub, seat, cards, rules, ids, state = mc_inputs(obs)
        v0, _, _, _, _ = search.evaluate(pub, seat, cards, rules, ids, False, 8, search.SearchSettings(8, 0, False, 0, 0.0, False, 0.0), state, 0)
        v1, _, _, _, _ = search.evaluate(pub, seat, cards, rules, ids, False, 8, search.SearchSettings(8, 0, False, 1, 0.0, False, 0.0), state, 0)
        assert np.array_equal(v0, v1)


def test_hard_and_crazy_with_solver_tricks_pass_check_agent():
    for name, rules in (("hard", Rules()), ("crazy", Rules(first_lead="low_club", spade_lead="anytime"))):
        agent = make_agent(name, worlds=8, seed=4, solver_tricks=4)
        assert agent.params[search.MC_SOLVER_TRICKS] == 4 and "solver_tricks=4" in agent.label
        check_agent(agent, hands=4, seed=19, rules=rules)


@pytest.mark.parametrize("bad", [-1, 14, 2.5, True, "3", None])
def test_solver_tricks_is_validated(bad):
    for name in ("hard", "crazy"):
        with pytest.raises(ValueError, match=r"option 'solver_tricks': must be an int in 0\.\.13"):
            make_agent(name, solver_tricks=bad)


# -- anchored_choice and the candidate bids, directly --------------------------------------------
def test_anchored_choice_keeps_the_anchor_without_clear_evidence():
    from spades_ai.montecarlo.selection import anchored_choice

    rnd = np.random.default_rng(0)
    flat = np.zeros((50, 3))
    assert anchored_choice(flat, np.ones(50), 1, 2.0) == 1
    noisy = np.zeros((20, 2))
    noisy[:, 1] = 1.0 + 10.0 * rnd.standard_normal(20)  # mean advantage ~1, se ~2.2: not clear
    assert anchored_choice(noisy, np.ones(20), 0, 2.0) == 0
    # better only in worlds that weigh nothing
    ghost = np.zeros((10, 2))
    ghost[:5, 1] = 100.0
    w = np.r_[np.zeros(5), np.ones(5)]
    assert anchored_choice(ghost, w, 0, 2.0) == 0


def test_anchored_choice_takes_the_clearly_best_candidate():
    from spades_ai.montecarlo.selection import anchored_choice

    values = np.zeros((30, 3))
    values[:, 1] = 10.0  # +10 in every world: no variance, clearly better
    values[:, 2] = 20.0 + np.r_[np.ones(15), -np.ones(15)]  # +20 on average, se 0.19
    assert anchored_choice(values, np.ones(30), 0, 2.0) == 2
    values[:, 2] = np.r_[np.full(15, 60.0), np.full(15, -20.0)]  # mean +20, sd 40, se 7.4: 20 - 2 x 7.4 > 0
    assert anchored_choice(values, np.ones(30), 0, 2.0) == 2
    assert anchored_choice(values, np.ones(30), 0, 3.0) == 1  # z = 3: 20 - 3 x 7.4 < 0: only the sure +10 stays
    values[:, 1] = -5.0
    assert anchored_choice(values, np.ones(30), 0, 3.0) == 0


@pytest.mark.parametrize(
    "mask, guess, expected, want",
    [
        ((1 << 14) - 1, 4, 2.5, [2, 3, 4, 5, 6, 7, 0]),  # every bid legal, a weak hand: nil too
        ((1 << 14) - 1, 4, 3.0, [2, 3, 4, 5, 6, 7]),  # three tricks expected: no nil
        ((1 << 14) - 1, 1, 1.0, [1, 2, 3, 4, 0]),  # numbers start at 1
        ((1 << 14) - 1, 12, 9.0, [10, 11, 12, 13]),  # and stop at 13
        ((1 << 14) - 2, 2, 0.5, [1, 2, 3, 4, 5]),  # nil off
        (1 | (((1 << 14) - 1) & ~0xF), 4, 2.0, [4, 5, 6, 7, 0]),  # suicide: nil or 4 and more
        (1 << 5, 5, 4.0, [5]),  # mirror: the one legal bid
    ],
)
def test_candidate_bids(mask, guess, expected, want):
    from spades_ai.montecarlo.candidates import candidate_bids

    assert candidate_bids(np.int64(mask), np.int64(guess), expected).tolist() == want


# -- blind nil --------------------------------------------------------------------------------
def blind_question(scores, dealer=1, hands_played=5, **rules):
    """The blind-nil question put to the first bidder (seat dealer + 1) at these match scores."""
    deal = deal_masks(60, dealer, 1)[0].tolist()
    hand = Hand(deal, dealer, Rules(blind_nil=True, **rules), scores, hands_played=hands_played)
    return hand.observation(blind_decision=True)


@pytest.mark.parametrize(
    "scores, rules, want",
    [
        ((100, 420), {}, True),  # seat 2 (team 0) trails by 320 and the opponents near 500
        ((300, 420), {}, False),  # trails by only 120
        ((-100, 200), {}, False),  # far behind, but the match is far from its end
        ((-100, 200), {"target_score": 300}, True),
        ((0, 200), {"target_score": None, "max_hands": 7}, True),  # two hands left
        ((420, 100), {}, False),  # leading
    ],
)
def test_normal_bids_blind_nil_far_behind_late_in_the_match(scores, rules, want):
    obs = blind_question(scores, **rules)
    assert obs.seat == 2 and obs.cards == [] and obs.legal_bids() == [0]
    assert make_agent("normal").blind_nil(obs) is want
    assert make_agent("normal", blind_nil=False).blind_nil(obs) is False
    assert make_agent("easy").blind_nil(obs) is False and make_agent("random").blind_nil(obs) is False


def test_normal_never_bids_blind_nil_after_its_partners_nil():
    for partner_bid, want in ((0, False), (4, True)):
        hand = Hand(deal_masks(60, 1, 1)[0].tolist(), 1, Rules(blind_nil=True), (100, 420))
        hand.bid(partner_bid)  # seat 2 (team 0, trailing)
        hand.bid(4)  # seat 3
        assert hand.to_act == 0
        assert make_agent("normal").blind_nil(hand.observation(blind_decision=True)) is want


def test_hard_weighs_blind_nil_by_the_match():
    """Trailing 100-420 a blind nil raises the chance of winning the match (measured with 400
    worlds on rules9: look 0.006, blind nil 0.019); at 0-0 it costs (0.49 / 0.29); at 100-460
    the opponents are all but home whatever it bids, so it looks at its cards."""
    hard, crazy = make_agent("hard", worlds=300, seed=1), make_agent("crazy", worlds=300, seed=1)
    desperate = blind_question((100, 420))
    assert hard.blind_nil(desperate) and crazy.blind_nil(desperate)
    assert hard.blind_nil(desperate) == hard.blind_nil(desperate)  # reproducible
    for scores in ((0, 0), (300, 250), (460, 100), (100, 460)):
        assert not hard.blind_nil(blind_question(scores)), scores
    assert not make_agent("hard", worlds=300, blind_nil=False).blind_nil(desperate)


def test_blind_nils_in_numba_self_play_equal_the_python_loop():
    rules = Rules(blind_nil=True, target_score=300, blind_pass=1)
    lineup = [make_agent("hard", worlds=8, seed=4), make_agent("normal")]
    fast = play_matches(lineup, 3, seed=8, rules=rules)
    assert fast.blind.any()  # the question was put and answered yes somewhere

    class Wrapped:
        def __init__(self, agent):
            self.agent, self.name = agent, agent.name

        def __getattr__(self, name):
            return getattr(self.agent, name)

    slow = play_matches([Wrapped(a) for a in lineup], 3, seed=8, rules=rules)
    assert fast == slow


# -- the values a decision is made from (montecarlo.decision_values) ----------------------------
def test_decision_values_are_the_means_the_search_chooses_from():
    """The action is the agent's own; every legal card has a value, cards of one class share
    it, and the candidates' values are the weighted means of ``evaluate`` on the same worlds."""
    import spades_ai as sa
    from spades_ai.montecarlo.candidates import candidate_ids
    from spades_ai.montecarlo.selection import worlds_for

    agent = make_agent("hard", worlds=24, racing=False)
    checked = 0
    for _, obs in normal_positions(seed=83, n_hands=2):
        card, values = sa.decision_values(agent, obs) if obs.phase == "playing" else (None, None)
        if card is None:
            continue
        assert card == agent.play(obs) and set(values) == set(obs.legal_cards())
        pub, seat, hand, rules, settings, state = agent.search_args(obs)
        legal = np.uint64(st.legal_now(pub, hand, rules))
        cands = candidates.play_candidates(pub, hand, legal)
        if int(cands).bit_count() < 2:
            assert all(np.isnan(v) for v in values.values())
            continue
        ids = candidate_ids(cands)
        n = worlds_for(settings.worlds, settings.rollouts, len(ids))
        v, w, _, _, _ = search.evaluate(pub, seat, hand, rules, ids, False, n, settings, state, 0)
        for j, c in enumerate(ids):
            assert values[obs.rules.engine_card(int(c))] == pytest.approx(float((w * v[:, j]).sum() / w.sum()), rel=1e-12)
        checked += 1
    assert checked >= 5
    hand = Hand(deal_masks(5, 0, 1)[0].tolist())
    bid, bid_values = sa.decision_values(agent, hand.observation())
    assert bid == agent.bid(hand.observation()) and set(bid_values) == set(hand.legal_bids())
    assert not np.isnan(bid_values[bid])
    with pytest.raises(TypeError, match="not a Monte Carlo agent"):
        sa.decision_values(make_agent("normal"), hand.observation())
