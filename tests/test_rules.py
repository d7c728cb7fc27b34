"""``Rules``: defaults, validation, TOML, presets, the kernels' array, and the bidding presets."""

from __future__ import annotations

import dataclasses
import random
import re
import typing

import pytest
from naive import random_rules_kwargs

import spades_ai as sa
from spades_ai import Hand, Rules, RulesError
from spades_ai import rules as rules_mod

# The defaults of RULES.md / issue 2, written out independently of the dataclass.
RULES_MD_DEFAULTS = {
    "target_score": 500,
    "loss_threshold": -200,
    "nil": True,
    "nil_bonus": 100,
    "blind_nil": False,
    "blind_nil_bonus": 200,
    "blind_nil_min_deficit": 0,
    "nil_tricks_count": False,
    "bag_limit": 10,
    "bag_penalty": 100,
    "spade_lead": "broken",
    "first_lead": "dealer_left",
    "min_bid": 1,
    "min_team_bid": 0,
    "ten_for_200": False,
    "bidding": "classic",
    "max_hands": None,
    "hook": False,
    "half_blind_penalty": False,
    "closed_bidding": False,
    "pass_cards": 0,
    "blind_pass": 0,
    "jokers": 0,
    "deuces_high": 0,
    "players": 4,
    "teams": "pairs",
    "must_win": False,
    "failed_bid": 0,
    "equal_cards": "first",
}


def test_defaults_are_rules_md():
    assert Rules().to_dict() == RULES_MD_DEFAULTS
    assert [f.name for f in dataclasses.fields(Rules)] == list(RULES_MD_DEFAULTS)


def test_rules_are_frozen_and_hashable():
    r = Rules()
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.nil_bonus = 50
    assert r == Rules() and hash(r) == hash(Rules())
    assert r != Rules(nil_bonus=50)


def test_every_field_documented():
    """Every field has a docstring in the class source (STYLE.md: a docstring per field)."""
    import inspect

    src = inspect.getsource(Rules)
    for name in RULES_MD_DEFAULTS:
        after = src.split(f"\n    {name}:", 1)[1].split("\n", 2)
        assert after[1].strip().startswith('"""'), name


@pytest.mark.parametrize(
    "field, value",
    [
        ("target_score", 0),
        ("target_score", -500),
        ("target_score", True),
        ("target_score", 500.0),
        ("target_score", "500"),
        ("loss_threshold", 0),
        ("loss_threshold", 200),
        ("loss_threshold", True),
        ("loss_threshold", -200.5),
        ("nil", 1),
        ("nil", "yes"),
        ("nil", None),
        ("nil_bonus", 0),
        ("nil_bonus", -100),
        ("nil_bonus", True),
        ("nil_bonus", 100.0),
        ("blind_nil", 1),
        ("blind_nil_bonus", 0),
        ("blind_nil_bonus", False),
        ("blind_nil_min_deficit", -1),
        ("blind_nil_min_deficit", 1.5),
        ("nil_tricks_count", 0),
        ("nil_tricks_count", "no"),
        ("bag_limit", 0),
        ("bag_limit", -10),
        ("bag_limit", True),
        ("bag_penalty", -1),
        ("bag_penalty", None),
        ("spade_lead", "never"),
        ("spade_lead", "Broken"),
        ("spade_lead", None),
        ("spade_lead", 0),
        ("first_lead", "lowest_club"),
        ("first_lead", 1),
        ("min_bid", 0),
        ("min_bid", 14),
        ("min_bid", True),
        ("min_bid", 2.0),
        ("min_team_bid", -1),
        ("min_team_bid", 14),
        ("min_team_bid", False),
        ("ten_for_200", "on"),
        ("ten_for_200", 1),
        ("bidding", "cutthroat"),
        ("bidding", None),
        ("max_hands", 0),
        ("max_hands", -3),
        ("max_hands", True),
        ("max_hands", 2.0),
        ("hook", 1),
        ("hook", "on"),
        ("half_blind_penalty", 0),
        ("closed_bidding", 1),
        ("pass_cards", 4),
        ("pass_cards", -1),
        ("pass_cards", True),
        ("blind_pass", 4),
        ("blind_pass", 1.0),
        ("jokers", 3),
        ("jokers", -1),
        ("jokers", True),
        ("deuces_high", 5),
        ("deuces_high", 1.0),
    ],
)
def test_nonsensical_value_names_the_field(field, value):
    with pytest.raises(RulesError) as info:
        Rules(**{field: value})
    assert repr(field) in str(info.value) or field in str(info.value)
    assert repr(value) in str(info.value)
    # from_dict and replace validate the same way.
    with pytest.raises(RulesError, match=field):
        Rules.from_dict({field: value})
    with pytest.raises(RulesError, match=field):
        Rules().replace(**{field: value})


