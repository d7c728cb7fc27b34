"""Everything above the engine at tables of 6 to 12 players (issue 35, item 4): tournaments on
rotated duplicate deals, their results and summaries, with two and three decks.

The tournaments are real ones (Random, Easy and Normal, which play every table) of a few deals:
their rows are checked against the engine's own records of the same lineups, and their
``plays`` against the table's deck, copies counted.
"""

import io
import math
import re
import sys
from collections import Counter

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest

from spades_ai.analysis import unit_differences
from spades_ai.analysis.bidding import bidding_leaderboard, bidding_records
from spades_ai.analysis.review import review
from spades_ai.analysis.summary import outcomes, ratings, summarize
from spades_ai.cli import _table_rules, build_parser, main
from spades_ai.errors import RulesError, TableError
from spades_ai.game import Hand
from spades_ai.render import replay_html
from spades_ai.render import save as save_picture
from spades_ai.render.html import seat_places
from spades_ai.render.text import TABLE_SEATS, table_names
from spades_ai.rules import Rules
from spades_ai.seats import side_seats
from spades_ai.simulate import deal
from spades_ai.table import TableMatch
from spades_ai.table.replay import replay_hand, replay_lines, replay_source
from spades_ai.selfplay import play_hands
from spades_ai.tournament import load_results, run_tournament
from spades_ai.tournament.results import DATA_DIR, best_other, deal_differences
from spades_ai.tournament.runner import seat_lineup
from spades_ai.tournament.schedule import Chunk
from spades_ai.web.client import play_match
from spades_ai.web.settings import rules_from_form
from spades_ai.web.view import BrowserMatch, match_view

BIG = {"6 pairs": Rules(players=6, teams="pairs"), "6 solo": Rules(players=6), "8 solo": Rules(players=8),
       "12 solo": Rules(players=12)}  # fmt: skip
AGENTS = "normal,easy,random"
DEALS = 2


def deck_counts(rules: Rules) -> Counter:
    """Card id -> copies in the table's decks (``Rules.decks`` less the removed cards)."""
    counts = Counter({c: rules.decks for c in range(52)})
    counts.subtract(int(c) for c in rules.removed_cards)
    return +counts


@pytest.fixture(scope="module", params=list(BIG), ids=list(BIG))
def played(request, tmp_path_factory):
    """A round robin of Normal, Easy and Random on two duplicate deals, plays kept."""
    rules = BIG[request.param]
    run = run_tournament(AGENTS, deals=DEALS, seed=3, rules=rules, keep_plays=True, chunk_size=1, n_jobs=1,
                         progress=False, out=tmp_path_factory.mktemp("run"))  # fmt: skip
    return run, load_results(run)


def test_every_entrant_holds_every_side_of_every_rotation(played):
    run, df = played
    t, k = run.tournament, run.tournament.rules.n_sides
    assert len(df) == len(t.pairings) * DEALS * k * k
    assert df["players"].eq(t.rules.players).all() and df["opponent"].isna().all() == (k > 2)
    key = df[["pairing", "deal_no", "rotation", "side"]].to_numpy().tolist()
    assert key == sorted(key) and len(set(map(tuple, key))) == len(key)
    for p, (a, b) in enumerate(t.pairings):
        rows = df[df.pairing == p]
        for r in t.rotations:
            at = rows[rows.rotation == r].groupby("side")["agent"].first()
            assert list(at) == [t.labels[i] for i in t.lineup(p, r)]
        # the first entrant once at each side, the second everywhere else
        first = rows[rows.agent == t.labels[a]]
        assert sorted(first.groupby("deal_no")["side"].apply(sorted).sum()) == sorted(list(range(k)) * DEALS)
        assert (rows.agent == t.labels[b]).sum() == DEALS * k * (k - 1)


