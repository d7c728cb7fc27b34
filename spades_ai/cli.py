"""The ``spades-ai`` command line. Bad arguments get one clear line, not a traceback.

spades-ai                                   a small tournament (Normal vs Easy, 2,000
                                            duplicate deals) and its summary
spades-ai tournament --agents normal,easy [--deals N] [--seed S] [--mode hands|matches]
          [--jobs J] [--backend loky|dask] [--scheduler ADDR] [--rules FILE.toml|PRESET]
          [--players 3..12] [--teams pairs|solo] [--out DIR] [--config EXPERIMENT.toml] [--chunk-size N]
          [--no-duplicate] [--sprt D0,D1 [--sprt-alpha A] [--sprt-beta B]] [--keep-plays]
          [--decision-timeout SECONDS]
spades-ai summary DIR                       the summary table of a results folder
spades-ai play [--level easy|normal|hard|crazy] [--target 500|250] [--rules FILE.toml|PRESET]
          [--players 3..12] [--teams pairs|solo] [--seed S] [--save FILE] [--resume FILE]
                                            you play South, one action a line on stdin
spades-ai serve [--host 127.0.0.1] [--port 8000] [--level easy|normal|hard|crazy] [--rules FILE.toml|PRESET]
          [--players 3..12] [--teams pairs|solo] [--dir FOLDER] [--max-matches N] [--max-live N]
                                            the browser table: play the bots in a browser
spades-ai replay SOURCE [--hand K] [--deal N] [--match M] [--table T] [--pairing P] [--pbn | --json]
                                            a hand trick by trick, from a saved match, a
                                            Hand record, a PBN file or a run made with
                                            --keep-plays; --pbn prints PBN records (of a
                                            whole run without --deal)
spades-ai review SOURCE [--judge solver|hard|crazy] [--from-trick N] [--deal N --table T] [--hand K]
          [--double-dummy]
                                            every decision's value and loss under a judge;
                                            of a results folder: loss per agent and phase
spades-ai bidding --bidders normal,easy,hard [--deals N] [--seed S] [--policy P]
          [--opponents A] [--jobs J] [--rules FILE.toml|PRESET] [--players 3..12] [--teams pairs|solo]
          [--config BIDDING.toml]
                                            the bidding benchmark on fixed duplicate deals
spades-ai agents                            the built-in agents
spades-ai dataset --agents A,B --deals N --out DIR [--seed S] [--rules FILE.toml|PRESET] [--labels L] ...
          [--from RUN_DIR]                  decision rows for learning (any table: --players, --teams)
spades-ai deal SEED [INDEX] [--rules FILE.toml|PRESET] [--players 3..12] [--teams pairs|solo]
                                            print a deal

--players and --teams set the table over --rules (a preset or a file); a table the rules cannot
play is refused naming both.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import logging
import os
import re
import sys
import tempfile
import threading
import time
import warnings
from pathlib import Path

from spades_ai.errors import RulesError
from spades_ai.rules import PRESETS, TABLES, Rules
from spades_ai.tournament.schedule import SCHEDULES

EXIT_USAGE = 2
DEFAULT_AGENTS = "normal,easy"
DEFAULT_DEALS = 2000


class CLIError(ValueError):
    """A command-line problem, reported in one line with exit code 2."""


class WorkerLost(RuntimeError):
    """A worker process died mid-run (one line, exit code 1: the run can resume)."""


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, not usage + message
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def _positive(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an int") from None
    if v < 1:
        raise argparse.ArgumentTypeError(f"must be >= 1, not {v}")
    return v


def _seconds(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number of seconds, not {text!r}") from None
    if not v > 0:
        raise argparse.ArgumentTypeError(f"must be more than 0 seconds, not {text}")
    return v


def _level(text: str) -> str:
    if text in ("easy", "normal", "hard", "crazy") or (text.startswith("cmd:") and text[4:].strip()):
        return text
    raise argparse.ArgumentTypeError(f"invalid choice {text!r} (choose from easy, normal, hard, crazy, or cmd:COMMAND)")


def _count(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an int") from None
    if v < 0:
        raise argparse.ArgumentTypeError(f"must be >= 0, not {v}")
    return v


def _jobs(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an int") from None
    if v == 0 or v < -1:
        raise argparse.ArgumentTypeError(f"must be >= 1 or -1 (all cores), not {v}")
    return v


def _seed(text: str) -> int:
    try:
        v = int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an int") from None
    if not 0 <= v < 2**64:
        raise argparse.ArgumentTypeError(f"must be in 0..2**64-1, not {v}")
    return v


def _sprt_bounds(text: str) -> tuple[float, float]:
    from spades_ai.tournament.stopping import SPRT, SPRTError

    try:
        test = SPRT.parse(text)
    except SPRTError as exc:
        raise argparse.ArgumentTypeError(str(exc).removeprefix("sprt ").removeprefix("sprt: ")) from None
    return test.d0, test.d1


def _sprt_error_rate(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0 < v < 0.5:
        raise argparse.ArgumentTypeError(f"must be in (0, 0.5), not {text}")
    return v


# -- commands ---------------------------------------------------------------------------------
SPRT_KEYS = ("sprt", "sprt_alpha", "sprt_beta")


def _settings(args) -> dict:
    """The run's settings: the experiment file, then the command-line flags over it."""
    from spades_ai.tournament.schedule import read_experiment

    s = read_experiment(args.config) if args.config else {}
    for key in ("agents", "deals", "seed", "mode", "jobs", "backend", "scheduler", "out", "chunk_size", "schedule",
                *SPRT_KEYS):  # fmt: skip
        value = getattr(args, key, None)
        if value is not None:
            s[key] = value
    if args.rules is not None:
        s["rules"] = Rules.load(args.rules)
    rules = _table_rules(args, s.get("rules"), f"--rules {args.rules}" if args.rules else f"the rules of {args.config}")
    if rules is not None:
        s["rules"] = rules
    if args.no_duplicate:
        s["duplicate"] = False
    if args.keep_plays:
        s["keep_plays"] = True
    s.setdefault("agents", DEFAULT_AGENTS)
    s.setdefault("deals", DEFAULT_DEALS)
    if getattr(args, "decision_timeout", None) is not None:
        from spades_ai.agents.spec import parse_agents, with_decision_timeout

        s["agents"] = with_decision_timeout(parse_agents(s["agents"]), args.decision_timeout)
    return s