@pytest.mark.parametrize(
    "kwargs, field",
    [
        (dict(target_score=None), "target_score"),
        (dict(blind_nil=True, nil=False), "blind_nil"),
        (dict(bidding="suicide", min_team_bid=4), "min_team_bid"),
        (dict(bidding="suicide", nil=False), "nil"),
        (dict(bidding="mirror", nil=False), "nil"),
        (dict(bidding="whiz", nil=False), "nil"),
        (dict(bidding="mirror", min_bid=2), "min_bid"),
        (dict(bidding="whiz", blind_nil=True), "blind_nil"),
        (dict(bidding="mirror", blind_nil=True), "blind_nil"),
        (dict(bidding="mirror", hook=True), "hook"),
        (dict(half_blind_penalty=True), "half_blind_penalty"),
        (dict(closed_bidding=True, bidding="suicide"), "closed_bidding"),
        (dict(closed_bidding=True, min_team_bid=3), "closed_bidding"),
        (dict(closed_bidding=True, hook=True), "closed_bidding"),
        (dict(blind_pass=2), "blind_pass"),
        (dict(pass_cards=2, blind_nil=True), "pass_cards"),
        (dict(jokers=1, deuces_high=4), "deuces_high"),
        (dict(jokers=2, deuces_high=3), "jokers"),
    ],
)
def test_inconsistent_combinations_name_the_field(kwargs, field):
    with pytest.raises(RulesError, match=field):
        Rules(**kwargs)


@pytest.mark.parametrize(
    "kwargs",
    [
        dict(target_score=None, max_hands=10),
        dict(loss_threshold=None),
        dict(target_score=1, loss_threshold=-1),
        dict(bag_penalty=0, blind_nil_min_deficit=0),
        dict(bag_limit=1),
        dict(min_bid=13, min_team_bid=13),
        dict(bidding="suicide", blind_nil=True),
        dict(bidding="whiz", min_bid=4),
        dict(nil=False),
        dict(blind_nil=True, blind_nil_min_deficit=100, blind_nil_bonus=300),
        dict(spade_lead="after_three_tricks_or_broken", first_lead="low_club"),
        dict(hook=True, bidding="suicide"),
        dict(hook=True, bidding="whiz", min_bid=2),
        dict(blind_nil=True, half_blind_penalty=True),
        dict(closed_bidding=True, bidding="mirror"),
        dict(closed_bidding=True, blind_nil=True, min_bid=2),
        dict(pass_cards=3, closed_bidding=True, bidding="whiz"),
        dict(blind_nil=True, blind_pass=3, bidding="suicide"),
        dict(jokers=2, deuces_high=2),
        dict(jokers=1, deuces_high=3, bidding="mirror"),
        dict(deuces_high=4),
    ],
)
def test_sensible_combinations_are_accepted(kwargs):
    r = Rules(**kwargs)
    for k, v in kwargs.items():
        assert getattr(r, k) == v


def test_rules_error_is_a_value_error():
    assert issubclass(RulesError, ValueError)


def test_from_dict_unknown_key_names_it():
    with pytest.raises(RulesError, match="'bag_limt'") as info:
        Rules.from_dict({"bag_limt": 5, "nil_bonus": 50})
    assert "bag_limit" in str(info.value)  # the valid fields are listed
    with pytest.raises(RulesError, match="table"):
        Rules.from_dict([("nil_bonus", 50)])


def test_from_dict_round_trip():
    rnd = random.Random(0)
    for _ in range(50):
        r = Rules(**random_rules_kwargs(rnd))
        assert Rules.from_dict(r.to_dict()) == r


# -- TOML -------------------------------------------------------------------------------------


def test_from_toml_top_level(tmp_path):
    p = tmp_path / "rules.toml"
    p.write_text('target_score = 300\nnil_bonus = 50\nspade_lead = "anytime"\nblind_nil = true\n')
    assert Rules.from_toml(p) == Rules(target_score=300, nil_bonus=50, spade_lead="anytime", blind_nil=True)


def test_from_toml_rules_table(tmp_path):
    p = tmp_path / "match.toml"
    p.write_text('[tournament]\nseed = 7\n\n[rules]\nbag_limit = 5\nbag_penalty = 50\nbidding = "suicide"\n')
    assert Rules.from_toml(str(p)) == Rules(bag_limit=5, bag_penalty=50, bidding="suicide")


def test_from_toml_off_means_none(tmp_path):
    p = tmp_path / "rules.toml"
    p.write_text('loss_threshold = "off"\ntarget_score = "none"\nmax_hands = 12\n')
    r = Rules.from_toml(p)
    assert r.loss_threshold is None and r.target_score is None and r.max_hands == 12
    p.write_text('max_hands = "OFF"\n')
    assert Rules.from_toml(p).max_hands is None


def test_from_toml_unknown_key_names_key_and_file(tmp_path):
    p = tmp_path / "rules.toml"
    p.write_text("[rules]\nnil_bonsu = 50\n")
    with pytest.raises(RulesError) as info:
        Rules.from_toml(p)
    assert "nil_bonsu" in str(info.value) and "rules.toml" in str(info.value)