def test_rows_are_the_engines_hands_side_by_side(played):
    """Every side row holds what ``play_hands`` records for that lineup: the side's points,
    its seats' bids and tricks (seat a = the side, seat b = its partner with pairs), the plays."""
    run, df = played
    t = run.tournament
    k = t.rules.n_sides
    for p in range(len(t.pairings)):
        for r in t.rotations:
            rec = play_hands(seat_lineup(t, p, r), DEALS, seed=t.table_seed(r), rules=t.rules, keep_plays=True)
            rows = df[(df.pairing == p) & (df.rotation == r)]
            for side in range(k):
                got = rows[rows.side == side]
                np.testing.assert_array_equal(got["points"], rec.points[:, side])
                np.testing.assert_array_equal(got["bid_a"], rec.bids[:, side])
                np.testing.assert_array_equal(got["tricks_won_a"], rec.tricks_won[:, side])
                if t.rules.teams == "pairs":
                    np.testing.assert_array_equal(got["bid_b"], rec.bids[:, side + k])
                    np.testing.assert_array_equal(got["team_tricks"], rec.tricks_won[:, [side, side + k]].sum(axis=1))
                else:
                    assert got["bid_b"].isna().all() and got["agent_b"].isna().all()
                assert list(got["plays"]) == [row.tobytes() for row in rec.plays]


def test_plays_hold_the_whole_deck_copies_counted(played):
    run, df = played
    rules = run.tournament.rules
    dealt = rules.players * rules.cards_each  # 156 at 12 players
    assert df["plays"].map(len).eq(dealt).all()
    for plays in df["plays"].unique():
        assert Counter(np.frombuffer(plays, np.int8).tolist()) == deck_counts(rules)


def test_summaries_differences_and_ratings(played):
    run, df = played
    t, k = run.tournament, run.tournament.rules.n_sides
    table = summarize(df, n_boot=50)
    assert len(table) == 2 * len(t.pairings)
    for p, (a, b) in enumerate(t.pairings):
        mine = table[table.pairing == p].set_index("agent")
        first, second = t.labels[a], t.labels[b]
        assert mine.loc[first, "hands"] == DEALS * k and mine.loc[second, "hands"] == DEALS * k * (k - 1)
        assert mine.loc[first, "diff"] == pytest.approx(-mine.loc[second, "diff"])
        d = unit_differences(df, first, second)
        assert list(d.index) == list(range(DEALS)) and d.mean() == pytest.approx(mine.loc[first, "diff"])
        # by hand: the first entrant's points less the mean of the other sides', over the rotations
        rows = df[df.pairing == p]
        by_hand = [np.mean([rows[(rows.deal_no == i) & (rows.rotation == r) & (rows.agent == first)]["points"].iloc[0]
                            - rows[(rows.deal_no == i) & (rows.rotation == r) & (rows.agent != first)]["points"].mean()
                            for r in t.rotations]) for i in range(DEALS)]  # fmt: skip
        assert d.tolist() == pytest.approx(by_hand)
        # the sequential test reads the same differences from a chunk's file
        data = pq.read_table(run.path / DATA_DIR / Chunk(p, 0, 1).filename, columns=["deal_no", "agent", "points"])
        assert deal_differences(data, first, 0, 1, k).tolist() == pytest.approx(d.tolist()[:1])
    board = ratings(df, n_boot=20)
    assert sorted(board["agent"]) == sorted(t.labels) and np.isfinite(board["rating"]).all()
    assert (board[["wins", "losses", "ties"]].sum(axis=1) == 2 * DEALS).all()  # an outcome a deal, two pairings each
    assert len(outcomes(df)) == len(t.pairings)


def test_a_matches_run_at_eight_players():
    rules = Rules(players=8, target_score=None, max_hands=2)  # two hands, and more while the best score is tied
    run = run_tournament("normal,easy", deals=2, seed=1, mode="matches", rules=rules, n_jobs=1, progress=False)
    df = load_results(run)
    key = df[["match_no", "rotation", "hand_no", "side"]].to_numpy().tolist()
    assert key == sorted(key) and len(df) % 8 == 0
    hands = df.groupby(["match_no", "rotation"])["hand_no"]
    assert len(hands) == 2 * 8 and (hands.max() >= 1).all() and (hands.count() == 8 * (hands.max() + 1)).all()
    scores = df["score"].to_numpy().reshape(-1, 8)
    np.testing.assert_array_equal(df["opp_score"].to_numpy().reshape(-1, 8), best_other(scores))
    ends = df[df.hand_no == df.groupby(["match_no", "rotation"])["hand_no"].transform("max")]
    for _, end in ends.groupby(["match_no", "rotation"]):  # the single highest score wins, on every side row
        assert end["winner"].nunique() == 1 and end["winner"].iloc[0] == end["score"].to_numpy().argmax()
        assert (end["score"] == end["score"].max()).sum() == 1
    assert (df[df.hand_no < df.groupby(["match_no", "rotation"])["hand_no"].transform("max")]["winner"] == -1).all()
    table = summarize(df, n_boot=20).set_index("agent")
    assert table.loc["normal", "matches"] == 2 * 8 and table.loc["easy", "matches"] == 2 * 8 * 7
    assert table.loc["normal", "diff"] == pytest.approx(-table.loc["easy", "diff"])