def _sprt(s: dict):
    """The sequential test the settings ask for, or None."""
    from spades_ai.tournament.stopping import SPRT

    if s.get("sprt") is None:
        extra = [k for k in SPRT_KEYS[1:] if s.get(k) is not None]
        if extra:
            raise CLIError(f"{'/'.join('--' + k.replace('_', '-') for k in extra)} needs --sprt D0,D1")
        return None
    options = {k.removeprefix("sprt_"): s[k] for k in SPRT_KEYS[1:] if s.get(k) is not None}
    return SPRT.parse(s["sprt"], **options)


def _default_out(t, sprt=None) -> Path:
    """``runs/A-vs-B[_TABLE]_MODE_seedS_DEALS``: the table named when it is not four in pairs
    (``8-players-solo``), so that the same run at two tables keeps two folders."""
    from spades_ai.seats import table_name

    slug = "-vs-".join(re.sub(r"[^\w.=-]+", "_", label) for label in t.labels)
    if len(slug) > 80:
        slug = f"{len(t.labels)}-agents"
    if not t.rules.four_in_pairs:
        slug += "_" + table_name(t.rules).replace(" ", "-")
    if sprt is None:
        return Path("runs") / f"{slug}_{t.mode}_seed{t.seed}_{t.deals}"
    # no deal count in the name: a larger --deals extends the same run
    test = f"sprt{sprt.d0:g}_{sprt.d1:g}"
    if (sprt.alpha, sprt.beta) != (0.05, 0.05):
        test += f"_a{sprt.alpha:g}_b{sprt.beta:g}"
    return Path("runs") / f"{slug}_{t.mode}_seed{t.seed}_{test}"


@contextlib.contextmanager
def backend(name: str | None, scheduler: str | None, jobs: int | None):
    """The joblib backend the CLI asks for: loky, or dask on ``scheduler`` or on a local
    cluster of ``jobs`` worker processes (one thread each: the kernels hold the core)."""
    import joblib

    if scheduler and name not in (None, "dask"):
        raise CLIError(f"--scheduler needs the dask backend, not {name!r}")
    if name not in (None, "loky", "dask"):
        raise CLIError(f"unknown backend {name!r}; valid: loky, dask")
    if name == "dask" or scheduler:
        try:
            from dask.distributed import Client, LocalCluster
        except ImportError:
            raise CLIError("the dask backend needs dask[distributed]: pip install 'spades-ai[dask]'") from None
        with contextlib.ExitStack() as stack:
            if scheduler:
                try:
                    client = stack.enter_context(Client(scheduler, timeout="10s"))
                except (OSError, TimeoutError) as exc:
                    raise CLIError(f"cannot reach the dask scheduler {scheduler}: {exc}") from None
            else:
                n = jobs if jobs and jobs > 0 else os.cpu_count() or 1
                cluster = stack.enter_context(
                    LocalCluster(
                        n_workers=n,
                        threads_per_worker=1,
                        processes=True,
                        dashboard_address=None,
                        silence_logs=logging.ERROR,
                    )
                )
                client = stack.enter_context(Client(cluster))
            stack.enter_context(joblib.parallel_config(backend="dask"))
            print(
                f"dask: {len(client.scheduler_info().get('workers', {}))} workers at {client.scheduler.address}",
                file=sys.stderr,
            )
            yield
    elif name == "loky":
        with joblib.parallel_config(backend="loky"):
            yield
    else:
        yield


def _sprt_lines(df, cfg: dict) -> list[str]:
    """What the summary says of a run's sequential test."""
    from spades_ai.tournament.stopping import SPRT, SPRTResult

    labels = [a["label"] for a in cfg.get("agents", [])]
    test = SPRT.from_dict(cfg["sprt"])
    lines = [f"SPRT on {' minus '.join(labels)}, points per duplicate deal: {test}"]
    record = df.attrs.get("sprt")
    if record is None:
        return [*lines, "SPRT: no deals yet"]
    result = SPRTResult.from_dict(record)
    lines.append(str(result))
    if not result.decided and result.deals >= cfg.get("deals", 0):
        lines.append("the test needs more deals: run again with a larger --deals to go on")
    return lines