def test_from_toml_bad_value_names_field(tmp_path):
    p = tmp_path / "rules.toml"
    p.write_text('spade_lead = "whenever"\n')
    with pytest.raises(RulesError, match="spade_lead"):
        Rules.from_toml(p)
    p.write_text("nil = 1\n")
    with pytest.raises(RulesError, match="'nil'"):
        Rules.from_toml(p)


def test_from_toml_bad_file(tmp_path):
    with pytest.raises(RulesError, match="does not exist"):
        Rules.from_toml(tmp_path / "missing.toml")
    p = tmp_path / "broken.toml"
    p.write_text("target_score = = 5\n")
    with pytest.raises(RulesError, match="not valid TOML"):
        Rules.from_toml(p)


# -- presets ----------------------------------------------------------------------------------
def test_a_misspelled_preset_lists_the_presets(tmp_path):
    """Issue 42: ``--rules cuthroat`` said only that no such file exists."""
    with pytest.raises(RulesError, match=r"no preset or rules file 'cuthroat' \(did you mean 'cutthroat'\?\): presets are "
                                         "classic, blind, suicide, mirror, whiz, solo, cutthroat; a rules file is FILE.toml"):
        Rules.load("cuthroat")
    with pytest.raises(RulesError, match="no preset or rules file 'house': presets are classic, "):
        Rules.load("house", tmp_path)
    (tmp_path / "house").write_text("nil_bonus = 50\n")  # a file of that name, without a suffix, is read
    assert Rules.load("house", tmp_path).nil_bonus == 50




@pytest.mark.parametrize(
    "name, changes",
    [
        ("classic", {}),
        ("blind", {"blind_nil": True}),
        ("suicide", {"bidding": "suicide"}),
        ("mirror", {"bidding": "mirror"}),
        ("whiz", {"bidding": "whiz"}),
    ],
)
def test_presets(name, changes):
    r = Rules.preset(name)
    assert r.to_dict() == {**RULES_MD_DEFAULTS, **changes}


def test_preset_overrides_and_unknown():
    assert Rules.preset("suicide", target_score=250).target_score == 250
    with pytest.raises(RulesError, match="'crazy8'"):
        Rules.preset("crazy8")
    with pytest.raises(RulesError, match="min_bid"):
        Rules.preset("mirror", min_bid=3)


# -- the kernels' array -----------------------------------------------------------------------


def test_as_array_defaults():
    a = Rules().as_array()
    assert a.dtype.name == "int64" and a.shape == (rules_mod.N_RULE_SLOTS,)
    # target, loss, nil, nil bonus, blind nil, blind bonus, deficit, nil tricks count, bag limit,
    # bag penalty, spade lead (broken), first lead (dealer's left), min bid, min team bid,
    # ten for 200, bidding (classic), max hands (0 = off), hook, half blind penalty
    # ..., closed bidding, pass cards, blind pass, jokers, deuces high, extra trumps (0), the
    # engine's deck (52 ids), their ids (4); seats, sides, decks, cards each, must win, failed
    # bid, equal cards last; three spare slots
    assert a.tolist() == [500, -200, 1, 100, 0, 200, 0, 0, 10, 100, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0] + [
        0, 0, 0, (1 << 52) - 1, 0, 0, 0, 0
    ] + [4, 2, 1, 13, 0, 0, 0] + [0, 0, 0]
    with pytest.raises(ValueError):
        a[0] = 1  # read-only: the kernels' view cannot be changed behind the dataclass's back


def _from_array(a) -> Rules:
    """Decode ``as_array`` back to ``Rules`` (the inverse the slot table promises)."""
    R = rules_mod
    return Rules(
        target_score=None if a[R.R_TARGET] == R.NO_TARGET else int(a[R.R_TARGET]),
        loss_threshold=None if a[R.R_LOSS] == R.NO_LOSS else int(a[R.R_LOSS]),
        nil=bool(a[R.R_NIL]),
        nil_bonus=int(a[R.R_NIL_BONUS]),
        blind_nil=bool(a[R.R_BLIND_NIL]),
        blind_nil_bonus=int(a[R.R_BLIND_BONUS]),
        blind_nil_min_deficit=int(a[R.R_BLIND_DEFICIT]),
        nil_tricks_count=bool(a[R.R_NIL_TRICKS_COUNT]),
        bag_limit=int(a[R.R_BAG_LIMIT]),
        bag_penalty=int(a[R.R_BAG_PENALTY]),
        spade_lead=R.SPADE_LEADS[a[R.R_SPADE_LEAD]],
        first_lead=R.FIRST_LEADS[a[R.R_FIRST_LEAD]],
        min_bid=int(a[R.R_MIN_BID]),
        min_team_bid=int(a[R.R_MIN_TEAM_BID]),
        ten_for_200=bool(a[R.R_TEN_FOR_200]),
        bidding=R.BIDDINGS[a[R.R_BIDDING]],
        max_hands=None if a[R.R_MAX_HANDS] == 0 else int(a[R.R_MAX_HANDS]),
        hook=bool(a[R.R_HOOK]),
        jokers=int(a[R.R_JOKERS]),
        deuces_high=int(a[R.R_DEUCES_HIGH]),
        half_blind_penalty=bool(a[R.R_HALF_BLIND]),
        closed_bidding=bool(a[R.R_CLOSED]),
        pass_cards=int(a[R.R_PASS]),
        blind_pass=int(a[R.R_BLIND_PASS]),
        players=int(a[R.R_SEATS]),
        teams="solo" if a[R.R_SIDES] == a[R.R_SEATS] else "pairs",
        must_win=bool(a[R.R_MUST_WIN]),
        failed_bid=int(a[R.R_FAILED_BID]),
        equal_cards=R.EQUAL_CARDS[a[R.R_EQUAL_LAST]],
    )


