"""The engine against the slow references of ``naive.py``.

* 10,000 random hands driven through ``spades_ai.Hand`` (default rules, and random combinations
  of every house rule: bidding presets, closed bidding, the hook, blind nil and the half blind
  penalty, card passing and the blind pass, ...): passes, legal bids and legal cards, what each
  seat sees of the bids and passes, every trick's winner and the final score sheet equal the
  reference at every step.
* The bitboard helpers of ``engine/bits.py`` against plain Python on random masks.
* ``spades_ai.deal`` and ``spades_ai.random_playouts`` equal the pure-Python replica of the
  engine's random stream card for card.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from naive import (
    MASK64,
    NaiveStream,
    card_label,
    card_name,
    mix64,
    naive_deal,
    naive_exchange,
    naive_first_leader,
    naive_legal_bids,
    naive_passers,
    naive_legal_cards,
    naive_match_winner,
    naive_random_playouts,
    naive_score,
    naive_seen_bids,
    naive_seen_passes,
    naive_trick_winner,
    plays_as,
    random_rules_kwargs,
    stream_start,
    unmix64,
)

import spades_ai as sa
from spades_ai.engine import bits, rng
from spades_ai.engine import state as st
from spades_ai.simulate import deal_masks

HANDS_DEFAULT = 4000  # hands under the default rules
HANDS_RANDOM_RULES = 6000  # hands under random house rules (a fresh draw every 10 hands)
SPADE_LEADS = ["broken", "after_first_trick", "after_three_tricks", "after_three_tricks_or_broken", "anytime"]


def choose_bid(rnd: random.Random, legal: list[int]) -> int:
    """Half the time any legal bid, half the time one near a realistic 0..5."""
    if rnd.random() < 0.5:
        return rnd.choice(legal)
    aim = rnd.randint(0, 5)
    return min(legal, key=lambda b: (abs(b - aim), b))


def card_form(rnd: random.Random, card: int, rules):
    """The same card as a ``Card``, a string (``BJ`` for the big joker) or an int id:
    ``Hand.play`` takes all three."""
    form = rnd.randrange(3)
    if form == 0:
        return sa.Card(card)
    if form == 1:
        return card_label(card, rules)
    return card


def drive_passes(rnd: random.Random, hand: sa.Hand, hands, after_bidding: bool, blind, rules) -> list[list[int]]:
    """A passing round, if the rules have one now, with random cards: the engine's passers,
    exchange and views against the references. Returns the hands after it."""
    seats = naive_passers(after_bidding, blind, rules)
    if not seats:
        assert hand.phase != "passing"
        return hands
    n = rules.blind_pass if after_bidding else rules.pass_cards
    assert hand.phase == "passing" and sorted(hand.passers) == seats
    gave = {s: sorted(rnd.sample(hands[s], n)) for s in seats}
    order = list(seats)
    rnd.shuffle(order)  # they choose at the same time: any order
    for s in order:
        assert hand.observation().pass_count == n
        assert int(hand.cards(s)) == sum(1 << c for c in hands[s])  # nothing moves before the last choice
        hand.pass_cards(s, [card_form(rnd, c, rules) for c in gave[s]])
    new = naive_exchange(hands, gave)
    assert [[int(c) for c in hand.cards(s)] for s in range(4)] == new
    for s in range(4):
        view = hand.view(s)
        seen = {s: [int(c) for c in (view.blind_gave if after_bidding else view.gave)]}
        seen[(s + 2) % 4] = [int(c) for c in (view.blind_received if after_bidding else view.received)]
        assert {t: c for t, c in seen.items() if c} == naive_seen_passes(s, gave)
        slot = st.P_BLIND_GAVE if after_bidding else st.P_GAVE
        assert view.public[slot + (s + 1) % 4] == view.public[slot + (s + 3) % 4] == 0  # opponents' unseen
    return new


def drive_hand(rnd: random.Random, rules: sa.Rules, seed: int, index: int) -> None:
    """Play one random hand through ``Hand``, checking every step against the references."""
    hands = [sorted(int(c) for c in h) for h in sa.deal(seed, index)]
    dealer = rnd.randrange(4)
    bags = (rnd.randrange(rules.bag_limit), rnd.randrange(rules.bag_limit))
    scores = (rnd.randint(-300, 600), rnd.randint(-300, 600))
    hand = sa.Hand(hands, dealer=dealer, rules=rules, scores=scores, bag_count=bags)
    hands = drive_passes(rnd, hand, hands, False, [False] * 4, rules)

    # Bidding: one bid each, clockwise from the dealer's left.
    bids: list[int | None] = [None] * 4
    blind = [False] * 4
    for k in range(4):
        seat = (dealer + 1 + k) % 4
        assert hand.phase == "bidding"
        assert hand.to_act == seat
        assert hand.observation().bids == naive_seen_bids(seat, bids, False, rules)
        legal, blind_ok = naive_legal_bids(seat, hands[seat], bids, scores, rules)
        assert hand.legal_bids() == legal, (seat, bids, rules)
        assert hand.legal_bids(blind=True) == ([0] if blind_ok else []), (seat, scores, rules)
        if blind_ok and rnd.random() < 0.3:
            hand.bid(0, blind=True)
            bids[seat], blind[seat] = 0, True
        else:
            b = choose_bid(rnd, legal)
            hand.bid(b)
            bids[seat] = b
    assert hand.bids == bids
    assert hand.blind == blind
    assert hand.legal_bids() == []
    hands = drive_passes(rnd, hand, hands, True, blind, rules)
    assert hand.observation().bids == naive_seen_bids(hand.to_act, bids, True, rules)

    # Play: 13 tricks.
    held = [list(h) for h in hands]
    leader = naive_first_leader(hands, dealer, rules)
    broken = False
    tricks_won = [0, 0, 0, 0]
    for trick_no in range(13):
        trick: list[tuple[int, int]] = []
        for pos in range(4):
            seat = (leader + pos) % 4
            assert hand.phase == "playing"
            assert hand.to_act == seat and hand.trick_no == trick_no
            legal = naive_legal_cards(held[seat], [c for _, c in trick], broken, trick_no, rules)
            assert [int(c) for c in hand.legal_cards()] == legal, (seat, trick, broken, trick_no, rules)
            assert [str(c) for c in hand.legal_cards()] == [card_label(c, rules) for c in legal]
            card = rnd.choice(legal)
            hand.play(card_form(rnd, card, rules))
            held[seat].remove(card)
            trick.append((seat, card))
        winner = naive_trick_winner(trick, rules)
        tricks_won[winner] += 1
        assert [(s, int(c)) for s, c in hand.tricks[-1]] == trick
        assert hand.tricks_won == tricks_won, (trick, tricks_won)
        broken = broken or any(plays_as(c, rules) == 3 for _, c in trick)
        leader = winner
    assert hand.phase == "over" and hand.to_act is None

    expected = naive_score(bids, blind, tricks_won, scores, bags, rules)
    result = hand.result()
    assert result.tricks_won == tuple(tricks_won)
    assert list(result.points) == expected["points"]
    assert list(result.scores) == expected["scores"]
    assert list(result.bag_count) == expected["bags"]
    assert list(result.made) == expected["made"]
    assert list(result.contract) == expected["contract"]
    assert list(result.new_bags) == expected["new_bags"]
    assert list(result.nil_points) == expected["nil_points"]
    assert list(result.bag_penalties) == expected["penalties"]
    assert list(result.nil_made) == expected["nil"]
    hands_played = rnd.randint(1, 25)
    assert sa.match_winner(result.scores, rules, hands_played=hands_played) == naive_match_winner(
        result.scores, rules, hands_played
    )


@pytest.mark.parametrize("block", [pytest.param(0, marks=pytest.mark.nojit), *range(1, 8)])
def test_random_hands_default_rules(block):
    rnd = random.Random(1000 + block)
    rules = sa.Rules()
    n = HANDS_DEFAULT // 8
    for i in range(n):
        drive_hand(rnd, rules, seed=block, index=i)


def rules_for_block(block: int) -> list[sa.Rules]:
    """The house rules of each run of 10 hands in block ``block`` (their own random stream)."""
    rnd = random.Random(3000 + block)
    return [sa.Rules(**random_rules_kwargs(rnd)) for _ in range(HANDS_RANDOM_RULES // 12 // 10)]


@pytest.mark.parametrize("block", [pytest.param(0, marks=pytest.mark.nojit), *range(1, 12)])
def test_random_hands_random_rules(block):
    rnd = random.Random(2000 + block)
    for k, rules in enumerate(rules_for_block(block)):
        for i in range(10):
            drive_hand(rnd, rules, seed=100 + block, index=10 * k + i)


def test_enough_random_hands():
    assert HANDS_DEFAULT // 8 * 8 + HANDS_RANDOM_RULES // 12 // 10 * 12 * 10 >= 10_000


def test_random_rules_cover_every_option():
    """The hands above meet every value of every text option and both values of every switch."""
    seen: dict[str, set] = {}
    for block in range(12):
        for rules in rules_for_block(block):
            for key, value in rules.to_dict().items():
                seen.setdefault(key, set()).add(value)
    assert seen["spade_lead"] == set(SPADE_LEADS)
    assert seen["first_lead"] == {"dealer_left", "low_club"}
    assert seen["bidding"] == {"classic", "suicide", "mirror", "whiz"}
    switches = ("nil", "blind_nil", "nil_tricks_count", "ten_for_200", "closed_bidding", "hook", "half_blind_penalty")
    for switch in switches:
        assert seen[switch] == {True, False}, switch
    assert seen["pass_cards"] == {0, 1, 2, 3} and seen["blind_pass"] == {0, 1, 2, 3}
    assert {0, 100} <= seen["blind_nil_min_deficit"]
    assert {1, 2, 3, 4} <= seen["min_bid"] and {0, 4} <= seen["min_team_bid"]
    assert {1, 5, 10} <= seen["bag_limit"] and None in seen["max_hands"] and None in seen["loss_threshold"]
    assert seen["jokers"] == {0, 1, 2} and seen["deuces_high"] == {0, 1, 2, 3, 4}


# -- bitboard helpers --------------------------------------------------------------------------


def random_masks(rnd: random.Random, n: int) -> list[int]:
    """Masks of every density: uniform 64-bit words, sparse and dense 52-bit hands, single bits."""
    out = [1, 1 << 63, MASK64, (1 << 52) - 1, 1 << 51, 0x1FFF << 39]
    while len(out) < n:
        kind = rnd.randrange(4)
        if kind == 0:
            out.append(rnd.getrandbits(64) or 1)
        elif kind == 1:
            out.append(sum(1 << b for b in rnd.sample(range(52), rnd.randint(1, 13))))
        elif kind == 2:
            out.append(((1 << 52) - 1) & ~sum(1 << b for b in rnd.sample(range(52), rnd.randint(0, 51))) or 1)
        else:
            out.append(1 << rnd.randrange(64))
    return out


def set_bits(x: int) -> list[int]:
    return [i for i in range(64) if x >> i & 1]


@pytest.mark.nojit
def test_bit_helpers_vs_python():
    rnd = random.Random(42)
    for x in random_masks(rnd, 600):
        u = np.uint64(x)
        ones = set_bits(x)
        assert int(bits.popcount(u)) == len(ones)
        assert int(bits.lowest_index(u)) == ones[0]
        assert int(bits.highest_index(u)) == ones[-1]
        assert int(bits.highest_bit(u)) == 1 << ones[-1]
        assert int(bits.lowest_bit(u)) == 1 << ones[0]
        rs = range(len(ones)) if len(ones) <= 16 else rnd.sample(range(len(ones)), 16)
        for r in rs:
            want = 1 << ones[r]
            assert int(bits.select_bit(u, r)) == want, (hex(x), r)
            assert int(bits.select_bit_portable(u, r)) == want, (hex(x), r)
            if bits.HAS_PDEP:
                assert int(bits._select_bit_pdep(u, r)) == want, (hex(x), r)


@pytest.mark.nojit
def test_bit_helpers_on_zero():
    zero = np.uint64(0)
    assert int(bits.popcount(zero)) == 0
    assert int(bits.lowest_index(zero)) == 64
    assert int(bits.highest_index(zero)) == -1
    assert int(bits.lowest_bit(zero)) == 0


@pytest.mark.nojit
def test_suit_masks():
    lane = sum(1 << c for c in range(39, 56))  # the spades and the four bits of extra trumps above
    for c in range(56):
        assert int(bits.suit_mask_of(np.uint64(1 << c))) == (lane if c >= 39 else 0x1FFF << (13 * (c // 13)))
        assert int(bits.lane_of(np.uint64(1 << c))) == int(bits.suit_mask_of(np.uint64(1 << c)))
        assert int(bits.suit_of(c)) == min(c // 13, 3)
        assert int(bits.RANK_OF[c]) == (c % 13 if c < 52 else c - 39)
    assert [int(m) for m in bits.SUIT_MASK] == [0x1FFF << (13 * s) for s in range(3)] + [lane]
    assert int(bits.SPADES) == lane
    assert int(bits.NON_SPADES) == sum(1 << c for c in range(39))


@pytest.mark.nojit
def test_trick_winner_kernel_vs_naive():
    """``winning_offset`` on random tricks (random legal-looking or not) against the reference."""
    from spades_ai.engine.play import winning_offset

    rnd = random.Random(5)
    for _ in range(3000):
        cards = rnd.sample(range(52), 4)
        leader = rnd.randrange(4)
        trick = [((leader + i) % 4, c) for i, c in enumerate(cards)]
        off = int(winning_offset(*(np.uint64(1 << c) for c in cards)))
        assert (leader + off) % 4 == naive_trick_winner(trick), [card_name(c) for c in cards]


# -- the random stream ------------------------------------------------------------------------


@pytest.mark.nojit
def test_mix64_and_stream_start_match_replica():
    rnd = random.Random(11)
    for _ in range(300):
        z = rnd.getrandbits(64)
        assert int(rng.mix64(np.uint64(z))) == mix64(z)
        assert unmix64(mix64(z)) == z
        seed, index, stream = rnd.getrandbits(64), rnd.getrandbits(40), rnd.randrange(8)
        assert int(rng.stream_state(np.uint64(seed), index, stream)) == stream_start(seed, index, stream)


@pytest.mark.nojit
def test_below_matches_replica():
    rnd = random.Random(12)
    for _ in range(2000):
        state = rnd.getrandbits(64)
        n = rnd.choice([1, 2, 3, 13, 52, 39, rnd.randrange(1, 1 << 32)])
        new_state, r = rng.below(np.uint64(state), n)
        ref = NaiveStream(state=state)
        assert int(r) == ref.below(n)
        assert int(new_state) == ref.state
        assert 0 <= int(r) < n


@pytest.mark.nojit
def test_stream_kernels_take_a_python_int_state():
    """A state passed as a Python int (typed int64 by numba) draws the same as a uint64 state.

    Regression: ``int64 + uint64`` is float64 in numba, so an uncoerced state gave wrong draws.
    """
    rnd = random.Random(13)
    for _ in range(200):
        state = rnd.getrandbits(63)
        ref = NaiveStream(state=state)
        new_state, x = rng.next_u64(state)
        assert int(x) == ref.next_u64() and int(new_state) == ref.state
        new_state, r = rng.below(state, 52)
        ref = NaiveStream(state=state)
        assert int(r) == ref.below(52) and int(new_state) == ref.state


def _state_drawing(high32: int) -> int:
    """A state whose next draw has ``high32`` as its high 32 bits (mix64 is invertible)."""
    return (unmix64(high32 << 32) - 0x9E3779B97F4A7C15) & MASK64


@pytest.mark.nojit
@pytest.mark.parametrize("n, high", [(3, 0), ((1 << 31) + 1, 2), ((1 << 31) + 1, 0), (52, 0)])
def test_below_rejection_step(n, high):
    """A first draw in the biased zone is thrown away: the state moves two steps, not one."""
    state = _state_drawing(high)
    low = (high * n) & 0xFFFFFFFF
    assert low < ((1 << 32) - n) % n  # this draw must be rejected
    new_state, r = rng.below(np.uint64(state), n)
    ref = NaiveStream(state=state)
    assert int(r) == ref.below(n)
    assert ref.draws >= 2
    assert int(new_state) == ref.state == (state + ref.draws * 0x9E3779B97F4A7C15) & MASK64


@pytest.mark.nojit
def test_below_accepts_unbiased_low_draw():
    """A draw whose low word is small but not below the threshold is kept (one step only)."""
    n = (1 << 31) + 1
    state = _state_drawing(1)  # low = 2**31 + 1 >= threshold 2**31 - 1
    new_state, r = rng.below(np.uint64(state), n)
    assert int(r) == 0
    assert int(new_state) == (state + 0x9E3779B97F4A7C15) & MASK64


@pytest.mark.nojit
def test_below_skip_draws_as_below_and_skips_a_single_choice():
    """``rng.below_skip`` (the playouts' branch-free draw): for n > 1 the state and draw of
    ``below``, rejection steps included; for n = 1 no draw at all, even when the next draw's
    high word is 0; and the window it returns is ``peek`` of the state it returns."""
    rnd = random.Random(15)
    states = [rnd.getrandbits(64) for _ in range(1500)] + [_state_drawing(h) for h in (0, 1, 2)]
    for state in states:
        for n in (1, 2, 3, 13, 52, (1 << 31) + 1):
            a, b = (np.uint64(int(x)) for x in rng.peek(np.uint64(state)))
            new_state, a2, b2, r = rng.below_skip(np.uint64(state), a, b, np.uint64(n))
            want = (state, 0) if n == 1 else tuple(int(x) for x in rng.below(np.uint64(state), n))
            assert (int(new_state), int(r)) == want, (state, n)
            assert (int(a2), int(b2)) == tuple(int(x) for x in rng.peek(np.uint64(int(new_state))))


@pytest.mark.nojit
def test_spade_opening_says_what_may_lead_spades_says():
    from spades_ai.engine.play import may_lead_spades, spade_opening

    for spade_lead in range(len(SPADE_LEADS)):
        open_at, by_broken = spade_opening(spade_lead)
        for trick_no in range(17):
            for broken in (False, True):
                assert (trick_no >= open_at or (by_broken and broken)) == may_lead_spades(broken, trick_no, spade_lead)


def test_below_is_uniform():
    """Chi-square test of 60,000 draws of below(13) and below(52) from one fixed stream."""
    from scipy.stats import chisquare

    for n in (13, 52):
        state = stream_start(99, n, 3)
        counts = np.zeros(n, dtype=np.int64)
        for _ in range(60_000):
            state, r = rng.below(np.uint64(state), n)
            counts[int(r)] += 1
        assert chisquare(counts).pvalue > 1e-4, counts


# -- dealing and random playouts, card for card --------------------------------------------


def test_deal_matches_replica():
    rnd = random.Random(3)
    keys = [(0, 0), (0, 1), (1, 0), (MASK64, 0), (MASK64, 2**40), (2**63, 5)]
    keys += [(rnd.getrandbits(64), rnd.getrandbits(32)) for _ in range(1500)]
    for seed, index in keys:
        got = [[int(c) for c in h] for h in sa.deal(seed, index)]
        assert got == naive_deal(seed, index), (seed, index)


@pytest.mark.nojit
def test_deal_batch_matches_replica():
    masks = deal_masks(77, 1000, 500)
    for i, row in enumerate(masks):
        want = naive_deal(77, 1000 + i)
        assert [int(m) for m in row] == [sum(1 << c for c in h) for h in want]



@pytest.mark.parametrize("first_lead", ["dealer_left", "low_club"])
@pytest.mark.parametrize("spade_lead", SPADE_LEADS)
def test_random_playouts_match_replica(spade_lead, first_lead):
    rules = sa.Rules(spade_lead=spade_lead, first_lead=first_lead)
    seed = 1 + SPADE_LEADS.index(spade_lead) * 2 + (first_lead == "low_club")
    dealer = seed % 4
    got = sa.random_playouts(300, seed=seed, rules=rules, dealer=dealer)
    want = naive_random_playouts(300, seed, rules, dealer=dealer)
    assert got.shape == (300, 4)
    for i in range(300):
        assert got[i].tolist() == want[i][0], (i, spade_lead, first_lead)


@pytest.mark.parametrize("jokers, deuces_high", [(1, 0), (2, 0), (0, 1), (0, 4), (1, 3), (2, 2)])
def test_random_playouts_with_jokers_and_high_deuces_match_replica(jokers, deuces_high):
    rules = sa.Rules(jokers=jokers, deuces_high=deuces_high, spade_lead="after_first_trick", first_lead="low_club")
    seed = 50 + 3 * jokers + deuces_high
    got = sa.random_playouts(300, seed=seed, rules=rules, dealer=1)
    want = naive_random_playouts(300, seed, rules, dealer=1)
    assert got.tolist() == [w[0] for w in want]


@pytest.mark.nojit
def test_random_playouts_default_arguments():
    got = sa.random_playouts(1000, seed=2024)
    want = naive_random_playouts(1000, 2024, sa.Rules(), dealer=0)
    assert got.tolist() == [w[0] for w in want]
    # Deals 0..n-1 of the seed: a shorter run is a prefix of a longer one.
    assert sa.random_playouts(10, seed=2024).tolist() == got[:10].tolist()


@pytest.mark.nojit
def test_replica_playouts_are_legal_hands():
    """The replica's card sequences replay through ``Hand`` (the engine accepts every card)."""
    for spade_lead in SPADE_LEADS:
        rules = sa.Rules(spade_lead=spade_lead, first_lead="low_club")
        for tricks, plays, hands in naive_random_playouts(20, 5, rules, dealer=1):
            hand = sa.Hand(hands, dealer=1, rules=rules)
            for _ in range(4):
                hand.bid(hand.legal_bids()[-1])
            for seat, card in plays:
                assert hand.to_act == seat
                hand.play(card)
            assert hand.tricks_won == tricks


@pytest.mark.parametrize("players", [3, 4, 5, 6, 8, 12])
def test_random_playouts_two_at_a_time_play_each_deal_as_alone(players):
    """The batch plays two deals at once, trick by trick (``engine.play._random_pair``), and an
    odd last deal alone: every deal's tricks are the same whether it is played first or second
    of a pair or alone (the tests above check the pairs against the replica)."""
    from spades_ai.engine.play import random_playouts_batch, random_playouts_copies_batch

    rules = sa.Rules(players=players, spade_lead="after_first_trick", first_lead="low_club")
    batch = random_playouts_batch if rules.decks == 1 else random_playouts_copies_batch
    arr, seed = rules.as_array(), np.uint64(17)
    five = batch(seed, 3, 5, 1, arr)
    for i in range(5):
        alone = batch(seed, 3 + i, 1, 1, arr)[0]
        second = batch(seed, 2 + i, 2, 1, arr)[1]
        assert five[i].tolist() == alone.tolist() == second.tolist(), (players, i)
    assert (five.sum(axis=1) == rules.cards_each).all()
