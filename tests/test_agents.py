"""The agent interface (issue 3, sections 1-2): make_agent / list_agents, check_agent, the
errors a bad user agent gets, what an Observation holds, and the no-peek test."""

from __future__ import annotations

import copy
import pickle
import random

import numpy as np
import pytest

from spades_ai import (
    Agent,
    Card,
    Hand,
    IllegalBidError,
    IllegalPlayError,
    Rules,
    list_agents,
    make_agent,
    parse_cards,
    play_hands,
)
from spades_ai.cards import cards_to_mask
from spades_ai.engine import state as st
from spades_ai.simulate import deal_masks
from spades_ai.testing import AgentCheckError, check_agent

BUILTINS = ("random", "easy", "normal")
FULL = (1 << 52) - 1
SPADES = 0x1FFF << 39
TWO_CLUBS = 0  # card id of 2C

RULE_SETS = {
    "default": Rules(),
    "suicide": Rules.preset("suicide"),
    "mirror": Rules.preset("mirror"),
    "whiz": Rules.preset("whiz"),
    "blind": Rules.preset("blind"),
    "anytime_low_club": Rules(spade_lead="anytime", first_lead="low_club"),
    "jokers_high_deuces": Rules(jokers=2, deuces_high=2, blind_nil=True, first_lead="low_club"),
    "mirror_joker": Rules.preset("mirror", jokers=1, deuces_high=3),
}


def mask(text: str) -> int:
    return cards_to_mask(parse_cards(text))


# -- make_agent / list_agents ---------------------------------------------------------------
def test_list_agents_names_every_builtin_with_a_description():
    agents = list_agents()
    assert set(BUILTINS) <= set(agents)
    assert all(isinstance(d, str) and d for d in agents.values())


@pytest.mark.parametrize("name", BUILTINS)
def test_make_agent_builds_each_builtin(name):
    agent = make_agent(name)
    assert agent.name == name
    assert isinstance(agent, Agent)
    assert agent.options["seed"] == 0
    assert make_agent(name, seed=5).options["seed"] == 5


def test_make_agent_default_and_custom_options():
    assert make_agent("easy").options == {"seed": 0, "careless": 0.3}
    assert make_agent("easy", careless=0.5).options == {"seed": 0, "careless": 0.5}
    assert make_agent("easy", careless=0.5).label == "easy(careless=0.5)"
    assert make_agent("normal").label == "normal"
    assert make_agent("normal").options == {"seed": 0, "blind_nil": True}
    assert make_agent("normal", blind_nil=False).label == "normal(blind_nil=False)"


def test_unknown_agent_name_is_refused_listing_the_valid_names():
    with pytest.raises(ValueError, match="unknown agent 'expert'") as info:
        make_agent("expert")
    for name in BUILTINS:
        assert name in str(info.value)


@pytest.mark.parametrize(
    "name, option, listed",
    [("normal", "careless", ["seed"]), ("easy", "samples", ["seed", "careless"]), ("random", "depth", ["seed"])],
)
def test_unknown_option_is_refused_listing_the_valid_options(name, option, listed):
    with pytest.raises(ValueError, match=f"no option '{option}'") as info:
        make_agent(name, **{option: 1})
    for opt in listed:
        assert opt in str(info.value)


@pytest.mark.parametrize(
    "name, options",
    [
        ("easy", {"careless": 1.5}),
        ("easy", {"careless": -0.1}),
        ("easy", {"careless": True}),
        ("easy", {"careless": "0.3"}),
        ("normal", {"seed": -1}),
        ("normal", {"seed": 1.5}),
        ("random", {"seed": True}),
        ("random", {"seed": 2**64}),  # one seed range everywhere: 0..2**64-1
        ("random", {"seed": "7"}),
    ],
)
def test_bad_option_values_are_refused_naming_the_option(name, options):
    (key,) = options
    with pytest.raises(ValueError, match=f"option '{key}'"):
        make_agent(name, **options)


def test_a_plain_python_class_satisfies_the_agent_protocol():
    class Mine:
        name = "mine"

        def bid(self, obs):
            return 1

        def play(self, obs):
            return obs.legal_cards()[0]

    assert isinstance(Mine(), Agent)
    assert play_hands([Mine(), "easy"], 3).tricks_won.sum(axis=1).tolist() == [13, 13, 13]