def _print_summary(path, n_boot: int = 1000, out=None) -> None:
    from spades_ai.analysis.summary import format_summary, ratings, summarize
    from spades_ai.seats import table_name
    from spades_ai.tournament.results import DEAL_COLUMN, load_results, sprt_rows

    out = sys.stdout if out is None else out
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        df = load_results(path)
    for w in caught:
        print(f"spades-ai: note: {w.message}", file=sys.stderr)
    cfg = df.attrs.get("config", {})
    agents = [a["label"] for a in cfg.get("agents", [])]
    mode = cfg.get("mode", "hands")
    unit = "deals" if mode == "hands" else "matches"
    dup = "duplicate " if cfg.get("duplicate", True) else ""
    # through Rules: an older folder's rules lack the fields added since (their defaults)
    rules = Rules.load(cfg.get("rules", {}))
    changed = {k: v for k, v in rules.to_dict().items() if Rules().to_dict().get(k) != v and k not in ("players", "teams")}
    budget = "up to " if cfg.get("sprt") is not None else ""
    title = (
        f"{' vs '.join(agents) if len(agents) <= 3 else f'{len(agents)} agents, ' + cfg.get('schedule', '')}: "
        f"{budget}{cfg.get('deals', 0):,} {dup}{unit} per pairing ({mode} mode), seed {cfg.get('seed')}, "
        f"{table_name(rules)}, rules: {', '.join(f'{k}={v}' for k, v in changed.items()) or 'default'}\n"
        f"results: {path}\n"
    )
    if cfg.get("sprt") is not None:
        lines = _sprt_lines(df, cfg)
        used = sprt_rows(df)
        if len(used) < len(df):
            extra = df[DEAL_COLUMN].nunique() - used[DEAL_COLUMN].nunique()
            lines.append(
                f"the table covers the deals the test used ({extra:,} more deals on disk were played meanwhile)"
            )
        title += "\n".join(lines) + "\n"
        df = used
    if df.empty:
        print(title + "no results yet", file=out)
        return
    table = summarize(df, n_boot=n_boot)
    rating_table = ratings(df, n_boot=n_boot) if len(agents) > 2 else None
    print(format_summary(table, rating_table, title=title, unit="hand" if mode == "matches" else "deal", mode=mode,
                         solo=rules.teams == "solo"), file=out)  # fmt: skip
    _print_partner_values(df, cfg, out)


def _print_partner_values(df, cfg: dict, out) -> None:
    """A duplicate hands-mode run of partnerships: each agent's value as a partner, when its
    pairings tell the agents apart (a partner study: ``analysis.partners``)."""
    from spades_ai.analysis.partners import partner_values
    from spades_ai.analysis.summary import number_text

    entrants = cfg.get("agents", [])
    if cfg.get("mode") != "hands" or not cfg.get("duplicate", True) or not any("partners" in a for a in entrants):
        return
    try:
        values = partner_values(df)
    except ValueError:  # pairings that do not tell the agents apart: no values to show
        return
    print("\nvalue as a partner (points per deal added to its side, sum zero, 95% interval clustered by deal):", file=out)
    for r in values.itertuples(index=False):
        print(f"  {r.agent:>20} {number_text(r.value, '+6.1f')} [{number_text(r.lo, '+.1f')}, {number_text(r.hi, '+.1f')}]",
              file=out)  # fmt: skip


def _worker_lost_errors() -> tuple[type[BaseException], ...]:
    """What joblib's process pools (loky, multiprocessing) and dask raise when a worker dies."""
    from concurrent.futures.process import BrokenProcessPool

    from joblib.externals.loky.process_executor import TerminatedWorkerError

    errors: tuple[type[BaseException], ...] = (TerminatedWorkerError, BrokenProcessPool)
    try:
        from distributed import KilledWorker
    except ImportError:  # dask is an optional extra
        return errors
    return (*errors, KilledWorker)


def plural(unit: str) -> str:
    """``"deals"``, ``"matches"``: the plural of a unit of play."""
    return f"{unit}es" if unit.endswith(("ch", "s")) else f"{unit}s"


def rate_text(units: int, seconds: float, unit: str) -> str:
    """How fast ``units`` went in ``seconds``, as the figure that is at least 1: ``"1,250
    deals/s, "`` for a fast run, ``"3.2 s/deal, "`` for a slow one; ``""`` when nothing was timed.

    >>> rate_text(2500, 2.0, "deal"), rate_text(10, 32.0, "deal"), rate_text(0, 1.0, "deal")
    ('1,250 deals/s, ', '3.2 s/deal, ', '')
    """
    if units <= 0 or seconds <= 0:
        return ""
    per_second = units / seconds
    if per_second >= 1:
        name = plural(unit)
        return f"{per_second:,.0f} {name}/s, " if per_second >= 100 else f"{per_second:.3g} {name}/s, "
    per_unit = seconds / units
    return f"{per_unit:,.0f} s/{unit}, " if per_unit >= 100 else f"{per_unit:.3g} s/{unit}, "


def duration_text(seconds: float) -> str:
    """A time in words that never reads as nothing: ``"12.3 s"`` from a second on, else
    milliseconds, ``"under 1 ms"`` below one.

    >>> duration_text(12.34), duration_text(0.042), duration_text(0.0002)
    ('12.3 s', '42 ms', 'under 1 ms')
    """
    if seconds >= 0.9995:  # what rounds to 1000 ms
        return f"{seconds:,.1f} s"
    if seconds >= 0.0005:
        return f"{1000 * seconds:.0f} ms"
    return "under 1 ms"