def test_the_command_line_plays_a_table_of_twelve(tmp_path, capsys):
    (tmp_path / "twelve.toml").write_text("players = 12\n")
    out = tmp_path / "run"
    assert main(["tournament", "--agents", "normal,easy", "--deals", "2", "--jobs", "1", "--rules",
                 str(tmp_path / "twelve.toml"), "--out", str(out), "-q", "--boot", "20"]) == 0  # fmt: skip
    text = capsys.readouterr().out
    assert "12 players solo, rules: default" in text and "normal   easy     2" in text
    df = load_results(out)
    assert len(df) == 2 * 12 * 12 and df["players"].eq(12).all()
    pd.testing.assert_frame_equal(df, load_results(out))



@pytest.mark.parametrize("rules", [BIG["6 pairs"], BIG["8 solo"]], ids=["6 pairs", "8 solo"])
def test_the_bidding_benchmark_seats_the_bidder_at_every_side(rules):
    recs = bidding_records(["normal"], deals=2, rules=rules, opponents="easy")
    assert len(recs) == 2 * rules.players  # a row a bidding seat: every seat once a deal
    assert recs.groupby("table")["seat"].unique().map(sorted).tolist() == [
        list(side_seats(k, rules)) for k in range(rules.n_sides)]
    assert bidding_leaderboard(recs).loc["normal", "deals"] == 2

