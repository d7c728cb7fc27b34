"""Tournament schedules (issue 5, section 1): agent specs, pairings, chunk plans, experiment files."""

from __future__ import annotations

import json

import pytest

from spades_ai import Rules, RulesError
from spades_ai.tournament import (
    Chunk,
    Tournament,
    TournamentError,
    parse_agent,
    parse_agents,
    plan_chunks,
    read_experiment,
)
from spades_ai.agents.spec import AgentSpec
from spades_ai.tournament.schedule import default_chunk_size


class FirstCard:
    """A user agent for the tests: bids ``bid``, plays the first legal card."""

    name = "first"

    def __init__(self, bid: int = 3):
        self.bid_value = bid

    def bid(self, obs):
        return self.bid_value

    def play(self, obs):
        return obs.legal_cards()[0]


first_card = FirstCard()
not_an_agent = 42


# -- agent specs ------------------------------------------------------------------------------
def test_builtin_names_get_every_default_option_and_a_label():
    a = parse_agent("normal")
    assert (a.name, a.label, a.target) == ("normal", "normal", None)
    assert a.options == {"seed": 0, "blind_nil": True}
    e = parse_agent("easy:careless=0.5")
    assert e.options == {"seed": 0, "careless": 0.5}
    assert e.label == "easy(careless=0.5)"
    assert parse_agent("easy:careless=0.5:seed=2").options == {"seed": 2, "careless": 0.5}


def test_agent_tables_as_in_a_toml_file():
    a = parse_agent({"name": "easy", "careless": 0.1, "label": "sloppy"})
    assert (a.label, a.options["careless"]) == ("sloppy", 0.1)
    b = parse_agent({"agent": "easy", "options": {"careless": 0.2}})
    assert b.options["careless"] == 0.2


def test_comma_lists_continue_options_and_number_repeated_labels():
    agents = parse_agents("normal,easy:careless=0.5,seed=3,normal")
    assert [a.label for a in agents] == ["normal", "easy(seed=3, careless=0.5)", "normal#2"]
    assert agents[1].options == {"seed": 3, "careless": 0.5}


def test_user_agents_by_module_and_attribute():
    obj = parse_agent("test_tournament_schedule:first_card")
    assert obj.target == "test_tournament_schedule:first_card" and obj.name == "python"
    assert obj.build() is first_card
    factory = parse_agent("test_tournament_schedule:FirstCard:bid=2")
    assert factory.options == {"bid": 2}
    assert factory.build().bid_value == 2
    assert factory.label == "test_tournament_schedule:FirstCard(bid=2)"


@pytest.mark.parametrize(
    "spec, words",
    [
        ("best", ["unknown agent 'best'", "normal"]),
        ("hardest:worlds=64", ["unknown agent 'hardest'"]),
        ("easy:careless=2", ["careless", "probability"]),
        ("easy:colour=red", ["no option", "colour"]),
        ("easy:careless", ["KEY=VALUE"]),
        ("no_such_module_xyz:Bot", ["cannot import", "no_such_module_xyz"]),
        ("test_tournament_schedule:Missing", ["no attribute", "Missing"]),
        ("test_tournament_schedule:not_an_agent", ["neither an agent"]),
        ("test_tournament_schedule:first_card:bid=2", ["takes no options"]),
        ("test_tournament_schedule:FirstCard:colour=1", ["calling it", "colour"]),
        ("", ["an agent is a name"]),
    ],
)
def test_bad_agents_are_refused_in_one_line(spec, words):
    with pytest.raises(TournamentError) as err:
        parse_agent(spec)
    msg = str(err.value)
    assert "\n" not in msg
    for w in words:
        assert w in msg


def test_agent_specs_round_trip_through_json():
    for spec in ("easy:careless=0.25", "test_tournament_schedule:FirstCard:bid=4"):
        a = parse_agent(spec)
        assert AgentSpec.from_dict(json.loads(json.dumps(a.to_dict()))) == a


# -- tournaments ------------------------------------------------------------------------------
def test_head_to_head_round_robin_and_gauntlet_pairings():
    assert Tournament.make("normal,easy").pairings == ((0, 1),)
    assert Tournament.make("normal,easy").schedule == "head_to_head"
    rr = Tournament.make("normal,easy,random")
    assert rr.schedule == "round_robin" and rr.pairings == ((0, 1), (0, 2), (1, 2))
    steps = Tournament.make("easy,normal,hard,crazy", schedule="ladder")
    assert steps.schedule == "ladder" and steps.pairings == ((1, 0), (2, 1), (3, 2))
    g = Tournament.make("normal,easy,random,easy:careless=0.9", schedule="gauntlet")
    assert g.pairings == ((0, 1), (0, 2), (0, 3))


def test_tables_swap_the_teams_and_share_the_cards_only_in_duplicate():
    t = Tournament.make("normal,easy,random", seed=7)
    assert t.lineup(2, 0) == (1, 2) and t.lineup(2, 1) == (2, 1)
    assert t.table_seed(0) == t.table_seed(1) == 7
    nd = Tournament.make("normal,easy", seed=7, duplicate=False)
    assert nd.table_seed(0) == 7 and nd.table_seed(1) != 7