def _cmd_tournament(args) -> None:
    from spades_ai.tournament import Tournament, run_tournament

    s = _settings(args)
    t = Tournament.make(
        s["agents"], s["deals"], s.get("seed", 0), s.get("mode", "hands"),
        duplicate=s.get("duplicate", True), rules=s.get("rules"), schedule=s.get("schedule"),
        keep_plays=s.get("keep_plays", False),
    )  # fmt: skip
    sprt = _sprt(s)
    if args.default_run and "out" not in s:
        out = Path(tempfile.mkdtemp(prefix="spades-ai-"))
    else:
        out = Path(s["out"]) if "out" in s else _default_out(t, sprt)
    jobs = s.get("jobs")
    if not args.fresh:  # before compiling: a folder played by other code is refused at once
        from spades_ai.tournament.results import check_folder, run_config

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # an unchecked folder's warning: the run gives it
            check_folder(out, run_config(t, sprt))
    _warm_up_tournament(t)
    with backend(s.get("backend"), s.get("scheduler"), jobs):
        try:
            run = run_tournament(
                t,
                out=out,
                n_jobs=jobs,
                chunk_size=s.get("chunk_size"),
                progress=None if not args.quiet else False,
                sprt=sprt,
                fresh=args.fresh,
            )
        except KeyboardInterrupt:
            print(
                f"\nspades-ai: interrupted; finished chunks are kept in {out}: run the same command to resume",
                file=sys.stderr,
            )
            raise
        except _worker_lost_errors() as exc:
            raise WorkerLost(
                f"a worker died ({type(exc).__name__}); finished chunks are kept in {out}: run the same command to resume"
            ) from None
    if run.moved_aside is not None:
        print(f"fresh: the earlier results in {out} were moved to {run.moved_aside}", file=sys.stderr)
    if run.chunks_skipped:
        print(f"resumed: {run.chunks_skipped} finished chunks kept, {run.chunks_played} played", file=sys.stderr)
    unit = "deal" if t.mode == "hands" else "match"
    print(
        f"played {run.units_played:,} {plural(unit)} over {len(t.pairings)} pairing(s) in {duration_text(run.seconds)} "
        f"({rate_text(run.units_played, run.seconds, unit)}{run.n_jobs} job(s))",
        file=sys.stderr,
    )
    if run.sprt is not None and run.sprt.decided:
        already = " (it had decided before this run)" if run.units_played == 0 else ""
        print(
            f"stopped: the SPRT accepted {run.sprt.decision} after {run.sprt.deals:,} deals{already}", file=sys.stderr
        )
    _print_summary(run.path, n_boot=args.boot)


#: Seconds a first run spends compiling, by what it needs, on a 2-core machine (the CPU time
#: of ``benchmarks/bench_first_run.py``, about the wall clock when a core is idle): a
#: tournament's self-play loop for fast built-ins only (the default run: 20.5 s at load 2.4, 7
#: December), what Hard adds to it (``--hard``: 54.1 s in all at load 2, 7 December, 83.8 s
#: before; Crazy compiles more), the kernels a Python agent's hands use; ``spades-ai play`` (``--command "play
#: --level hard --seed 1"``: 20 s, 5 December).
FIRST_RUN_SECONDS = {"fast": 20, "monte_carlo": 35, "python": 20, "play": 20}


@contextlib.contextmanager
def compiling_notice(seconds: float):
    """Say on stderr that kernels are compiling as soon as numba starts compiling one in this
    process, with the estimate ``seconds``, and when the block ends how long the compiling took.

    numba raises its compile event only for a kernel it really compiles (one missing from the
    cache, or cached for other argument types), never for one it loads from the cache; so a
    block that only loads kernels, or that waits on anything else (a bot's program, the disk),
    however long, says nothing."""
    from numba.core import event

    span: list[float] = []  # when the first compilation began and the last one ended
    lock = threading.Lock()

    class Listener(event.Listener):
        def on_start(self, e):
            with lock:
                if span:
                    return
                span[:] = [time.perf_counter()] * 2
            print(f"spades-ai: compiling the engine's kernels (once, about {seconds:.0f} s)...", file=sys.stderr,
                  flush=True)

        def on_end(self, e):
            if span:  # (not a compilation that began before the block)
                span[1] = time.perf_counter()

    listener = Listener()
    event.register("numba:compile", listener)
    try:
        yield
    finally:
        event.unregister("numba:compile", listener)
        if span:
            from spades_ai.engine.jit import cache_dir

            print(f"spades-ai: compiled in {duration_text(span[1] - span[0])}, cached in {cache_dir()}", file=sys.stderr)


def _warm_up_tournament(t) -> None:
    """Compile (or load) what the run needs before it starts, so that its time and rate leave
    compilation out; say so while compiling."""
    from spades_ai.tournament.runner import lineup_kind, warm_up

    kinds = {lineup_kind(t, p) for p in range(len(t.pairings))}
    with compiling_notice(sum(FIRST_RUN_SECONDS[k] for k in kinds)):
        warm_up(t)


def _cmd_play(args) -> None:
    from spades_ai.seats import table_name
    from spades_ai.table import SaveFileError, TableMatch, play_session

    if args.resume is not None:
        settings = ("level", "target", "rules", "players", "teams", "seed")
        given = [f"--{k}" for k in settings if getattr(args, k) is not None]
        if given:
            raise CLIError(f"--resume continues the saved match with its own settings: drop {', '.join(given)}")
        try:
            match = TableMatch.load(args.resume)
        except SaveFileError as exc:
            raise CLIError(str(exc)) from None
        save = args.save if args.save is not None else args.resume
    else:
        rules = _table_rules(args)
        if args.target is not None:
            rules = dataclasses.replace(rules or Rules(), target_score=args.target)
        if args.save is not None and Path(args.save).exists() and Path(args.save).stat().st_size:
            raise CLIError(f"{args.save} already holds a match: continue it with --resume {args.save}, or save elsewhere")
        seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "little")
        match = TableMatch(seed, args.level or "normal", rules)
        save = args.save
    table = "" if match.rules.four_in_pairs else f", {table_name(match.rules)}"
    target, hands = match.rules.target_score, match.rules.max_hands
    length = f"to {target}" if target is not None else f"over {hands} hand{'s' * (hands != 1)}"
    print(
        f"Spades {length}{table}: {match.seating()}; seed {match.seed}."
        + (f" Saved in {save}." if save is not None else ""),
    )
    if match.over:
        print(match.result_line())
        return
    with compiling_notice(FIRST_RUN_SECONDS["play"]):
        match.warm_up()
    play_session(match, sys.stdin, sys.stdout, save=save)


