"""The conformance check of a table: every public door of the toolkit either plays the table and
answers with its shape, or refuses it through the one table check (``spades_ai.capabilities``).

``check_table(rules)`` deals, bids and plays a hand at the table of ``rules`` and takes it
through every door a user reaches: the deal, a hand played by an agent, the agent's own check,
self-play, a tournament with its results, summary and ``--keep-plays`` replay, the JSON record and
PBN, the pictures (text, HTML, SVG), review, the exact solver, the Monte Carlo API, the bot
protocol, the command line, the learning environment and datasets, and the OpenSpiel and
PettingZoo adapters. A door *plays* when it answers with the table's seats, sides, cards each
and decks; it *refuses* when it raises ``TableError``, and then its declared part (``Door.part``)
must say it does not play that table. Anything else (a crash, an answer for four seats at another
table, a refusal written by hand, a part that declares a table it then refuses) raises
``TableCheckError`` naming the door and the table. ``spades_ai.testing.check_table`` is this
function; the suite runs it at eight tables, and users run it on their own agents:

    >>> from spades_ai import Rules
    >>> report = check_table(Rules(players=3), doors=["deal", "hand", "pbn"])
    >>> print(report)  # doctest: +ELLIPSIS
    3 players solo, agent 'normal': 2 doors play, 1 refuses
      deal  plays    3 hands of 17 cards
      hand  plays    3 seats, 3 sides, 17 tricks
      pbn   refuses  PBN records play 4 players in pairs, not 3 players solo: PBN is a fou...
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import sys
import tempfile
import textwrap
from collections.abc import Callable, Sequence
from pathlib import Path

from spades_ai.capabilities import part, plays
from spades_ai.errors import TableError
from spades_ai.game import Hand
from spades_ai.rules import Rules
from spades_ai.seats import seats, sides, table_name
from spades_ai.simulate import deal


#: One table of each shape, by the column names of docs/rules.md's "What plays where": the tables
#: the suite runs the check at (3 and 5 players, one deck; 4 in pairs and solo; 6 in pairs and
#: solo, two decks; 8 and 12 players, two and three decks).
CHECKED_TABLES = {
    "3": Rules(players=3),
    "4 pairs": Rules(),
    "4 solo": Rules(players=4, teams="solo"),
    "5": Rules(players=5),
    "6 pairs": Rules(players=6, teams="pairs"),
    "6 solo": Rules(players=6),
    "8": Rules(players=8),
    "12": Rules(players=12),
}


class TableCheckError(AssertionError):
    """A door answered a table with the wrong shape, crashed, or refused it other than through
    the one table check."""


@dataclasses.dataclass
class Visit:
    """What the check holds while it walks the doors of one table."""

    rules: Rules
    agent: object
    seed: int
    folder: Path
    bot: str | None
    #: the agent as a tournament entrant: its name or spec, or "random" for an agent object
    entrant: str = "random"
    #: the hand every door looks at: dealt from ``seed`` and played by ``agent`` at every seat
    hand: Hand | None = None
    #: the results folder of the tournament door, for the summary and replay doors
    run: Path | None = None

    def expect(self, ok: bool, what: str) -> None:
        if not ok:
            raise TableCheckError(f"{table_name(self.rules)}: {what}")


@dataclasses.dataclass(frozen=True)
class Door:
    """A public door: its name, what it runs (returns a few words on the shape it answered
    with), the part of ``capabilities.PARTS`` whose tables it declares (None: every table), the
    optional framework it needs (the door is skipped without it), and the door whose result it
    reads (``"hand"``: the played hand; ``"tournament"``: the results folder), run first."""

    name: str
    run: Callable[[Visit], str]
    part: str | None = None
    needs: str | None = None
    reads: str | None = None


@dataclasses.dataclass(frozen=True)
class DoorResult:
    door: str
    outcome: str  # "plays", "refuses" or "skipped"
    detail: str


@dataclasses.dataclass(frozen=True)
class TableReport:
    """The doors of one table and how each answered (``outcome``: plays, refuses, skipped)."""

    rules: Rules
    agent: str
    results: tuple[DoorResult, ...]

    def outcome(self, door: str) -> str:
        return next(r.outcome for r in self.results if r.door == door)

    def __str__(self) -> str:
        counts = {k: sum(r.outcome == k for r in self.results) for k in ("plays", "refuses", "skipped")}
        head = (f"{table_name(self.rules)}, agent {self.agent!r}: {counts['plays']} door{'s' * (counts['plays'] != 1)} "
                f"play{'s' * (counts['plays'] == 1)}, {counts['refuses']} refuse{'s' * (counts['refuses'] == 1)}")
        if counts["skipped"]:
            head += f", {counts['skipped']} skipped"
        width = max(len(r.door) for r in self.results)
        lines = [f"  {r.door:<{width}}  {r.outcome:<8} {_short(r.detail)}" for r in self.results]
        return "\n".join([head, *lines])


def _short(text: str, limit: int = 72) -> str:
    return text if len(text) <= limit else text[: limit - 3].rstrip() + "..."


# -- the doors -------------------------------------------------------------------------------
def _door_deal(v: Visit) -> str:
    hands = deal(v.seed, 0, v.rules)
    v.expect(len(hands) == v.rules.players, f"deal() gave {len(hands)} hands")
    v.expect(all(len(h) == v.rules.cards_each for h in hands), "deal() gave hands of other sizes than cards_each")
    most = max(max(h.count(c) for c in h) for h in hands)
    v.expect(most <= v.rules.decks, f"a hand holds {most} copies of a card with {v.rules.decks} deck(s)")
    return f"{len(hands)} hands of {v.rules.cards_each} cards"


def _door_hand(v: Visit) -> str:
    hand = Hand(deal(v.seed, 0, v.rules), dealer=0, rules=v.rules)
    while hand.phase != "over":
        obs = hand.observation()
        if hand.phase == "bidding":
            hand.bid(v.agent.bid(obs))
        elif hand.phase == "passing":
            hand.pass_cards(hand.to_act, v.agent.pass_cards(obs))
        else:
            hand.play(v.agent.play(obs))
    result = hand.result()
    v.expect(len(result.tricks_won) == v.rules.players and sum(result.tricks_won) == v.rules.cards_each,
             f"the result's tricks_won is {result.tricks_won}")
    v.expect(len(result.points) == v.rules.n_sides, f"the result has {len(result.points)} sides' points")
    v.hand = hand
    return f"{v.rules.players} seats, {v.rules.n_sides} sides, {v.rules.cards_each} tricks"


def _door_agent(v: Visit) -> str:
    from spades_ai.testing.agent import check_agent

    return check_agent(v.agent, hands=v.rules.players, seed=v.seed, rules=v.rules)


def _door_selfplay(v: Visit) -> str:
    from spades_ai.selfplay import play_hands

    records = play_hands([v.agent] * v.rules.players, 2, seed=v.seed, rules=v.rules)
    v.expect(records.sheet.shape[:2] == (2, v.rules.n_sides), f"the records' sheet has shape {records.sheet.shape}")
    v.expect(records.tricks_won.shape == (2, v.rules.players), f"tricks_won has shape {records.tricks_won.shape}")
    return f"sheet {records.sheet.shape}"


def _door_tournament(v: Visit) -> str:
    from spades_ai.tournament import load_results, run_tournament

    out = v.folder / "run"
    run_tournament([v.entrant, "random"], deals=1, seed=v.seed, rules=v.rules, out=out, keep_plays=True,
                   n_jobs=1, progress=False)
    df = load_results(out)
    rotations = df["rotation"].nunique()
    v.expect(len(df) == rotations * v.rules.n_sides, f"{len(df)} rows for {rotations} rotations")
    v.expect(sorted(df["side"].unique()) == list(sides(v.rules)), f"the rows' sides are {sorted(df['side'].unique())}")
    v.run = out
    return f"{len(df)} rows: {rotations} rotations x {v.rules.n_sides} sides"


def _door_summary(v: Visit) -> str:
    from spades_ai.tournament import load_results
    from spades_ai.analysis.summary import summarize

    v.expect(v.run is not None, "the summary needs the tournament door's results")
    table = summarize(load_results(v.run))
    v.expect(len(table) > 0, "the summary is empty")
    return f"{len(table)} rows"


def _door_run_replay(v: Visit) -> str:
    from spades_ai.table.replay import from_run, replay_hand

    v.expect(v.run is not None, "the replay needs the tournament door's results")
    hand = replay_hand(from_run(v.run, deal_no=0).record)
    v.expect(hand.rules.players == v.rules.players and hand.phase == "over", "a replayed hand of another table")
    v.expect(len(hand.tricks) == v.rules.cards_each, f"the replayed hand has {len(hand.tricks)} tricks")
    return f"{len(hand.tricks)} tricks replayed"


def _finished(v: Visit) -> Hand:
    v.expect(v.hand is not None, "this door needs the hand door's hand")
    return v.hand


def _door_record(v: Visit) -> str:
    from spades_ai.records import read_records_file, write_records

    hand = _finished(v)
    path = v.folder / "hands.jsonl"
    write_records([hand, hand], path)
    again = read_records_file(path)
    v.expect([h.to_record() for h in again] == [hand.to_record()] * 2, "the JSON records do not round-trip")
    return "round-trips"


def _door_pbn(v: Visit) -> str:
    from spades_ai.pbn import from_pbn, to_pbn

    hand = _finished(v)
    again = from_pbn(to_pbn(hand))
    v.expect(again.to_record() == hand.to_record(), "the PBN record does not round-trip")
    return "round-trips"


def _door_text(v: Visit) -> str:
    text = str(_finished(v))
    v.expect(all(f"seat {s}" in text or str(s) in text for s in seats(v.rules)), "the text names no seat")
    return f"{len(text.splitlines())} lines"


def _door_html(v: Visit) -> str:
    html = _finished(v)._repr_html_()
    v.expect(html.count("<") > v.rules.players, "the HTML picture is empty")
    return f"{len(html)} characters"


def _door_svg(v: Visit) -> str:
    from spades_ai.render.svg import hand_svg

    svg = hand_svg(_finished(v))
    v.expect(svg.startswith("<svg") or svg.startswith("<?xml"), "the SVG picture is not SVG")
    return f"{len(svg)} characters"


def _door_review(v: Visit) -> str:
    from spades_ai.analysis.review import review

    df = review(_finished(v), "solver", from_trick=max(1, v.rules.cards_each - 2))
    v.expect(len(df) > 0 and set(df["seat"]) <= set(seats(v.rules)), f"review's seats are {sorted(set(df['seat']))}")
    return f"{len(df)} decisions judged"


def _endgame(v: Visit, tricks_left: int = 2) -> Hand:
    """The finished hand replayed to ``tricks_left`` tricks from its end."""
    record = _finished(v).to_record()
    record["plays"] = record["plays"][: v.rules.players * (v.rules.cards_each - tricks_left)]
    return Hand.from_record(record)


def _door_solver(v: Visit) -> str:
    from spades_ai.solver import double_dummy

    end = _endgame(v)
    tricks = double_dummy([end.cards(s) for s in seats(v.rules)], end.to_act, rules=v.rules, spades_broken=True)
    v.expect(0 <= tricks <= 2, f"double_dummy answered {tricks} of 2 tricks")
    return f"{tricks} of 2 tricks"


def _door_worlds(v: Visit) -> str:
    from spades_ai.montecarlo import count_worlds, sample_worlds, world_weights

    obs = _endgame(v, 3).observation()
    worlds = sample_worlds(obs, 4, seed=v.seed)
    weights = world_weights(obs, worlds)
    v.expect(len(worlds) == 4 and len(weights) == 4, f"{len(worlds)} worlds, {len(weights)} weights")
    return f"{count_worlds(obs)} worlds, {len(worlds)} drawn"


def _door_play_out(v: Visit) -> str:
    from spades_ai.montecarlo import sample_worlds
    from spades_ai.selfplay import play_out

    obs = _endgame(v, 3).observation()
    world = sample_worlds(obs, 1, seed=v.seed)[0]
    result = play_out(obs, world, [v.agent] * v.rules.players)
    v.expect(len(result.tricks_won) == v.rules.players and len(result.points) == v.rules.n_sides,
             f"play_out answered {len(result.tricks_won)} seats, {len(result.points)} sides")
    return f"{len(result.points)} sides scored"


#: A bot for the protocol door when the user gives none: the first legal bid, card and pass.
FIRST_LEGAL_BOT = textwrap.dedent('''\
    import json, sys
    print(json.dumps({"type": "hello", "name": "first-legal", "protocol": 2, "rules": "any"}), flush=True)
    for line in sys.stdin:
        msg = json.loads(line)
        if msg.get("type") in ("bid", "play"):
            print(json.dumps({"id": msg["id"], "action": msg["legal"][0]}), flush=True)
        elif msg.get("type") == "pass":
            print(json.dumps({"id": msg["id"], "action": msg["hand"][: msg["count"]]}), flush=True)
        elif msg.get("type") == "bye":
            break
''')


def _door_protocol(v: Visit) -> str:
    from spades_ai.agents.program import ProgramAgent
    from spades_ai.selfplay import play_hands

    bot = v.bot
    if bot is None:
        path = v.folder / "first_legal_bot.py"
        path.write_text(FIRST_LEGAL_BOT)
        bot = f"{sys.executable} {path}"
    # a bot of its own, ended with the door (a ``cmd:`` spec keeps its process for the caller's
    # life, and the bot the check writes goes with the check's folder)
    with ProgramAgent(bot) as program:
        records = play_hands([program] + [v.agent] * (v.rules.players - 1), 1, seed=v.seed, rules=v.rules)
    v.expect(records.tricks_won.shape == (1, v.rules.players), f"tricks_won has shape {records.tricks_won.shape}")
    return "a bot played a hand"


def _cli(v: Visit, argv: list[str]) -> str:
    from spades_ai.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()) as err:
        try:
            code = main(argv)
        except SystemExit as exc:  # argparse refuses an argument by exiting
            code = exc.code
    v.expect(code == 0, f"spades-ai {' '.join(argv)} exited {code}: {err.getvalue().strip()[-200:]}")
    return out.getvalue()


def _table_flags(rules: Rules) -> list[str]:
    return ["--players", str(rules.players), "--teams", rules.teams]


def _door_cli_deal(v: Visit) -> str:
    text = _cli(v, ["deal", str(v.seed), "0", *_table_flags(v.rules)])
    v.expect(len(text.strip().splitlines()) >= v.rules.players, "spades-ai deal printed fewer lines than seats")
    return f"{len(text.splitlines())} lines"


def _door_cli_tournament(v: Visit) -> str:
    out = v.folder / "cli-run"
    text = _cli(v, ["tournament", "--agents", "random,random", "--deals", "1", "--seed", str(v.seed),
                    "--out", str(out), "--jobs", "1", "-q", *_table_flags(v.rules)])
    v.expect(table_name(v.rules) in text, f"the summary does not name the table ({table_name(v.rules)})")
    return "the summary names the table"


def _door_built_in(name: str, **options):
    """A door that plays one hand a seat of the table with the built-in ``name`` (small
    options: the door tries the table, not the search) through ``check_agent``."""

    def run(v: Visit) -> str:
        from spades_ai.agents.registry import make_agent
        from spades_ai.testing.agent import check_agent

        return check_agent(make_agent(name, **options), hands=1, seed=v.seed, rules=v.rules)

    return run


def _door_learning(v: Visit) -> str:
    from spades_ai.learn import VectorEnv

    env = VectorEnv(2, rules=v.rules)
    obs, _ = env.reset(seed=v.seed)
    return f"observations {tuple(obs.shape)}"


def _door_dataset(v: Visit) -> str:
    from spades_ai.learn.dataset import load_dataset, write_dataset

    out = write_dataset(v.folder / "rows", [v.agent] * v.rules.players, 1, seed=v.seed, rules=v.rules)
    df = load_dataset(out)
    v.expect(set(df["seat"]) <= set(seats(v.rules)), "a dataset row of a seat the table lacks")
    return f"{len(df)} rows"


def _door_openspiel(v: Visit) -> str:
    from spades_ai.interop.openspiel import state_from_observation

    game = state_from_observation(Hand(deal(v.seed, 0, v.rules), rules=v.rules).observation()).get_game()
    v.expect(game.num_players() == v.rules.players, f"the game has {game.num_players()} players")
    return f"{game.num_players()} players"


def _door_pettingzoo(v: Visit) -> str:
    from spades_ai.interop.pettingzoo import env

    e = env(rules=v.rules)
    e.reset(seed=v.seed)
    v.expect(len(e.agents) == v.rules.players, f"the environment has {len(e.agents)} agents")
    return f"{len(e.agents)} agents"


#: Every door, in the order the check walks them (later doors read the hand and the run).
DOORS: tuple[Door, ...] = (
    Door("deal", _door_deal),
    Door("hand", _door_hand),
    Door("agent", _door_agent),
    Door("self-play", _door_selfplay),
    Door("tournament", _door_tournament),
    Door("summary", _door_summary, reads="tournament"),
    Door("run replay", _door_run_replay, part="replay", reads="tournament"),
    Door("json records", _door_record, part="records", reads="hand"),
    Door("pbn", _door_pbn, part="pbn", reads="hand"),
    Door("text", _door_text, reads="hand"),
    Door("html", _door_html, reads="hand"),
    Door("svg", _door_svg, part="svg", reads="hand"),
    Door("review", _door_review, part="review", reads="hand"),
    Door("solver", _door_solver, part="solver", reads="hand"),
    Door("worlds", _door_worlds, reads="hand"),
    Door("play_out", _door_play_out, reads="hand"),
    Door("protocol", _door_protocol, part="protocol"),
    Door("cli deal", _door_cli_deal),
    Door("cli tournament", _door_cli_tournament),
    Door("ismcts", _door_built_in("ismcts", iterations=50, bid_worlds=0), part="ismcts"),
    Door("learned", _door_built_in("learned"), part="learned"),
    Door("learning", _door_learning, part="learning"),
    Door("dataset", _door_dataset, part="dataset"),
    Door("openspiel", _door_openspiel, part="adapters", needs="pyspiel"),
    Door("pettingzoo", _door_pettingzoo, part="adapters", needs="pettingzoo"),
)
DOOR_NAMES = tuple(d.name for d in DOORS)


def _visit(door: Door, v: Visit) -> DoorResult:
    if door.needs is not None:
        try:
            __import__(door.needs)
        except ImportError:
            return DoorResult(door.name, "skipped", f"needs {door.needs}, not installed")
    declared = None if door.part is None else plays(v.rules, door.part)
    try:
        detail = door.run(v)
    except TableError as exc:
        if declared:
            raise TableCheckError(f"{table_name(v.rules)}: door {door.name!r} refused a table its part "
                                  f"{part(door.part).name!r} declares it plays: {exc}") from exc
        return DoorResult(door.name, "refuses", str(exc))
    except TableCheckError as exc:
        raise TableCheckError(f"door {door.name!r}, {exc}") from exc
    except Exception as exc:  # a crash or a refusal written by hand: the check's whole point
        raise TableCheckError(f"{table_name(v.rules)}: door {door.name!r} raised {type(exc).__name__}: {exc}") from exc
    if declared is False:
        raise TableCheckError(f"{table_name(v.rules)}: door {door.name!r} answered a table its part "
                              f"{part(door.part).name!r} declares it does not play")
    return DoorResult(door.name, "plays", detail)


def check_table(rules: Rules | str | dict | None = None, agent="normal", *, seed: int = 0, doors: Sequence[str] | None = None,
                bot: str | None = None) -> TableReport:
    """Walk every public door (``DOOR_NAMES``, or those named in ``doors``) at the table of
    ``rules`` with ``agent`` (a name or an agent) at every seat; return the report, or raise
    ``TableCheckError`` at the first door that answers wrongly. ``bot``: the command of a bot
    program for the protocol door (default: a first-legal bot the check writes)."""
    from spades_ai.agents.registry import make_agent

    rules = Rules.load(rules)
    chosen = DOORS if doors is None else tuple(_door(name) for name in doors)
    entrant = agent if isinstance(agent, str) else "random"
    agent = make_agent(agent) if isinstance(agent, str) else agent
    with tempfile.TemporaryDirectory(prefix="spades-check-") as folder:
        v = Visit(rules, agent, seed, Path(folder), bot, entrant=entrant)
        needed = {d.reads for d in chosen}
        results = []
        for door in DOORS:
            if door in chosen or door.name in needed:
                result = _visit(door, v)
                if door in chosen:
                    results.append(result)
    return TableReport(rules, getattr(agent, "label", getattr(agent, "name", type(agent).__name__)), tuple(results))


def _door(name: str) -> Door:
    for d in DOORS:
        if d.name == name:
            return d
    raise ValueError(f"no door {name!r}; doors: {', '.join(DOOR_NAMES)}")