def test_random_agent_decisions_depend_on_its_seed_only():
    hand = Hand(deal_masks(3, 0, 1)[0].tolist())
    for b in (3, 3, 3, 3):
        hand.bid(b)
    obs = hand.observation()
    picks = {int(make_agent("random", seed=s).play(obs)) for s in range(40)}
    assert len(picks) > 1
    assert make_agent("random", seed=9).play(obs) == make_agent("random", seed=9).play(obs)


# -- check_agent on the built-ins ------------------------------------------------------------
@pytest.mark.parametrize("rules_name", list(RULE_SETS))
@pytest.mark.parametrize("name", BUILTINS)
def test_check_agent_passes_for_builtins(name, rules_name):
    report = check_agent(make_agent(name), hands=200, seed=11, rules=RULE_SETS[rules_name])
    assert report.startswith(f"{name}: 200 hands")
    assert "all legal and reproducible" in report


def test_check_agent_with_easy_partner_and_random_opponents():
    assert "reproducible" in check_agent(make_agent("normal"), hands=40, partner="easy", opponents="random")


# -- check_agent on broken Python agents -----------------------------------------------------
class _Base:
    """A legal, deterministic Python agent: bids its legal minimum, plays its lowest legal card."""

    name = "base"

    def bid(self, obs):
        legal = obs.legal_bids()
        numbers = [b for b in legal if b > 0]
        return numbers[0] if numbers else legal[0]

    def play(self, obs):
        return obs.legal_cards()[0]


class IllegalCard(_Base):
    name = "reneger"

    def play(self, obs):
        illegal = [c for c in obs.cards if c not in obs.legal_cards()]
        return illegal[0] if illegal else obs.legal_cards()[0]


class FloatBid(_Base):
    name = "floaty"

    def bid(self, obs):
        return float(super().bid(obs))


class IllegalBid(_Base):
    name = "overbidder"

    def bid(self, obs):
        return 14


class Crasher(_Base):
    name = "crasher"

    def play(self, obs):
        if obs.trick_no == 2:
            raise RuntimeError("boom")
        return super().play(obs)


class Forgetful(_Base):
    """Draws from its own unseeded-per-observation stream: the same question, another answer."""

    name = "forgetful"

    def __init__(self):
        self.rng = random.Random(0)

    def play(self, obs):
        return self.rng.choice(obs.legal_cards())


def test_check_agent_passes_a_legal_deterministic_python_agent():
    assert check_agent(_Base(), hands=12) == "base: 12 hands, 336 decisions, all legal and reproducible"


class SeatRecorder(_Base):
    """Records the seat of every bid it is asked for."""

    name = "recorder"

    def __init__(self):
        self.seats = []

    def bid(self, obs):
        self.seats.append(obs.seat)
        return super().bid(obs)


@pytest.mark.parametrize("rules", [Rules(), Rules(pass_cards=2)], ids=["no passing", "passing 2"])
def test_check_agent_seats_the_agent_at_every_seat_in_turn(rules):
    """Issue 42: with card passing the agent sat at 0, 1, 0, 1 (the players' count was
    overwritten by the pass count); it sits at deal i's seat i % players, asked twice a bid."""
    agent = SeatRecorder()
    check_agent(agent, hands=8, rules=rules, partner="easy", opponents="easy")
    assert agent.seats == [i % rules.players for i in range(8) for _ in range(2)]


@pytest.mark.parametrize(
    "agent, message",
    [
        (IllegalCard(), r"agent 'reneger' at seat \d, deal \d+ of seed 0: illegal card"),
        (FloatBid(), r"agent 'floaty' at seat \d, .*bid returned 1\.0, not an int"),
        (IllegalBid(), r"agent 'overbidder' at seat \d, .*illegal bid 14"),
        (Crasher(), r"agent 'crasher' at seat \d, .*play raised RuntimeError: boom"),
        (Forgetful(), r"agent 'forgetful' at seat \d, .*play is not reproducible"),
    ],
    ids=["illegal-card", "float-bid", "illegal-bid", "crash", "non-reproducible"],
)
def test_check_agent_rejects_a_broken_agent(agent, message):
    with pytest.raises(AgentCheckError, match=message):
        check_agent(agent, hands=8)