def _table_rules(args, rules: Rules | None = None, source: str | None = None) -> Rules | None:
    """The rules of a command at the table of ``--players`` and ``--teams`` when given
    (``--players`` alone: that table's sides, pairs at 4 and solo otherwise), over ``rules``
    from ``source`` (words such as ``"the rules of exp.toml"``), else over ``--rules``, else
    over the defaults; None when neither rules nor the table is given. A table the rules
    refuse is a ``CLIError`` naming the options, and the rules too when the table alone is
    fine (``--teams pairs`` with ``--rules cutthroat``: 3 players)."""
    if rules is None and getattr(args, "rules", None) is not None:
        rules, source = Rules.load(args.rules), f"--rules {args.rules}"
    if args.players is None and args.teams is None:
        return rules
    table = {"players": args.players, "teams": args.teams} if args.players is not None else {"teams": args.teams}
    flags = " ".join(f"--{key} {value}" for key, value in table.items() if value is not None)
    try:
        Rules.from_dict(table)
    except RulesError as exc:
        raise CLIError(f"{flags}: {exc}") from None
    try:
        return Rules.from_dict({**(rules or Rules()).to_dict(), **table})
    except RulesError as exc:
        from spades_ai.seats import table_name

        raise CLIError(f"{flags} contradicts {source} ({table_name(rules)}): {exc}") from None


def default_matches_folder() -> Path:
    """Where ``spades-ai serve`` keeps its matches: ``$XDG_DATA_HOME/spades_ai/matches``
    (``~/.local/share/spades_ai/matches``)."""
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "spades_ai" / "matches"


def _cmd_serve(args) -> None:
    from spades_ai.web import make_server
    from spades_ai.web.view import BrowserMatch

    rules = _table_rules(args)
    folder = Path(args.dir) if args.dir is not None else default_matches_folder()

    def warm_up():  # the default level's kernels, in a thread while the server answers
        with compiling_notice(FIRST_RUN_SECONDS["play"]):
            BrowserMatch(0, args.level, rules).warm_up()

    server = make_server(folder, args.host, args.port, args.level, rules, max_live=args.max_live,
                         max_matches=args.max_matches, warm_up=warm_up)
    exposed = "" if server.loopback_only else " (reachable from other machines: anyone who can reach it can play)"
    print(f"spades-ai: the table is at {server.url}{exposed}; matches saved in {folder}. Ctrl-C stops it.", flush=True)
    try:
        server.serve_forever()
    finally:
        server.server_close()


def _cmd_replay(args) -> None:
    from pathlib import Path

    from spades_ai.records import record_line
    from spades_ai.table import replay_lines, replay_source
    from spades_ai.table.replay import replay_hand, run_pbn, run_records

    if args.pbn and args.json:
        raise ValueError("--pbn and --json are two formats of the same records: pick one")
    if (args.pbn or args.json) and Path(args.source).is_dir() and args.deal is None and args.hand is None:
        # a whole keep-plays run, deal by deal (or every hand of one match)
        export = run_pbn if args.pbn else run_records
        print(export(args.source, table=args.table, pairing=args.pairing, match_no=args.match), end="")
        return
    hands = replay_source(
        args.source, hand_no=args.hand, deal_no=args.deal, match_no=args.match, table=args.table, pairing=args.pairing
    )
    for i, recorded in enumerate(hands):
        if args.pbn:
            print(replay_hand(recorded.record, recorded.title).to_pbn(event=recorded.title))
            continue
        if args.json:
            print(record_line(replay_hand(recorded.record, recorded.title), event=recorded.title))
            continue
        if i:
            print()
        print("\n".join(replay_lines(recorded)))


def _cmd_review(args) -> None:
    import pandas as pd

    from spades_ai.analysis import review as rv
    from spades_ai.table.replay import replay_hand, replay_source, run_hands, run_rotations

    pd.set_option("display.width", 200)
    judge = {"judge": args.judge, "from_trick": args.from_trick}
    if Path(args.source).is_dir() and args.deal is None and args.match is None:
        tables = run_rotations(args.source) if args.table is None else (args.table,)
        hands = [h for t in tables for h in run_hands(args.source, table=t, pairing=args.pairing)]
        df = rv.review_hands(hands, **judge)
        print(f"{args.source}: {df.hand.nunique() if len(df) else 0} hands, {len(df)} decisions judged by {args.judge}")
        print("Points lost per 100 decisions, by agent and phase:")
        print(rv.loss_table(df).round(2).to_string())
        print(f"The {args.worst} costliest decisions:")
        print(rv.worst(df, args.worst).to_string(index=False))
        return
    hands = replay_source(args.source, hand_no=args.hand, deal_no=args.deal, match_no=args.match, table=args.table,
                          pairing=args.pairing)  # fmt: skip
    for i, recorded in enumerate(hands):
        df = rv.review(replay_hand(recorded.record, recorded.title), whole_deal=args.double_dummy, **judge)
        print(("\n" if i else "") + f"{recorded.title}: {len(df)} decisions judged by {args.judge}"
              + (f"; double dummy from the opening lead: NS {df.attrs['double_dummy']} tricks" if "double_dummy" in df.attrs else ""))
        shown = df.drop(columns="values").assign(values=[" ".join(f"{a}:{v:g}" for a, v in d.items()) for d in df["values"]])
        print(shown.to_string(index=False))
        print("Per seat:")
        print(rv.seat_summary(df).to_string(index=False))


def _cmd_summary(args) -> None:
    path = Path(args.dir)
    if not path.exists():
        raise CLIError(f"{path} does not exist")
    _print_summary(path, n_boot=args.boot)


BIDDING_KEYS = ("bidders", "deals", "seed", "policy", "opponents", "jobs", "rules")


