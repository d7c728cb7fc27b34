"""Self-play (issue 3, section 4): play_hands / play_matches, numba path against the Python
fallback, records against score_hand, seeds and chunking, dealers, match ends, and strength."""

from __future__ import annotations

import numpy as np
import pytest

from spades_ai import Rules, make_agent, match_winner, play_hands, play_matches, score_hand
from spades_ai.engine.deal import match_first_dealer
from spades_ai.selfplay.play import play_hand_python, resolve_lineup
from spades_ai.game import Hand
from spades_ai.simulate import deal_masks

SPADES = 0x1FFF << 39
FIELDS = (
    "contract",
    "team_tricks",
    "counted_tricks",
    "made",
    "contract_points",
    "new_bags",
    "nil_points",
    "bag_penalties",
    "points",
    "scores",
    "bag_count",
)

RULES = {
    "default": Rules(),
    "suicide": Rules.preset("suicide"),
    "mirror": Rules.preset("mirror"),
    "whiz": Rules.preset("whiz", min_bid=2),
    "blind": Rules.preset("blind"),
    "anytime_low_club": Rules(spade_lead="anytime", first_lead="low_club"),
    "nil_counts_bags5": Rules(nil_tricks_count=True, bag_limit=5, bag_penalty=50, nil_bonus=50),
    "ten_for_200_min_team": Rules(ten_for_200=True, min_bid=2, min_team_bid=5, spade_lead="after_three_tricks"),
    "closed": Rules(closed_bidding=True, blind_nil=True),
    "pass3_closed": Rules(pass_cards=3, closed_bidding=True),
    "blind_pass": Rules(blind_nil=True, blind_pass=2, blind_nil_min_deficit=100),
    "jokers_deuces": Rules(jokers=2, deuces_high=2, first_lead="low_club"),
    "whiz_joker": Rules.preset("whiz", jokers=1, deuces_high=3),
    "jokers_pass": Rules(jokers=2, deuces_high=2, pass_cards=3),
}

LINEUPS = {
    "normal4": ["normal"] * 4,
    "normal_easy": ["normal", "easy"],
    "mixed": ["random", "easy", "normal", "normal"],
    "options": [make_agent("easy", careless=0.7, seed=3), make_agent("random", seed=5)],
}


class Wrapped:
    """A built-in behind a plain Python class, so self-play takes the Python loop."""

    def __init__(self, agent):
        self.agent = make_agent(agent) if isinstance(agent, str) else agent
        self.name = self.agent.name

    def bid(self, obs):
        return self.agent.bid(obs)

    def play(self, obs):
        return self.agent.play(obs)

    def pass_cards(self, obs):
        return self.agent.pass_cards(obs)

    def blind_nil(self, obs):
        return self.agent.blind_nil(obs)


def wrapped(lineup):
    return [Wrapped(a) for a in resolve_lineup(lineup)]


def assert_same(a, b):
    assert a == b
    for name in a.__dataclass_fields__:
        x, y = getattr(a, name), getattr(b, name)
        if x is not None:
            assert x.dtype == y.dtype and x.shape == y.shape, name


# -- the numba path equals the Python fallback -----------------------------------------------
@pytest.mark.parametrize("rules_name", list(RULES))
@pytest.mark.parametrize("lineup_name", list(LINEUPS))
def test_play_hands_numba_equals_python_fallback(lineup_name, rules_name):
    lineup, rules = LINEUPS[lineup_name], RULES[rules_name]
    seed = 1000 + len(lineup_name) * 7 + len(rules_name)
    dealer = len(rules_name) % 4
    fast = play_hands(lineup, 40, seed=seed, rules=rules, dealer=dealer)
    slow = play_hands(wrapped(lineup), 40, seed=seed, rules=rules, dealer=dealer)
    assert_same(fast, slow)


@pytest.mark.parametrize(
    "lineup_name, rules",
    [
        ("normal4", Rules(target_score=250)),
        ("normal_easy", Rules(target_score=200, loss_threshold=-100)),
        ("mixed", Rules.preset("suicide", target_score=150)),
        ("options", Rules(target_score=None, max_hands=3)),
        ("normal_easy", Rules(target_score=300, bag_limit=5, nil_tricks_count=True)),
    ],
)
def test_play_matches_numba_equals_python_fallback(lineup_name, rules):
    lineup = LINEUPS[lineup_name]
    fast = play_matches(lineup, 4, seed=77, rules=rules, start=2)
    slow = play_matches(wrapped(lineup), 4, seed=77, rules=rules, start=2)
    assert_same(fast, slow)
    assert set(fast.match_no.tolist()) == {2, 3, 4, 5}


