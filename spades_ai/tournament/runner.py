"""Running a tournament: chunks in parallel with joblib, each written to disk as it finishes.

The backend is the caller's: ``run_tournament`` never names one, so it runs on whatever
``joblib.parallel_config`` is active (loky processes by default, a dask cluster with
``parallel_config(backend="dask")``). Each chunk is played and encoded as Parquet in a worker;
the calling process only writes the bytes (temporary file, then rename) and moves the progress
bar, so memory stays flat and a remote dask worker needs no shared disk. A worker process ends
with the run (``spades_ai.workers``): a run killed, even with SIGKILL, leaves none playing on.
With the default ``n_jobs`` a run starts in this process and starts workers only if it lasts
longer than a quarter of a second, so small runs do not pay for process start-up.

With ``sprt=SPRT(d0, d1)`` a two-agent duplicate run stops as soon as a sequential test on the
duplicate difference per deal decides (``spades_ai.tournament.stopping``). Chunks finish in
any order; the test only ever reads the unbroken run of deals from deal 0, deal by deal, so
the deal it stops at does not depend on ``n_jobs`` or the chunk size.

>>> import tempfile
>>> run = run_tournament(["normal", "easy"], deals=50, out=tempfile.mkdtemp(), n_jobs=1, progress=False)
>>> run.units_played, len(load_results(run))
(50, 200)
"""

from __future__ import annotations

import contextlib
import dataclasses
import importlib.util
import os
import sys
import tempfile
import time
import warnings
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import joblib
from joblib.parallel import get_active_backend

from spades_ai.agents.grammar import PROGRAM_PREFIX
from spades_ai.agents.spec import AgentSpec, Partnership
from spades_ai.version import __version__
from spades_ai.folders import FolderLock, write_atomic
from spades_ai.workers import finished_order
from spades_ai.tournament.results import (
    DATA_DIR,
    ResultsError,
    chunk_table,
    encode,
    finished_chunks,
    load_results,
    move_aside,
    prepare_folder,
    read_differences,
    run_config,
    write_sprt,
)
from spades_ai.errors import TournamentError
from spades_ai.seats import seats, side_of
from spades_ai.tournament.schedule import Chunk, Tournament, default_chunk_size, plan_chunks
from spades_ai.tournament.stopping import SPRT, SPRTResult, sprt_test

__all__ = ["RunInfo", "load_results", "play_chunk", "run_tournament", "warm_up"]


@dataclass(frozen=True)
class RunInfo:
    """What ``run_tournament`` did. ``os.fspath(run)`` is the results folder."""

    path: Path
    tournament: Tournament
    chunks_played: int
    chunks_skipped: int
    units_played: int
    seconds: float
    n_jobs: int
    chunk_size: int
    sprt: SPRTResult | None = None
    """Where the sequential test stands at the end (None for a run without one)."""
    moved_aside: Path | None = None
    """With ``fresh=True``: where the folder's earlier results were moved (None: there were none)."""

    def __fspath__(self) -> str:
        return str(self.path)


def play_chunk(t: Tournament, chunk: Chunk, config: dict | None = None) -> tuple[Chunk, bytes, int]:
    """Play one chunk at every rotation and return it as Parquet bytes (runs in a worker)."""
    from spades_ai.selfplay import play_hands, play_matches

    if config is not None and config.get("version") != __version__:
        # a worker of a dask cluster may run another install: its deals would differ
        raise TournamentError(f"this worker has spades_ai {__version__}, the run needs {config.get('version')}")

    play = play_hands if t.mode == "hands" else play_matches
    records = [
        play(seat_lineup(t, chunk.pairing, rotation), chunk.size, seed=t.table_seed(rotation), rules=t.rules,
             start=chunk.start, keep_plays=t.keep_plays)
        for rotation in t.rotations
    ]  # fmt: skip
    table = chunk_table(t, chunk, records, config)
    return chunk, encode(table), table.num_rows


