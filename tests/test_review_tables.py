"""Hand review at every table but four in pairs (issue 42): the solver judge's values are
``card_values`` of the acting seat's side against all the other seats on a leaf written here
independently (the side's points minus the mean of the other sides', by ``score_hand`` of the
whole table), at 3 solo, 5 solo, 6 pairs and 8 solo (copies of cards); a Monte Carlo judge at
three players; and the one part that still plays four in pairs only, the whole-deal double dummy,
refused through ``require_table``. Four in pairs is ``test_review.py``."""

from __future__ import annotations

import pytest

from spades_ai import Hand, Rules, deal, make_agent, score_hand
from spades_ai.analysis.review import TABLE_TRICKS, review, review_hands, seat_summary
from spades_ai.cli import main
from spades_ai.errors import TableError
from spades_ai.seats import seats, side_of, sides
from spades_ai.solver import card_values

TABLES = {
    "3 solo": Rules(players=3),
    "5 solo": Rules(players=5),
    "6 pairs": Rules(players=6, teams="pairs"),
    "8 solo": Rules(players=8, equal_cards="last"),
}


def normal_hand(seed: int, rules: Rules) -> Hand:
    normal = make_agent("normal")
    hand = Hand(deal(seed, 0, rules), rules=rules, dealer=seed % rules.players)
    while hand.phase != "over":
        obs = hand.observation()
        hand.bid(normal.bid(obs)) if hand.phase == "bidding" else hand.play(normal.play(obs))
    return hand


def direct_values(hand: Hand) -> dict:
    """The solver at the seat to act, the leaf its side's points minus the others' mean."""
    rules = hand.rules
    side = side_of(hand.to_act, rules)

    def leaf(*won):
        p = score_hand(hand.bids, won, rules, blind=hand.blind, scores=hand.scores, bag_count=hand.bag_count).points
        return p[side] - (sum(p) - p[side]) / (rules.n_sides - 1)

    return card_values([hand.cards(s) for s in seats(rules)], hand.leader, leaf, side, tricks_won=hand.tricks_won,
                       trick=[c for _, c in hand.current_trick], rules=rules, spades_broken=hand.spades_broken)


@pytest.mark.parametrize("name", TABLES)
def test_review_values_equal_a_direct_call_of_the_solver(name):
    rules = TABLES[name]
    hand = normal_hand(3, rules)
    df = review(hand)
    last = TABLE_TRICKS[rules.players]
    assert df.attrs["from_trick"] == rules.cards_each - last + 1 and len(df) == rules.players * last
    record = hand.to_record()
    for row in df.itertuples():
        at = Hand.from_record(dict(record, plays=record["plays"][: row.play_no]))
        direct = direct_values(at)
        assert row.values == {str(c): v for c, v in direct.items()}
        assert row.value == direct[at.rules.named(row.action)] and row.best_value == max(direct.values())
        assert row.seat == at.to_act and row.team == side_of(at.to_act, rules) and row.trick == at.trick_no + 1
        assert row.loss == row.best_value - row.value >= 0
    assert sorted(seat_summary(df).seat) == list(seats(rules))
    assert set(df.team) == set(sides(rules))


def test_review_hands_names_every_side_of_plain_hands():
    """Plain hands have no agents: each row's agent is its side's name, at three sides too
    (the names once stopped at two: seat 2's rows raised IndexError)."""
    hand = normal_hand(4, TABLES["3 solo"])
    df = review_hands([hand], from_trick=13)
    assert list(df.agent) == [f"side {k}" for k in df.team] and set(df.team) == {0, 1, 2}


def test_more_tricks_the_command_and_errors_at_three_players(tmp_path, capsys):
    hand = normal_hand(4, TABLES["3 solo"])
    assert len(review(hand, from_trick=12)) == 3 * 6
    (tmp_path / "hand.json").write_text(hand.to_json())
    assert main(["review", str(tmp_path / "hand.json")]) == 0  # the table's window, not 8..17
    assert f"{3 * TABLE_TRICKS[3]} decisions judged by solver" in capsys.readouterr().out
    assert main(["review", str(tmp_path / "hand.json"), "--double-dummy"]) == 2
    assert "review's whole-deal double dummy plays 4 players in pairs, not 3 players solo" in capsys.readouterr().err
    with pytest.raises(ValueError, match="from_trick is a trick 1..17, not 18"):
        review(hand, from_trick=18)
    with pytest.raises(TableError, match="review's whole-deal double dummy plays 4 players in pairs, not 3 players "
                                         "solo: .* \\(docs/playing.md#where-were-points-lost\\)"):
        review(hand, whole_deal=True)


def test_hard_judge_at_three_players():
    hand = normal_hand(5, TABLES["3 solo"])
    df = review(hand, "hard", agent=make_agent("hard", worlds=8))
    assert len(df) == 3 + 3 * 17 and set(df.phase) <= {"bid", "lead", "follow", "discard"}
    assert (df.dropna(subset=["loss"]).loss >= 0).all() and list(df.team[:3]) == [side_of(s, hand.rules) for s in df.seat[:3]]


def test_the_review_command_judges_every_rotation_of_a_run(tmp_path, capsys):
    """``spades-ai review RUN`` reviews each deal at every rotation of the run's table (one per
    side: three at 3 players), not the two rotations of four in pairs."""
    from spades_ai.tournament import run_tournament

    out = tmp_path / "run"
    run_tournament("normal,easy", deals=2, rules=Rules(players=3), out=out, keep_plays=True, n_jobs=1, progress=False)
    assert main(["review", str(out)]) == 0
    assert capsys.readouterr().out.startswith(f"{out}: 6 hands, ")
    assert main(["review", str(out), "--table", "2"]) == 0
    assert capsys.readouterr().out.startswith(f"{out}: 2 hands, ")