def test_agent_check_error_is_an_assertion_error():
    assert issubclass(AgentCheckError, AssertionError)


def test_illegal_card_in_play_hands_names_the_agent_seat_and_card():
    with pytest.raises(IllegalPlayError) as info:
        play_hands(["normal", IllegalCard(), "normal", "normal"], 5)
    msg = str(info.value)
    assert "agent 'reneger' at seat 1" in msg
    assert "illegal card" in msg
    card = msg.split("illegal card ")[1].split(":")[0]
    assert Card.parse(card) in range(52)  # the card itself is named, e.g. "KH"
    assert f"may not play {card}: " in msg  # and the engine's reason


def test_illegal_bid_in_play_hands_names_the_agent_seat_and_bid():
    with pytest.raises(IllegalBidError, match=r"agent 'overbidder' at seat 2 chose an illegal bid 14"):
        play_hands(["normal", "normal", IllegalBid(), "normal"], 1)


def test_a_malformed_action_in_play_hands_names_the_agent_and_seat():
    class NoCard(_Base):
        name = "nocard"

        def play(self, obs):
            return None

    with pytest.raises(IllegalBidError, match=r"agent 'floaty' at seat 1 bid 1\.0: a bid is an int"):
        play_hands(["normal", FloatBid(), "normal", "normal"], 3)
    with pytest.raises(IllegalPlayError, match=r"agent 'nocard' at seat 3 played None: "):
        play_hands(["normal", "normal", "normal", NoCard()], 3)


def test_an_agent_that_raises_stops_play_hands_with_its_own_error():
    with pytest.raises(RuntimeError, match="boom"):
        play_hands([Crasher(), "normal"], 20)


def test_a_card_string_is_accepted_from_a_python_agent():
    class Strings(_Base):
        def play(self, obs):
            return str(obs.legal_cards()[-1])

    class Cards(_Base):
        def play(self, obs):
            return obs.legal_cards()[-1]

    class Ids(_Base):
        def play(self, obs):
            return int(obs.legal_cards()[-1])

    # the same card named three ways: the same hands, card for card
    by_string = play_hands([Strings(), "easy"], 6, keep_plays=True)
    assert by_string == play_hands([Cards(), "easy"], 6, keep_plays=True) == play_hands([Ids(), "easy"], 6, keep_plays=True)
    assert by_string != play_hands([_Base(), "easy"], 6, keep_plays=True)  # the highest legal card, not the lowest


# -- what an Observation holds ---------------------------------------------------------------
# Seat 1 has no hearts, seat 3 no clubs; dealer 3, so seat 0 bids and leads first.
OBS_DEAL = [
    "AH KH QH 2H 3H AC KC QC 2C 3C AD KD 2S",
    "4C 5C 6C 7C 8C 3D 4D 5D 6D 3S 4S 5S 6S",
    "4H 5H 6H 7H 8H 9H 9C TC JC 7D 8D 7S 8S",
    "TH JH 2D 9D TD JD QD 9S TS JS QS KS AS",
]
OBS_PLAYS = ["AH", "3S", "4H", "TH", "4C", "9C", "2D", "AC", "KH"]


def obs_hand() -> Hand:
    hand = Hand(OBS_DEAL, dealer=3, rules=Rules.preset("blind"), scores=(120, -40), bag_count=(3, 7), hands_played=4)
    hand.bid(4)
    hand.bid(0, blind=True)
    hand.bid(3)
    hand.bid(5)
    for c in OBS_PLAYS:
        hand.play(c)
    return hand