@pytest.mark.nojit
def test_play_matches_to_500_numba_equals_python_fallback():
    fast = play_matches(["normal", "easy"], 3, seed=5)
    slow = play_matches(wrapped(["normal", "easy"]), 3, seed=5)
    assert_same(fast, slow)


@pytest.mark.nojit
def test_records_equal_a_hand_played_by_hand():
    """Deal i of play_hands is ``deal_masks(seed, i)``, played from the given dealer."""
    agents = resolve_lineup(["normal", "easy", "random", "normal"])
    rec = play_hands(agents, 12, seed=31, dealer=2, start=5)
    masks = deal_masks(31, 5, 12)
    for i in range(12):
        hand = Hand(masks[i].tolist(), dealer=2)
        play_hand_python(hand, agents)
        assert rec.bids[i].tolist() == hand.bids
        assert rec.tricks_won[i].tolist() == hand.tricks_won
        assert rec.points[i].tolist() == list(hand.result().points)


# -- records against score_hand --------------------------------------------------------------
def check_row(rec, i, rules, scores=(0, 0), bag_count=(0, 0)):
    bids = rec.bids[i].tolist()
    tricks = rec.tricks_won[i].tolist()
    blind = [bool(b) for b in rec.blind[i]]
    res = score_hand(bids, tricks, rules, blind=blind, scores=scores, bag_count=bag_count)
    for name in FIELDS:
        assert getattr(rec, name)[i].tolist() == list(getattr(res, name)), (name, i)
    assert rec.nil_made[i].tolist() == [bool(n) for n in res.nil_made]
    assert rec.nil_bid[i].tolist() == [n is not None for n in res.nil_made]
    for s in range(4):
        assert rec.nil_made[i, s] == (bids[s] == 0 and tricks[s] == 0)
    return res


@pytest.mark.parametrize("rules_name", list(RULES))
def test_hand_records_agree_with_score_hand(rules_name):
    rules = RULES[rules_name]
    rec = play_hands(["normal", "easy", "random", "normal"], 300, seed=4, rules=rules)
    assert len(rec) == 300
    assert (rec.tricks_won.sum(axis=1) == 13).all()
    assert (rec.tricks_won >= 0).all()
    assert (rec.deal_no == np.arange(300)).all()
    for i in range(len(rec)):
        check_row(rec, i, rules)


@pytest.mark.parametrize(
    "rules_name", [pytest.param("default", marks=pytest.mark.nojit), "nil_counts_bags5", "ten_for_200_min_team"]
)
def test_match_records_agree_with_score_hand_carrying_scores_and_bags(rules_name):
    rules = RULES[rules_name]
    rec = play_matches(["normal", "easy"], 30, seed=8, rules=rules)
    scores, bags = (0, 0), (0, 0)
    for i in range(len(rec)):
        if rec.hand_no[i] == 0:
            scores, bags = (0, 0), (0, 0)
        res = check_row(rec, i, rules, scores, bags)
        scores, bags = res.scores, res.bag_count


# -- seeds, chunking, dealers ----------------------------------------------------------------
def test_same_seed_same_records_other_seed_other_records():
    a = play_hands(["normal", "easy"], 200, seed=9)
    b = play_hands(["normal", "easy"], 200, seed=9)
    c = play_hands(["normal", "easy"], 200, seed=10)
    assert_same(a, b)
    assert a != c
    assert (a.tricks_won != c.tricks_won).any()


def test_chunking_gives_the_same_rows():
    lineup = ["normal", "easy", "random", "normal"]
    whole = play_hands(lineup, 150, seed=12, dealer=1)
    parts = [play_hands(lineup, n, seed=12, dealer=1, start=s) for s, n in ((0, 37), (37, 1), (38, 0), (38, 112))]
    for name in ("deal_no", "dealer", "bids", "blind", "tricks_won", "sheet", "nil_made"):
        joined = np.concatenate([getattr(p, name) for p in parts])
        assert np.array_equal(joined, getattr(whole, name)), name
    middle = play_hands(lineup, 20, seed=12, dealer=1, start=60)
    assert np.array_equal(middle.tricks_won, whole.tricks_won[60:80])


@pytest.mark.nojit
def test_match_chunking_gives_the_same_rows():
    whole = play_matches(["normal", "easy"], 10, seed=3)
    parts = [play_matches(["normal", "easy"], n, seed=3, start=s) for s, n in ((0, 4), (4, 6))]
    for name in ("dealer", "bids", "blind", "tricks_won", "sheet", "nil_made", "match_no", "hand_no", "winner"):
        joined = np.concatenate([getattr(p, name) for p in parts])
        assert np.array_equal(joined, getattr(whole, name)), name


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_dealer_argument_is_honoured(dealer):
    rec = play_hands(["normal", "easy"], 60, seed=21, dealer=dealer)
    assert (rec.dealer == dealer).all()
    slow = play_hands(wrapped(["normal", "easy"]), 60, seed=21, dealer=dealer)
    assert_same(rec, slow)
    other = play_hands(["normal", "easy"], 60, seed=21, dealer=(dealer + 1) % 4)
    assert (other.tricks_won != rec.tricks_won).any()  # a different dealer changes who leads