def test_as_array_round_trip():
    rnd = random.Random(1)
    seen = set()
    for _ in range(300):
        kw = random_rules_kwargs(rnd)
        if rnd.random() < 0.2:
            kw.update(target_score=None, max_hands=rnd.randint(1, 30))
        r = Rules(**kw)
        assert _from_array(r.as_array()) == r
        seen.add(tuple(r.as_array().tolist()))
    assert len(seen) > 250  # distinct rules give distinct arrays
    named = {getattr(rules_mod, n) for n in dir(rules_mod) if n.startswith("R_")}
    assert set(range(rules_mod.N_RULE_SLOTS)) - named == {rules_mod.R_EXTRA + i for i in (1, 2, 3)} | {
        39  # R_EXTRA's 4 slots; one spare (37, 38: the deck's copies, R_DECK2 and R_DECK3)
    }


def test_as_array_codes_of_text_options():
    assert [Rules(spade_lead=s).as_array()[rules_mod.R_SPADE_LEAD] for s in rules_mod.SPADE_LEADS] == [0, 1, 2, 3, 4]
    assert rules_mod.SPADE_LEADS[rules_mod.LEAD_ANYTIME] == "anytime"
    assert rules_mod.SPADE_LEADS[rules_mod.LEAD_AFTER_THREE] == "after_three_tricks"
    assert rules_mod.FIRST_LEADS[rules_mod.FIRST_LOW_CLUB] == "low_club"
    assert rules_mod.BIDDINGS[rules_mod.BID_WHIZ] == "whiz" and rules_mod.BIDDINGS[rules_mod.BID_SUICIDE] == "suicide"


# -- bounds: no score can overflow (issue 33) -------------------------------------------------

# field: (the lowest value, the highest, its slot of the kernels' array)
BOUNDS = {
    "target_score": (1, rules_mod.MAX_THRESHOLD, rules_mod.R_TARGET),
    "loss_threshold": (-rules_mod.MAX_THRESHOLD, -1, rules_mod.R_LOSS),
    "nil_bonus": (1, rules_mod.MAX_BONUS, rules_mod.R_NIL_BONUS),
    "blind_nil_bonus": (1, rules_mod.MAX_BONUS, rules_mod.R_BLIND_BONUS),
    "blind_nil_min_deficit": (0, rules_mod.MAX_THRESHOLD, rules_mod.R_BLIND_DEFICIT),
    "bag_limit": (1, rules_mod.MAX_BAG_LIMIT, rules_mod.R_BAG_LIMIT),
    "bag_penalty": (0, rules_mod.MAX_BONUS, rules_mod.R_BAG_PENALTY),
    "max_hands": (1, rules_mod.MAX_MATCH_HANDS, rules_mod.R_MAX_HANDS),
}
#: Bounded by the game itself (13 tricks, 3 cards to pass, 4 extra trumps): see the nonsense test.
GAME_BOUNDED = {"min_bid", "min_team_bid", "pass_cards", "blind_pass", "jokers", "deuces_high", "players", "failed_bid"}
#: A hand's points for a team are at most this in size under the bounds (rules.py's comment).
HAND_POINTS_BOUND = 340 + 17 + 19 * rules_mod.MAX_BONUS  # 17 tricks: 3 and 6 players


def test_every_int_field_is_bounded():
    hints = typing.get_type_hints(Rules)
    ints = {f.name for f in dataclasses.fields(Rules) if int in (typing.get_args(hints[f.name]) or (hints[f.name],))}
    assert ints == set(BOUNDS) | GAME_BOUNDED