def test_observation_holds_what_the_seat_has_seen():
    hand = obs_hand()
    obs = hand.observation()
    assert obs.seat == 1 and obs.phase == "playing" and obs.dealer == 3
    assert obs.cards == mask("5C 6C 7C 8C 3D 4D 5D 6D 4S 5S 6S")
    assert [str(c) for c in obs.cards] == ["5C", "6C", "7C", "8C", "3D", "4D", "5D", "6D", "4S", "5S", "6S"]
    assert obs.bids == [4, 0, 3, 5]
    assert obs.blind == [False, True, False, False]
    assert [(s, str(c)) for s, c in obs.plays] == list(zip([0, 1, 2, 3, 1, 2, 3, 0, 0], OBS_PLAYS))
    assert [(s, str(c)) for s, c in obs.current_trick] == [(0, "KH")]
    assert [[str(c) for c in cs] for cs in obs.played_by] == [
        ["AC", "KH", "AH"],
        ["4C", "3S"],
        ["9C", "4H"],
        ["2D", "TH"],
    ]
    assert obs.tricks_won == [1, 1, 0, 0]
    assert obs.trick_no == 2
    assert obs.spades_broken
    assert obs.voids == [set(), {2}, set(), {0}]
    assert obs.scores == (120, -40) and obs.bag_count == (3, 7)
    assert obs.public[st.P_HANDS_PLAYED] == 4
    assert obs.rules == Rules.preset("blind")
    assert np.array_equal(obs.rules_array, Rules.preset("blind").as_array())
    assert obs.legal_cards() == hand.legal_cards() == parse_cards("5C 6C 7C 8C 3D 4D 5D 6D 4S 5S 6S")
    assert obs.legal_bids() == []
    assert not obs.blind_decision


def test_observation_holds_nothing_else():
    obs = obs_hand().observation()
    assert set(type(obs).__slots__) == {
        "seat", "cards", "public", "rules", "rules_array", "blind_decision", "_plays", "_history", "_legal", "_engine"
    }
    assert int(obs.engine_cards) == int(obs.cards)  # no joker or high deuce moves a card
    assert obs.public.shape == (st.N_PUBLIC,)
    # No hidden card is anywhere in it: the bits set in the seat's view are its own cards and
    # the cards played, nothing more.
    hidden = FULL & ~obs.cards & ~int(obs.public[st.P_PLAYED])
    assert obs.cards & hidden == 0
    assert int(obs.public[st.P_DECK]) == FULL  # the deck every seat knows (the rules')
    for slot in [*range(st.P_HISTORY), *range(st.P_PLAYED2, st.N_PUBLIC)]:  # the copies' levels: 0 here
        v = int(obs.public[slot])
        if v >= 1 << 13 and slot != st.P_DECK:  # only masks are this large: they must be played cards
            assert v & hidden == 0, slot
    # the finished tricks' records hold played card ids (and the leader), nothing else
    for t in range(st.MAX_TRICKS):
        v = int(obs.public[st.P_HISTORY + st.HISTORY_WORDS * t])
        cards = [v >> (4 + 6 * i) & 63 for i in range(4)] if t < int(obs.public[st.P_TRICK_NO]) else []
        assert v == 0 or all(int(obs.public[st.P_PLAYED]) >> c & 1 for c in cards), t
        assert obs.public[st.P_HISTORY + st.HISTORY_WORDS * t + 1] == 0  # cards 9..11: none at four seats
    assert st.P_HISTORY + st.HISTORY_WORDS * st.MAX_TRICKS == st.P_PLAYED2  # then the levels of the copies


def test_observation_is_a_frozen_snapshot():
    hand = obs_hand()
    obs = hand.observation()
    before = obs.public.copy()
    with pytest.raises(ValueError):
        obs.public[0] = 1
    hand.play("4S")
    assert np.array_equal(obs.public, before)
    assert len(obs.plays) == len(OBS_PLAYS)


OBS_FIELDS = ("seat", "cards", "phase", "dealer", "bids", "blind", "tricks_won", "trick_no", "spades_broken", "leader",
              "current_trick", "played_by", "voids", "scores", "bag_count", "hands_played", "plays", "blind_decision", "rules")  # fmt: skip


def assert_same_observation(a, b):
    for name in OBS_FIELDS:
        assert getattr(a, name) == getattr(b, name), name
    assert np.array_equal(a.public, b.public) and np.array_equal(a.rules_array, b.rules_array)
    assert a.legal_bids() == b.legal_bids() and a.legal_cards() == b.legal_cards() and repr(a) == repr(b)


