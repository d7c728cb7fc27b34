"""Card passing (issue 9): ``pass_cards`` before the bidding and ``blind_pass`` after it, through
``Hand``, the observations, the agents, the numba self-play loop and the world sampler; and
the no-peek test for passes (no agent sees its partner's pass before the exchange, nor the
opponents' passes ever)."""

from __future__ import annotations

import random

import numpy as np
import pytest

import spades_ai as sa
from spades_ai import CardSet, Hand, IllegalPassError, Rules, make_agent
from spades_ai.montecarlo.sampling import sample_worlds_kernel
from spades_ai.policies.agent import default_pass
from spades_ai.montecarlo.sampling import count_worlds_kernel, world_constraints
from spades_ai.selfplay.play import play_hand_python
from spades_ai.engine import state as st
from spades_ai.simulate import deal_masks
from spades_ai.testing import check_agent

FULL = (1 << 52) - 1
DEAL = [
    "AS KS QS JS TS 2C 3C 4C 5C 6C 7C 8C 9C",
    "TC JC QC KC AC 2H 3H 4H 5H 6H 7H 8H 9H",
    "2S 3S 4S 5S 6S 7S 8S 9S TH JH QH KH AH",
    "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
]


class BlindNil:
    """Normal, except that it bids blind nil whenever it may (to exercise the blind pass)."""

    name = "blind"

    def __init__(self):
        self.normal = make_agent("normal")

    def blind_nil(self, obs):
        return True

    def bid(self, obs):
        return self.normal.bid(obs)

    def play(self, obs):
        return self.normal.play(obs)

    def pass_cards(self, obs):
        return self.normal.pass_cards(obs)


# -- the phase and its errors ------------------------------------------------------------------
def test_passing_comes_before_the_bidding_and_exchanges_at_once():
    h = Hand(DEAL, dealer=3, rules=Rules(pass_cards=2))
    assert h.phase == "passing" and h.to_act == 0 and h.passers == [0, 1, 2, 3]
    assert h.observation().pass_count == 2 and h.observation().legal_bids() == []
    h.pass_cards(2, "AH KH")  # any passer may choose first: they choose at the same time
    assert h.passers == [0, 1, 3] and h.to_act == 0
    assert h.cards(2) == CardSet(DEAL[2])  # nothing moves before every passer has chosen
    obs = h.observation()
    assert obs.seat == 0 and obs.received == [] and obs.gave == []  # the partner's choice is unseen
    h.pass_cards(0, ["2C", sa.Card.parse("3C")])
    h.pass_cards(1, [0 + 13 * 2, 1 + 13 * 2])  # ids: 2H 3H
    assert h.phase == "passing" and h.to_act == 3
    h.pass_cards(3, "2D 3D")
    assert h.phase == "bidding" and h.to_act == 0 and h.passers == []
    assert h.cards(0) == CardSet(DEAL[0]) - CardSet("2C 3C") | CardSet("AH KH")
    assert h.cards(2) == CardSet(DEAL[2]) - CardSet("AH KH") | CardSet("2C 3C")
    assert h.cards(1) == CardSet(DEAL[1]) - CardSet("2H 3H") | CardSet("2D 3D")
    assert h.gave(0) == ["2C", "3C"] and h.gave(3) == ["2D", "3D"]
    view = h.observation()  # seat 0: its team's passes, never the opponents'
    assert view.gave == ["2C", "3C"] and view.received == ["AH", "KH"]
    assert view.public[st.P_GAVE + 1] == 0 and view.public[st.P_GAVE + 3] == 0
    assert h.view(1).received == ["2D", "3D"] and h.view(1).public[st.P_GAVE] == 0


@pytest.mark.parametrize(
    "seat, cards, words",
    [
        (0, "2C", "seat 0 may not pass 2C: it passes 2 different cards"),
        (0, "2C 2C", "seat 0 may not pass 2C 2C: it passes 2 different cards"),
        (0, "2C 3C 4C", "it passes 2 different cards"),
        (0, "2C AH", "seat 0 may not pass 2C AH: it does not hold AH"),
        (0, "2C XX", "seat 0 passed a bad card: bad card 'XX'"),
        (4, "2C 3C", "a seat is an int in 0..3, not 4"),
    ],
)
def test_illegal_passes_name_seat_cards_and_reason(seat, cards, words):
    h = Hand(DEAL, dealer=3, rules=Rules(pass_cards=2))
    before = (h.public.copy(), [h.cards(s) for s in range(4)])
    with pytest.raises(IllegalPassError, match=words):
        h.pass_cards(seat, cards)
    assert np.array_equal(h.public, before[0]) and [h.cards(s) for s in range(4)] == before[1]