def _cmd_bidding(args) -> None:
    from spades_ai.agents.spec import parse_agent, parse_agents
    from spades_ai.analysis.bidding import bidding_benchmark
    from spades_ai.analysis.summary import rounded
    from spades_ai.tomlfile import read_toml


    cfg: dict = {}
    if args.config:
        path = Path(args.config)
        cfg = read_toml(path, "bidding file", CLIError)
        unknown = sorted(set(cfg) - set(BIDDING_KEYS))
        if unknown:
            raise CLIError(f"bidding file {path}: unknown key(s) {', '.join(map(repr, unknown))}; valid keys: {', '.join(BIDDING_KEYS)}")
    for key in BIDDING_KEYS:
        value = getattr(args, key, None)
        if value is not None:
            cfg[key] = value
    base = Path(args.config).parent if args.config else None
    rules = Rules.load(cfg["rules"], base) if "rules" in cfg else None
    rules = _table_rules(args, rules, f"--rules {args.rules}" if args.rules else f"the rules of {args.config}")
    board = bidding_benchmark(
        # a user bidder beside the file, or in this folder; each named by its label
        {b.label: b for b in parse_agents(cfg.get("bidders", "normal,easy"), base)},
        deals=cfg.get("deals", 2000),
        seed=cfg.get("seed", 0),
        rules=rules,
        policy=parse_agent(cfg.get("policy", "normal"), base),
        opponents=parse_agent(cfg.get("opponents", "normal"), base),
        n_jobs=cfg.get("jobs", 1),
    )
    print(rounded(board, 3))


def _cmd_agents(args) -> None:
    from spades_ai.agents import list_agents
    from spades_ai.agents.registry import BUILTINS

    for name, desc in list_agents().items():
        opts = ", ".join(f"{k}={d!r}" for k, (d, _) in BUILTINS[name].options.items())
        print(f"{name:8s} {desc}  [{opts}]")
    print("a Python agent: module:attribute (an agent object, or a factory called with the options)")


def _cmd_deal(args) -> None:
    from spades_ai.simulate import deal

    for seat, cards in enumerate(deal(args.seed, args.index, _table_rules(args))):
        print(f"seat {seat}: {cards}")


def _cmd_dataset(args) -> None:
    from spades_ai.learn.dataset import write_dataset, write_hands_dataset
    from spades_ai.agents.spec import parse_agents
    from spades_ai.seats import seats, side_of

    if args.source:
        given = [f"--{key}" for key in ("agents", "deals", "rules", "players", "teams", "labels") if getattr(args, key)]
        if given:
            raise CLIError(f"--from takes the agents, deals, rules and table of the run: drop {', '.join(given)}")
        from spades_ai.tournament.recorded import recorded_hands

        hands, labels, rules = recorded_hands(args.source)
        out = write_hands_dataset(args.out, hands, rules, agents=labels, source=str(Path(args.source).resolve()),
                                  chunk_size=args.chunk_size)  # fmt: skip
    else:
        if not args.deals:
            raise ValueError("--deals N is needed (or --from RUN_DIR)")
        rules = _table_rules(args) or Rules()
        agents = [a.build() for a in parse_agents(args.agents or DEFAULT_AGENTS)]
        if not args.agents and len(agents) not in (rules.players, rules.n_sides):  # the default, side after side
            agents = [agents[side_of(s, rules) % len(agents)] for s in seats(rules)]
        out = write_dataset(args.out, agents, args.deals, seed=args.seed, rules=rules,
                            chunk_size=args.chunk_size, n_jobs=args.jobs, labels=args.labels,
                            solver_tricks=args.solver_tricks)  # fmt: skip
    print(f"dataset in {out}")


#: ``--rules``: what ``Rules.load`` takes from a command line.
RULES_HELP = f"house rules: a TOML file, or a preset ({', '.join(PRESETS)})"


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="spades-ai",
        description="Monte Carlo AI research toolkit for Spades. With no command: a small Normal vs Easy tournament.",
    )
    sub = p.add_subparsers(dest="command", parser_class=_Parser)
    for add in (_add_tournament, _add_play, _add_serve, _add_replay, _add_review, _add_summary, _add_bidding, _add_agents,
                _add_dataset, _add_deal):
        add(sub)
    return p


def _add_tournament(sub) -> None:
    """``spades-ai tournament``."""
    t = sub.add_parser("tournament", help="play a tournament on duplicate deals and print its summary")
    t.add_argument(
        "--agents", help=f"comma-separated agents, e.g. normal,easy:careless=0.5,mymod:MyBot; label=NAME among an agent's "
        f"options names it in the results, e.g. mymod:MyBot:label=mine (default {DEFAULT_AGENTS})"
    )
    t.add_argument(
        "--deals",
        type=_positive,
        help=f"duplicate deals per pairing; matches in matches mode (default {DEFAULT_DEALS})",
    )
    t.add_argument("--seed", type=_seed, help="deal i comes from (seed, i) (default 0)")
    t.add_argument("--mode", choices=("hands", "matches"), help="independent hands, or whole matches (default hands)")
    t.add_argument("--schedule", choices=SCHEDULES, help="who meets whom (default round_robin; ladder: each against the next)")
    t.add_argument("--no-duplicate", action="store_true", help="play each deal once (table 1 gets other cards)")
    t.add_argument("--jobs", type=_jobs, help="parallel jobs (default all cores)")
    t.add_argument(
        "--chunk-size", dest="chunk_size", type=_positive, help="units per chunk (default: a few chunks per job)"
    )
    t.add_argument("--backend", choices=("loky", "dask"), help="joblib backend (default loky)")
    t.add_argument("--scheduler", metavar="ADDR", help="address of a running dask scheduler (implies --backend dask)")
    t.add_argument("--rules", metavar="FILE.toml|PRESET", help=RULES_HELP)
    _add_table(t)
    t.add_argument("--out", metavar="DIR", help="results folder; the same folder resumes an interrupted run")
    t.add_argument(
        "--fresh", action="store_true",
        help="start afresh: move the results folder's earlier run aside to DIR.old-<time> (never deleted) and play anew",
    )  # fmt: skip
    t.add_argument(
        "--config", metavar="EXPERIMENT.toml", help="a TOML file with any of these settings; flags override it"
    )
    t.add_argument(
        "--sprt",
        metavar="D0,D1",
        type=_sprt_bounds,
        help="stop when a sequential test on the first agent's points minus the second's per duplicate deal "
        "decides between H0: mean <= D0 and H1: mean >= D1; --deals is then a budget that may grow",
    )
    t.add_argument(
        "--sprt-alpha", dest="sprt_alpha", metavar="A", type=_sprt_error_rate,
        help="chance of accepting H1 when the mean is D0 (default 0.05)",
    )  # fmt: skip
    t.add_argument(
        "--sprt-beta", dest="sprt_beta", metavar="B", type=_sprt_error_rate,
        help="chance of accepting H0 when the mean is D1 (default 0.05)",
    )  # fmt: skip
    t.add_argument(
        "--keep-plays", dest="keep_plays", action="store_true",
        help="also store each hand's cards in play order, so that spades-ai replay can show any row",
    )  # fmt: skip
    t.add_argument(
        "--decision-timeout", dest="decision_timeout", type=_seconds, metavar="SECONDS",
        help="seconds a bot program (cmd:...) may take per decision (default 30; docs/PROTOCOL.md)",
    )  # fmt: skip
    t.add_argument("--boot", type=_positive, default=1000, help="bootstrap resamples for intervals (default 1000)")
    t.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    t.set_defaults(func=_cmd_tournament, default_run=False)