def test_observations_from_the_loop_equal_the_hands_and_stay_as_they_were():
    kept = []

    class Keeper(_Base):
        name = "keeper"

        def bid(self, obs):
            kept.append(obs)
            return super().bid(obs)

        def play(self, obs):
            kept.append(obs)
            return super().play(obs)

    rules = Rules(bag_limit=5)
    rec = play_hands([Keeper(), "normal"], 6, seed=4, rules=rules, dealer=1, keep_plays=True)
    expected = {}  # the same moments, from a Hand replayed from the records
    for i, deal in enumerate(deal_masks(4, 0, 6)):
        hand = Hand(deal.tolist(), dealer=1, rules=rules)
        for k in range(4):
            seat = (1 + 1 + k) % 4
            if seat % 2 == 0:
                expected[(i, int(hand.observation().cards), 0, k)] = hand.observation()
            hand.bid(int(rec.bids[i, seat]))
        for k, card in enumerate(rec.plays[i]):
            if hand.to_act % 2 == 0:
                expected[(i, int(hand.observation().cards), 1, k)] = hand.observation()
            hand.play(int(card))
    assert len(kept) == len(expected) == 6 * (2 + 26)
    deal_of = {int(c): i for i, d in enumerate(deal_masks(4, 0, 6)) for c in d}
    for obs in kept:  # asked in batches, so not in deal order: each is matched to its moment
        moment = sum(b is not None for b in obs.bids) if obs.phase == "bidding" else len(obs.plays)
        i = deal_of[int(obs.cards | obs.played_by[obs.seat])]
        want = expected[(i, int(obs.cards), int(obs.phase == "playing"), moment)]
        assert_same_observation(obs, want)
        again = pickle.loads(pickle.dumps(obs))
        assert_same_observation(again, want)
        assert len(pickle.dumps(obs)) < 4000  # its own plays and public array, not the batch's arrays
        assert_same_observation(copy.deepcopy(obs), want)


def test_observation_during_bidding():
    hand = Hand(OBS_DEAL, dealer=3)
    hand.bid(4)
    obs = hand.observation()
    assert obs.seat == 1 and obs.phase == "bidding"
    assert obs.cards == mask(OBS_DEAL[1])
    assert obs.bids == [4, None, None, None]
    assert obs.plays == () and obs.current_trick == [] and obs.trick_no == 0
    assert obs.legal_bids() == list(range(14))
    assert obs.legal_cards() == []


def test_blind_nil_decision_shows_no_cards():
    hand = Hand(OBS_DEAL, dealer=3, rules=Rules.preset("blind"))
    obs = hand.observation(blind_decision=True)
    assert obs.blind_decision
    assert obs.cards == 0 and obs.cards == []
    assert obs.legal_bids() == [0]
    assert hand.observation().cards == mask(OBS_DEAL[0])
    for name in BUILTINS:
        assert make_agent(name).blind_nil(obs) is False


def test_observation_is_refused_once_the_hand_is_over():
    hand = Hand(deal_masks(1, 0, 1)[0].tolist())
    agent = make_agent("normal")
    while hand.phase != "over":
        obs = hand.observation()
        hand.bid(agent.bid(obs)) if hand.phase == "bidding" else hand.play(agent.play(obs))
    with pytest.raises(ValueError, match="over"):
        hand.observation()


