"""Hand review (issue 22, item 2): a card that throws away a sure trick is marked with the
solver's loss, review values equal a direct call of the judge, the summaries over a hand and
over a results folder, the marked picture (``render.reviewed_html``), and ``spades-ai review``."""

from __future__ import annotations

import random

import numpy as np
import pytest

import spades_ai as sa
from spades_ai import Hand, Rules, deal, make_agent, render, score_hand
from spades_ai.analysis.review import loss_table, review, review_hands, seat_summary, worst
from spades_ai.cli import main
from spades_ai.solver import card_values, tricks_leaf
from spades_ai.table.replay import run_hands


def normal_hand(seed: int, rules: Rules | None = None, upto: int = 52) -> Hand:
    normal = make_agent("normal")
    hand = Hand(deal(seed, 0), rules=Rules() if rules is None else rules, dealer=seed % 4)
    rnd = random.Random(seed)
    while hand.phase != "over" and len(hand.plays) < upto:
        if hand.phase == "passing":
            s = hand.passers[0]
            hand.pass_cards(s, rnd.sample(list(hand.cards(s)), hand.pass_count))
            continue
        obs = hand.observation()
        hand.bid(normal.bid(obs)) if hand.phase == "bidding" else hand.play(normal.play(obs))
    return hand


def direct_values(hand: Hand) -> dict:
    """The solver at the seat to act with a leaf written independently of the review: the
    hand's points (``score_hand``) for the acting team minus the opponents'."""
    team = hand.to_act % 2

    def leaf(*won):
        p = score_hand(hand.bids, won, hand.rules, blind=hand.blind, scores=hand.scores, bag_count=hand.bag_count).points
        return p[team] - p[1 - team]

    return card_values([hand.cards(s) for s in range(4)], hand.leader, leaf, team, tricks_won=hand.tricks_won,
                       trick=[c for _, c in hand.current_trick], rules=hand.rules, spades_broken=hand.spades_broken)


def sure_trick_thrown() -> tuple[Hand, int, float]:
    """A hand in which one card, from trick 8 on, throws away a trick its team was sure of
    with every card visible; every other card is the solver's best. Returns the hand, the
    index of that card in the play and the solver's loss for it."""
    for seed in range(40):
        hand = normal_hand(seed, upto=28)
        thrown = None
        while hand.phase != "over":
            values = direct_values(hand)
            best = max(values, key=values.get)
            card = best
            if thrown is None:
                team = hand.to_act % 2
                tricks = card_values([hand.cards(s) for s in range(4)], hand.leader, tricks_leaf(team), team,
                                     tricks_won=hand.tricks_won, trick=[c for _, c in hand.current_trick],
                                     rules=hand.rules, spades_broken=hand.spades_broken)
                lost = [c for c in values if tricks[c] == tricks[best] - 1 and values[c] < values[best]]
                if lost:
                    card = lost[0]
                    thrown = (len(hand.plays), values[best] - values[card])
            hand.play(card)
        if thrown is not None:
            return hand, *thrown
    raise AssertionError("no position found")


def test_a_card_that_throws_away_a_sure_trick_is_marked_with_the_solvers_loss():
    hand, play_no, loss = sure_trick_thrown()
    df = review(hand)
    assert list(df.trick.unique()) == list(range(8, 14)) and len(df) == 24
    row = df[df.play_no == play_no].iloc[0]
    assert row.loss == pytest.approx(loss) and loss > 0
    assert row.action == str(hand.plays[play_no][1]) and row.best != row.action
    assert (df[df.play_no != play_no].loss == 0).all()  # every other card was the best
    assert worst(df, 3).iloc[0].play_no == play_no
    summary = seat_summary(df)
    seat = hand.plays[play_no][0]
    assert summary.set_index("seat").loc[seat, "points_lost"] == pytest.approx(loss)
    picture = render.reviewed_html(hand, df)
    card = str(hand.plays[play_no][1])
    assert f'data-card="{card}" data-where="played" title="{card}: loses {loss:.1f} points' in picture


@pytest.mark.parametrize("rules", [Rules(), Rules(jokers=2, deuces_high=1, nil_tricks_count=True), Rules(pass_cards=2, bag_limit=5)],
                         ids=["default", "jokers", "passing"])
