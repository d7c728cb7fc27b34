"""Bots as programs (issue 23, item 2): a real subprocess bot speaking docs/PROTOCOL.md, in
``play_hands``, tournaments and the bidding benchmark, and a clear error for every way a bot can
break the protocol: garbage, an illegal action, no answer in time, death, a bad hello. Issue 33,
item 2: every wait bounded, every undecodable line named, the request a bot failed on named, and
a bot ended with every process it started whenever its agent closes, error or not. Issue 42:
protocol 2 (the table in the hello and every request; a protocol-1 bot plays four in pairs as
before and is refused elsewhere), and a hello timeout named as the one that applied; every
table is played in ``test_program_tables.py``."""

from __future__ import annotations

import gc
import json
import sys
from pathlib import Path

import numpy as np
import pytest

from spades_ai import Rules, load_results, play_hands, run_tournament
from spades_ai.agents import program
from spades_ai.agents.program import ProgramAgent, ProgramError, observation_json, program_agent
from spades_ai.agents.spec import parse_agent, parse_agents, with_decision_timeout
from spades_ai.errors import TableError, TournamentError
from spades_ai.game import Hand
from spades_ai.simulate import deal_masks
from spades_ai.tournament.results import DATA_DIR

HERE = Path(__file__).resolve().parent
BOT = f"{sys.executable} {HERE / 'bots' / 'first_legal_bot.py'}"
EXAMPLE = f"{sys.executable} {HERE.parent / 'examples' / 'protocol_bot.py'}"