@pytest.mark.parametrize(
    "kwargs, words",
    [
        ({"agents": "normal"}, ["at least 2 agents"]),
        ({"agents": "normal,easy,random", "schedule": "head_to_head"}, ["head_to_head", "2 agents"]),
        ({"agents": "normal,easy", "schedule": "swiss"}, ["unknown schedule"]),
        ({"agents": "normal,easy", "mode": "rubbers"}, ["unknown mode"]),
        ({"agents": "normal,easy", "deals": 0}, ["deals"]),
        ({"agents": "normal,easy", "deals": 2.5}, ["deals"]),
        ({"agents": "normal,easy", "seed": -1}, ["seed"]),
    ],
)
def test_bad_tournaments_are_refused(kwargs, words):
    with pytest.raises(TournamentError) as err:
        Tournament.make(**kwargs)
    for w in words:
        assert w in str(err.value)


def test_rules_from_a_table_a_file_or_an_object(tmp_path):
    assert Tournament.make("normal,easy", rules={"target_score": 300}).rules.target_score == 300
    assert Tournament.make("normal,easy", rules={"loss_threshold": "off"}).rules.loss_threshold is None
    f = tmp_path / "house.toml"
    f.write_text("nil_bonus = 50\n")
    assert Tournament.make("normal,easy", rules=f).rules.nil_bonus == 50
    assert Tournament.make("normal,easy", rules=Rules(bag_limit=5)).rules.bag_limit == 5
    with pytest.raises(RulesError, match="colour"):
        Tournament.make("normal,easy", rules={"colour": 1})


def test_a_tournament_round_trips_through_its_config():
    t = Tournament.make(
        "normal,easy:careless=0.4,random", deals=10, seed=3, mode="matches", rules={"target_score": 250}
    )
    assert Tournament.from_dict(json.loads(json.dumps(t.to_dict()))) == t


# -- chunks -----------------------------------------------------------------------------------
def test_chunks_cover_every_unit_once_with_edges_on_multiples():
    t = Tournament.make("normal,easy,random", deals=10)
    chunks = plan_chunks(t, 4)
    assert [(c.pairing, c.start, c.stop) for c in chunks[:3]] == [(0, 0, 4), (0, 4, 8), (0, 8, 10)]
    assert len(chunks) == 9


def test_chunks_fill_only_the_gaps_whatever_the_old_chunk_size():
    t = Tournament.make("normal,easy", deals=20)
    done = [Chunk(0, 0, 7), Chunk(0, 14, 20)]
    todo = plan_chunks(t, 5, done)
    assert [(c.start, c.stop) for c in todo] == [(7, 10), (10, 14)]
    covered = sorted((c.start, c.stop) for c in todo + done)
    assert covered == [(0, 7), (7, 10), (10, 14), (14, 20)]
    assert plan_chunks(t, 5, [Chunk(0, 0, 20)]) == []


def test_chunk_file_names_round_trip():
    c = Chunk(3, 1_000, 2_500)
    assert Chunk.from_filename(c.filename) == c
    assert Chunk.from_filename(".p003-x.parquet.tmp") is None


def test_default_chunk_size_gives_each_worker_several_chunks_within_bounds():
    big = Tournament.make("normal,easy", deals=1_000_000)
    assert default_chunk_size(big, 2) == 25_000
    small = Tournament.make("normal,easy", deals=2_000)
    assert default_chunk_size(small, 2) == 2_500
    matches = Tournament.make("normal,easy", deals=4_000, mode="matches")
    assert default_chunk_size(matches, 2) == 500
    # Monte Carlo and Python agents are slow: small chunks keep the bar moving
    slow = Tournament.make("normal,test_tournament_schedule:FirstCard", deals=1_000_000)
    assert default_chunk_size(slow, 2) == 500
    assert default_chunk_size(Tournament.make("normal,test_tournament_schedule:FirstCard", deals=40), 2) == 10


# -- experiment files -------------------------------------------------------------------------
def test_experiment_files_hold_the_whole_configuration(tmp_path):
    (tmp_path / "house.toml").write_text("target_score = 300\n")
    f = tmp_path / "exp.toml"
    f.write_text(
        'agents = ["normal", {name = "easy", careless = 0.5, label = "sloppy"}]\n'
        'matches = 40\nseed = 9\nmode = "matches"\nrules = "house.toml"\nout = "runs/x"\njobs = 1\n'
    )
    s = read_experiment(f)
    assert s["deals"] == 40 and s["seed"] == 9 and s["rules"].target_score == 300
    assert s["out"] == str(tmp_path / "runs/x")
    t = Tournament.make(s["agents"], s["deals"], s["seed"], s["mode"], rules=s["rules"])
    assert t.labels == ["normal", "sloppy"]


def test_an_experiment_files_report_table_is_left_to_experiments_run_py(tmp_path):
    f = tmp_path / "exp.toml"
    f.write_text('agents = ["normal", "easy"]\ndeals = 4\n\n[report]\nkind = "pairs"\n')
    assert "report" not in read_experiment(f)


