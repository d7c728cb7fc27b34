"""The waste classifier of experiments/waste.py (issue 11, item 6) on hand-made positions."""

from __future__ import annotations

import pytest

from spades_ai import Rules
from spades_ai.cards import parse_cards
from experiment_scripts import experiment_script

W = experiment_script("waste")


def ids(text: str) -> list[int]:
    return [int(c) for c in parse_cards(text)] if text else []


def mask(text: str) -> int:
    return sum(1 << c for c in ids(text))


def trick(*pairs) -> list[tuple[int, int]]:
    return [(s, ids(c)[0]) for s, c in pairs]


def check(tr, seat, card, hand, legal=None, played="", nil=()):
    """The classification of ``card`` (seat holding ``hand``; ``played``: earlier tricks)."""
    t = trick(*tr)
    legal_ids = ids(legal) if legal is not None else ids(hand)
    allplayed = mask(played) | sum(1 << c for _, c in t)
    return W.waste(t, seat, ids(card)[0], legal_ids, mask(hand), allplayed, frozenset(nil))


def test_ruffing_the_partners_trick_last_to_play_is_an_overtake():
    # seat 3 last; partner (seat 1) wins with AH; seat 3 void in hearts ruffs with 5S holding 4D
    w = check([(0, "2H"), (1, "AH"), (2, "3H")], 3, "5S", "5S 4D 9C")
    assert w == W.Waste("overtake", ids("5S")[0], ids("4D")[0])


def test_a_higher_card_over_the_partners_winner_is_an_overtake():
    w = check([(0, "2H"), (1, "JH"), (2, "3H")], 3, "KH", "KH 4H", legal="KH 4H")
    assert w.kind == "overtake" and w.cheapest == ids("4H")[0]


def test_winning_with_the_queen_where_the_six_wins_too():
    # last to play, the opponent's 9S wins; 6S does not beat it, TS does as well as QS
    w = check([(1, "AD"), (2, "3D"), (3, "9S")], 0, "QS", "QS TS 6S", legal="QS TS 6S")
    assert w == W.Waste("high win", ids("QS")[0], ids("TS")[0])
    # a ruff of an opponent's trick, last to play: QS where 6S ruffs as well
    w = check([(0, "AD"), (1, "3D"), (2, "KD")], 3, "QS", "QS 6S 4C", legal="QS 6S 4C")
    assert w == W.Waste("high win", ids("QS")[0], ids("6S")[0])


def test_the_cheapest_card_is_not_waste():
    assert check([(0, "AD"), (1, "3D"), (2, "KD")], 3, "6S", "QS 6S 4C", legal="QS 6S 4C") is None
    assert check([(0, "2H"), (1, "AH"), (2, "3H")], 3, "4D", "5S 4D 9C") is None  # keeps the partner's trick


def test_side_suits_are_not_compared():
    # the trick is lost whatever seat 3 discards: 9C or 4D is strategy, not waste
    assert check([(0, "AH"), (1, "2H"), (2, "3H")], 3, "9C", "9C 4D") is None


def test_a_high_card_thrown_on_a_lost_trick():
    # second to play under an ace: KH and 3H both lose
    w = check([(0, "AH")], 1, "KH", "KH 3H 7C", legal="KH 3H")
    assert w == W.Waste("high loss", ids("KH")[0], ids("3H")[0])
    # a spade thrown under an opponent's higher spade where a side card loses as well
    w = check([(0, "4H"), (1, "AS")], 2, "5S", "5S 9C", legal="5S 9C")
    assert w == W.Waste("high loss", ids("5S")[0], ids("9C")[0])


def test_equal_cards_are_not_waste():
    # KH and QH with nothing between: one card
    assert check([(0, "2H")], 1, "KH", "KH QH", legal="KH QH") is None
    # JH and 9H with the 10H played to this trick between them, both losing to the AH: equal
    assert check([(0, "TH"), (1, "AH")], 2, "JH", "JH 9H", legal="JH 9H") is None