def seat_lineup(t: Tournament, pairing: int, rotation: int) -> list:
    """The agents by seat at ``rotation`` of ``pairing``, built for this chunk: each side's
    entrant builds its seats (with pairs one agent twice, or a partnership's two; solo one)."""
    built = [t.agents[i].build_team() for i in t.lineup(pairing, rotation)]
    return [built[side_of(seat, t.rules)][seat // t.rules.n_sides] for seat in seats(t.rules)]


def _warm_up(t: Tournament, chunk: Chunk) -> None:
    """Compile (or load from numba's cache) the kernels once here, before the workers start,
    so that on a cold cache they load it instead of each compiling the same code."""
    play_chunk(t, Chunk(chunk.pairing, chunk.start, chunk.start + 1))


def warm_up(t: Tournament) -> float:
    """Compile (or load from numba's cache) the kernels ``t`` needs, and return the seconds it
    took: one unit at every rotation of one pairing of each kind of lineup the run holds (only
    fast built-ins, with Hard or Crazy, or Python agents). A matches-mode unit is a one-hand
    match (``max_hands=1``), which runs the same kernel as a whole match.

    The first run on a machine compiles here, so a run's own time and rate (``RunInfo``) can
    leave compilation out: ``spades-ai tournament`` calls this first. On an empty cache a second
    process compiles the built-in agents' kernels meanwhile (``selfplay.compile_ahead``). A bot
    program's seats are played by ``BotStandIn``: the warm-up neither starts a bot nor waits on
    one, so its time (and ``spades-ai``'s compiling notice around it) is compiling only.
    """
    from spades_ai.selfplay.compile_ahead import compile_ahead

    began = time.perf_counter()
    if t.mode == "matches":
        t = dataclasses.replace(t, rules=dataclasses.replace(t.rules, max_hands=1))
    t = _bots_stood_in(t)
    seen = set()
    for p, pair in enumerate(t.pairings):
        # one pairing of each set of agents: mixed partnerships bind loops of their own
        kind = (lineup_kind(t, p), frozenset(m.name for i in pair for m in t.agents[i].members))
        if kind not in seen:
            seen.add(kind)
            with compile_ahead(seat_lineup(t, p, 0), t.rules):
                play_chunk(t, Chunk(p, 0, 1))
    return time.perf_counter() - began


class BotStandIn:
    """A bot program's seats in ``warm_up``: a Python agent, its first legal bid and card. A bot
    is asked through the loop of any Python agent, which this one compiles as well, at no cost
    of the bot's: its hello and answers are the run's."""

    name = "bot stand-in"

    def bid(self, obs) -> int:
        return obs.legal_bids()[0]

    def play(self, obs):
        return obs.legal_cards()[0]


def _bots_stood_in(t: Tournament) -> Tournament:
    """``t`` with every bot program (``cmd:...``) played by ``BotStandIn``."""
    stand_in = AgentSpec("python", label=BotStandIn.name, target=f"{__name__}:BotStandIn")

    def swap(spec: AgentSpec) -> AgentSpec:
        return stand_in if spec.name == PROGRAM_PREFIX else spec

    entrants = [Partnership(swap(a.first), swap(a.second), a.label) if isinstance(a, Partnership) else swap(a)
                for a in t.agents]  # fmt: skip
    return dataclasses.replace(t, agents=tuple(entrants))


def lineup_kind(t: Tournament, pairing: int) -> str:
    """Which self-play loop a pairing runs: ``"fast"`` (built-ins without Hard, Crazy or ISMCTS: the
    kernel without the Monte Carlo code), ``"monte_carlo"`` or ``"python"`` (a Python agent)."""
    agents = [m for i in t.pairings[pairing] for m in t.agents[i].members]
    if not all(a.is_builtin for a in agents):
        return "python"
    return "monte_carlo" if any(a.name in ("hard", "crazy", "ismcts") for a in agents) else "fast"


def _resolve_n_jobs(n_jobs: int | None) -> tuple[int, int]:
    """(n_jobs to pass to joblib, how many workers that gives under the active backend)."""
    if n_jobs is None:
        _, configured = get_active_backend()
        n_jobs = -1 if configured is None else configured
    if isinstance(n_jobs, bool) or not isinstance(n_jobs, int) or n_jobs == 0:
        raise TournamentError(f"n_jobs must be a positive int or -1 (all cores), not {n_jobs!r}")
    return n_jobs, max(1, joblib.effective_n_jobs(n_jobs))


#: With the default ``n_jobs``, chunks are played here until this many seconds have passed;
#: only a run that lasts longer starts worker processes (which cost seconds to start).
SEQUENTIAL_SECONDS = 0.25


def _execute(tasks: list, n_jobs: int, workers: int, adaptive: bool) -> Iterator[tuple[Chunk, bytes, int]]:
    """Results of ``play_chunk`` over ``tasks`` in the order they finish."""
    if workers <= 1 or len(tasks) <= 1:
        for task in tasks:
            yield play_chunk(*task)
        return
    i = 0
    if adaptive:
        # the first chunk, played here, also compiles (or loads) the kernels before any worker
        # starts, so that on a cold cache the workers load them instead of compiling them again
        began = time.perf_counter()
        while i < len(tasks) and (i == 0 or time.perf_counter() - began < SEQUENTIAL_SECONDS):
            i += 1
            yield play_chunk(*tasks[i - 1])
    else:
        _warm_up(*tasks[0][:2])
    rest = tasks[i:]
    if not rest:
        return
    n_jobs = min(workers, len(rest)) if n_jobs < 0 or n_jobs > len(rest) else n_jobs
    if n_jobs == 1:
        for task in rest:
            yield play_chunk(*task)
        return
    yield from finished_order(play_chunk, rest, n_jobs)


def check_sprt(t: Tournament, sprt: SPRT | None) -> None:
    """Refuse a sequential test on a run that has no single duplicate difference per deal."""
    if sprt is None:
        return
    if not isinstance(sprt, SPRT):
        raise TournamentError(f"sprt must be an SPRT (spades_ai.tournament.SPRT(d0, d1)), not {sprt!r}")
    problems = []
    if len(t.agents) != 2 or len(t.pairings) != 1:
        problems.append(f"{len(t.agents)} agents")
    if not t.duplicate:
        problems.append("no duplicate")
    if t.mode != "hands":
        problems.append(f"{t.mode} mode")
    if problems:
        raise TournamentError(
            f"a sequential test (sprt) needs two agents on duplicate deals in hands mode, not {', '.join(problems)}"
        )


class _Prefix:
    """The sequential test on the unbroken run of deals from deal 0.

    Chunks arrive in any order; each waits until the deals before it are in, and is then read
    deal by deal. The test's state after deal ``n`` therefore depends on deals ``0 .. n-1``
    alone, never on the order or the size of the chunks.
    """

    def __init__(self, t: Tournament, sprt: SPRT, out: Path):
        self.t, self.sprt, self.out = t, sprt, out
        self.agent = t.agents[t.pairings[0][0]].label
        self.stop = 0
        self.waiting: dict[int, tuple[Chunk, Callable[[], object]]] = {}
        self.result: SPRTResult | None = None

    def add(self, chunk: Chunk, differences: Callable[[], object]) -> None:
        """Take a finished chunk; ``differences()`` gives its per-deal differences when needed."""
        self.waiting[chunk.start] = (chunk, differences)
        advanced = False
        while self.stop in self.waiting and not self.decided:
            chunk, diffs = self.waiting.pop(self.stop)
            self.result = sprt_test(self.sprt, diffs(), previous=self.result)
            self.stop = chunk.stop
            advanced = True
        if advanced:
            write_sprt(self.out, self.record())

    def add_file(self, chunk: Chunk, path: Path) -> None:
        self.add(chunk, lambda: read_differences(path, self.agent, chunk, self.t.rules.n_sides))

    def add_bytes(self, chunk: Chunk, data: bytes) -> None:
        diffs = read_differences(data, self.agent, chunk, self.t.rules.n_sides)  # now: the bytes need not be kept
        self.add(chunk, lambda: diffs)

    @property
    def decided(self) -> bool:
        return self.result is not None and self.result.decided

    def record(self) -> dict:
        """What ``sprt.json`` holds."""
        return {**self.result.to_dict(), "max_deals": self.t.deals, "agents": self.t.labels}


def run_tournament(
    agents: Tournament | str | Sequence,
    deals: int | None = None,
    seed: int | None = None,
    *,
    out: str | os.PathLike | None = None,
    n_jobs: int | None = None,
    chunk_size: int | None = None,
    progress: bool | None = True,
    sprt: SPRT | None = None,
    fresh: bool = False,
    **settings,
) -> RunInfo:
    """Play a tournament into the folder ``out`` and return a ``RunInfo`` (a path-like).

    ``agents`` is a ``Tournament`` or what ``Tournament.make`` takes (names such as
    ``"normal,easy"`` or a list of specs; more than two agents play a round-robin), with
    ``deals`` (default 2000), ``seed`` (0) and the tournament's other ``settings`` by name:
    ``mode`` ("hands"), ``duplicate`` (True), ``rules``, ``schedule`` and ``keep_plays``
    (False); a ``Tournament`` already fixes those, so giving any of them with one is an error
    rather than silently ignored, and an unknown name is a ``TypeError``. Work is cut
    into chunks of ``chunk_size`` units (by default a few per worker, sized for the agents'
    speed: ``schedule.default_chunk_size``) and run with ``joblib.Parallel(n_jobs)`` on the caller's
    ``parallel_config`` backend; ``n_jobs=None`` takes the configured ``n_jobs``, else all
    cores. The results do not depend on ``n_jobs``, ``chunk_size`` or the backend.

    If ``out`` already holds this tournament, finished chunks are kept and only the rest is
    played; if it holds another one, ``ResultsError`` says what differs. ``config.json`` records
    each agent's code (``AgentSpec.fingerprint``: a user module's source and what it imports,
    the package version of a built-in, a bot program's hello), and a folder played by other
    code is refused too (``CodeChangedError``, naming the agent): ``fresh=True`` first moves a
    folder holding a run aside to ``<out>.old-<time>`` (``RunInfo.moved_aside``; nothing is
    deleted) and plays anew. ``out=None`` writes to a new temporary folder. ``progress`` shows a tqdm bar (None: only on a terminal).

    ``keep_plays`` (part of the ``Tournament``) also stores each hand's cards (``players * cards_each``: 52 at four) in play order
    in a ``plays`` column, so that any row can be replayed card by card (``spades-ai replay``);
    a folder is never resumed with the other setting.

    ``sprt`` (an ``SPRT``; two agents, duplicate, hands mode only) stops the run as soon as its
    sequential test decides, and ``deals`` becomes a budget: run again with a larger one to
    go on with an undecided test. Where the test stands is ``RunInfo.sprt`` and ``sprt.json``.

    >>> from spades_ai.tournament import SPRT
    >>> run = run_tournament("normal,easy", deals=2000, sprt=SPRT(0, 5), chunk_size=50, n_jobs=1, progress=False)
    >>> run.sprt.decision, run.sprt.deals, run.units_played
    ('H1', 48, 50)
    """
    t = _tournament_of(agents, deals, seed, settings)
    check_sprt(t, sprt)
    out = Path(tempfile.mkdtemp(prefix="spades-ai-")) if out is None else Path(out)
    start_time = time.perf_counter()
    config = run_config(t, sprt)
    moved_aside = move_aside(out) if fresh else None
    out = prepare_folder(out, config)
    with FolderLock(out, ResultsError):
        played = _play_folder(t, out, config, sprt, (n_jobs, chunk_size, progress))
    return RunInfo(path=out, tournament=t, seconds=time.perf_counter() - start_time, moved_aside=moved_aside, **played)


def _play_folder(t: Tournament, out: Path, config: dict, sprt: SPRT | None, how) -> dict:
    """Play what the locked folder ``out`` still lacks of ``t``, ``how`` being ``run_tournament``'s
    (n_jobs, chunk_size, progress); the counts of ``RunInfo`` that say what was played."""
    n_jobs, chunk_size, progress = how
    adaptive = n_jobs is None
    n_jobs, workers = _resolve_n_jobs(n_jobs)
    done = finished_chunks(out, t)
    total = t.deals * len(t.pairings)
    remaining = total - sum(c.size for c in done)
    prefix = None
    if sprt is not None:
        prefix = _Prefix(t, sprt, out)
        for chunk in sorted(done):
            prefix.add_file(chunk, out / DATA_DIR / chunk.filename)
    if chunk_size is None:
        # a test stops between chunks: the smallest chunks that keep per-task costs low
        chunk_size = default_chunk_size(t, workers, remaining, smallest=sprt is not None)
    todo = [] if prefix is not None and prefix.decided else plan_chunks(t, chunk_size, done)
    tasks = [(t, chunk, config) for chunk in todo]
    played, chunks_played = _play_tasks(tasks, out, t, (total, remaining), prefix, progress, (n_jobs, workers, adaptive))
    return {"chunks_played": chunks_played, "chunks_skipped": len(done), "units_played": played,
            "n_jobs": min(workers, max(1, len(todo))), "chunk_size": chunk_size,
            "sprt": prefix.result if prefix is not None else None}  # fmt: skip


#: The settings of a tournament that ``run_tournament`` passes on to ``Tournament.make``.
TOURNAMENT_SETTINGS = ("mode", "duplicate", "rules", "schedule", "keep_plays")


def _tournament_of(agents, deals, seed, settings: dict) -> Tournament:
    """``agents`` if it is a ``Tournament`` (then every other setting must be left unset), else
    the tournament ``Tournament.make`` builds from the settings, with ``run_tournament``'s defaults."""
    unknown = sorted(set(settings) - set(TOURNAMENT_SETTINGS))
    if unknown:
        raise TypeError(f"run_tournament() got an unexpected keyword argument {unknown[0]!r} (the tournament's "
                        f"settings: deals, seed, {', '.join(TOURNAMENT_SETTINGS)})")  # fmt: skip
    if isinstance(agents, Tournament):
        given = [name for name, value in {"deals": deals, "seed": seed, **settings}.items() if value is not None]
        if given:
            raise TournamentError(
                f"run_tournament got a Tournament, which already fixes {', '.join(given)}: "
                "pass them to Tournament.make (or pass agent names instead of a Tournament)"
            )
        return agents
    s = {**dict.fromkeys(TOURNAMENT_SETTINGS), **settings}
    return Tournament.make(
        agents, 2000 if deals is None else deals, 0 if seed is None else seed, s["mode"] or "hands",
        duplicate=True if s["duplicate"] is None else s["duplicate"], rules=s["rules"], schedule=s["schedule"],
        keep_plays=False if s["keep_plays"] is None else s["keep_plays"],
    )  # fmt: skip


def progress_bar_type() -> type:
    """tqdm's bar for this process: the notebook widget in a Jupyter kernel that has ipywidgets,
    else the text bar. (``tqdm.auto`` itself, imported in a kernel without ipywidgets, warns
    "IProgress not found" into the cell's output, even for a run with ``progress=False``.)"""
    if "ipykernel" in sys.modules and importlib.util.find_spec("ipywidgets") is not None:
        from tqdm.auto import tqdm
    else:
        from tqdm.std import tqdm
    return tqdm


def _play_tasks(tasks, out: Path, t: Tournament, counts, prefix, progress, jobs) -> tuple[int, int]:
    """Run ``tasks`` (with ``jobs`` = (n_jobs, workers, adaptive)), writing each finished chunk
    into ``out`` as it comes, under a progress bar from ``counts`` = (total, remaining) units;
    stop early once the SPRT ``prefix`` decides. Returns (units played, chunks played)."""
    total, remaining = counts
    bar = progress_bar_type()(
        total=total,
        initial=total - remaining,
        unit="deal" if t.mode == "hands" else "match",
        unit_scale=True,
        smoothing=0.05,
        disable=None if progress is None else not progress,
        desc=" vs ".join(t.labels) if len(t.agents) <= 3 else f"{len(t.agents)} agents",
    )
    played = chunks_played = 0
    try:
        with contextlib.closing(_execute(tasks, *jobs)) as results:
            for chunk, data, _ in results:
                write_atomic(out / DATA_DIR / chunk.filename, data)
                played += chunk.size
                chunks_played += 1
                bar.update(chunk.size)
                if prefix is not None:
                    prefix.add_bytes(chunk, data)
                    if prefix.decided:
                        break
            with warnings.catch_warnings():
                # leaving early cancels the chunks still running: that is the point
                warnings.filterwarnings("ignore", message=".*tasks .* (cancelled|not used)")
                results.close()
    finally:
        bar.close()
    return played, chunks_played