@pytest.mark.parametrize(
    "text, words",
    [
        ("agents = [", ["not valid TOML"]),
        ("agentz = []", ["unknown key", "agentz"]),
        ("deals = 1\nmatches = 2", ["deals or matches"]),
        ("[rules]\ncolour = 1", ["colour"]),
        ("out = 5", ["out must be an output folder"]),
        ("deals = 'many'", ["deals must be an int"]),
        ("agents = 3", ["agents must be"]),
        ("report = 3", ["report must be a [report] table"]),
    ],
)
def test_bad_experiment_files(tmp_path, text, words):
    f = tmp_path / "exp.toml"
    f.write_text(text)
    with pytest.raises(ValueError) as err:
        read_experiment(f)
    for w in words:
        assert w in str(err.value)
    with pytest.raises(TournamentError, match="does not exist"):
        read_experiment(tmp_path / "missing.toml")


def test_a_rollout_policy_is_kept_as_written_so_every_worker_rebuilds_it():
    """``hard:rollout=easy`` in a tournament: the entrant keeps the spec text (JSON), and
    building it gives Hard bound to Easy (before, the built Easy was kept and the run failed)."""
    import json

    from spades_ai import make_agent

    spec = parse_agent("hard:worlds=8,rollout=easy")
    assert spec.options["rollout"] == "easy" and spec.label == "hard(worlds=8, rollout=easy)"
    agent = spec.build()
    assert agent.options["rollout"].label == "easy"
    table = parse_agent({"name": "hard", "worlds": 8, "rollout": "easy:careless=0.2"})  # a TOML table nests options
    assert table.options["rollout"] == "easy:careless=0.2" and table.build().options["rollout"].options["careless"] == 0.2
    from spades_ai.agents.spec import AgentSpec

    with pytest.raises(TournamentError, match="must be written as an agent spec"):
        parse_agent({"name": "hard", "rollout": make_agent("easy")})
    assert AgentSpec.from_dict(json.loads(json.dumps(spec.to_dict()))).build().label == agent.label


def test_an_experiment_file_finds_its_agents_beside_it(tmp_path, monkeypatch):
    """Issue 23, item 0: ``mine:AGENT`` in an experiment file is imported from the file's folder
    (here not the current one), and a module found nowhere is refused naming both folders."""
    folder = tmp_path / "exp"
    folder.mkdir()
    (folder / "beside_file_bot.py").write_text(
        "from spades_ai import make_agent\nAGENT = make_agent('easy')\n"
    )
    (folder / "exp.toml").write_text('agents = ["beside_file_bot:AGENT", "normal"]\n')
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    s = read_experiment(folder / "exp.toml")
    spec = s["agents"][0]
    assert spec.folder == str(folder.resolve()) and spec.build().name == "easy"
    assert AgentSpec.from_dict(json.loads(json.dumps(spec.to_dict()))) == spec
    (folder / "exp.toml").write_text('agents = ["nowhere_bot:AGENT", "normal"]\n')
    with pytest.raises(TournamentError) as err:
        read_experiment(folder / "exp.toml")
    assert "No module named 'nowhere_bot'" in str(err.value)
    assert str(folder.resolve()) in str(err.value) and str(elsewhere.resolve()) in str(err.value)


def test_partnerships_are_written_with_a_plus_or_as_a_table():
    t = Tournament.make("hard:worlds=8,seed=3+normal,crazy+easy:careless=0.5,normal", deals=10, schedule="gauntlet")
    assert t.labels == ["hard(seed=3, worlds=8)+normal", "crazy+easy(careless=0.5)", "normal"]
    assert t.pairings == ((0, 1), (0, 2))
    p = t.agents[0]
    assert [m.options.get("worlds") for m in p.members] == [8, None] and p.first.options["seed"] == 3
    assert [s.label for s in t.seat_specs(1, 1)] == ["normal", "hard(seed=3, worlds=8)", "normal", "normal"]
    assert Tournament.from_dict(json.loads(json.dumps(t.to_dict()))) == t
    table = parse_agent({"partners": ["easy", {"name": "easy", "careless": 0.1}], "label": "two easies"})
    assert table.label == "two easies" and table.second.options["careless"] == 0.1
    assert [a.label for a in parse_agents(["normal+easy", "normal+easy"])] == ["normal+easy", "normal+easy#2"]


@pytest.mark.parametrize(
    "spec, words",
    [
        ("hard+normal+easy", ["two agents joined by '+'"]),
        ("hard+", ["two agents joined by '+'"]),
        ("hard+nobody", ["unknown agent 'nobody'"]),
        ({"partners": ["hard"]}, ["partners must be a list of two agents"]),
        ({"partners": ["hard", "easy"], "seed": 2}, ["unknown key(s) seed"]),
        ({"partners": ["hard", {"partners": ["easy", "easy"]}]}, ["a partner is one agent"]),
    ],
)
def test_bad_partnerships_are_refused(spec, words):
    with pytest.raises(TournamentError) as err:
        parse_agent(spec)
    for w in words:
        assert w in str(err.value)
