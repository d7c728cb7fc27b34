"""Datasets of decisions: one row per bid, blind-nil choice or card of recorded hands, written
as Parquet in chunks, resumable, and read back as numpy arrays.

>>> import tempfile, spades_ai as sa
>>> from spades_ai.learn import load_dataset, write_dataset
>>> out = write_dataset(tempfile.mkdtemp(), ["normal", "easy"], deals=20, seed=1, chunk_size=10)
>>> data = load_dataset(out)
>>> data["obs"].shape, data["mask"].shape, len(data["action"]) == 20 * 56
((1120, 567), (1120, 68), True)

A folder holds ``config.json`` (what was played: the agents by seat, seed, rules, deals, chunk
size, the schema and the version) and ``chunk-000000.parquet`` ... (deals ``k * chunk_size``
onwards), and ``.lock`` while a run writes (``folders.FolderLock``: a second run is refused).
The run alone writes there: its workers hand it each chunk's bytes (``workers.finished_order``)
and end with it, even when it is killed with SIGKILL. A chunk is written whole
(``folders.write_atomic``), so a killed run leaves no partial chunk, and running the same
command again writes only the chunks that are missing: no row is lost or doubled. A chunk file
damaged all the same (cut short, not Parquet, lacking a column) is set aside as
``*.parquet.bad`` with a warning and written again (``folders.set_aside``); reading a folder
with a chunk missing warns that the dataset is unfinished. A folder made for something else is
refused. A dataset is of one table, its rules' (any table: ``config.json`` holds them); its
vectors are that table's (``spades_ai.encoding.observation_layout``), stored as fixed-size binary
of the table's width (567 floats and 68 actions at four in pairs). Columns (``COLUMNS``)::

    obs       float32[size] the acting seat's observation vector (learn.encoding), stored as
                            fixed-size binary (2268 bytes at four in pairs, little-endian)
    mask      int8[actions] its legal actions (68 bytes at 13 cards each)
    deal_no   int64         the deal (seed, deal_no) the hand was dealt from
    seat      int8          the acting seat
    phase     int8          learn.encoding.PHASES index: 1 blind decision, 2 bidding, 3 playing
    action    int8          the action taken (the acting agent's choice)
    outcome   int32         the hand's points for the acting seat's side (bag penalties included)
    agent     int8          index of the acting agent in config.json's "agents"

The hands are dealt from ``(seed, deal_no)`` with dealer 0 and played by ``play_hands`` with
the lineup, or (``rows_from_hands``) come from a ``--keep-plays`` results folder; from a
matches-mode run the rows also have ``match_no`` and ``hand_no`` (``deal_no`` -1), and each
hand's observations carry the scores and bags of the match before it. With
``labels="solver"`` a column ``solver_values`` (52 float32 by card id, NaN elsewhere) holds the
exact solver's value of every legal card for the acting team when at most ``solver_tricks``
tricks are left (``learn.labels``). With ``labels="hard"`` or ``"crazy"`` (or either with
options, ``"hard:worlds=64"``) two columns hold that agent's evaluation at every bid and card,
the numbers its own choice is made from (``montecarlo.decision_values``)::

    label_values  float32[actions]  its value of each action id it weighed (the acting side's points,
                               bags at their cost); NaN for the others and the blind-nil rows
    label_action  int8         its choice (an action id; -1 on a blind-nil row)

Where the labeller is the acting agent (the same label in the lineup) the labels are the
by-product of its own decision (``label_action == action``); elsewhere it evaluates the same
observation beside the agent that acts (``learn.labels.labelled_hands``).
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from spades_ai.agents.builtin import BuiltinAgent
from spades_ai.agents.spec import AgentSpec, parse_agent
from spades_ai.capabilities import require_table
from spades_ai.checks import check_count, check_seed
from spades_ai.errors import TournamentError
from spades_ai.folders import FolderLock, damaged_advice, is_temporary, parquet_problem, set_aside, write_atomic
from spades_ai.learn import encoding as enc
from spades_ai.learn import rows as _rows
from spades_ai.learn.env import check_rules
from spades_ai.encoding import table_rules
from spades_ai.rules import Rules
from spades_ai.selfplay.play import play_hands, resolve_lineup
from spades_ai.simulate import deal_masks
from spades_ai.version import __version__
from spades_ai.workers import finished_order

SCHEMA = 1
CONFIG_FILE = "config.json"
COMPRESSION = "zstd"
#: name -> (arrow type, description)
COLUMNS = {
    "obs": (pa.binary(4 * enc.OBSERVATION_SIZE), "the acting seat's observation vector (the table's size: 567 float32 at four in pairs, little-endian)"),
    "mask": (pa.binary(enc.N_ACTIONS), "its legal actions (the table's actions: 68 int8 at 13 cards each)"),
    "deal_no": (pa.int64(), "the deal (seed, deal_no)"),
    "seat": (pa.int8(), "the acting seat"),
    "phase": (pa.int8(), "PHASES index: 1 blind decision, 2 bidding, 3 playing"),
    "action": (pa.int8(), "the action taken"),
    "outcome": (pa.int32(), "the hand's points for the acting seat's side"),
    "agent": (pa.int8(), "index of the acting agent in config.json's agents"),
}
#: The columns of a dataset made from a matches-mode run (``--from``): the hand's place.
MATCH_COLUMNS = {
    "match_no": (pa.int64(), "the match the hand was played in (deal_no is -1)"),
    "hand_no": (pa.int16(), "the hand's number in its match, from 0"),
}
#: Label columns, written when asked for (``labels``)
LABEL_COLUMNS = {
    "solver_values": (pa.binary(4 * 52), "the exact solver's value of each legal card for the acting team (52 float32, NaN elsewhere)"),
    "label_values": (pa.binary(4 * enc.N_ACTIONS), "the labelling agent's value of each action it weighed (68 float32, NaN elsewhere)"),
    "label_action": (pa.int8(), "the labelling agent's choice (an action id; -1 where it was not asked)"),
}
DEFAULT_CHUNK = 20_000
#: The vector columns: stored as fixed-size binary (one value per row; a list column would cost
#: Parquet a definition level per float, 10x slower to write), read back as these arrays.
VECTORS = {
    "obs": (np.dtype("<f4"), enc.OBSERVATION_SIZE),
    "mask": (np.dtype(np.int8), enc.N_ACTIONS),
    "solver_values": (np.dtype("<f4"), 52),
    "label_values": (np.dtype("<f4"), enc.N_ACTIONS),
}
#: ``labels``: the exact solver, or a Monte Carlo agent's spec (these names, with any options).
LABELS = ("solver", "hard", "crazy")


class DatasetError(ValueError):
    """A dataset folder that holds something else, or a record that cannot be replayed."""


# -- rows ------------------------------------------------------------------------------------------
def rows_from_hands(hands: dict, rules: Rules) -> dict:
    """The decision rows of hands given as arrays, at the table of ``rules`` (N players):
    ``hands`` maps the names of ``HAND_ARRAYS`` to one entry per hand: ``deals`` ``(n, N)``
    bitboards of card ids (``(n, decks * N)`` with several decks: ``deal_rows``), ``dealer``
    ``(n,)``, ``bids`` / ``blind`` ``(n, N)``, ``plays`` ``(n, N * cards_each)`` card ids in play
    order, ``points`` ``(n, sides)`` per side, ``deal_no`` ``(n,)`` and ``seat_agents`` ``(n, N)``
    (the agent index at each seat). ``starts`` ``(n, 2 * sides + 1)``, optional: what a match
    carries into each hand (the sides' scores, their bag counts, the hands already played:
    ``learn.rows``); without it the hands stand on their own (all 0). Hands of matches also give
    ``match_no`` and ``hand_no`` ``(n,)`` (columns of their own; ``deal_no`` is then -1).
    Returns the columns as numpy arrays (``obs`` and ``mask`` of the table's layout)."""
    rules = dataset_rules(rules)
    missing = [name for name in HAND_ARRAYS if name != "starts" and name not in hands]
    if missing:
        raise DatasetError(f"rows_from_hands: the hands lack {', '.join(missing)} (HAND_ARRAYS)")
    recorded = _recorded(hands, rules)
    out = _row_buffers(len(recorded.deals), rules)
    m = _rows.decision_rows(recorded, rules.as_array(), out)
    matches = "match_no" in hands
    if m < 0:
        i = -1 - m
        place = (f"match {int(np.asarray(hands['match_no'])[i])}, hand {int(np.asarray(hands['hand_no'])[i])}" if matches
                 else f"deal {int(np.asarray(hands['deal_no'])[i])}")  # fmt: skip
        raise DatasetError(f"hand {i} ({place}) has an action these rules refuse: it was not played under them")
    cols = out.cols[:m]
    hand = cols[:, _rows.C_HAND]
    seat = cols[:, _rows.C_SEAT]
    extra = {}
    if matches:
        extra = {"match_no": np.asarray(hands["match_no"], np.int64)[hand],
                 "hand_no": np.asarray(hands["hand_no"], np.int16)[hand]}  # fmt: skip
    return {
        **extra,
        "obs": out.obs[:m],
        "mask": out.masks[:m],
        "deal_no": np.asarray(hands["deal_no"], np.int64)[hand],
        "seat": seat.astype(np.int8),
        "phase": cols[:, _rows.C_PHASE].astype(np.int8),
        "action": cols[:, _rows.C_ACTION].astype(np.int8),
        "outcome": cols[:, _rows.C_OUTCOME].astype(np.int32),
        "agent": np.asarray(hands["seat_agents"], np.int8)[hand, seat],
    }


def _recorded(hands: dict, rules: Rules) -> _rows.Recorded:
    """The ``learn.rows.Recorded`` arrays of ``hands`` (``rows_from_hands``), of the kernel's types."""
    n = len(hands["deals"])
    starts = hands.get("starts")
    if starts is None:
        starts = np.zeros((n, _rows.n_starts(rules)), np.int64)
    return _rows.Recorded(
        np.ascontiguousarray(hands["deals"], dtype=np.uint64), np.asarray(hands["dealer"], np.int64),
        np.ascontiguousarray(starts, dtype=np.int64).reshape(n, _rows.n_starts(rules)), np.asarray(hands["bids"], np.int64),
        np.asarray(hands["blind"], np.bool_), np.asarray(hands["plays"], np.int64), np.asarray(hands["points"], np.int64),
    )  # fmt: skip


def _row_buffers(n: int, rules: Rules) -> _rows.RowBuffers:
    """Room for the rows of ``n`` hands at the table of ``rules`` (``learn.rows.max_rows`` each)."""
    layout = enc.observation_layout(rules)
    cap = n * _rows.max_rows(rules)
    return _rows.RowBuffers(np.empty((cap, layout.size), dtype=np.float32), np.empty((cap, layout.n_actions), dtype=np.int8),
                            np.empty((cap, _rows.N_COLS), dtype=np.int64))  # fmt: skip


def rows_from_records(records, seed: int, rules: Rules, seat_agents=tuple(range(12))) -> dict:
    """The rows of ``play_hands`` records kept with ``keep_plays=True`` (hands mode)."""
    if records.plays is None or records.deal_no is None:
        raise DatasetError("the records need their plays (keep_plays=True) and deal numbers (play_hands)")
    agents = np.broadcast_to(np.asarray(seat_agents, np.int8)[: rules.players], (len(records), rules.players))
    hands = {"deals": deal_rows(seed, records.deal_no, rules), "dealer": records.dealer, "bids": records.bids,
             "blind": records.blind, "plays": records.plays, "points": records.points, "deal_no": records.deal_no,
             "seat_agents": agents}  # fmt: skip
    return rows_from_hands(hands, rules)


def deal_rows(seed: int, deal_no, rules: Rules | None = None) -> np.ndarray:
    """The ``(n, N)`` bitboards of deals ``deal_no`` of ``seed`` at the table of ``rules`` (four
    seats by default; ``(n, decks * N)`` with several decks: ``simulate.deal_masks``), in one
    batch when consecutive."""
    deal_no = np.asarray(deal_no, np.int64)
    if len(deal_no) and np.all(np.diff(deal_no) == 1):
        return deal_masks(seed, int(deal_no[0]), len(deal_no), rules)
    width = 4 if rules is None else rules.decks * rules.players
    return np.concatenate([deal_masks(seed, int(d), 1, rules) for d in deal_no] or [np.zeros((0, width), np.uint64)])


def _table(columns: dict) -> pa.Table:
    arrays = {}
    for name, (typ, _) in {**COLUMNS, **MATCH_COLUMNS, **LABEL_COLUMNS}.items():
        if name not in columns:
            continue
        a = columns[name]
        if name in VECTORS:
            data = np.ascontiguousarray(a, dtype=VECTORS[name][0])
            typ = pa.binary(data.itemsize * (data.shape[1] if data.ndim == 2 else 0))  # the table's width
            arrays[name] = pa.FixedSizeBinaryArray.from_buffers(typ, len(a), [None, pa.py_buffer(data)])
        else:
            arrays[name] = pa.array(a, type=typ)
    return pa.table(arrays)


# -- folders ---------------------------------------------------------------------------------------
def chunk_path(out: Path, k: int) -> Path:
    return out / f"chunk-{k:06d}.parquet"


def prepare_folder(out, config: dict) -> Path:
    """Create ``out`` with ``config.json``, or check that it holds this very dataset; the
    temporary files of a killed run are removed (call it holding the folder's lock:
    ``FolderLock(out, DatasetError)``)."""
    out = Path(out)
    path = out / CONFIG_FILE
    config = {"schema": SCHEMA, **config}
    if path.exists():
        old = json.loads(path.read_text())
        keys = sorted(k for k in set(old) | set(config) if k != "version" and old.get(k) != config.get(k))
        if keys:
            shown = "; ".join(f"{k}: {old.get(k)!r} there, {config.get(k)!r} asked" for k in keys)
            raise DatasetError(f"{out} holds another dataset ({shown}): choose another folder")
    elif any(out.glob("chunk-*.parquet")):
        raise DatasetError(f"{out} has chunks but no {CONFIG_FILE}: not a dataset folder this run may add to")
    else:
        write_atomic(path, json.dumps({**config, "version": __version__}, indent=1).encode(), sync=True)
    for tmp in out.iterdir():
        if is_temporary(tmp):
            tmp.unlink(missing_ok=True)
    return out


def missing_chunks(out: Path, config: dict) -> list[int]:
    """The chunks of the dataset ``config`` describes that ``out`` lacks, in order; a damaged
    chunk file is set aside as ``*.parquet.bad`` (``folders.set_aside``, with a warning) and
    counted as missing, so that it is written again (call it holding the folder's lock)."""
    names = [*COLUMNS, *_label_columns(config)]
    todo = []
    for k in range(_n_chunks(config)):
        path = chunk_path(out, k)
        if path.exists() and (problem := parquet_problem(path, names)):
            set_aside(path, problem, f"its {_unit(config)} are written again")
        if not path.exists():  # never written, or set aside just now
            todo.append(k)
    return todo


def _n_chunks(config: dict) -> int:
    return -(-_units(config) // config["chunk_size"])


def _units(config: dict) -> int:
    """How many deals (or recorded hands) the dataset holds rows of."""
    return config["deals"] if "deals" in config else config["hands"]


def _unit(config: dict) -> str:
    return "deals" if "deals" in config else "hands"


def _label_columns(config: dict) -> list[str]:
    labels = config.get("labels")
    if labels is None:
        return []
    return ["solver_values"] if labels == "solver" else ["label_values", "label_action"]


def chunk_bytes(columns: dict) -> bytes:
    """The Parquet file of a chunk's ``columns``."""
    sink = pa.BufferOutputStream()
    pq.write_table(_table(columns), sink, compression=COMPRESSION)
    return sink.getvalue().to_pybytes()


def _portable(agent):
    """What a worker rebuilds ``agent`` from: a built-in as its spec (made again from numba's
    cache, where a pickled kernel would compile afresh in every worker), another as itself."""
    if isinstance(agent, BuiltinAgent):
        try:
            json.dumps(agent.options)
        except TypeError:  # an option holding an agent object (rollout=make_agent(...))
            return agent
        return AgentSpec(name=agent.name, options=dict(agent.options), label=agent.label)
    return agent


def _live_chunk(k: int, agents, seed: int, rules: Rules, start: int, n: int, solver_tricks: int | None,
                labeller: AgentSpec | None) -> tuple[int, bytes]:  # fmt: skip
    """Chunk ``k`` (deals ``start .. start + n - 1``) as Parquet bytes (runs in a worker)."""
    agents = [a.build() if isinstance(a, AgentSpec) else a for a in agents]
    if labeller is not None:
        from spades_ai.learn.labels import labelled_hands

        hands, values, choices = labelled_hands(agents, labeller.build(), seed, rules, start, n)
        seat_agents = np.broadcast_to(np.arange(rules.players, dtype=np.int8), (n, rules.players))
        columns = {**rows_from_hands({**hands, "seat_agents": seat_agents}, rules), "label_values": values,
                   "label_action": choices}  # fmt: skip
        return k, chunk_bytes(columns)
    records = play_hands(agents, n, seed=seed, rules=rules, start=start, keep_plays=True)
    columns = rows_from_records(records, seed, rules)
    if solver_tricks:
        from spades_ai.learn.labels import solver_labels

        columns["solver_values"] = solver_labels(records, seed, rules, solver_tricks)
    return k, chunk_bytes(columns)


def _agent_labels(agents) -> list[str]:
    return [str(getattr(a, "label", None) or getattr(a, "name", a)) for a in agents]


def labeller_spec(labels) -> AgentSpec | None:
    """The spec of the Monte Carlo agent that ``labels`` names (``"hard"``, ``"crazy:worlds=64"``
    ...), None for ``labels`` None or ``"solver"``; a clear error for anything else."""
    if labels is None or labels == "solver":
        return None
    what = f"labels={labels!r}: labels are 'solver', or 'hard' or 'crazy' with any of their options ('hard:worlds=64')"
    if not isinstance(labels, str):
        raise ValueError(what)
    try:
        spec = parse_agent(labels)
    except TournamentError as exc:
        raise ValueError(f"{what}; {exc}") from None
    if spec.name not in LABELS[1:]:
        raise ValueError(f"{what}; {spec.label} has no evaluation of every legal card or bid to label with")
    return spec


def dataset_rules(rules) -> Rules:
    """The rules of a dataset (a ``Rules``, a preset's name, ...; None: the defaults), at a
    table it holds (``require_table``: every table) and with the actions the table's ids
    express (``learn.env.check_rules``)."""
    rules = table_rules(rules)
    require_table(rules, "dataset")
    return check_rules(rules)


def write_dataset(out, agents, deals: int, *, seed: int = 0, rules: Rules | None = None, chunk_size: int | None = None,
                  n_jobs: int | None = 1, labels: str | None = None, solver_tricks: int = 3) -> Path:  # fmt: skip
    """Play deals ``0 .. deals-1`` of ``seed`` with the lineup ``agents`` (four, or two for A,
    B, A, B; dealer 0) and write every decision as a row in the folder ``out``; the chunks
    already there are kept (a killed run resumes; a damaged chunk is set aside as ``*.bad``, with
    a warning, and written again). ``n_jobs`` chunks at once with joblib (under the caller's
    ``joblib.parallel_config``; the workers end with this process: ``workers.finished_order``).
    ``labels="solver"`` adds ``solver_values`` for the card decisions with at most
    ``solver_tricks`` tricks left (``learn.labels``); ``labels="hard"`` or ``"crazy"`` (options
    allowed: ``"hard:worlds=64"``) adds that agent's ``label_values`` and ``label_action`` at
    every decision (see the module docstring)."""
    labeller = labeller_spec(labels)
    rules = dataset_rules(rules)
    lineup = resolve_lineup(agents, rules)
    deals, seed = check_count(deals, "deals"), check_seed(seed)
    size = check_count(chunk_size or DEFAULT_CHUNK, "chunk_size") or DEFAULT_CHUNK
    solver_tricks = solver_tricks if labels == "solver" else None
    config = {"source": "play", "agents": _agent_labels(lineup), "seed": seed, "deals": deals, "chunk_size": size,
              "rules": rules.to_dict(), "labels": labeller.label if labeller else labels, "solver_tricks": solver_tricks}  # fmt: skip
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    with FolderLock(out, DatasetError):
        prepare_folder(out, config)
        portable = [_portable(a) for a in lineup]
        tasks = [(k, portable, seed, rules, k * size, min(size, deals - k * size), solver_tricks, labeller)
                 for k in missing_chunks(out, config)]  # fmt: skip
        for k, data in finished_order(_live_chunk, tasks, n_jobs):
            write_atomic(chunk_path(out, k), data)
    return out


HAND_ARRAYS = ("deals", "dealer", "starts", "bids", "blind", "plays", "points", "deal_no", "seat_agents")


def write_hands_dataset(out, hands: dict, rules: Rules, *, agents: list[str], source: str,
                        chunk_size: int | None = None) -> Path:  # fmt: skip
    """The rows of recorded hands (``HAND_ARRAYS``, as ``rows_from_hands`` takes them, one
    entry per hand; ``seat_agents`` index ``agents``; ``starts`` what a match carries into each;
    from matches also ``MATCH_COLUMNS``) in the folder ``out``, chunk by chunk of hands,
    resumable as ``write_dataset``. ``source`` names where they come from (a results folder:
    ``spades-ai dataset --from``)."""
    rules = dataset_rules(rules)
    n = len(hands["deals"])
    size = check_count(chunk_size or DEFAULT_CHUNK, "chunk_size") or DEFAULT_CHUNK
    config = {"source": source, "agents": list(agents), "hands": n, "chunk_size": size, "rules": rules.to_dict()}
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    with FolderLock(out, DatasetError):
        prepare_folder(out, config)
        names = [*HAND_ARRAYS, *(name for name in MATCH_COLUMNS if name in hands)]
        for k in missing_chunks(out, config):
            part = {name: np.asarray(hands[name])[k * size : (k + 1) * size] for name in names}
            write_atomic(chunk_path(out, k), chunk_bytes(rows_from_hands(part, rules)))
    return out


def _vector_rows(column: pa.FixedSizeBinaryArray, dtype: np.dtype, width: int) -> np.ndarray:
    """The rows of a vector column: ``width`` (the 4-player width) is the column's own, read from
    its type, at any table."""
    size = column.type.byte_width
    width = size // dtype.itemsize
    data = np.frombuffer(column.buffers()[1], dtype=np.uint8)[column.offset * size : (column.offset + len(column)) * size]
    return data.view(dtype).reshape(-1, width)


def iter_dataset(path, columns=None) -> Iterator[dict[str, np.ndarray]]:
    """The rows of a dataset folder chunk by chunk, in order: for each chunk the arrays that
    ``load_dataset`` gives (whole hands in each), so a dataset larger than memory can be read.
    A folder with chunks missing (a run unfinished, or killed) is read with a warning."""
    files = _chunk_files(Path(path))
    return _read_chunks(files, columns)


def load_dataset(path, columns=None) -> dict[str, np.ndarray]:
    """The rows of a dataset folder as numpy arrays (``obs`` ``(n, size)`` float32 and ``mask``
    ``(n, n_actions)`` int8 of its table's layout, ``(n, 567)`` and ``(n, 68)`` at four in pairs,
    the other columns ``(n,)``), chunk by chunk in order (``iter_dataset``).
    A folder with chunks missing (a run unfinished, or killed) is read with a warning."""
    chunks = list(_read_chunks(_chunk_files(Path(path)), columns))
    if chunks:
        return {name: np.concatenate([c[name] for c in chunks]) for name in chunks[0]}
    stored = list(COLUMNS) if columns is None else list(columns)
    return {name: np.zeros((0, VECTORS[name][1]), VECTORS[name][0]) if name in VECTORS else np.zeros(0) for name in stored}


def read_config(path) -> dict:
    """The ``config.json`` of the dataset folder ``path``; ``DatasetError`` if it has none or
    it cannot be read."""
    path = Path(path)
    try:
        return json.loads((path / CONFIG_FILE).read_text())
    except FileNotFoundError:
        raise DatasetError(f"{path} is not a dataset folder: no {CONFIG_FILE}") from None
    except (OSError, ValueError) as exc:
        raise DatasetError(f"{path / CONFIG_FILE}: cannot read the dataset's configuration ({exc})") from None


def _chunk_files(path: Path) -> list[Path]:
    """The chunk files of the dataset folder ``path``, in order; a warning, pointing at the
    caller's caller, if some are missing."""
    config = read_config(path)
    files = sorted(path.glob("chunk-*.parquet"))
    missing = sum(min(config["chunk_size"], _units(config) - k * config["chunk_size"]) for k in range(_n_chunks(config))
                  if not chunk_path(path, k).exists())  # fmt: skip
    if missing:
        warnings.warn(f"{path}: the dataset is unfinished, {missing:,} of its {_unit(config)} are not written yet",
                      stacklevel=3)  # fmt: skip
    return files


_DAMAGED = damaged_advice("command", "its rows are written again")


def _read_chunks(files: list[Path], columns) -> Iterator[dict[str, np.ndarray]]:
    """The arrays of each file; ``columns`` None: those the first file has."""
    names = None if columns is None else list(columns)
    for f in files:
        try:
            table = pq.read_table(f, columns=names)
        except Exception as exc:  # noqa: BLE001 -- damaged files raise ArrowInvalid, OSError, ...
            raise DatasetError(f"{f}: cannot read this chunk file ({type(exc).__name__}: {exc}){_DAMAGED}") from None
        names = table.schema.names if names is None else names
        out = {}
        for name in names:
            column = table.column(name).combine_chunks()
            if name in VECTORS:
                out[name] = _vector_rows(column, *VECTORS[name])
            else:
                out[name] = column.to_numpy(zero_copy_only=False)
        yield out