def test_passes_out_of_turn():
    h = Hand(DEAL, dealer=3, rules=Rules(pass_cards=1))
    h.pass_cards(1, "2H")
    with pytest.raises(IllegalPassError, match="seat 1 may not pass 3H: it has already chosen its pass"):
        h.pass_cards(1, "3H")
    with pytest.raises(sa.IllegalBidError, match="no bid is due: the hand is passing"):
        h.bid(3)
    with pytest.raises(sa.IllegalPlayError, match="no card is due: the hand is passing"):
        h.play("2C")
    for seat, card in ((0, "2C"), (2, "2S"), (3, "2D")):
        h.pass_cards(seat, card)
    with pytest.raises(IllegalPassError, match="no pass is due: the hand is bidding"):
        h.pass_cards(0, "3C")
    h = Hand(DEAL, dealer=3)
    with pytest.raises(IllegalPassError, match="no pass is due: the hand is bidding"):
        h.pass_cards(0, [])


def test_the_blind_pass_is_only_for_a_team_with_a_blind_nil_bidder():
    rules = Rules(blind_nil=True, blind_pass=2, first_lead="low_club")
    h = Hand(DEAL, dealer=3, rules=rules)
    h.bid(4)
    h.bid(0, blind=True)  # seat 1: team 1 exchanges
    h.bid(3)
    h.bid(4)
    assert h.phase == "passing" and h.passers == [1, 3] and h.to_act == 1
    assert h.observation().pass_count == 2
    with pytest.raises(IllegalPassError, match="seat 0 may not pass 2C 3C: only a team with a blind nil bidder"):
        h.pass_cards(0, "2C 3C")
    h.pass_cards(3, "AD KD")
    h.pass_cards(1, "AC KC")
    assert h.phase == "playing"
    assert h.cards(1) == CardSet(DEAL[1]) - CardSet("AC KC") | CardSet("AD KD")
    assert h.view(3).blind_received == ["AC", "KC"] and h.view(3).gave == []
    assert h.view(0).public[st.P_BLIND_GAVE + 1] == 0
    assert h.leader == 0  # the lowest club (2C) is found after the blind pass
    h2 = Hand(DEAL, dealer=3, rules=rules)
    for b in (4, 2, 3, 4):
        h2.bid(b)
    assert h2.phase == "playing"  # no blind nil: no blind pass


def test_records_keep_the_passes():
    rules = Rules(pass_cards=3, spade_lead="anytime")
    for i in range(6):
        h = Hand(sa.deal(40, i), dealer=i % 4, rules=rules)
        play_hand_python(h, [make_agent("normal"), make_agent("random", seed=i)] * 2)
        rec = h.to_record()
        assert len(rec["passes"][0]) == 4 and rec["passes"][1] == [None] * 4
        again = Hand.from_record(rec)
        assert again.result() == h.result() and again.passes == h.passes
    rules = Rules(blind_nil=True, blind_pass=1)
    h = Hand(sa.deal(41), rules=rules)
    play_hand_python(h, [BlindNil(), make_agent("normal")] * 2)
    rec = h.to_record()
    assert rec["passes"][0] == [None] * 4 and [p is not None for p in rec["passes"][1]] == [True, False, True, False]
    assert Hand.from_record(rec).result() == h.result()
    assert "passes" not in Hand(sa.deal(1)).to_record()


# -- agents ------------------------------------------------------------------------------------
def test_an_agent_without_pass_cards_passes_its_highest_cards():
    h = Hand(DEAL, dealer=3, rules=Rules(pass_cards=3))
    assert [str(c) for c in default_pass(h.observation())] == ["QS", "KS", "AS"]
    h = Hand(DEAL, dealer=0, rules=Rules(pass_cards=2))  # seat 1: AC KC above 9H
    assert sorted(str(c) for c in default_pass(h.observation())) == ["AC", "KC"]
    tie = ["AS 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC", "AC 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS"]
    tie += ["AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H", "AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D"]
    h = Hand(tie, dealer=3, rules=Rules(pass_cards=2))  # an ace each way: the spade first
    assert [str(c) for c in default_pass(h.observation())] == ["KC", "AS"]
    h = Hand(DEAL, dealer=1, rules=Rules(pass_cards=3))  # seat 2: AH, then KH before 9S (rank first)
    assert sorted(str(c) for c in default_pass(h.observation())) == ["AH", "KH", "QH"]
    sides = ["AC AD AH 2S 3S 4S 5S 6S 7S 8S 9S TS JS", "QS KS AS 2C 3C 4C 5C 6C 7C 8C 9C TC JC"]
    sides += ["KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H QC", "KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D KC"]
    h = Hand(sides, dealer=3, rules=Rules(pass_cards=2))  # three side aces: clubs, then diamonds
    assert [str(c) for c in default_pass(h.observation())] == ["AC", "AD"]


