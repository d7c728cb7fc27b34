"""``experiments/peek.py``: a seat that sees every hand decides as Hard does in the one true
world. Its values are checked against the hand played out through ``Hand`` by Normal's own
Python face and scored with bags at their cost."""

import pytest
from experiment_scripts import experiment_script

import spades_ai as sa
from spades_ai.game import Hand

peek = experiment_script("peek")


def played_out(hand: Hand, choice, normal) -> float:
    """``choice`` made by the seat to act, the rest of the hand by Normal: the seat's points with
    bags at their cost less the mean of the other seats' (Hard's utility, ``mean``)."""
    seat, rules = hand.to_act, hand.rules
    hand = hand.clone()
    hand.bid(choice) if hand.phase == "bidding" else hand.play(choice)
    while hand.phase != "over":
        obs = hand.observation()
        hand.bid(normal.bid(obs)) if hand.phase == "bidding" else hand.play(normal.play(obs))
    r = hand.result()
    worth = [p - rules.bag_penalty / rules.bag_limit * b for p, b in zip(r.points, r.new_bags)]
    return worth[seat] - (sum(worth) - worth[seat]) / (rules.players - 1)


def test_the_peeking_choice_is_the_best_true_playout_by_normal():
    normal = sa.make_agent("normal")
    for rules in (sa.Rules.preset("solo"), sa.Rules(players=5)):
        hand = Hand(sa.deal(7, 0, rules), 0, rules)
        checked = 0
        while hand.phase != "over":
            if hand.phase == "bidding":
                choices, pick = hand.legal_bids(), peek.peek_bid(hand)
            else:
                choices, pick = hand.legal_cards(), peek.peek_card(hand)
            values = [played_out(hand, c, normal) for c in choices]
            assert values[choices.index(pick)] == max(values)
            checked += len(choices) > 1
            hand.bid(pick) if hand.phase == "bidding" else hand.play(pick)
        assert checked >= 10


def test_the_script_prints_its_margins_and_refuses_a_table_in_pairs(capsys):
    assert peek.main(["--rules", "solo", "--deals", "3", "--peeks", "bidding"]) == 0
    out = capsys.readouterr().out
    assert "peeking in bidding" in out and "with bags at their cost" in out and "normal: bid" in out
    with pytest.raises(SystemExit) as exc:
        peek.main(["--rules", "classic", "--deals", "1"])
    assert exc.value.code == 2 and "a table in pairs (4 players) is refused" in capsys.readouterr().err