# -- the people's tables: seats, settings, the command line ----------------------------------
def test_every_table_names_its_seats_and_draws_them_clockwise_around_the_trick():
    for n in range(3, 13):
        names = table_names(Rules(players=n))
        size, places = seat_places(n)
        assert len(names) == len(set(names)) == len(places) == len(set(places)) == n
        assert names[0] == "You" and places[0] == (size, size // 2 + 1)  # you at the bottom, in the middle
        assert size == (3 if n <= 8 else 5)
        for row, col in places:  # on the border: the trick fills the cells inside
            assert row in (1, size) or col in (1, size)
        # clockwise (to your left first): the angle from the middle grows seat by seat
        mid = size // 2 + 1
        angles = [math.atan2(mid - col, row - mid) % (2 * math.pi) for row, col in places]
        assert angles == sorted(angles), n
        # and each seat sits at the compass point of its name
        compass = {"You": 0, "West": 90, "North": 180, "East": 270}
        for name, angle in zip(names, angles):
            if name in compass:
                assert math.degrees(angle) == pytest.approx(compass[name]), (n, name)
    assert [seat_places(n)[1] for n in (3, 4, 5)] == [  # part 1's pictures, unchanged
        ((3, 2), (2, 1), (2, 3)), ((3, 2), (2, 1), (1, 2), (2, 3)), ((3, 2), (2, 1), (1, 1), (1, 3), (2, 3))]
    with pytest.raises(ValueError, match="seat 3 to 12 players, not 13"):
        seat_places(13)


def test_the_settings_seat_six_to_twelve_players_in_pairs_or_solo():
    assert rules_from_form(Rules(), {"players": 8}).teams == "solo"  # the sides follow the players
    six = rules_from_form(Rules(), {"players": 6, "teams": "pairs", "equal_cards": "last"})
    assert (six.players, six.n_sides, six.decks, six.equal_cards) == (6, 3, 2, "last")
    assert rules_from_form(Rules(), {"players": 12, "teams": "pairs"}).n_sides == 6
    with pytest.raises(RulesError, match="'teams' = 'pairs' needs an even number of players, not 9"):
        rules_from_form(Rules(), {"players": 9, "teams": "pairs"})
    with pytest.raises(RulesError, match="'jokers' = 1 is played with one deck only: a table of 10 players shuffles 3"):
        rules_from_form(Rules(), {"players": 10, "jokers": 1})


@pytest.mark.parametrize("args, table", [
    ([], None),
    (["--players", "8"], (8, "solo", False)),
    (["--players", "6", "--teams", "pairs"], (6, "pairs", False)),
    (["--rules", "solo", "--players", "12"], (12, "solo", True)),  # the preset's must win kept
    (["--rules", "cutthroat", "--players", "4"], (4, "pairs", False)),  # the sides follow the players
    (["--teams", "solo"], (4, "solo", False)),
])  # fmt: skip
@pytest.mark.parametrize("command", ["play", "serve"])
def test_play_and_serve_take_the_table_over_the_rules(command, args, table):
    rules = _table_rules(build_parser().parse_args([command, *args]))
    assert (rules and (rules.players, rules.teams, rules.must_win)) == table


def test_a_table_the_rules_refuse_is_refused_by_name(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert main(["play", "--players", "7", "--teams", "pairs"]) == 2
    assert "'teams' = 'pairs' needs an even number of players, not 7" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["serve", "--players", "13"])
    assert "--players: invalid choice: 13" in capsys.readouterr().err
    assert main(["play", "--resume", "m.jsonl", "--players", "8"]) == 2
    assert "drop --players" in capsys.readouterr().err


def test_the_page_is_told_where_the_seats_sit():
    state = match_view(BrowserMatch(3, "easy", Rules(players=5)))
    assert state["grid"] == 3 and state["places"] == [list(p) for p in seat_places(5)[1]]


# -- a match, a replay and the pictures at 6..12 players (need a Hand of several decks) ------
EIGHT = Rules(players=8)


@pytest.mark.parametrize("rules", [EIGHT], ids=["8 solo"])
def test_a_whole_match_at_eight_players_over_http(rules, tmp_path, capsys):
    """As part 1's matches over HTTP: the seats named and placed around the table, the cards
    each, every opponent at the level, the sheets a column a side; the save file replays in
    the terminal and the page, with the review's marks, and ``spades-ai review`` judges it."""
    from test_web import running

    n, held = rules.players, rules.cards_each
    names = list(TABLE_SEATS[n])
    with running(tmp_path) as (server, client):
        state = client.new_match("easy", {"players": n, "target_score": None, "max_hands": 2})
        mid = state["id"]
        assert state["names"] == state["teams"] == names and state["side_of"] == list(range(n))
        grid, places = seat_places(n)
        assert state["grid"] == grid and state["places"] == [list(p) for p in places]
        assert state["partner"] is None and state["seat_levels"] == [None] + ["easy"] * (n - 1)
        assert state["hand"]["held"] == [held] * n and len(state["hand"]["cards"]) == held
        final = play_match(client, state).state
        assert final["over"] and final["stats"]["hands"] >= 2 and len(final["scores"]) == n
        winner = names[final["winner"]]
        verb = "win" if winner == "You" else "wins"
        assert final["result_line"].startswith(f"{winner} {verb} the match, {max(final['scores'])} to ")
        sheet = final["sheets"][0]["html"]
        assert sheet.count("<th>") == n + 1 and all(f"<th>{name}</th>" in sheet for name in names)
        page = client.request("GET", f"/matches/{mid}/replay/0?review=1").decode()
        assert page.count('class="sa-step"') == held + 1 and page.count('data-where="dealt"') == n * held
        assert "tricks that lose over 0.5 points (solver judge)" in page  # the review judges every table
        out = tmp_path / "downloaded.jsonl"
        out.write_bytes(client.save_file(mid))
    text = "\n".join(replay_lines(replay_source(out)[0]))
    assert "Score sheet" in text and f"  {names[-1]}" in text and f"Trick {held}: " in text
    assert main(["review", str(out), "--hand", "0"]) == 0
    assert "decisions judged by solver" in capsys.readouterr().out


@pytest.mark.parametrize("rules", [pytest.param(Rules(players=5), id="5"),
                                   pytest.param(Rules(players=12), id="12 solo")])
def test_a_match_of_five_or_twelve_players_through_the_terminal(rules, monkeypatch, capsys, tmp_path):
    """``spades-ai play --players 12``: the seats named around the table, the bids to the
    cards each, a sheet a column a seat, one winner; saved and resumed as played."""
    from test_table import LEVEL, SEED, run_cli, scripted

    n = rules.players
    names = TABLE_SEATS[n]
    answers, _, match = scripted(target=None, rules=rules.replace(max_hands=1))
    (tmp_path / "one.toml").write_text('target_score = "off"\nmax_hands = 1\n')
    save = tmp_path / "m.jsonl"
    code, out, err = run_cli(monkeypatch, capsys, answers, "--level", LEVEL, "--rules", str(tmp_path / "one.toml"),
                             "--players", str(n), "--seed", str(SEED), "--save", str(save))  # fmt: skip
    assert code == 0, err
    against = ", ".join(names[1:-1]) + f" and {names[-1]}"
    assert f"Spades over 1 hand, {n} players solo: you (South) against {against} ({LEVEL}); seed {SEED}." in out
    assert re.search(rf"Your bid \(1-{rules.cards_each}(, or nil)?\)\?", out) and "Your cards: S: " in out
    assert out.rstrip().endswith(match.result_line())
    header = next(line for line in out.splitlines() if line.startswith("  " + " " * 16 + "You"))
    assert header.split() == list(names)
    assert TableMatch.load(save).to_lines() == match.to_lines()


@pytest.mark.parametrize("rules", [pytest.param(Rules(players=5), id="5"),
                                   pytest.param(Rules(players=6, teams="pairs"), id="6 pairs"),
                                   pytest.param(Rules(players=9), id="9 solo")])
def test_a_hand_record_replays_as_text_html_and_svg_and_the_four_seat_formats_refuse_it(rules, tmp_path):
    hand = Hand(deal(5, rules=rules), dealer=1, rules=rules)
    while hand.phase == "bidding":
        hand.bid(hand.legal_bids()[0])
    while hand.phase == "playing":
        hand.play(hand.legal_cards()[0])
    n, each = rules.players, rules.cards_each
    (tmp_path / "hand.json").write_text(hand.to_json())
    recorded = replay_source(tmp_path / "hand.json")[0]
    lines = replay_lines(recorded)
    assert sum(line.startswith("Trick ") for line in lines) == each and f"Trick {each}: " in "\n".join(lines)
    sheet = lines[-1].splitlines()
    assert sheet[1].split() == " ".join(recorded.teams).split()  # a column a side
    assert len(recorded.teams) == rules.n_sides
    assert sheet[2].split()[0] == "bids" and sheet[-1].split() == ["match", *map(str, hand.result().scores)]
    picture = str(replay_html(replay_hand(recorded.record)))
    assert picture.count('class="sa-step"') == each + 1 and picture.count('data-where="dealt"') == n * each
    last = picture.split('class="sa-step"')[-1]
    drawn = re.findall(r'data-seat="(\d+)" style="grid-row:(\d+);grid-column:(\d+)"', last)
    assert [(int(r), int(c)) for _, r, c in drawn] == list(seat_places(n)[1])
    table = f"{n} players {'in pairs' if rules.teams == 'pairs' else 'solo'}"
    save_picture(hand, tmp_path / "hand.svg")  # the SVG picture draws every table
    assert (tmp_path / "hand.svg").read_text().count('data-where="dealt"') == n * each
    with pytest.raises(TableError, match=f"PBN records play 4 players in pairs, not {table}: .*docs/playing.md#records"):
        hand.to_pbn()
    df = review(hand)  # the review judges every table: each seat's cards of the last tricks
    assert len(df) == n * (each - df.attrs["from_trick"] + 1) and (df.loss >= 0).all()
    with pytest.raises(ValueError, match=f"review's whole-deal double dummy plays 4 players in pairs, not {table}"):
        review(hand, whole_deal=True)