def test_not_last_a_higher_winner_differs_when_an_unseen_card_lies_between():
    # second to play: KH and 9H both beat the 8H, but QH JH TH are unseen: a later seat may hold
    # one that beats the 9H and not the KH, so the effects differ
    assert check([(0, "8H")], 1, "KH", "KH 9H", legal="KH 9H") is None
    # with Q J T played earlier they are equal cards
    assert check([(0, "8H")], 1, "KH", "KH 9H", legal="KH 9H", played="QH JH TH") is None
    # KH and QH separated by nothing unseen but the ... AH unseen above both: same effect, and
    # a 9H between unseen keeps them apart; with the 9H held by the seat, QH ~ KH are equal
    assert check([(0, "8H")], 1, "KH", "KH TH", legal="KH TH", played="QH JH") is None  # equal


def test_nil_on_the_winning_team_makes_the_seat_matter():
    # the partner (seat 1) bid nil and wins the trick: overtaking it is not the same effect
    assert check([(0, "2H"), (1, "AH"), (2, "3H")], 3, "5S", "5S 4D", nil={1}) is None
    # without the nil the ruff is an overtake
    assert check([(0, "2H"), (1, "AH"), (2, "3H")], 3, "5S", "5S 4D").kind == "overtake"


def test_a_lead_is_waste_only_over_an_equal_effect():
    # leading KH or 2H: both win now, but unseen hearts lie between them
    assert check([], 0, "KH", "KH 2H", legal="KH 2H") is None


@pytest.mark.parametrize("tr, winner", [
    ([(0, "2H"), (1, "AH"), (2, "3H"), (3, "2S")], 3),
    ([(1, "9D"), (2, "TD"), (3, "AC"), (0, "8D")], 2),
    ([(2, "3S"), (3, "2S"), (0, "AH"), (1, "4S")], 1),
])
def test_trick_winner(tr, winner):
    assert W.trick_winner(trick(*tr)) == winner


# -- Hard's thrift (agents.hard.trick_effect / thrifty_choice) --------------------------------
#: The default deck, and the trump lane in use: two jokers and two high deuces (engine ids 52..55).
THRIFT_RULES = [Rules(), Rules(jokers=2, deuces_high=2)]


def playing_positions(seed, n_hands, rules=None):
    """``(obs, engine hand, engine trick, engine legal ids)`` of Normal's hands under ``rules``."""
    import numpy as np

    from spades_ai.engine import state as st
    from tests.test_mc_agents import normal_positions

    for _, obs in normal_positions(seed, n_hands, [rules or Rules()]):
        if obs.phase == "playing":
            hand = np.uint64(obs.engine_cards)
            pub = obs.public
            trick = [((int(pub[st.P_LEADER]) + i) & 3, int(pub[st.P_TRICK + i])) for i in range(int(pub[st.P_TRICK_LEN]))]
            legal = int(st.legal_now(pub, hand, obs.rules_array))
            yield obs, hand, trick, [c for c in range(56) if legal >> c & 1]


@pytest.mark.parametrize("rules", THRIFT_RULES, ids=["default", "jokers_deuces"])
def test_hards_trick_effect_matches_the_definition(rules):
    """Two legal cards have equal ``trick_effect`` exactly when waste.effect says they have the
    same effect, in every position of Normal's hands (nils included), the trump lane too."""
    from spades_ai.montecarlo.selection import trick_effect
    from spades_ai.engine.state import P_DECK, P_PLAYED

    pairs = same = lane = 0
    for obs, hand, trick, legal in playing_positions(seed=73, n_hands=40, rules=rules):
        unseen = int(obs.public[P_DECK]) & ~int(hand) & ~int(obs.public[P_PLAYED])
        nil = frozenset(s for s, b in enumerate(obs.bids) if b == 0)
        fx = {c: W.effect(trick, obs.seat, c, unseen, nil) for c in legal}
        nx = {c: trick_effect(obs.public, obs.seat, hand, c, obs.rules_array) for c in legal}
        lane += any(c >= 52 for c in legal)
        for a in legal:
            for b in legal:
                if a < b:
                    pairs += 1
                    same += fx[a] == fx[b]
                    assert (fx[a] == fx[b]) == (nx[a] == nx[b]), (obs, a, b, fx[a], fx[b])
    assert pairs > 3000 and 0 < same < pairs
    assert lane > 20 or not rules.extra_trumps