def _add_play(sub) -> None:
    """``spades-ai play``."""
    pl = sub.add_parser("play", help="play a match as South against the agents, one action a line on stdin")
    pl.add_argument("--level", type=_level,
                    help="the opponents' level: easy, normal (default), hard, crazy, or a bot program "
                         "cmd:COMMAND (docs/PROTOCOL.md); your partner plays Hard, or Crazy at crazy")  # fmt: skip
    pl.add_argument("--target", type=_positive, help="points to win (500, the default, or 250 for a shorter match)")
    pl.add_argument("--rules", metavar="FILE.toml|PRESET", help=f"{RULES_HELP}; --target overrides its target")
    _add_table(pl, ", you among them")
    pl.add_argument("--seed", type=_seed, help="the deals and the first dealer come from it (default: a random seed, printed)")
    pl.add_argument("--save", metavar="FILE", help="save the match here after every action (JSON lines)")
    pl.add_argument("--resume", metavar="FILE", help="continue the match saved in FILE (and keep saving it there)")
    pl.set_defaults(func=_cmd_play)


def _add_table(parser, who: str = "") -> None:
    """``--players`` and ``--teams``: the table, over the rules (``_table_rules``)."""
    parser.add_argument("--players", type=int, choices=tuple(TABLES), metavar=f"{min(TABLES)}..{max(TABLES)}",
                        help=f"players at the table{who} (over --rules; two decks from 6, three from 9)")
    parser.add_argument("--teams", choices=("pairs", "solo"),
                        help="in pairs (an even number of players) or every player for itself (default: pairs at 4, "
                             "solo otherwise)")  # fmt: skip


def _add_serve(sub) -> None:
    """``spades-ai serve``."""
    sv = sub.add_parser("serve", help="the browser table: a local web server to play the bots in a browser")
    sv.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only)")
    sv.add_argument("--port", type=_count, default=8000, help="port (default 8000; 0: any free port)")
    sv.add_argument("--level", choices=("easy", "normal", "hard", "crazy"), default="normal",
                    help="the opponents' level offered first (default normal); the page can choose another")
    sv.add_argument("--rules", metavar="FILE.toml|PRESET", help=f"{RULES_HELP}, offered first; the page can change them")
    _add_table(sv, ", you among them")
    sv.add_argument("--dir", metavar="FOLDER", help=f"where the matches are saved (default {default_matches_folder()})")
    sv.add_argument("--max-matches", dest="max_matches", type=_positive, default=10_000,
                    help="saved matches the folder may hold; a new one beyond is refused (default 10000)")
    sv.add_argument("--max-live", dest="max_live", type=_positive, default=200,
                    help="matches kept in memory; others are read from their files when asked for (default 200)")
    sv.set_defaults(func=_cmd_serve)


def _add_replay(sub) -> None:
    """``spades-ai replay``."""
    r = sub.add_parser("replay", help="print a recorded hand trick by trick")
    r.add_argument("source", metavar="SOURCE", help="a saved match (spades-ai play --save), a Hand record (JSON), a file of "
                   "hand records (JSON lines), a PBN file or a results folder of a run made with --keep-plays")  # fmt: skip
    r.add_argument("--hand", type=_count, help="hand_no K (from 0): of a saved match, or of --match M in a matches-mode run")
    r.add_argument("--deal", type=_count, help="deal_no N of a hands-mode run")
    r.add_argument("--match", type=_count, help="match_no M of a matches-mode run")
    r.add_argument("--table", type=_count, help="the table (rotation), 0 .. sides - 1: 0 or 1 at four in pairs (default 0)")
    r.add_argument("--pairing", type=_count, help="the pairing of a run with several (default 0)")
    r.add_argument("--pbn", action="store_true", help="print PBN-style records instead of the text (four players in "
                   "pairs); of a results folder without --deal: every deal (with --match M: every hand of match M)")
    r.add_argument("--json", action="store_true", help="print JSON lines of hand records instead (every table), "
                   "as --pbn")
    r.set_defaults(func=_cmd_replay)