@pytest.mark.nojit
def test_mirror_bids_are_spade_counts_of_the_seeded_deals():
    """Ties the records to ``deal_masks(seed, i)`` seat by seat."""
    rec = play_hands(["normal", "easy"], 100, seed=14, rules=Rules.preset("mirror"), start=50)
    masks = deal_masks(14, 50, 100)
    for i in range(100):
        assert rec.bids[i].tolist() == [(int(m) & SPADES).bit_count() for m in masks[i]]


# -- matches ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "rules",
    [Rules(), Rules(target_score=250, loss_threshold=-50), Rules(target_score=None, max_hands=4), Rules(max_hands=2)],
)
def test_matches_end_per_match_winner_and_the_dealer_rotates(rules):
    seed = 17
    rec = play_matches(["normal", "random"], 25, seed=seed, rules=rules)
    assert (rec.tricks_won.sum(axis=1) == 13).all()
    ends = np.flatnonzero(np.r_[rec.match_no[1:] != rec.match_no[:-1], True])
    starts = np.r_[0, ends[:-1] + 1]
    assert rec.match_no[starts].tolist() == list(range(25))
    for s, e in zip(starts, ends):
        m = int(rec.match_no[s])
        assert rec.hand_no[s : e + 1].tolist() == list(range(e - s + 1))
        assert rec.deal_no is None  # a match's cards come from its own streams, not a deal index
        assert rec.dealer[s] == match_first_dealer(np.uint64(seed), m, Rules().as_array())
        assert ((np.diff(rec.dealer[s : e + 1].astype(int)) % 4) == 1).all()
        for i in range(s, e + 1):
            w = match_winner(tuple(int(x) for x in rec.scores[i]), rules, hands_played=int(rec.hand_no[i]) + 1)
            if i < e:
                assert w is None and rec.winner[i] == -1
            else:
                assert w is not None and rec.winner[i] == w
                assert rec.scores[i, w] > rec.scores[i, 1 - w]
        if rules.max_hands is not None:
            length = e - s + 1
            if length < rules.max_hands:  # only a target or the loss threshold ends it early
                assert (
                    rec.scores[e].max() >= (rules.target_score or 10**9) or rec.scores[e].min() <= rules.loss_threshold
                )
            elif length > rules.max_hands:  # a tie plays on
                assert rec.scores[e - 1, 0] == rec.scores[e - 1, 1]


def test_first_dealers_vary_between_matches():
    rec = play_matches(["normal", "easy"], 40, seed=2, rules=Rules(max_hands=1))
    assert set(rec.dealer.tolist()) == {0, 1, 2, 3}


# -- input checks ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    "kwargs, error",
    [
        ({"lineup": ["normal"] * 3}, ValueError),
        ({"lineup": ["normal", "expert"]}, ValueError),
        ({"lineup": ["normal", object()]}, TypeError),
        ({"n": -1}, ValueError),
        ({"seed": -3}, ValueError),
        ({"seed": 1.0}, ValueError),
        ({"dealer": 4}, ValueError),
        ({"rules": {"target_score": 500}}, TypeError),
    ],
)
def test_play_hands_refuses_bad_arguments(kwargs, error):
    args = {"lineup": ["normal", "easy"], "n": 2, **kwargs}
    with pytest.raises(error):
        play_hands(**args)


def test_zero_hands_and_zero_matches():
    assert len(play_hands(["normal", "easy"], 0)) == 0
    assert len(play_matches(["normal", "easy"], 0)) == 0


# -- Easy's bids -----------------------------------------------------------------------------
def easy_rows(rules, n=2000, seed=23):
    """Easy at seats 0 and 2 (against random), dealer 0: bidding order 1, 2, 3, 0."""
    rec = play_hands(["easy", "random"], n, seed=seed, rules=rules)
    spades = np.array([[(int(m) & SPADES).bit_count() for m in row] for row in deal_masks(seed, 0, n)])
    return rec.bids.astype(int), spades


@pytest.mark.parametrize("rules", [Rules(), Rules.preset("blind"), Rules(min_bid=3, min_team_bid=6)])
def test_easy_never_bids_nil(rules):
    bids, _ = easy_rows(rules)
    assert (bids[:, [0, 2]] > 0).all()