# -- the no-peek test ------------------------------------------------------------------------
def redeal(obs, rng: random.Random, budget: int = 20_000) -> list[int] | None:
    """The hidden cards dealt again at random among the three other seats, fitting ``obs``.

    Each seat keeps its number of cards; a seat shown void in a suit gets none of it; under
    mirror / whiz a seat that bid a number holds that many spades in all. Returns the re-dealt
    *original* deal (cards now held plus cards played), or None if the randomized backtracking
    ran out of budget.
    """
    me = obs.seat
    played_by = [int(cards) for cards in obs.played_by]  # card ids, whatever the rules
    played = played_by[0] | played_by[1] | played_by[2] | played_by[3]
    others = [s for s in range(4) if s != me]
    unseen = [c for c in range(52) if not (played | obs.cards) >> c & 1]
    room = {s: 13 - played_by[s].bit_count() for s in others}
    assert sum(room.values()) == len(unseen)

    def suit_of(c):  # jokers and high deuces count as spades
        return obs.rules.card(c).suit

    spades_due = {}  # seat -> spades it must still receive
    if obs.rules.bidding in ("mirror", "whiz"):
        for s in others:
            b = obs.bids[s]
            if b is not None and (b > 0 or obs.rules.bidding == "mirror"):
                spades_due[s] = b - len(obs.played_by[s].suit(3))
    voids = obs.voids

    def allowed(c, s):
        if suit_of(c) in voids[s]:
            return False
        if s in spades_due and suit_of(c) == 3:
            return spades_due[s] > 0
        return True

    spades = [c for c in unseen if suit_of(c) == 3]
    rest = [c for c in unseen if suit_of(c) != 3]
    rng.shuffle(spades)
    rest.sort(key=lambda c: (sum(allowed(c, s) for s in others), rng.random()))
    order = spades + rest
    got = {s: 0 for s in others}
    owner = {}
    steps = [0]

    def place(i):
        steps[0] += 1
        if steps[0] > budget:
            return False
        if i == len(spades) and any(spades_due[s] != 0 for s in spades_due):
            return False
        if i == len(order):
            return True
        c = order[i]
        seats = [s for s in others if got[s] < room[s] and allowed(c, s)]
        rng.shuffle(seats)
        for s in seats:
            got[s] += 1
            owner[c] = s
            if suit_of(c) == 3 and s in spades_due:
                spades_due[s] -= 1
            if place(i + 1):
                return True
            got[s] -= 1
            if suit_of(c) == 3 and s in spades_due:
                spades_due[s] += 1
        return False

    if not place(0):
        return None
    deal = [played_by[s] for s in range(4)]
    deal[me] |= obs.cards
    for c, s in owner.items():
        deal[s] |= 1 << c
    return deal