def _add_review(sub) -> None:
    """``spades-ai review``."""
    rv = sub.add_parser("review", help="value every decision of a hand under a judge: where were points lost")
    rv.add_argument("source", metavar="SOURCE", help="a Hand record (JSON), a PBN file, a saved match, or a results "
                    "folder of a run made with --keep-plays (without --deal: every hand, the loss table)")  # fmt: skip
    rv.add_argument("--judge", choices=("solver", "hard", "crazy"), default="solver",
                    help="solver: exact, every card visible, from --from-trick on (default); hard, crazy: their Monte "
                    "Carlo values from the acting seat's information")  # fmt: skip
    rv.add_argument("--from-trick", type=_positive, default=None, help="the solver judges tricks N..the last (default: "
                    "the table's last tricks, 8..13 at four players in pairs)")  # fmt: skip
    rv.add_argument("--hand", type=_count, help="hand_no K: of a saved match or PBN file, or of --match M")
    rv.add_argument("--deal", type=_count, help="deal_no N of a hands-mode run")
    rv.add_argument("--match", type=_count, help="match_no M of a matches-mode run")
    rv.add_argument("--table", type=_count, help="the table, 0 or 1 (default 0; a whole folder: both)")
    rv.add_argument("--pairing", type=_count, help="the pairing of a run with several (default 0)")
    rv.add_argument("--double-dummy", action="store_true", help="with the solver, also solve the whole deal from the "
                    "opening lead (tricks NS take with every card visible)")  # fmt: skip
    rv.add_argument("--worst", type=_positive, default=10, help="costliest decisions listed for a folder (default 10)")
    rv.set_defaults(func=_cmd_review)


def _add_summary(sub) -> None:
    """``spades-ai summary``."""
    s = sub.add_parser("summary", help="the summary table of a results folder")
    s.add_argument("dir", metavar="DIR")
    s.add_argument("--boot", type=_positive, default=1000, help="bootstrap resamples for intervals (default 1000)")
    s.set_defaults(func=_cmd_summary)


def _add_bidding(sub) -> None:
    """``spades-ai bidding``."""
    b = sub.add_parser("bidding", help="the bidding benchmark: bidders compared on fixed duplicate deals")
    b.add_argument("--bidders", help="comma-separated agents whose bids are compared (default normal,easy)")
    b.add_argument("--deals", type=_positive, help="duplicate deals per bidder (default 2000)")
    b.add_argument("--seed", type=_seed, help="deal i comes from (seed, i) (default 0)")
    b.add_argument("--policy", help="the agent that plays every card (default normal)")
    b.add_argument("--opponents", help="the agent whose bids the opponents make (default normal)")
    b.add_argument("--jobs", type=_jobs, help="parallel jobs (default 1)")
    b.add_argument("--rules", metavar="FILE.toml|PRESET", help=RULES_HELP)
    _add_table(b)
    b.add_argument("--config", metavar="BIDDING.toml", help="a TOML file with any of these settings; flags override it")
    b.set_defaults(func=_cmd_bidding)


def _add_agents(sub) -> None:
    """``spades-ai agents``."""
    a = sub.add_parser("agents", help="list the built-in agents and their options")
    a.set_defaults(func=_cmd_agents)


def _add_dataset(sub) -> None:
    """``spades-ai dataset``."""
    ds = sub.add_parser("dataset", help="decision rows (observation vector, mask, action, outcome) as Parquet")
    ds.add_argument("--agents", help=f"comma-separated lineup: two for A,B,A,B or four by seat (default {DEFAULT_AGENTS})")
    ds.add_argument("--deals", type=_positive, help="deals (seed, 0..N-1) to play, dealer 0")
    ds.add_argument("--seed", type=_seed, default=0, help="deal i comes from (seed, i) (default 0)")
    ds.add_argument("--rules", metavar="FILE.toml|PRESET", help=RULES_HELP)
    _add_table(ds)
    ds.add_argument(
        "--labels", metavar="SOLVER|AGENT",
        help="value labels: solver = the exact solver's card values late in the hand; hard or crazy (with options: "
        "hard:worlds=64) = that agent's value of every legal bid and card, as it decides",
    )  # fmt: skip
    ds.add_argument("--solver-tricks", dest="solver_tricks", type=_positive, default=3, help="tricks left for solver labels (default 3)")
    ds.add_argument("--from", dest="source", metavar="RUN_DIR", help="every decision of a --keep-plays results folder")
    ds.add_argument("--chunk-size", dest="chunk_size", type=_positive, help="deals (or hands) per chunk (default 20000)")
    ds.add_argument("--jobs", type=_jobs, default=1, help="chunks at once (default 1)")
    ds.add_argument("--out", metavar="DIR", required=True, help="dataset folder; the same folder resumes a killed run")
    ds.set_defaults(func=_cmd_dataset)


def _add_deal(sub) -> None:
    """``spades-ai deal``."""
    d = sub.add_parser("deal", help="print deal INDEX of SEED")
    d.add_argument("seed", type=_seed)
    d.add_argument("index", type=int, nargs="?", default=0)
    d.add_argument("--rules", metavar="FILE.toml|PRESET", help=RULES_HELP)
    _add_table(d)
    d.set_defaults(func=_cmd_deal)


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    argv = sys.argv[1:] if argv is None else list(argv)
    args = parser.parse_args(argv)
    if args.command is None:
        # the README's main job: a small default tournament, results in a temporary folder
        args = parser.parse_args(["tournament"])
        args.default_run = True
    try:
        args.func(args)
    except KeyboardInterrupt:
        return 130
    except WorkerLost as exc:
        print(f"spades-ai: error: {exc}", file=sys.stderr)
        return 1
    except (ValueError, OSError, ImportError) as exc:
        msg = str(exc).strip().replace("\n", " ") or type(exc).__name__
        print(f"spades-ai: error: {msg}", file=sys.stderr)
        return EXIT_USAGE
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
