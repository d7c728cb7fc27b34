"""What a tournament plays: the agents, who meets whom, on which deals, under which rules.

A ``Tournament`` is a frozen, JSON-able description of the run. It is all that decides the
results: ``n_jobs``, the chunk size and the joblib backend never change a single row.

Duplicate deals (the default): duplicate unit ``i`` of a pairing (A, B) is played on the same
cards at one table per *rotation*, as many rotations as the rules have sides (``n_sides``). The
pairing's lineup fills the sides, A on side 0 and B on every other, (A, B, ..., B), and rotation
``r`` puts ``lineup[(k + r) % n_sides]`` on side ``k``: each entrant sits at every side's seats
on every deal, so the luck of the cards cancels in A's points against the others'. At 4 players in
pairs these are the two tables of a partnership duplicate (rotation 1 swaps the teams); at 3
players solo, A sits in each of the three seats against two Bs. Cyclic rotations keep who sits at
whose left (A-B-C, never A-C-B). In hands mode a unit is deal ``i`` of ``seed`` (scores from
zero, dealer fixed); in matches mode it is match ``i`` of ``seed``, played to the end at each
rotation (hand ``k`` of match ``i`` has the same cards at every rotation). Without duplicate,
rotation ``r > 0`` plays the same indices of another seed (``table_seed``), so every hand has
fresh cards while each agent still sits on each side equally often.

A round robin (or a gauntlet) over more entrants is a set of such pairings, every pair (or the
first entrant with each other), whatever the table size: at 5 players each pairing seats one
entrant against four of the other, so every result is a comparison of two entrants, as at 4.

Agents are written as a built-in name with options, ``"easy:careless=0.5,seed=3"`` (or a TOML
table ``{name = "easy", careless = 0.5}``), or as a user's Python agent ``"package.module:attr"``
where ``attr`` is an agent object or a factory called with the options. Two agents joined by
``+``, ``"hard+normal"`` (or ``{partners = ["hard", "normal"]}``), are one entrant, a
partnership: the first partner sits at seat 0 (or 1), the second at seat 2 (or 3).

>>> t = Tournament.make(["normal", "easy:careless=0.5"], deals=100)
>>> [a.label for a in t.agents], t.pairings
(['normal', 'easy(careless=0.5)'], ((0, 1),))
>>> chunks = plan_chunks(t, chunk_size=40)
>>> [(c.pairing, c.start, c.stop) for c in chunks]
[(0, 0, 40), (0, 40, 80), (0, 80, 100)]
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Iterable, Sequence
import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from spades_ai.agents.spec import Entrant, entrant_from_dict, parse_agents
from spades_ai.capabilities import part, require_table
from spades_ai.checks import check_seed
from spades_ai.errors import RulesError, TournamentError
from spades_ai.rules import Rules
from spades_ai.seats import seats, side_of, sides
from spades_ai.tomlfile import read_toml
from spades_ai.tournament.stopping import SPRT, SPRTError

MODES = ("hands", "matches")
SCHEDULES = ("round_robin", "gauntlet", "ladder", "head_to_head")
#: Rotation r of a non-duplicate run draws its cards from ``seed ^ (r * OTHER_TABLE_SEED mod 2**64)``
#: (rotation 1 from ``seed ^ OTHER_TABLE_SEED``).
OTHER_TABLE_SEED = 0x9E3779B97F4A7C15


# -- the tournament ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Tournament:
    """Everything that decides a tournament's results. Build with ``Tournament.make``."""

    agents: tuple[Entrant, ...]
    """The entrants, in order (pairings refer to their indices): an agent (``AgentSpec``) in
    every seat of its side, or a ``Partnership`` of two (pairs only)."""
    pairings: tuple[tuple[int, int], ...]
    """Who meets whom: (A, B) agent indices; A sits at side 0 and B at every other side at
    rotation 0 (``lineup``)."""
    deals: int
    """Duplicate units per pairing: deals (hands mode) or matches (matches mode)."""
    seed: int = 0
    """Deal ``i`` comes from ``(seed, i)``."""
    mode: str = "hands"
    """``hands``: independent deals, scores from zero, dealer seat 0. ``matches``: whole matches."""
    duplicate: bool = True
    """Play each unit at every rotation on the same cards (else rotations 1.. get other cards)."""
    rules: Rules = field(default_factory=Rules)
    """House rules."""
    schedule: str = "round_robin"
    """How the pairings were made: ``round_robin``, ``gauntlet`` (first agent vs each other)
    or ``head_to_head`` (two agents)."""
    keep_plays: bool = False
    """Also store each hand's cards in play order (the ``plays`` column), so that any row
    can be replayed card by card (``spades-ai replay``); part of the run's identity."""

    @classmethod
    def make(
        cls,
        agents: str | Sequence,
        deals: int = 2000,
        seed: int = 0,
        mode: str = "hands",
        *,
        duplicate: bool = True,
        rules: Rules | dict | str | Path | None = None,
        schedule: str | None = None,
        keep_plays: bool = False,
    ) -> Tournament:
        """Check and build a tournament; every problem raises ``TournamentError`` in one line."""
        specs = parse_agents(agents)
        if len(specs) < 2:
            raise TournamentError(f"a tournament needs at least 2 agents, got {len(specs)}")
        schedule = schedule or ("head_to_head" if len(specs) == 2 else "round_robin")
        schedule = schedule.replace("-", "_")
        if schedule not in SCHEDULES:
            raise TournamentError(f"unknown schedule {schedule!r}; valid: {', '.join(SCHEDULES)}")
        if schedule == "head_to_head" and len(specs) != 2:
            raise TournamentError(
                f"a head_to_head schedule takes 2 agents, got {len(specs)}; use round_robin or gauntlet"
            )
        if schedule == "gauntlet":
            pairings = tuple((0, j) for j in range(1, len(specs)))
        elif schedule == "ladder":  # each agent against the next: the steps of a ladder, in order
            pairings = tuple((j + 1, j) for j in range(len(specs) - 1))
        else:
            pairings = tuple(itertools.combinations(range(len(specs)), 2))
        if mode not in MODES:
            raise TournamentError(f"unknown mode {mode!r}; valid: {', '.join(MODES)}")
        if isinstance(deals, bool) or not isinstance(deals, int) or deals < 1:
            raise TournamentError(f"deals must be a positive int, not {deals!r}")
        try:
            seed = check_seed(seed)
        except ValueError as exc:
            raise TournamentError(str(exc)) from None
        if not isinstance(duplicate, bool):
            raise TournamentError(f"duplicate must be true or false, not {duplicate!r}")
        if not isinstance(keep_plays, bool):
            raise TournamentError(f"keep_plays must be true or false, not {keep_plays!r}")
        rules = Rules.load(rules)
        pairs = ", ".join(repr(spec.label) for spec in specs if len(spec.members) > 1)
        if pairs:
            require_table(rules, dataclasses.replace(part("partnership"), name=f"each partnership entrant ({pairs})"))
        return cls(tuple(specs), pairings, deals, seed, mode, duplicate, rules, schedule, keep_plays)

    # -- derived ------------------------------------------------------------------------
    @property
    def labels(self) -> list[str]:
        return [a.label for a in self.agents]

    @property
    def rotations(self) -> range:
        """The rotations each unit is played at: one per side of the table."""
        return sides(self.rules)

    def table_seed(self, rotation: int) -> int:
        """The seed of a rotation's cards: ``seed`` at every rotation of a duplicate run."""
        if self.duplicate or rotation == 0:
            return self.seed
        return self.seed ^ ((rotation * OTHER_TABLE_SEED) % 2**64)

    def lineup(self, pairing: int, rotation: int) -> tuple[int, ...]:
        """The entrant on each side (as agent indices) at ``rotation`` of ``pairing``: side ``k``
        holds ``(A, B, ..., B)[(k + rotation) % n_sides]``.

        >>> t = Tournament.make("normal,easy", rules="cutthroat")
        >>> [t.lineup(0, r) for r in t.rotations]
        [(0, 1, 1), (1, 1, 0), (1, 0, 1)]
        """
        a, b = self.pairings[pairing]
        base = (a,) + (b,) * (self.rules.n_sides - 1)
        return tuple(base[(k + rotation) % len(base)] for k in sides(self.rules))

    def seat_specs(self, pairing: int, rotation: int) -> tuple:
        """The ``AgentSpec`` at each seat at ``rotation`` of ``pairing`` (a partnership's first
        partner at its side's first seat, its second at the partner's seat)."""
        entrants = [self.agents[i].members for i in self.lineup(pairing, rotation)]
        specs = []
        for seat in seats(self.rules):
            members = entrants[side_of(seat, self.rules)]
            specs.append(members[(seat // self.rules.n_sides) % len(members)])  # seat // n_sides: a or b
        return tuple(specs)

    # -- persistence --------------------------------------------------------------------
    def to_dict(self) -> dict:
        """The JSON-able identity of the run (what ``config.json`` holds, with the version).

        ``keep_plays`` appears only when true, so that the folders of runs without it, older
        ones included, keep the same identity (and resume)."""
        d = {
            "agents": [a.to_dict() for a in self.agents],
            "pairings": [list(p) for p in self.pairings],
            "schedule": self.schedule,
            "deals": self.deals,
            "seed": self.seed,
            "mode": self.mode,
            "duplicate": self.duplicate,
            "rules": self.rules.to_dict(),
        }
        if self.keep_plays:
            d["keep_plays"] = True
        return d

    @classmethod
    def from_dict(cls, d: dict) -> Tournament:
        return cls(
            agents=tuple(entrant_from_dict(a) for a in d["agents"]),
            pairings=tuple(tuple(p) for p in d["pairings"]),
            deals=d["deals"],
            seed=d["seed"],
            mode=d["mode"],
            duplicate=d["duplicate"],
            rules=Rules.from_dict(d["rules"]),
            schedule=d.get("schedule", "round_robin"),
            keep_plays=bool(d.get("keep_plays", False)),
        )


# -- chunks -----------------------------------------------------------------------------------
@dataclass(frozen=True, order=True)
class Chunk:
    """Units ``start .. stop-1`` of one pairing, at every rotation: one task, one Parquet file."""

    pairing: int
    start: int
    stop: int

    @property
    def size(self) -> int:
        return self.stop - self.start

    @property
    def filename(self) -> str:
        return f"p{self.pairing:03d}-{self.start:012d}-{self.stop:012d}.parquet"

    @classmethod
    def from_filename(cls, name: str) -> Chunk | None:
        m = re.fullmatch(r"p(\d{3,})-(\d{12,})-(\d{12,})\.parquet", name)
        return cls(int(m[1]), int(m[2]), int(m[3])) if m else None


FAST_AGENTS = ("random", "easy", "normal")


def default_chunk_size(t: Tournament, n_workers: int, remaining: int | None = None, *, smallest: bool = False) -> int:
    """Units per chunk: at least 4 chunks per worker when there is enough work, each big enough
    that per-task costs stay small (~0.1 s of play or more) and, for slow agents (Monte Carlo
    or Python), small enough that the progress bar moves and an interruption loses little.
    ``smallest``: the smallest such size whatever the work (a run that may stop early)."""
    remaining = t.deals * len(t.pairings) if remaining is None else remaining
    fast = all(m.is_builtin and m.name in FAST_AGENTS for a in t.agents for m in a.members)
    if t.mode == "hands":
        lo, hi = (2_500, 25_000) if fast else (10, 500)
    else:
        lo, hi = (100, 2_000) if fast else (1, 20)
    if smallest:
        return lo
    return int(min(hi, max(lo, -(-remaining // (4 * max(1, n_workers))))))


def plan_chunks(t: Tournament, chunk_size: int, done: Iterable[Chunk] = ()) -> list[Chunk]:
    """The chunks still to play: the gaps between finished ones, cut every ``chunk_size`` units.

    Chunk edges are multiples of ``chunk_size`` inside a gap, so a resumed run may use another
    chunk size without overlapping what is on disk.
    """
    if isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1:
        raise TournamentError(f"chunk_size must be a positive int, not {chunk_size!r}")
    by_pairing: dict[int, list[Chunk]] = {}
    for c in done:
        by_pairing.setdefault(c.pairing, []).append(c)
    todo = []
    for p in range(len(t.pairings)):
        pos = 0
        gaps = []
        for c in sorted(by_pairing.get(p, [])):
            if c.start > pos:
                gaps.append((pos, c.start))
            pos = max(pos, c.stop)
        if pos < t.deals:
            gaps.append((pos, t.deals))
        for lo, hi in gaps:
            edge = lo
            while edge < hi:
                nxt = min(hi, (edge // chunk_size + 1) * chunk_size)
                todo.append(Chunk(p, edge, nxt))
                edge = nxt
    return todo


# -- experiment files -------------------------------------------------------------------------
EXPERIMENT_KEYS = {
    "agents": "a list of agents (strings or tables)",
    "deals": "duplicate units per pairing",
    "matches": "alias of deals in matches mode",
    "seed": "an int",
    "mode": "'hands' or 'matches'",
    "duplicate": "true or false",
    "schedule": "'round_robin', 'gauntlet', 'ladder' or 'head_to_head'",
    "rules": "a [rules] table or a TOML file name",
    "out": "an output folder",
    "jobs": "parallel jobs",
    "chunk_size": "units per chunk",
    "backend": "'loky' or 'dask'",
    "scheduler": "a dask scheduler address",
    "sprt": 'a sequential test\'s D0,D1: "0,5" or [0, 5]',
    "sprt_alpha": "the test's alpha, in (0, 0.5)",
    "sprt_beta": "the test's beta, in (0, 0.5)",
    "keep_plays": "true to store each hand's cards in play order (replayable rows)",
    "report": "a [report] table: how experiments/run.py reports the run (a tournament ignores it)",
}


def read_experiment(path: str | Path) -> dict:
    """The settings of a TOML experiment file, checked for unknown keys.

    ``rules`` may be a table or a file name (relative to the experiment file); ``out`` is
    relative to the experiment file too, and so is a user agent's module that Python's path
    lacks (``mine:AGENT`` beside the file). Returns a dict with the keys of ``EXPERIMENT_KEYS``
    that the file sets, ``rules`` already a ``Rules`` and ``agents`` a list of ``AgentSpec``;
    a ``[report]`` table (``experiments/run.py``'s) must be a table and is left out.
    """
    path = Path(path)
    data = read_toml(path, "experiment file", TournamentError)
    unknown = sorted(set(data) - set(EXPERIMENT_KEYS))
    if unknown:
        raise TournamentError(
            f"experiment file {path}: unknown key(s) {', '.join(map(repr, unknown))}; valid keys: {', '.join(EXPERIMENT_KEYS)}"
        )
    types = {"out": str, "scheduler": str, "backend": str, "mode": str, "schedule": str, "agents": (list, str)}
    for key, typ in types.items():
        if key in data and not isinstance(data[key], typ):
            raise TournamentError(f"experiment file {path}: {key} must be {EXPERIMENT_KEYS[key]}, not {data[key]!r}")
    if not isinstance(data.pop("report", {}), dict):
        raise TournamentError(f"experiment file {path}: report must be {EXPERIMENT_KEYS['report']}")
    if "keep_plays" in data and not isinstance(data["keep_plays"], bool):
        raise TournamentError(f"experiment file {path}: keep_plays must be true or false, not {data['keep_plays']!r}")
    for key in ("deals", "matches", "seed", "jobs", "chunk_size"):
        if key in data and (isinstance(data[key], bool) or not isinstance(data[key], int)):
            raise TournamentError(f"experiment file {path}: {key} must be an int, not {data[key]!r}")
    if any(key in data for key in ("sprt", "sprt_alpha", "sprt_beta")):
        if "sprt" not in data:
            raise TournamentError(f"experiment file {path}: sprt_alpha and sprt_beta need sprt (D0,D1)")
        try:
            options = {k.removeprefix("sprt_"): data[k] for k in ("sprt_alpha", "sprt_beta") if k in data}
            SPRT.parse(data["sprt"], **options)
        except SPRTError as exc:
            raise SPRTError(f"experiment file {path}: {exc}") from None
    if "matches" in data:
        if "deals" in data:
            raise TournamentError(f"experiment file {path}: give deals or matches, not both")
        data["deals"] = data.pop("matches")
    base = path.parent
    if "rules" in data:
        try:
            data["rules"] = Rules.load(data["rules"], base)
        except RulesError as exc:
            raise RulesError(f"experiment file {path}: {exc}") from None
    if "out" in data:
        data["out"] = str(base / data["out"])
    if "agents" in data:
        try:
            data["agents"] = parse_agents(data["agents"], base)
        except TournamentError as exc:
            raise TournamentError(f"experiment file {path}: {exc}") from None
    return data


def as_json(obj: Any) -> Any:
    """``obj`` after a JSON round trip (tuples become lists), for comparing configurations."""
    return json.loads(json.dumps(obj, sort_keys=True))


def __getattr__(name: str):
    # deprecated: rules loading is Rules.load
    import warnings

    if name == "load_rules":
        warnings.warn("spades_ai.tournament.schedule.load_rules is spades_ai.Rules.load", DeprecationWarning, stacklevel=2)
        return Rules.load
    if name == "parse_agent":  # the agent spec grammar sits with the agents
        import spades_ai.agents.spec as spec

        warnings.warn("spades_ai.tournament.schedule.parse_agent is spades_ai.agents.spec.parse_agent (or "
                      "spades_ai.tournament.parse_agent)", DeprecationWarning, stacklevel=2)
        return spec.parse_agent
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