@pytest.mark.parametrize("field", list(BOUNDS))
def test_numbers_beyond_the_bounds_are_refused_by_field_and_range(field, tmp_path):
    """``Rules(nil_bonus=2**62 + 1)`` used to play; a value beyond 64 bits reached ``as_array``
    and its ``OverflowError`` (a 500 from the web server)."""
    lo, hi, slot = BOUNDS[field]
    for ok in (lo, hi):
        assert Rules(**{field: ok}).as_array()[slot] == ok
    expected = re.escape(f"rules field '{field}' must be an int in {lo:_}..{hi:_}")
    p = tmp_path / "rules.toml"
    for bad in (lo - 1, hi + 1, 2**62 + 1, -(2**62) - 1, 2**63, -(2**63) - 1, 2**64, 2**200):
        if lo <= bad <= hi:
            continue
        with pytest.raises(RulesError, match=expected) as info:
            Rules(**{field: bad})
        assert repr(bad) in str(info.value)
        with pytest.raises(RulesError, match=expected):
            Rules.preset("blind", **{field: bad})
        with pytest.raises(RulesError, match=expected):
            Rules.load({field: bad})
        with pytest.raises(RulesError, match=expected):
            Rules().replace(**{field: bad})
        p.write_text(f"[rules]\n{field} = {bad}\n")
        with pytest.raises(RulesError, match=expected):
            Rules.from_toml(p)


def test_the_browser_table_answers_a_rules_error_beyond_64_bits():
    from spades_ai.web.settings import rules_from_form

    with pytest.raises(RulesError, match="'nil_bonus' must be an int in 1..10_000"):
        rules_from_form(Rules(), {"nil_bonus": 2**64})


def test_a_match_under_the_bounds_cannot_overflow():
    """Two failed nils at nil_bonus = 2**62 + 1 wrapped round to 9223372036854775716. Under the
    bounds the worst hand loses 15 bonuses (two failed nils, 13 bag penalties) and scores
    exactly, even at the end of the longest match, whose scores fit the results' int32."""
    big = rules_mod.MAX_BONUS
    assert rules_mod.MAX_MATCH_HANDS * HAND_POINTS_BOUND < 2**31 - 1
    assert rules_mod.MAX_THRESHOLD > rules_mod.MAX_MATCH_HANDS * HAND_POINTS_BOUND  # no target is short of a score
    worst = Rules(nil_bonus=big, blind_nil=True, blind_nil_bonus=big, bag_limit=1, bag_penalty=big, ten_for_200=True)
    before = -(rules_mod.MAX_MATCH_HANDS - 1) * HAND_POINTS_BOUND
    r = sa.score_hand([0, 13, 0, 13], [12, 0, 1, 0], worst, blind=[True, False, True, False], scores=(before, before))
    assert r.points == (13 - 15 * big, -260) and r.scores == (before + 13 - 15 * big, before - 260)
    # and no hand at the bounds goes beyond HAND_POINTS_BOUND (random hands)
    rng = random.Random(33)
    for _ in range(2000):
        rules = Rules(nil_bonus=big, blind_nil=True, blind_nil_bonus=big, bag_penalty=big, ten_for_200=rng.random() < 0.5,
                      bag_limit=rng.choice([1, 2, 10, rules_mod.MAX_BAG_LIMIT]), nil_tricks_count=rng.random() < 0.3)  # fmt: skip
        bids = [rng.choice([0, rng.randint(1, 13)]) for _ in range(4)]
        cuts = sorted(rng.randint(0, 13) for _ in range(3))
        tricks = [b - a for a, b in zip([0] + cuts, cuts + [13])]
        bags = [rng.randrange(rules.bag_limit) for _ in range(2)]
        blind = [b == 0 and rng.random() < 0.5 for b in bids]
        r = sa.score_hand(bids, tricks, rules, blind=blind, bag_count=bags)
        assert max(map(abs, r.points)) <= HAND_POINTS_BOUND, (bids, tricks, bags, blind)


# -- bidding presets through Hand.legal_bids ---------------------------------------------------

# Seat 0: five spades; seat 1: none; seat 2: eight spades; seat 3: none.
SPADE_DEAL = [
    "AS KS QS JS TS 2C 3C 4C 5C 6C 7C 8C 9C",
    "TC JC QC KC AC 2H 3H 4H 5H 6H 7H 8H 9H",
    "2S 3S 4S 5S 6S 7S 8S 9S TH JH QH KH AH",
    "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
]
ALL = list(range(14))


def bidding_hand(dealer=3, scores=(0, 0), **rules):
    """A hand where seat 0 bids first (dealer 3 by default)."""
    return Hand(SPADE_DEAL, dealer=dealer, rules=Rules(**rules), scores=scores)


def legal_sequence(hand, bids):
    """Make ``bids`` in turn and collect the legal bids offered before each."""
    out = []
    for b in bids:
        out.append(hand.legal_bids())
        hand.bid(b)
    return out


def test_classic_bids():
    h = bidding_hand()
    assert legal_sequence(h, [3, 0, 13, 1]) == [ALL] * 4
    assert h.bids == [3, 0, 13, 1]


def test_mirror_bids_the_spade_count():
    h = bidding_hand(bidding="mirror")
    assert legal_sequence(h, [5, 0, 8, 0]) == [[5], [0], [8], [0]]
    assert h.legal_bids(blind=True) == []


