"""``Seat`` and ``parse_deal`` take the table (issue 43): a seat or a deal of 3, 5, 8 or 12
players, with the copies of two or three decks, and a clear refusal of one that does not fit."""

from __future__ import annotations

import pickle

import pytest

import spades_ai as sa
from spades_ai.rules import Rules
from spades_ai.seats import Seat, left_of, partner, seats, side_of, table_rules

TABLES = [Rules(players=3), Rules(players=5), Rules(players=8), Rules(players=8, teams="pairs"),
          Rules(players=12), Rules(players=12, teams="pairs")]


@pytest.mark.parametrize("rules", TABLES, ids=lambda r: f"{r.players}-{r.teams}")
def test_a_seat_of_a_table_agrees_with_the_seat_functions(rules):
    for s in seats(rules):
        seat = Seat(s, rules)
        assert seat == s and seat.rules is rules
        assert seat.left == left_of(s, rules) and seat.left.right == seat
        assert seat.side == seat.team == side_of(s, rules)
        mate = partner(s, rules)
        assert seat.partner == mate if mate is not None else seat.partner is None
        if mate is not None:
            assert seat.partner.partner == seat and isinstance(seat.partner, Seat)
        assert isinstance(seat.left, Seat) and seat.left.rules is rules
        again = pickle.loads(pickle.dumps(seat))
        assert again == seat and again.rules == rules and repr(again) == repr(seat)


def test_a_table_is_its_rules_or_its_number_of_players():
    assert Seat(5, 8).rules == Rules(players=8) and Seat(5, 8).partner is None
    assert repr(Seat(5, 8)) == "Seat(5, 8)" and repr(Seat(1)) == "Seat(1)" == repr(Seat(1, 4))
    assert repr(Seat(9, Rules(players=12, teams="pairs")).partner) == "Seat(3, Rules(players=12, teams='pairs'))"
    assert Seat(11, 12).left == 0 and Seat(0, 12).right == 11
    assert table_rules(None) == Rules() and table_rules(5) == Rules(players=5)
    with pytest.raises(TypeError, match="a table is a spades_ai.Rules or a number of players, not str"):
        Seat(0, "four")


@pytest.mark.parametrize("value, table, words", [
    (3, 3, "a seat of 3 players solo is an int in 0..2, not 3"),
    (5, 5, "a seat of 5 players solo is an int in 0..4, not 5"),
    (8, Rules(players=8, teams="pairs"), "a seat of 8 players in pairs is an int in 0..7, not 8"),
    (12, 12, "a seat of 12 players solo is an int in 0..11, not 12"),
    (4, None, "a seat of 4 players in pairs is an int in 0..3, not 4"),
    (-1, 12, "not -1"),
])
def test_a_seat_off_the_table_is_refused_naming_it(value, table, words):
    with pytest.raises(ValueError, match=words.replace(".", r"\.")):
        Seat(value, table)


def _text(deal) -> list[str]:
    return [" ".join(map(str, cards)) for cards in deal]


@pytest.mark.parametrize("players", [3, 5, 8, 12])
def test_parse_deal_reads_a_deal_of_the_table(players):
    rules = Rules(players=players)
    dealt = sa.deal(4, rules=rules)
    for table in (players, rules):
        got = sa.parse_deal(_text(dealt), table)
        assert got == dealt and [len(c) for c in got] == [rules.cards_each] * players
    assert sa.parse_deal(" / ".join(_text(dealt)), players) == dealt
    if rules.decks > 1:  # the copies of two or three decks are read and kept
        assert any(cards.count(c) > 1 for cards in dealt for c in cards)


def test_parse_deal_at_four_is_todays():
    dealt = sa.deal(1)
    assert sa.parse_deal(_text(dealt)) == dealt == sa.parse_deal(dealt, 4)
    with pytest.raises(ValueError, match="a deal has 4 hands, not 3"):
        sa.parse_deal(dealt[:3])


def test_parse_deal_refuses_a_deal_that_does_not_fit_the_table():
    with pytest.raises(ValueError, match="a deal has 3 hands, not 4"):
        sa.parse_deal(sa.deal(1), 3)
    five = sa.deal(2, rules=Rules(players=5))
    with pytest.raises(ValueError, match="seat 0's hand has 10 cards, not 13"):
        sa.parse_deal(five[:4])
    with pytest.raises(ValueError, match="seat 0's hand has 17 cards, not 13"):
        sa.parse_deal([sa.deal(1, rules=Rules(players=3))[0], *sa.deal(1, rules=Rules(players=8))[1:]], 8)
    eight = [" ".join(["AS"] * 3 + [str(c) for c in sa.deal(1)[0]][:10])] + _text(sa.deal(1, rules=Rules(players=8)))[1:]
    with pytest.raises(ValueError, match="card AS appears 3 times, and a table of 8 players has it twice"):
        sa.parse_deal(eight, 8)
    with pytest.raises(TypeError, match="a table is a spades_ai.Rules or a number of players"):
        sa.parse_deal(sa.deal(1), 4.0)