def test_review_values_equal_a_direct_call_of_the_solver(rules):
    hand = normal_hand(3, rules)
    df = review(hand, from_trick=9, whole_deal=True)
    assert len(df) == 20
    record = hand.to_record()
    for row in df.itertuples():
        again = dict(record, plays=record["plays"][: row.play_no])
        at = Hand.from_record(again)
        direct = direct_values(at)
        assert row.values == {str(c): v for c, v in direct.items()}
        assert row.value == direct[at.rules.named(row.action)] and row.best_value == max(direct.values())
        assert row.seat == at.to_act and row.trick == at.trick_no + 1
    assert 0 <= df.attrs["double_dummy"] <= 13
    assert "double_dummy" not in review(hand).attrs


def test_review_reads_records_json_and_pbn(tmp_path, capsys):
    hand = normal_hand(5)
    base = review(hand).drop(columns="values")
    for source in (hand.to_record(), hand.to_json(), hand.to_pbn()):
        assert review(source).drop(columns="values").equals(base)
    assert sa.review is review
    with pytest.raises(TypeError, match="a hand is a Hand, a record"):
        review(42)
    (tmp_path / "h.pbn").write_text(hand.to_pbn())
    assert main(["review", str(tmp_path / "h.pbn")]) == 0
    out = capsys.readouterr().out
    assert "24 decisions judged by solver" in out and "Per seat:" in out


def test_review_refuses_what_it_cannot_judge():
    with pytest.raises(ValueError, match="judge must be one of solver, hard, crazy, not 'oracle'"):
        review(normal_hand(1), "oracle")
    with pytest.raises(ValueError, match="from_trick is a trick 1..13, not 0"):
        review(normal_hand(1), from_trick=0)
    with pytest.raises(ValueError, match="the hand is still bidding"):
        review(Hand(deal(1, 0)))


def test_hard_judge_uses_the_monte_carlo_decision_values():
    from spades_ai.montecarlo import decision_values

    hand = normal_hand(2)
    agent = make_agent("hard", worlds=8)
    df = review(hand, "hard", agent=agent)
    assert list(df.phase[:4]) == ["bid"] * 4 and len(df) == 56 and (df.loss.dropna() >= 0).all()
    assert df.loss.notna().sum() >= 50  # NaN only where the judge weighed no value for the action taken
    record = hand.to_record()
    for row in df.iloc[[0, 3, 10, 40]].itertuples():  # the position again, from the record
        if row.phase == "bid":
            at = dict(record, bids=record["bids"][: row.decision], blind=record["blind"][: row.decision], plays=[])
        else:
            at = dict(record, plays=record["plays"][: row.play_no])
        _, values = decision_values(agent, Hand.from_record(at).observation())
        direct = {str(k): v for k, v in values.items()}
        assert row.values.keys() == direct.keys()
        assert np.array_equal([row.values[k] for k in direct], list(direct.values()), equal_nan=True)
        assert row.best_value == np.nanmax(list(values.values()))  # the best of the actions the judge weighed


def test_a_results_folder_gives_the_loss_per_agent_and_phase(tmp_path, capsys):
    run = sa.run_tournament("normal,easy", deals=3, seed=8, out=tmp_path / "run", keep_plays=True, n_jobs=1, progress=False).path
    df = review_hands(run_hands(run, table=0) + run_hands(run, table=1))
    assert df.hand.nunique() == 6 and set(df.agent) == {"normal", "easy"} and set(df.table) == {0, 1}
    table = loss_table(df)
    assert set(table.index) == {"normal", "easy"} and table.decisions.sum() == len(df) == 6 * 24
    one = df[df.agent == "easy"]
    assert table.loc["easy", "all"] == pytest.approx(one.loss.mean() * 100)
    for phase in ("lead", "follow", "discard"):
        if phase in table.columns and (one.phase == phase).any():
            assert table.loc["easy", phase] == pytest.approx(one[one.phase == phase].loss.mean() * 100)
    assert main(["review", str(run), "--worst", "3"]) == 0
    out = capsys.readouterr().out
    assert "6 hands, 144 decisions judged by solver" in out and "Points lost per 100 decisions" in out
    assert main(["review", str(run), "--deal", "1", "--table", "1", "--double-dummy"]) == 0
    out = capsys.readouterr().out
    assert "24 decisions judged by solver" in out and "Per seat:" in out and "double dummy" in out
    assert main(["review", str(run), "--deal", "1", "--from-trick", "14"]) == 2
    assert "from_trick is a trick 1..13, not 14" in capsys.readouterr().err