def test_mirror_refuses_other_bids():
    h = bidding_hand(bidding="mirror")
    with pytest.raises(sa.IllegalBidError, match="seat 0 may not bid 4: mirror"):
        h.bid(4)


def test_whiz_bids_nil_or_the_spade_count():
    h = bidding_hand(bidding="whiz")
    assert legal_sequence(h, [0, 0, 8, 0]) == [[0, 5], [0], [0, 8], [0]]
    h = bidding_hand(bidding="whiz", min_bid=6)
    assert legal_sequence(h, [0, 0, 8, 0]) == [[0], [0], [0, 8], [0]]


def test_suicide_bids():
    numbers = list(range(4, 14))
    h = bidding_hand(bidding="suicide")
    # seat 0 first (partner 2 has not bid), seat 1 (partner 3 has not bid), seat 2 (partner bid
    # nil: nil again, a double nil, or a number of at least 4), seat 3 (partner bid a number: nil).
    assert legal_sequence(h, [0, 5, 4, 0]) == [[0] + numbers, [0] + numbers, [0] + numbers, [0]]
    h = bidding_hand(bidding="suicide")
    assert legal_sequence(h, [6, 0, 0, 9]) == [[0] + numbers, [0] + numbers, [0], [0] + numbers]
    h = bidding_hand(bidding="suicide", min_bid=6)
    assert h.legal_bids() == [0] + list(range(6, 14))


def test_suicide_double_nil_is_legal_and_every_team_ends_with_a_nil():
    h = bidding_hand(bidding="suicide")
    legal_sequence(h, [0, 0, 0, 0])
    assert h.bids == [0, 0, 0, 0] and h.phase == "playing"
    rnd = random.Random(4)
    for _ in range(200):
        h = bidding_hand(bidding="suicide", dealer=rnd.randrange(4))
        while h.phase == "bidding":
            h.bid(rnd.choice(h.legal_bids()))
        for team in (0, 1):
            assert 0 in (h.bids[team], h.bids[team + 2]), h.bids


def test_suicide_refusals_say_why():
    h = bidding_hand(bidding="suicide")
    with pytest.raises(sa.IllegalBidError, match="seat 0 may not bid 3: suicide .* at least 4"):
        h.bid(3)
    h.bid(0)
    h.bid(5)
    with pytest.raises(sa.IllegalBidError, match="seat 2 may not bid 2: suicide .* at least 4"):
        h.bid(2)
    h.bid(4)
    with pytest.raises(sa.IllegalBidError, match="seat 3 may not bid 4: suicide.*must bid nil"):
        h.bid(4)


def test_min_bid():
    h = bidding_hand(min_bid=3)
    assert h.legal_bids() == [0] + list(range(3, 14))
    with pytest.raises(sa.IllegalBidError, match="seat 0 may not bid 2: the minimum bid is 3"):
        h.bid(2)
    h = bidding_hand(min_bid=4, nil=False)
    assert h.legal_bids() == list(range(4, 14))


@pytest.mark.parametrize(
    "first, second_legal",
    [
        (2, list(range(3, 14))),  # 2 + 3 reaches 5
        (0, list(range(5, 14))),  # a partner's nil counts 0
        (4, list(range(1, 14))),  # any number reaches 5, nil does not
        (5, ALL),  # already there: nil too
        (9, ALL),
    ],
)
def test_min_team_bid(first, second_legal):
    h = bidding_hand(min_team_bid=5)
    assert h.legal_bids() == ALL  # the first partner is free
    h.bid(first)
    assert h.legal_bids() == ALL  # seat 1's partner (3) has not bid
    h.bid(1)
    assert h.legal_bids() == second_legal  # seat 2, partner of seat 0
    h.bid(second_legal[0])
    assert h.legal_bids() == [b for b in ALL if b + 1 >= 5]  # seat 3, partner of seat 1 (bid 1)


def test_min_team_bid_with_min_bid():
    h = bidding_hand(min_team_bid=5, min_bid=2)
    legal_sequence(h, [4, 2])
    assert h.legal_bids() == list(range(2, 14))
    h = bidding_hand(min_team_bid=5, min_bid=2)
    legal_sequence(h, [0, 2])
    assert h.legal_bids() == list(range(5, 14))
    with pytest.raises(sa.IllegalBidError, match="seat 2 may not bid 4: the team must bid at least 5"):
        h.bid(4)


def test_nil_off():
    h = bidding_hand(nil=False)
    assert h.legal_bids() == list(range(1, 14))
    assert h.legal_bids(blind=True) == []
    with pytest.raises(sa.IllegalBidError, match="seat 0 may not bid nil: nil is off"):
        h.bid(0)


def test_blind_nil_off_by_default():
    h = bidding_hand()
    assert h.legal_bids(blind=True) == []
    with pytest.raises(sa.IllegalBidError, match="seat 0 may not bid blind nil: blind nil is off"):
        h.bid(0, blind=True)