def running(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie, exited but not yet reaped by its parent, does not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rpartition(")")[2].split()[0] not in "ZX"


def started(path: Path) -> list[int]:
    """The pids the test bot wrote to ``$BOT_STARTS``: each bot's, then under ``spawn`` its child's."""
    return [int(pid) for pid in path.read_text().split()]


class FirstLegal:
    """What the test bot does in mode ``ok``, as a Python agent."""

    name = "first legal"

    def bid(self, obs):
        return obs.legal_bids()[0]

    def play(self, obs):
        return obs.legal_cards()[0]


@pytest.mark.parametrize("mode, version", [("ok", 2), ("protocol 1", 1)], ids=["protocol 2", "protocol 1"])
def test_a_program_plays_exactly_like_the_same_agent_in_python(mode, version):
    """A bot of protocol 2, and one of protocol 1 (written for four players in pairs), play
    four in pairs as the Python agent does."""
    bot = ProgramAgent(f"{BOT} {mode}")
    try:
        rec = play_hands([bot, "normal"], 60, seed=3)
        assert bot.name == f"first_legal_{mode.split()[0]}" and bot.hello["protocol"] == version
        same = play_hands([FirstLegal(), "normal"], 60, seed=3)
        np.testing.assert_array_equal(rec.points, same.points)
        np.testing.assert_array_equal(rec.bids, same.bids)
    finally:
        bot.close()


def test_the_example_bot_is_legal_in_a_tournament_and_starts_once_per_process(tmp_path, monkeypatch):
    starts = tmp_path / "starts.txt"
    monkeypatch.setenv("BOT_STARTS", str(starts))
    run = run_tournament(f"cmd:{BOT} ok,normal", deals=30, chunk_size=10, n_jobs=1, progress=False, out=tmp_path / "run")
    df = load_results(run)
    assert len(df) == 30 * 4 and set(df["agent"].astype(str)) == {f"cmd:{BOT} ok", "normal"}
    assert len(starts.read_text().split()) == 1  # three chunks, one process
    example = load_results(run_tournament(f"normal+cmd:{EXAMPLE},normal", deals=20, n_jobs=1, progress=False,
                                          out=tmp_path / "example"))  # fmt: skip
    assert len(example) == 20 * 4 and (example["team_tricks"].groupby([example.deal_no, example.rotation]).sum() == 13).all()


def test_the_bidding_benchmark_takes_a_program_bidder():
    from spades_ai.analysis.bidding import bidding_benchmark

    board = bidding_benchmark({"bot": f"cmd:{BOT} ok", "normal": "normal"}, deals=20)
    assert set(board.index) == {"bot", "normal"} and board.loc["bot", "nil_rate"] == 1.0  # its first legal bid: nil


@pytest.mark.parametrize(
    "mode, at, words",
    [
        ("garbage", 5, ["'this is not JSON'", "which is not a JSON line"]),
        ("deep", 2, ["answered b'[[[[", "(200,000 bytes), which is nested too deeply to be read"]),
        ("long", 2, ["answered a line longer than 1,048,576 bytes (the most a line may be): b'{\"action\": \"xxx"]),
        ("latin1", 2, ["answered b'{\"action\": \"\\xe9\"}', which is not UTF-8 (invalid continuation byte at byte 12)"]),
        ("illegal", 1, ["chose the illegal bid 14"]),
        ("illegal", 30, ["chose the illegal card 'XX'"]),
        ("huge", 30, ["chose the illegal card 'XXXX", "X... (100,002 characters) (legal: "]),
        ("die", 7, ["died (exit code 3) before answering"]),
        ("slow", 3, ["gave no answer within 0.5 s"]),
        ("close_stdout", 4, ["closed its standard output (and did not exit) before answering"]),
        ("close_stdin", 4, ["gave no answer within 0.5 s"]),
    ],
)
def test_a_broken_bot_is_named_with_its_seat_deal_and_request(mode, at, words):
    bot = ProgramAgent(f"{BOT} {mode} {at}", timeout=0.5)
    try:
        with pytest.raises(ProgramError) as err:
            play_hands([bot, "normal"], 8, seed=1, start=100)
    finally:
        bot.close()
    text = str(err.value)
    assert len(text) < 1_500 and "\n" not in text
    assert text.startswith(f"bot 'first_legal_{mode}' at seat ") and ", deal 10" in text and "; request: {" in text
    for w in words:
        assert w in text


@pytest.mark.parametrize(
    "command, words",
    [
        (f"{BOT} protocol", ["speaks protocol 3, this side 1 and 2"]),
        (f"{BOT} protocol true", ["speaks protocol true (a bool, not an int), this side 1 and 2"]),
        (f"{BOT} protocol 2.0", ["speaks protocol 2.0 (a float, not an int), this side 1 and 2"]),
        (f"{BOT} default", ["does not accept these rules", "default rules only", "target_score"]),
        ("no-such-program-x", ["cannot be started"]),
    ],
)
def test_a_bad_hello_stops_before_the_first_deal(command, words):
    bot = ProgramAgent(command)
    with pytest.raises(ProgramError) as err:
        play_hands([bot, "normal"], 2, rules=Rules(target_score=300))
    for w in words:
        assert w in str(err.value)


@pytest.mark.parametrize(
    "mode, words",
    [
        ("die", "died (exit code 3) before answering"),
        ("die_buffered", "died (exit code 3) before answering"),
        ("close_stdin", "closed its standard input and gave no answer within 1 s"),
    ],
)
def test_a_bot_failing_mid_batch_is_named_at_the_request_it_failed_on(mode, words):
    """A batch of 1,000 requests, more than the pipe holds: the bot stops reading at its 5th
    (it exits, or closes its input and sleeps), so writing the rest fails while its answers to
    the first 4 are unread (``die_buffered`` writes them only once its input is closed). Those answers are
    read, and the error names the 5th request."""
    obs = Hand(deal_masks(3, 0, 1)[0].tolist()).observation()
    bot = ProgramAgent(f"{BOT} {mode} 5", timeout=1)
    with pytest.raises(ProgramError) as err:
        bot.ask_many([(obs, "bid")] * 1000)
    assert words in str(err.value) and '; request: {"type": "bid", "id": 5, "seat": 1' in str(err.value)
    assert bot._proc is None


@pytest.mark.parametrize("caller", ["play_hands", "run_tournament"])
def test_a_bot_that_answered_illegally_is_ended_at_once(caller, tmp_path, monkeypatch):
    """The agent that raised has ended its program: a Python caller holding the agent, or a
    tournament keeping it for its worker, leaves no process behind."""
    monkeypatch.setenv("BOT_STARTS", str(tmp_path / "starts.txt"))
    bot = ProgramAgent(f"{BOT} illegal 3", timeout=2)
    with pytest.raises(ProgramError, match="chose the illegal"):
        if caller == "play_hands":
            play_hands([bot, "normal"], 2)
        else:
            run_tournament(f"cmd:{BOT} illegal 3,normal", deals=2, n_jobs=1, progress=False, out=tmp_path / "run")
    (pid,) = started(tmp_path / "starts.txt")
    assert not running(pid) and bot._proc is None


def test_a_bot_and_every_process_it_started_end_with_its_agent(tmp_path, monkeypatch):
    """The bot starts ``sleep 1000`` and exits at the end of its input as a bot should: its child
    is ended with it (its process group), at the end of a ``with`` block or when the agent is
    collected."""
    monkeypatch.setenv("BOT_STARTS", str(tmp_path / "starts.txt"))
    with ProgramAgent(f"{BOT} spawn", timeout=2) as bot:
        play_hands([bot, "normal"], 2)
        pids = started(tmp_path / "starts.txt")
        assert len(pids) == 2 and all(map(running, pids))
    assert not any(map(running, pids))
    bot = ProgramAgent(f"{BOT} spawn", timeout=2)
    play_hands([bot, "normal"], 2)
    pids = started(tmp_path / "starts.txt")[2:]
    assert all(map(running, pids))
    del bot
    gc.collect()
    assert not any(map(running, pids))


def test_a_bot_that_will_not_exit_is_killed(tmp_path, monkeypatch):
    """The bot ignores the end of its input and SIGTERM: ``close`` kills it, a grace (at most the
    decision timeout) after each."""
    monkeypatch.setenv("BOT_STARTS", str(tmp_path / "starts.txt"))
    bot = ProgramAgent(f"{BOT} stubborn", timeout=0.5)
    play_hands([bot, "normal"], 1)
    (pid,) = started(tmp_path / "starts.txt")
    assert running(pid)
    bot.close()
    assert not running(pid)


def test_the_warm_up_neither_starts_nor_waits_on_a_bot(tmp_path, monkeypatch, capsys):
    """``spades-ai tournament``'s warm-up compiles the loop a bot is asked through with a Python
    stand-in: a bot is not started there, so no wait on one is counted, or announced, as
    compiling. The run itself then stops on the bot with its one-line error."""
    from spades_ai.cli import main
    from spades_ai.tournament import Tournament
    from spades_ai.tournament.runner import warm_up

    starts = tmp_path / "starts.txt"
    monkeypatch.setenv("BOT_STARTS", str(starts))
    warm_up(Tournament.make(f"normal+cmd:{BOT} slow 1,cmd:{BOT} slow 1", deals=2))
    assert not starts.exists()
    code = main(["tournament", "--agents", f"cmd:{BOT} slow 1,normal", "--deals", "2", "--jobs", "1",
                 "--decision-timeout", "1", "--out", str(tmp_path / "run"), "-q"])  # fmt: skip
    err = capsys.readouterr().err
    assert code != 0 and "bot 'first_legal_slow' at seat " in err and "gave no answer within 1 s" in err
    assert "compil" not in err and len(started(starts)) == 1


def test_a_broken_bot_keeps_the_finished_chunks_and_records_nothing_of_its_deal(tmp_path):
    """The bot dies at its 400th decision: in the second chunk of five deals (each chunk asks it
    about 5 deals x 2 tables x 2 seats x 14 decisions). The first chunk stays on disk."""
    with pytest.raises(ProgramError, match=r"died .* at seat \d, deal [5-9]|at seat \d, deal [5-9] died"):
        run_tournament(f"cmd:{BOT} die 400,normal", deals=15, chunk_size=5, n_jobs=1, progress=False, out=tmp_path)
    assert sorted(p.name for p in (tmp_path / DATA_DIR).iterdir()) == ["p000-000000000000-000000000005.parquet"]


def test_program_specs_and_the_decision_timeout():
    spec = parse_agent(f"cmd:{BOT} ok")
    assert spec.name == "cmd" and not spec.is_builtin and spec.options == {"command": f"{BOT} ok"}
    (timed,) = with_decision_timeout([spec], 2.5)
    assert timed.options["timeout"] == 2.5 and timed.build() is program_agent(f"{BOT} ok", 2.5, spec.folder)
    table = parse_agent({"name": f"cmd:{BOT} ok", "timeout": 4})
    assert table.options["timeout"] == 4
    pair = parse_agents(f"normal+cmd:{BOT} ok")[0]
    assert with_decision_timeout([pair], 3)[0].second.options["timeout"] == 3
    for bad, words in (("cmd:", "cmd:COMMAND LINE"), ({"name": "cmd:x", "depth": 2}, "only command and timeout")):
        with pytest.raises(TournamentError, match=words):
            parse_agent(bad)
    with pytest.raises(TournamentError, match="positive number of seconds"):
        with_decision_timeout([spec], 0)


def test_a_programs_fingerprint_is_its_hello_and_the_files_it_names(tmp_path):
    """Issue 32, item 1: a bot program's code, as a run records it, is its hello answer and a
    hash of each file its command line names in its folder (not the interpreter's); an edit of
    the bot's file changes it."""
    import shutil

    shutil.copy(HERE / "bots" / "first_legal_bot.py", tmp_path / "fp_bot.py")
    spec = parse_agent(f"cmd:{sys.executable} fp_bot.py ok", base=tmp_path)
    first = spec.fingerprint(Rules())
    assert set(first) == {"hello", "file fp_bot.py"} and '"name": ' in first["hello"]
    with open(tmp_path / "fp_bot.py", "a") as f:
        f.write("# edited\n")
    second = spec.fingerprint(Rules())
    assert second["hello"] == first["hello"] and second["file fp_bot.py"] != first["file fp_bot.py"]


def test_spades_ai_play_and_the_cli_take_a_program(tmp_path, capsys):
    """``spades-ai play --level cmd:...`` seats the bot as the opponents (asked with a Hand's
    observations, not the loop's), and ``--decision-timeout`` reaches the run's agents."""
    from spades_ai.cli import main
    from spades_ai.table import TableMatch

    from spades_ai.game import Hand

    match = TableMatch(5, f"cmd:{BOT} ok")
    bot = match.agents[1]
    assert isinstance(bot, ProgramAgent) and match.agents[3] is bot and match.agents[2].name == "hard"
    hand = Hand(match.deal_of(0), match.dealer_of(0), match.rules)
    while hand.phase != "over":  # every seat the bot's first legal action: the bot answers seats 1 and 3
        obs = hand.observation()
        if hand.phase == "bidding":
            hand.bid(bot.bid(obs) if hand.to_act % 2 else obs.legal_bids()[0])
        else:
            hand.play(bot.play(obs) if hand.to_act % 2 else obs.legal_cards()[0])
    assert bot.bot_name == "first_legal_ok" and sum(hand.tricks_won) == 13
    code = main(["tournament", "--agents", f"cmd:{BOT} ok,normal", "--deals", "6", "--jobs", "1", "--decision-timeout", "5",
                 "--out", str(tmp_path / "run"), "-q"])  # fmt: skip
    assert code == 0, capsys.readouterr().err
    assert load_results(tmp_path / "run").attrs["config"]["agents"][0]["options"]["timeout"] == 5
    with pytest.raises(SystemExit) as exit_:
        main(["tournament", "--agents", "normal,easy", "--decision-timeout", "0"])
    assert exit_.value.code == 2
    assert "more than 0 seconds" in capsys.readouterr().err


def test_a_lineup_names_a_program_as_cmd():
    rec = play_hands([f"cmd:{BOT} ok", "normal"], 10, seed=4)
    same = play_hands([FirstLegal(), "normal"], 10, seed=4)
    np.testing.assert_array_equal(rec.points, same.points)


#: A request of protocol 1 (spades_ai before issue 42) at four players in pairs, byte for byte:
#: the 7th decision of ``deal_masks(5, 0, 1)``, every seat playing its first legal action.
VERSION_1_REQUEST = (
    '{"type":"play","id":1,"seat":3,"dealer":0,"hand":["3C","4C","QC","AC","2D","5D","8D","3H","8H","9H","JH","4S",'
    '"JS"],"bids":[0,0,0,0],"blind":[false,false,false,false],"tricks_won":[0,0,0,0],"plays":[[1,"7C"],[2,"2C"]],'
    '"trick":[[1,"7C"],[2,"2C"]],"spades_broken":false,"scores":[0,0],"bags":[0,0],"hands_played":0,'
    '"legal":["3C","4C","QC","AC"]}'
)


def test_a_four_player_request_is_version_1s_with_the_table_added():
    hand = Hand(deal_masks(5, 0, 1)[0].tolist())
    for _ in range(6):
        obs = hand.observation()
        hand.bid(obs.legal_bids()[0]) if hand.phase == "bidding" else hand.play(obs.legal_cards()[0])
    line = program._ENCODE({"type": "play", "id": 1, **observation_json(hand.observation(), "play")})
    table = '"table":{"players":4,"teams":"pairs","sides":2,"side_of":[0,1,0,1],"cards_each":13,"decks":1}'
    assert line == VERSION_1_REQUEST[:-1] + "," + table + "}"


def test_the_hello_says_protocol_2_and_the_table(tmp_path, monkeypatch):
    monkeypatch.setenv("BOT_REQUESTS", str(tmp_path / "requests.jsonl"))
    with ProgramAgent(f"{BOT} ok") as bot:
        bot.start(Rules(players=6, teams="pairs"))
    hello = json.loads((tmp_path / "requests.jsonl").read_text())
    assert hello["protocol"] == 2 and hello["rules"]["players"] == 6
    assert hello["table"] == {"players": 6, "teams": "pairs", "sides": 3, "side_of": [0, 1, 2, 0, 1, 2], "cards_each": 17,
                              "decks": 2}  # fmt: skip


@pytest.mark.parametrize(
    "mode, rules, words",
    [
        ("protocol 1", Rules(players=3), "bot 'first_legal_protocol' ({command!r}), of protocol 1, plays 4 players in pairs, "
         "not 3 players solo: version 1 speaks of four seats in two pairs; a bot answering the hello with protocol 2 "
         "plays every table (docs/PROTOCOL.md#versions)"),
        ("protocol 1", Rules(players=4, teams="solo"), "of protocol 1, plays 4 players in pairs, not 4 players solo"),
        ("accepts '{\"players\": [4, 5]}'", Rules(players=8), "bot 'first_legal_accepts' ({command!r}) plays the tables "
         "of players = [4, 5], not 8 players solo: what its hello's rules accept (docs/PROTOCOL.md#handshake)"),
        ("default", Rules(players=3), "plays 4 players in pairs, not 3 players solo: its hello accepts the default rules only"),
    ],
)  # fmt: skip
def test_a_table_the_bot_does_not_play_is_refused_through_require_table(mode, rules, words, tmp_path, monkeypatch):
    monkeypatch.setenv("BOT_STARTS", str(tmp_path / "starts.txt"))
    bot = ProgramAgent(f"{BOT} {mode}")
    with pytest.raises(TableError) as err:
        play_hands([bot] * rules.players, 1, rules=rules)
    assert words.format(command=bot.command) in str(err.value)
    assert err.value.table == f"{rules.players} players solo"
    (pid,) = started(tmp_path / "starts.txt")
    assert not running(pid) and bot._proc is None


def test_a_bot_plays_the_tables_its_hello_accepts():
    bot = ProgramAgent(f"{BOT} accepts " + "'{\"players\": [4, 5]}'")
    try:
        assert len(play_hands([bot] * 5, 2, rules=Rules(players=5))) == 2
    finally:
        bot.close()


@pytest.mark.parametrize(
    "timeout, words",
    [
        (0.2, "gave no answer within 0.5 s (the least a hello is given; the decision timeout, 0.2 s, is for decisions)"),
        (0.7, "gave no answer within 0.7 s (--decision-timeout)"),
    ],
)
def test_a_bot_that_never_says_hello_is_named_with_the_timeout_that_applied(timeout, words, monkeypatch):
    """The hello is given ``DEFAULT_TIMEOUT`` (here 0.5 s) or the decision timeout if longer,
    and the message names the one that applied (it said "(--decision-timeout)" for both)."""
    monkeypatch.setattr(program, "DEFAULT_TIMEOUT", 0.5)
    bot = ProgramAgent(f"{BOT} mute", timeout=timeout)
    with pytest.raises(ProgramError) as err:
        play_hands([bot, "normal"], 1)
    assert words in str(err.value) and '; request: {"type": "hello"' in str(err.value)
    assert bot._proc is None