def test_highest_cards_orders_by_rank_then_spades_then_the_side_suits():
    """``kernels.highest_cards`` (the default pass, and Normal's pass toward a nil) against the
    obvious sort on random hands."""
    import numpy as np

    from spades_ai import kernels as K

    rng = np.random.default_rng(8)
    for _ in range(300):
        cards = rng.choice(52, 13, replace=False)
        hand = np.uint64(sum(1 << int(c) for c in cards))
        n = int(rng.integers(1, 5))
        got = int(K.highest_cards(hand, n))
        ranked = sorted(cards, key=lambda c: (-(c % 13), c // 13 != 3, c // 13))
        assert got == sum(1 << int(c) for c in ranked[:n])


def _pass(cards: str, rules: Rules, seat_bid=None, blind=False) -> list[str]:
    """Normal's pass for seat 0 holding ``cards`` (before the bidding, or in the blind pass)."""
    rest = [c for c in range(52) if not CardSet(cards) >> c & 1]
    deal = [CardSet(cards)] + [CardSet(rest[13 * k : 13 * k + 13]) for k in range(3)]
    h = Hand(deal, dealer=3, rules=rules)
    if rules.blind_pass:
        h.bid(0, blind=True) if blind else h.bid(3)
        h.bid(3)
        h.bid(0, blind=True) if not blind else h.bid(3)
        h.bid(3)
    return [str(c) for c in make_agent("normal").pass_cards(h.observation())]


def test_normal_passes_high_cards_when_it_means_to_go_nil_and_low_cards_otherwise():
    rules = Rules(pass_cards=2)
    # nil-safe once AS and KH are gone: it passes them
    assert _pass("AS 3S KH 2H 4H 3D 5D 7D 9D 2C 4C 6C 8C", rules) == ["KH", "AS"]
    # a bidding hand: low side cards from its short suits (2D is alone, then 3C of three clubs)
    assert _pass("AS KS QS JS 7S AH KH QH JH 2D 3C 4C 5C", rules) == ["3C", "2D"]
    blind = Rules(blind_nil=True, blind_pass=2)
    assert _pass("AS 3S KH 2H 4H 3D 5D 7D 9D 2C 4C 6C 8C", blind, blind=True) == ["KH", "AS"]  # the nil bidder
    assert _pass("AS KS QS JS 7S AH KH QH JH 2D 3C 4C 5C", blind) == ["3C", "2D"]  # its partner: lowest


# -- the numba loop, and legality ----------------------------------------------------------------
PASS_RULES = [
    Rules(pass_cards=1),
    Rules(pass_cards=3, closed_bidding=True),
    Rules.preset("mirror", pass_cards=2),
    Rules(blind_nil=True, blind_pass=3, half_blind_penalty=True, first_lead="low_club"),
    Rules.preset("suicide", blind_nil=True, blind_pass=2),
]


@pytest.mark.parametrize("rules", PASS_RULES)
@pytest.mark.parametrize("name", ["random", "easy", "normal", "hard", "crazy"])
def test_builtins_pass_legally_and_reproducibly(name, rules):
    agent = make_agent(name, worlds=6, seed=2) if name in ("hard", "crazy") else make_agent(name, seed=2)
    report = check_agent(agent, hands=8 if name in ("hard", "crazy") else 40, seed=5, rules=rules)
    assert report.endswith("all legal and reproducible")


# -- the sampler: the cards a seat passed stay with its partner --------------------------------------
def passed_positions(seed: int, n_hands: int, rules: Rules):
    rng = random.Random(seed)
    masks = deal_masks(seed, 0, n_hands)
    agents = [make_agent("normal"), make_agent("random", seed=seed)] * 2
    for i in range(n_hands):
        hand = Hand(masks[i].tolist(), dealer=rng.randrange(4), rules=rules)
        stop = rng.randrange(0, 40)
        bids = rng.randrange(4) if rng.random() < 0.25 else 4  # a quarter of them in the bidding

        def going():
            if hand.phase == "bidding":
                return len([b for b in hand.bids if b is not None]) < bids
            return hand.phase != "over" and (hand.phase != "playing" or len(hand.plays) < stop)

        while going():
            obs = hand.observation()
            agent = agents[obs.seat]
            if hand.phase == "passing":
                hand.pass_cards(obs.seat, agent.pass_cards(obs))
            elif hand.phase == "bidding":
                hand.bid(agent.bid(obs))
            else:
                hand.play(agent.play(obs))
        if hand.phase != "over":
            yield hand, hand.observation()


def test_sampled_worlds_keep_the_passed_cards_with_the_partner():
    checked = 0
    for rules in (Rules(pass_cards=3), Rules.preset("mirror", pass_cards=2)):
        for hand, obs in passed_positions(7, 60, rules):
            partner = obs.seat ^ 2
            known = obs.partner_holds
            assert known == (obs.gave - obs.played_by[partner])
            assert all(c in hand.cards(partner) for c in known)
            pub, seat, h = np.array(obs.public), obs.seat, np.uint64(int(obs.cards))
            unseen, others, need, lo, hi, kn = world_constraints(pub, seat, h, obs.rules_array)
            assert int(kn[partner]) == int(known) and int(unseen) & int(kn[partner]) == 0
            assert int(count_worlds_kernel(unseen, need, lo, hi)[0, -1]) > 0
            _, worlds = sample_worlds_kernel(np.uint64(checked), pub, seat, h, obs.rules_array, 20)
            held = int(known)
            assert ((worlds[:, partner] & np.uint64(held)) == np.uint64(held)).all()
            for o in range(4):
                left = 13 - len(obs.played_by[o])
                assert (np.bitwise_count(worlds[:, o]) == left).all()
            checked += 1
    assert checked >= 100


# -- no peeking: a pass changes nothing a seat has not seen ----------------------------------------
def _undo(post: list[int], gave: list[int | None], teams, rng: random.Random, n: int):
    """The hands before a passing round, from those after it. For the teams in ``teams`` the
    passes are those of ``gave``; for a team not in it they are chosen again at random."""
    pre = list(post)
    new_gave = list(gave)
    for t in (0, 1):
        a, b = t, t + 2
        if gave[a] is None:
            continue
        if t not in teams:
            new_gave[b] = sum(1 << c for c in rng.sample([c for c in range(52) if post[a] >> c & 1], n))
            new_gave[a] = sum(1 << c for c in rng.sample([c for c in range(52) if post[b] >> c & 1], n))
        ga, gb = new_gave[a], new_gave[b]
        pre[a] = post[a] & ~gb | ga
        pre[b] = post[b] & ~ga | gb
    return pre, new_gave


def redeal_passed(hand: Hand, obs, rng: random.Random) -> Hand | None:
    """``hand`` again with every card ``obs.seat`` has not seen dealt again (each seat keeps its
    count and voids; the partner keeps the cards it was passed) and the opponents' passes chosen
    again: the same bids, passes of the observer's team and plays."""
    me, partner = obs.seat, obs.seat ^ 2
    played_by = [int(c) for c in obs.played_by]
    known = int(obs.partner_holds)
    unseen = [c for c in range(52) if not (int(obs.cards) | sum(played_by) | known) >> c & 1]
    others = [o for o in range(4) if o != me]
    need = {o: len(hand.cards(o)) - (len(obs.partner_holds) if o == partner else 0) for o in others}
    for _ in range(2000):
        rng.shuffle(unseen)
        post, at = [0] * 4, 0
        post[me] = int(obs.cards) | played_by[me]
        for o in others:
            post[o] = played_by[o] | sum(1 << c for c in unseen[at : at + need[o]]) | (known if o == partner else 0)
            at += need[o]
        if any(CardSet(post[o] & ~played_by[o]).suit(s) for o in others for s in obs.voids[o]):
            continue
        team = {me % 2}
        passes = [[None if p is None else int(p) for p in rnd] for rnd in hand.passes]
        pre1, blind = _undo(post, passes[1], team, rng, hand.rules.blind_pass)
        pre0, before = _undo(pre1, passes[0], team, rng, hand.rules.pass_cards)
        other = Hand(pre0, hand.dealer, hand.rules, hand.scores, hand.bag_count, hand.hands_played)
        try:
            for s in range(4):
                if before[s] is not None:
                    other.pass_cards(s, list(CardSet(before[s])))
            for _, b, bl in hand.bid_history():
                other.bid(b, blind=bl)
            for s in range(4):
                if blind[s] is not None:
                    other.pass_cards(s, list(CardSet(blind[s])))
            for _, c in hand.plays:
                other.play(c)
        except (sa.IllegalBidError, sa.IllegalPlayError, IllegalPassError):
            continue  # e.g. a spade led before spades were broken tells more than the voids
        return other
    return None


def test_no_agent_peeks_at_passes_or_hidden_cards():
    rng = random.Random(3)
    agents = [make_agent("random", seed=1), make_agent("easy", seed=1), make_agent("normal")]
    agents += [make_agent("hard", worlds=8, seed=1), make_agent("crazy", worlds=8, seed=1)]
    checked = moved = bidding = 0
    rules_cycle = [Rules(pass_cards=2), Rules(pass_cards=3, closed_bidding=True)]
    for k, rules in enumerate(rules_cycle):
        for hand, obs in passed_positions(30 + k, 40, rules):
            want = [decide(a, obs) for a in agents]
            bidding += obs.phase == "bidding"
            for _ in range(2):
                other = redeal_passed(hand, obs, rng)
                if other is None:
                    continue
                seen = other.observation()
                assert seen.seat == obs.seat and seen.cards == obs.cards
                assert np.array_equal(seen.public, obs.public)
                moved += [int(m) for m in other.deal] != [int(m) for m in hand.deal]
                assert [decide(a, seen) for a in agents] == want
                checked += 1
    assert checked >= 100 and moved >= 0.9 * checked and bidding >= 10


def test_a_passer_does_not_see_its_partners_pending_pass():
    rules = Rules(pass_cards=2)
    agents = [make_agent(a) for a in ("random", "easy", "normal")] + [make_agent("hard", worlds=8)]
    for i in range(20):
        h = Hand(sa.deal(50, i), dealer=i % 4, rules=rules)
        first = h.to_act
        partner = first ^ 2
        obs = h.observation()
        want = [list(map(int, a.pass_cards(obs))) for a in agents]
        for cards in (list(h.cards(partner))[:2], list(h.cards(partner))[-2:]):
            other = h.clone()
            other.pass_cards(partner, cards)
            seen = other.observation()
            assert seen.seat == first and np.array_equal(seen.public[: st.P_PASS_DONE], obs.public[: st.P_PASS_DONE])
            assert [list(map(int, a.pass_cards(seen))) for a in agents] == want


def decide(agent, obs):
    if obs.phase == "passing":
        return sorted(map(int, agent.pass_cards(obs)))
    if obs.phase == "bidding":
        return agent.bid(obs)
    return int(agent.play(obs))


def test_the_framework_adapters_refuse_card_passing():
    from spades_ai.interop.encoding import Table

    for rules in (Rules(pass_cards=1), Rules(blind_nil=True, blind_pass=2)):
        with pytest.raises(sa.RulesError, match="no actions for card passing"):
            Table(rules)


def test_play_out_refuses_what_an_observation_hides():
    h = Hand(DEAL, dealer=3, rules=Rules(pass_cards=1))
    world = np.array([int(h.cards(s)) for s in range(4)], dtype=np.uint64)
    with pytest.raises(ValueError, match="play_out starts after a passing round"):
        sa.play_out(h.observation(), world, ["normal"] * 4)
    h = Hand(DEAL, dealer=3, rules=Rules(closed_bidding=True))
    h.bid(3)
    world = np.array([int(h.cards(s)) for s in range(4)], dtype=np.uint64)
    with pytest.raises(ValueError, match="closed_bidding the observation hides the bids"):
        sa.play_out(h.observation(), world, ["normal"] * 4)
    h = Hand(DEAL, dealer=3, rules=Rules(closed_bidding=True))  # nothing hidden yet: it plays out
    world = np.array([int(h.cards(s)) for s in range(4)], dtype=np.uint64)
    assert sum(sa.play_out(h.observation(), world, ["normal"] * 4, first=3).tricks_won) == 13


def test_closed_bids_stay_hidden_through_the_blind_pass():
    h = Hand(DEAL, dealer=3, rules=Rules(closed_bidding=True, blind_nil=True, blind_pass=1))
    h.bid(4)
    h.bid(0, blind=True)
    h.bid(3)
    h.bid(4)
    assert h.phase == "passing" and h.view(1).bids == [None, 0, None, None] and h.view(0).bids == [4, None, None, None]
    h.pass_cards(1, "AC")
    h.pass_cards(3, "AD")
    assert h.phase == "playing" and h.view(0).bids == [4, 0, 3, 4] and h.view(0).blind == [False, True, False, False]