@pytest.mark.parametrize("rules", THRIFT_RULES, ids=["default", "jokers_deuces"])
def test_thrift_with_equal_values_plays_the_cheapest_card_of_the_same_effect(rules):
    """Every candidate chosen in turn, the rollouts' values all equal: thrift plays the cheapest
    candidate (waste.cheaper; a spade or lane card above any side card) with the same effect
    (waste.effect), or the chosen one when none is cheaper."""
    import numpy as np

    from spades_ai.montecarlo.candidates import play_candidates
    from spades_ai.montecarlo.selection import thrifty_choice
    from spades_ai.engine.state import P_DECK, P_PLAYED

    checked = moved = 0
    for obs, hand, trick, legal in playing_positions(seed=81, n_hands=25, rules=rules):
        cands = int(play_candidates(obs.public, hand, np.uint64(sum(1 << c for c in legal))))
        ids = np.array([c for c in range(56) if cands >> c & 1], dtype=np.int64)
        if len(ids) < 2:
            continue
        unseen = int(obs.public[P_DECK]) & ~int(hand) & ~int(obs.public[P_PLAYED])
        nil = frozenset(s for s, b in enumerate(obs.bids) if b == 0)
        fx = [W.effect(trick, obs.seat, int(c), unseen, nil) for c in ids]
        values, w, alive = np.zeros((8, len(ids))), np.ones(8), np.ones(len(ids), dtype=np.bool_)
        for chosen in range(len(ids)):
            same = [j for j in range(len(ids)) if j != chosen and fx[j] == fx[chosen] and W.cheaper(int(ids[j]), int(ids[chosen]))]
            want = min(same, key=lambda j: (W.suit(int(ids[j])) == W.SPADES, W.rank(int(ids[j])))) if same else chosen
            got = thrifty_choice(values, w, alive, ids, chosen, obs.public, obs.seat, hand, obs.rules_array, 2.0)
            assert got == want, (obs, ids, chosen, got, want)
            checked += 1
            moved += got != chosen
    assert checked > 300 and moved > 20


def test_thrift_plays_the_cheapest_card_of_the_same_effect_unless_the_dearer_gains():
    import numpy as np

    from spades_ai.montecarlo.candidates import play_candidates
    from spades_ai.montecarlo.selection import thrifty_choice, trick_effect
    from spades_ai.engine.state import legal_now

    rnd = np.random.default_rng(3)
    seen = 0
    for obs, hand, _, _ in playing_positions(seed=79, n_hands=30):
        legal = np.uint64(legal_now(obs.public, hand, obs.rules_array))
        ids = np.array([c for c in range(52) if int(play_candidates(obs.public, hand, legal)) >> c & 1], dtype=np.int64)
        fx = [trick_effect(obs.public, obs.seat, hand, c, obs.rules_array) for c in ids]
        # a dearer candidate (same suit, higher) with the same effect as a cheaper one
        found = [(i, j) for i in range(len(ids)) for j in range(len(ids))
                 if fx[i] == fx[j] and ids[j] // 13 == ids[i] // 13 and ids[j] < ids[i]]
        if not found:
            continue
        dear, _ = found[0]
        cheapest = min((j for j in range(len(ids)) if fx[j] == fx[dear] and (ids[j] // 13 == ids[dear] // 13 and ids[j] < ids[dear]
                        or (ids[dear] // 13 == 3 and ids[j] // 13 != 3))), key=lambda j: (ids[j] // 13 == 3, ids[j] % 13))
        alive = np.ones(len(ids), dtype=np.bool_)
        w = np.ones(60)
        values = np.repeat(rnd.standard_normal((60, 1)) * 30.0, len(ids), axis=1)
        x = rnd.standard_normal(60)
        values[:, dear] += 0.5 * (x - x.mean())  # the same on average: the cheapest is played
        assert thrifty_choice(values, w, alive, ids, dear, obs.public, obs.seat, hand, obs.rules_array, 2.0) == cheapest
        values[:, dear] += 5.0  # clearly better in the rollouts: a gain, kept
        assert thrifty_choice(values, w, alive, ids, dear, obs.public, obs.seat, hand, obs.rules_array, 2.0) == dear
        values[:, dear] -= 5.0
        alive[:] = True
        alive[cheapest] = False  # a candidate dropped by racing is not taken back
        got = thrifty_choice(values, w, alive, ids, dear, obs.public, obs.seat, hand, obs.rules_array, 2.0)
        assert got != cheapest and fx[got] == fx[dear]
        seen += 1
    assert seen >= 20