def test_blind_nil_any_time():
    h = bidding_hand(blind_nil=True, scores=(300, 0))  # even when leading
    for seat in (0, 1, 2, 3):
        assert h.to_act == seat
        assert h.legal_bids(blind=True) == [0]
        h.bid(0, blind=(seat % 2 == 0))
    assert h.blind == [True, False, True, False]
    assert h.bids == [0, 0, 0, 0]


@pytest.mark.parametrize(
    "scores, allowed",
    [
        ((0, 100), [True, False, True, False]),  # team 0 trails by exactly 100
        ((0, 99), [False] * 4),
        ((250, 100), [False, True, False, True]),  # team 1 trails by 150
        ((-150, -50), [True, False, True, False]),
        ((0, 0), [False] * 4),
    ],
)
def test_blind_nil_min_deficit(scores, allowed):
    h = bidding_hand(blind_nil=True, blind_nil_min_deficit=100, scores=scores)
    for seat in (0, 1, 2, 3):
        assert h.legal_bids(blind=True) == ([0] if allowed[seat] else []), seat
        assert 0 in h.legal_bids()  # a seen nil is always possible
        if not allowed[seat]:
            with pytest.raises(sa.IllegalBidError, match=f"seat {seat} may not bid blind nil: .*trail by at least 100"):
                h.bid(0, blind=True)
        h.bid(3)


def test_blind_nil_under_suicide_follows_the_nil_rule():
    h = bidding_hand(bidding="suicide", blind_nil=True)
    assert h.legal_bids(blind=True) == [0]
    h.bid(0, blind=True)
    h.bid(5)
    assert h.legal_bids(blind=True) == [0]  # seat 2's partner bid nil: a double nil is legal
    h.bid(4)
    assert h.legal_bids(blind=True) == [0]  # seat 3's partner bid a number: nil, blind or not
    h.bid(0, blind=True)
    assert h.blind == [True, False, False, True]


def test_blind_nil_lost_with_min_team_bid():
    h = bidding_hand(blind_nil=True, min_team_bid=4)
    h.bid(2)
    h.bid(5)
    assert h.legal_bids(blind=True) == []  # nil would leave the team at 2 < 4


# -- the hook and the half blind penalty --------------------------------------------------------


def test_the_hook_keeps_the_dealer_off_13():
    h = bidding_hand(hook=True)  # dealer 3 bids last
    legal_sequence(h, [4, 3, 2])
    assert h.legal_bids() == [b for b in ALL if b != 4]
    with pytest.raises(sa.IllegalBidError, match="seat 3 may not bid 4: the hook.*add up to 13 .*bid 9"):
        h.bid(4)
    h.bid(5)
    assert h.bids == [4, 3, 2, 5]


def test_the_hook_only_binds_the_last_bidder_and_bars_a_blind_nil_that_makes_13():
    h = bidding_hand(hook=True, blind_nil=True)
    assert legal_sequence(h, [6, 7, 0]) == [ALL, ALL, ALL]  # 6 + 7 = 13 before the dealer: fine
    assert h.legal_bids() == ALL[1:] and h.legal_bids(blind=True) == []
    with pytest.raises(sa.IllegalBidError, match="seat 3 may not bid blind nil: the hook"):
        h.bid(0, blind=True)
    h = bidding_hand(hook=True)
    legal_sequence(h, [9, 8, 1])  # already 18: every bid is fine
    assert h.legal_bids() == ALL


def test_the_hook_never_leaves_the_dealer_without_a_bid():
    h = bidding_hand(hook=True, bidding="suicide")
    legal_sequence(h, [0, 9, 4])  # seat 3's partner bid 9: seat 3 must bid nil, making 13
    assert h.legal_bids() == [0]
    h.bid(0)
    assert sum(h.bids) == 13


def test_half_blind_penalty():
    full = sa.Rules(blind_nil=True)
    half = sa.Rules(blind_nil=True, half_blind_penalty=True)
    args = ([0, 4, 3, 4], [1, 4, 4, 4])
    assert sa.score_hand(*args, full, blind=[True, False, False, False]).nil_points == (-200, 0)
    assert sa.score_hand(*args, half, blind=[True, False, False, False]).nil_points == (-100, 0)
    assert sa.score_hand(*args, half).nil_points == (-100, 0)  # a seen nil still loses its full 100
    made = ([0, 4, 3, 4], [0, 5, 4, 4])
    assert sa.score_hand(*made, half, blind=[True, False, False, False]).nil_points == (200, 0)
    odd = sa.Rules(blind_nil=True, half_blind_penalty=True, blind_nil_bonus=151)
    assert sa.score_hand(*args, odd, blind=[True, False, False, False]).nil_points == (-75, 0)


# -- closed bidding ---------------------------------------------------------------------------