def test_easy_bids_nil_in_mirror_only_without_spades():
    bids, spades = easy_rows(Rules.preset("mirror"))
    easy = np.s_[:, [0, 2]]
    assert ((bids[easy] == 0) == (spades[easy] == 0)).all()
    assert (spades[easy] == 0).any()  # the case occurs


def test_easy_bids_nil_in_whiz_only_when_it_must():
    bids, spades = easy_rows(Rules.preset("whiz", min_bid=3))
    easy = np.s_[:, [0, 2]]
    assert ((bids[easy] == 0) == (spades[easy] < 3)).all()
    assert ((bids[easy] == spades[easy]) | (bids[easy] == 0)).all()


def test_easy_bids_nil_in_suicide_only_when_its_partner_bid_a_number():
    bids, _ = easy_rows(Rules.preset("suicide"))
    assert (bids[:, 2] >= 4).all()  # seat 2 bids first of its team: it may bid a number
    assert (bids[:, 0] == 0).all()  # seat 0 must then bid nil


# -- strength --------------------------------------------------------------------------------
def duplicate(a, b, deals, seed):
    """Per deal, a's team points minus b's, averaged over both seatings; mean and 95% half-width."""
    t0 = play_hands([a, b], deals, seed=seed)
    t1 = play_hands([b, a], deals, seed=seed)
    diff = (t0.points[:, 0] - t0.points[:, 1] + t1.points[:, 1] - t1.points[:, 0]) / 2
    return diff.mean(), 1.96 * diff.std(ddof=1) / np.sqrt(deals)


@pytest.mark.parametrize("strong, weak", [("easy", "random"), ("normal", "easy")])
def test_stronger_agent_wins_on_duplicate_deals(strong, weak):
    mean, half = duplicate(strong, weak, 4000, seed=404)
    assert mean - half > 0, (mean, half)


def test_normal_wins_most_matches_against_easy():
    a = play_matches(["normal", "easy"], 150, seed=6)
    b = play_matches(["easy", "normal"], 150, seed=6)
    wins = (a.winner == 0).sum() + (b.winner == 1).sum()
    assert wins / 300 >= 0.8


def test_the_loop_compiles_without_the_code_the_run_cannot_reach():
    """Default rules and kernel agents only: ``views`` and ``answers`` are None, so the loop's
    compiled version has neither ``play_on_house`` nor the Python agents' answers (it could
    not be typed with them: both index those arguments)."""
    from numba import types

    from spades_ai.selfplay.play import Seating

    def signatures(lineup, rules=None):
        play_hands(lineup, 3, seed=1, rules=rules)
        return Seating(resolve_lineup(lineup)).module.play_hands_kernel.signatures

    assert any(sig[-3] == types.none and sig[-1] == types.none for sig in signatures(["normal", "easy"]))

    class Low:
        def bid(self, obs):
            return obs.legal_bids()[-1]

        def play(self, obs):
            return obs.legal_cards()[0]

    sigs = signatures(["easy", Low()], Rules(pass_cards=1))
    assert any(sig[-3] != types.none and sig[-1] != types.none for sig in sigs)


def test_lineups_of_random_easy_and_normal_share_one_loop():
    """Every lineup of two or three of the rule-based built-ins (with any params) is bound to
    all three, so it compiles one loop; each seat keeps its own kernels and params. One agent
    alone, two seats with the same kernels and other params, or any other agent, keep a loop
    of their own."""
    from spades_ai.selfplay.play import Seating

    def seating(lineup):
        return Seating(resolve_lineup(lineup))

    shared = seating(["normal", "easy"])
    assert [a.name for a in shared.by_slot] == ["random", "easy", "normal"]
    careless = make_agent("easy", careless=0.5)
    for lineup in (["random", "normal"], ["easy", "random"], [careless, "normal"], ["random", "easy", "normal", "easy"]):
        assert seating(lineup).module is shared.module
    mine = seating([careless, "normal"])
    assert mine.params[1, : len(careless.params)].tolist() == careless.params.tolist()
    assert mine.slots[0, 0] == mine.slots[0, 1] == 1 and mine.slots[1, 0] == 2
    assert seating([careless, "easy"]).module is not shared.module
    assert [a.name for a in seating(["easy"] * 4).by_slot] == ["easy"]
    assert seating(["hard", "normal"]).module is not shared.module
    # the records are those of the lineup, not of the slots no seat uses
    assert play_hands([careless, "normal"], 20, seed=3) == play_hands([careless, "normal"], 20, seed=3)
    assert play_hands([careless, "normal"], 20, seed=3) != play_hands(["easy", "normal"], 20, seed=3)