def shown_only_spades(obs) -> dict[int, set[int]]:
    """Seats that led a spade while the spade-lead rule forbade it: they held nothing else
    (read from the plays, independently of the engine's void tracking)."""
    may_lead = {
        "broken": lambda broken, t: broken,
        "after_first_trick": lambda broken, t: t >= 1,
        "after_three_tricks": lambda broken, t: t >= 3,
        "after_three_tricks_or_broken": lambda broken, t: broken or t >= 3,
        "anytime": lambda broken, t: True,
    }[obs.rules.spade_lead]
    out = {}
    broken = False
    for i in range(0, len(obs.plays), 4):
        seat, lead = obs.plays[i]
        low_club_lead = i == 0 and obs.rules.first_lead == "low_club"
        if lead.suit == 3 and not low_club_lead and not may_lead(broken, i // 4):
            out[seat] = {0, 1, 2}
        broken = broken or any(c.suit == 3 for _, c in obs.plays[i : i + 4])
    return out


def replay(hand: Hand, deal: list[int]) -> Hand:
    """A hand dealt as ``deal`` with ``hand``'s match state, bids and plays replayed."""
    new = Hand(deal, hand.dealer, hand.rules, hand.scores, hand.bag_count, hand.hands_played)
    for _, b, blind in hand.bid_history():
        new.bid(b, blind=blind)
    for _, c in hand.plays:
        new.play(c)
    return new


def random_positions(n: int, seed: int):
    """``n`` (hand, observation) positions at random points of built-in self-play."""
    rng = random.Random(seed)
    lineups = [["normal"] * 4, ["easy", "normal", "random", "normal"], ["random"] * 4, ["normal", "easy"] * 2]
    masks = deal_masks(seed, 0, n)
    for i in range(n):
        rules = list(RULE_SETS.values())[i % len(RULE_SETS)]
        agents = [make_agent(a, seed=i) for a in lineups[i % len(lineups)]]
        bags = tuple(rng.randrange(rules.bag_limit) for _ in range(2))
        scores = tuple(rng.randrange(-150, 450, 10) + b for b in bags)
        hand = Hand(masks[i].tolist(), rng.randrange(4), rules, scores, bags, hands_played=rng.randrange(6))
        # actions made before the position: a quarter in the bidding, the rest in the play
        stop = rng.randrange(4) if rng.random() < 0.25 else rng.randrange(4, 4 + 51)
        for _ in range(stop):
            obs = hand.observation()
            agent = agents[obs.seat]
            hand.bid(agent.bid(obs)) if hand.phase == "bidding" else hand.play(agent.play(obs))
        yield hand, hand.observation()


def decisions(obs, agents):
    if obs.phase == "bidding":
        return [a.bid(obs) for a in agents]
    return [int(a.play(obs)) for a in agents]


def no_peek_run(agents, positions: int, seed: int, redeals: int = 3) -> dict:
    """Ask ``agents`` about random positions, then about the same observation re-dealt.

    An agent with a ``table`` attribute is handed the hand it sits at (how a cheater peeks).
    """
    rng = random.Random(seed)
    stats = {"checked": 0, "changed_deals": 0, "bidding": 0, "changed_decisions": 0}
    for hand, obs in random_positions(positions, seed=seed):
        for a in agents:
            if hasattr(a, "table"):
                a.table = hand
        want = decisions(obs, agents)
        stats["bidding"] += obs.phase == "bidding"
        for _ in range(redeals):
            deal = redeal(obs, rng)
            assert deal is not None, "the real deal fits, so a re-deal exists"
            other = replay(hand, deal)
            seen = other.observation()
            assert seen.seat == obs.seat and seen.cards == obs.cards and seen.plays == obs.plays
            assert np.array_equal(seen.public, obs.public)
            for a in agents:
                if hasattr(a, "table"):
                    a.table = other
            stats["changed_deals"] += [int(m) for m in other.deal] != [int(m) for m in hand.deal]
            got = decisions(seen, agents)
            stats["changed_decisions"] += got != want
            stats["checked"] += 1
    return stats


def test_no_agent_peeks_at_hidden_cards():
    """Re-deal the unseen cards consistently with the observation: no decision may change."""
    agents = [make_agent("random", seed=7), make_agent("easy", seed=3), make_agent("easy", careless=1.0, seed=4)]
    agents += [make_agent("normal"), make_agent("normal", seed=99)]
    stats = no_peek_run(agents, 400, seed=5)
    assert stats["changed_decisions"] == 0
    assert stats["checked"] == 1200
    assert stats["changed_deals"] > 1000  # the hidden cards really moved
    assert 60 < stats["bidding"] < 140  # both bidding and play positions were tested


class Cheater(_Base):
    """Looks at the next seat's cards (through ``table``) to choose."""

    name = "cheater"
    table = None

    def bid(self, obs):
        legal = obs.legal_bids()
        return legal[sum(self.table.cards((obs.seat + 1) % 4)) % len(legal)]

    def play(self, obs):
        legal = obs.legal_cards()
        return legal[sum(self.table.cards((obs.seat + 1) % 4)) % len(legal)]


def test_the_no_peek_test_catches_a_cheater():
    stats = no_peek_run([make_agent("normal"), Cheater()], 60, seed=6, redeals=2)
    assert stats["changed_decisions"] > 30


def test_redeal_respects_voids_counts_and_mirror_bids():
    rng = random.Random(1)
    for hand, obs in random_positions(60, seed=8):
        for _ in range(2):
            deal = redeal(obs, rng)
            assert sorted(m.bit_count() for m in deal) == [13] * 4
            assert np.bitwise_or.reduce(np.array(deal, dtype=np.uint64)) == FULL
            for s in range(4):
                now = obs.rules.cardset(deal[s] & ~int(obs.played_by[s]))
                for suit in obs.voids[s]:
                    assert not now.suit(suit)
            if obs.rules.bidding == "mirror":
                for s, b in enumerate(obs.bids):
                    if b is not None:
                        assert len(obs.rules.cardset(deal[s]).suit(3)) == b


def test_low_club_first_leader_is_not_public_during_bidding():
    """The first leader (the holder of the lowest club) is not public before the play."""
    rules = Rules(first_lead="low_club")
    deal = [mask(h) for h in OBS_DEAL]  # seat 0 holds the 2 of clubs
    moved = list(deal)
    two_clubs, seven_clubs = mask("2C"), mask("7C")
    moved[0] = deal[0] ^ two_clubs | seven_clubs  # 2C and 7C swap between seats 0 and 1
    moved[1] = deal[1] ^ seven_clubs | two_clubs
    seen = []
    for d in (deal, moved):
        hand = Hand(d, dealer=1, rules=rules)  # seat 2 bids first and sees neither card
        seen.append(hand.observation())
    assert seen[0].cards == seen[1].cards
    assert np.array_equal(seen[0].public, seen[1].public)


def test_voids_include_spade_leads_that_show_an_all_spade_hand():
    """A seat that leads a spade while the rules allow that only from an all-spade hand has
    shown it holds nothing else: the engine records it as void in the other three suits."""
    shown = 0
    for _, obs in random_positions(400, seed=17):
        for seat, suits in shown_only_spades(obs).items():
            assert suits <= obs.voids[seat]
            shown += 1
    assert shown > 0  # the positions do contain such leads


def test_first_leader_is_public_once_the_play_starts():
    rules = Rules(first_lead="low_club")
    deal = [mask(h) for h in OBS_DEAL]  # seat 0 holds the 2 of clubs
    hand = Hand(deal, dealer=1, rules=rules)
    for _ in range(4):
        hand.bid(hand.legal_bids()[1])
    assert hand.leader == 0 and hand.to_act == 0
    assert int(hand.observation().public[st.P_LEADER]) == 0


def test_agent_seeds_take_the_whole_uint64_range():
    big = make_agent("random", seed=2**64 - 1)
    rec = play_hands([big, "easy"], 20, seed=2**64 - 1)
    assert (rec.tricks_won.sum(axis=1) == 13).all()
    assert rec != play_hands([make_agent("random", seed=2**63 - 1), "easy"], 20, seed=2**64 - 1)


# -- closed bidding: no agent reads a bid it has not seen -----------------------------------
CLOSED_RULES = [
    Rules(closed_bidding=True),
    Rules(closed_bidding=True, blind_nil=True, min_bid=2),
    Rules.preset("whiz", closed_bidding=True),
]


def test_closed_bidding_no_agent_reads_a_hidden_bid():
    """Under closed bidding, make the earlier bids again differently: the bidder's observation
    and every built-in agent's bid (Hard and Crazy with a few worlds) stay the same."""
    rng = random.Random(12)
    agents = [make_agent(a, seed=3) for a in BUILTINS]
    agents += [make_agent("hard", worlds=12, seed=3), make_agent("crazy", worlds=12, seed=3)]
    masks = deal_masks(12, 0, 60)
    checked = changed_bids = 0
    for i in range(60):
        rules = CLOSED_RULES[i % len(CLOSED_RULES)]
        dealer = rng.randrange(4)
        scores = (rng.randrange(-100, 400, 10), rng.randrange(-100, 400, 10))
        before = rng.randrange(1, 4)  # bids made before the position
        views = []
        for _ in range(3):
            hand = Hand(masks[i].tolist(), dealer, rules, scores)
            for _ in range(before):
                blind = hand.legal_bids(blind=True) and rng.random() < 0.3
                hand.bid(0, blind=True) if blind else hand.bid(rng.choice(hand.legal_bids()))
            views.append((hand.bids, hand.observation()))
        want = [a.bid(views[0][1]) for a in agents]
        for bids, obs in views[1:]:
            changed_bids += bids != views[0][0]
            assert obs.bids == [None] * 4 and np.array_equal(obs.public, views[0][1].public)
            assert [a.bid(obs) for a in agents] == want
            checked += 1
    assert checked == 120 and changed_bids > 80


def test_check_agent_passes_an_agents_table_refusal_through():
    """An agent that refuses the table through the one table check has not broken the
    interface: its ``TableError`` reaches the caller as it is (``check_table`` counts it a refusal)."""
    from spades_ai.errors import TableError

    with pytest.raises(TableError, match=r"^agent 'learned' plays 4 players in pairs, 3 players, 4 solo, 5 players and 6 in pairs, not 7 players solo"):
        check_agent(make_agent("learned"), hands=1, rules=Rules(players=7))