def test_closed_bidding_hides_the_other_bids_until_the_play():
    h = bidding_hand(closed_bidding=True, blind_nil=True)
    h.bid(0, blind=True)
    h.bid(5)
    obs = h.observation()
    assert obs.seat == 2 and obs.bids == [None, None, None, None] and obs.blind == [False] * 4
    assert h.bids == [0, 5, None, None]  # the hand itself knows
    h.bid(3)
    h.bid(4)
    assert h.phase == "playing" and h.observation().bids == [0, 5, 3, 4] and h.observation().blind[0]


# -- tables of 3 to 12 players (RULES.md, "Tables of 3 to 12 players") --------------------


@pytest.mark.parametrize(
    ("players", "decks", "removed", "each"),
    [(3, 1, "2D", 17), (4, 1, "", 13), (5, 1, "2D 2C", 10)],
)
def test_table_sizes_follow_rules_md(players, decks, removed, each):
    r = Rules(players=players)
    assert (r.decks, " ".join(map(str, r.removed_cards)), r.cards_each) == (decks, removed, each)
    assert r.teams == ("pairs" if players == 4 else "solo")
    assert r.n_sides == (2 if players == 4 else players)
    deck = int(r.as_array()[rules_mod.R_DECK])
    assert bin(deck).count("1") == players * each  # the deck deals out exactly
    assert all(not deck >> int(c) & 1 for c in r.removed_cards)
    a = r.as_array()
    assert (a[rules_mod.R_SEATS], a[rules_mod.R_SIDES], a[rules_mod.R_CARDS_EACH]) == (players, r.n_sides, each)


def test_table_presets():
    solo, cut = Rules.preset("solo"), Rules.preset("cutthroat")
    assert (solo.players, solo.teams, solo.must_win, solo.n_sides) == (4, "solo", True, 4)
    assert (cut.players, cut.teams, cut.must_win, cut.cards_each) == (3, "solo", False, 17)
    assert Rules.preset("cutthroat", bidding="mirror").bidding == "mirror"  # mirror and whiz combine with solo
    assert Rules(players=4, teams="solo") != Rules()
    assert Rules().four_in_pairs and not solo.four_in_pairs and not cut.four_in_pairs


@pytest.mark.parametrize(
    ("fields", "named"),
    [
        ({"players": 2}, "'players'"),
        ({"players": 13}, "'players'"),
        ({"players": True}, "'players'"),
        ({"players": 8, "jokers": 1}, "'jokers' = 1 is played with one deck only: a table of 8 players shuffles 2 decks"),
        ({"players": 12, "deuces_high": 1}, "'deuces_high' = 1 is played with one deck only"),
        ({"players": 6, "teams": "pairs", "pass_cards": 2}, "'pass_cards' = 2 is played with one deck only"),
        ({"players": 6, "bidding": "mirror"}, "'bidding' = 'mirror' is played with one deck only"),
        ({"players": 9, "bidding": "whiz"}, "'bidding' = 'whiz' is played with one deck only: a table of 9 players shuffles 3"),
        ({"players": 8, "teams": "pairs", "blind_nil": True, "blind_pass": 1}, "'blind_pass' = 1 is played with one deck"),
        ({"teams": "trios"}, "'teams'"),
        ({"players": 3, "teams": "pairs"}, "even number"),
        ({"must_win": True}, "'must_win' is played solo only"),
        ({"players": 3, "must_win": 1}, "'must_win'"),
        ({"failed_bid": 20}, "'failed_bid'"),
        ({"failed_bid": True}, "'failed_bid'"),
        ({"equal_cards": "random"}, "'equal_cards'"),
        ({"players": 3, "pass_cards": 2}, "'pass_cards' = 2 needs partners"),
        ({"players": 4, "teams": "solo", "bidding": "suicide"}, "'bidding' = 'suicide' needs partners"),
        ({"players": 5, "min_team_bid": 4}, "'min_team_bid' = 4 needs partners"),
        ({"players": 3, "blind_nil": True, "blind_pass": 1}, "'blind_pass' = 1 needs partners"),
        ({"players": 3, "deuces_high": 2}, "'deuces_high' = 2 needs 2D"),
        ({"players": 5, "deuces_high": 3}, "'deuces_high' = 3 needs 2D, 2C"),
        ({"players": 5, "jokers": 2}, "'jokers' = 2 needs 2C"),
        ({"players": 5, "min_bid": 11}, r"'min_bid' must be an int in 1\.\.10"),
        ({"players": 3, "min_bid": 18}, r"1\.\.17"),
        ({"players": 7, "min_bid": 15}, r"1\.\.14"),
    ],
)
def test_table_fields_are_refused_by_name(fields, named):
    with pytest.raises(RulesError, match=named):
        Rules(**fields)


def test_table_fields_that_fit_are_accepted():
    assert Rules(players=3, min_bid=17, deuces_high=1, jokers=2).cards_each == 17
    assert Rules(players=5, jokers=1, deuces_high=1, failed_bid=50).failed_bid == 50
    assert Rules(players=4, teams="solo", must_win=True, hook=True, blind_nil=True).must_win
    assert Rules.from_dict({"players": 3, "teams": "solo"}) == Rules.preset("cutthroat")
