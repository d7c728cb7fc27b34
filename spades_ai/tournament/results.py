"""Tournament results on disk: one Parquet file per chunk beside ``config.json``.

A results folder::

    config.json                     the run: agents with options, rules, seed, counts, mode,
                                    package version, and each agent's code (``code``: label ->
                                    ``AgentSpec.fingerprint``); a folder is never reused for
                                    another run, nor resumed with other code
    data/p000-000000000000-000000025000.parquet
                                    pairing 0, units 0 .. 24,999, every rotation; written to a
                                    hidden temporary file and renamed, so a file is whole or absent
    sprt.json                       runs with a sequential test only: where it stands (settings,
                                    deals used, LLR, bounds, decision), rewritten as it advances

A run with a sequential test (``config.json`` has ``sprt``) may be extended: the same run with
a larger ``deals`` takes the folder over and goes on. Any other change is refused, and so is
other code for an agent (``CodeChangedError``: an edited ``mybot.py`` resumed would mix its two
versions in one table); ``move_aside`` (``run_tournament(fresh=True)``, ``--fresh``) renames
such a folder ``<folder>.old-<time>`` for a fresh start. A folder written before runs recorded
their code (no ``code`` in ``config.json``) resumes with a warning that the code is unchecked.

Rows are tidy: one per hand per *side* (what scores: a partnership, or a player solo), at any
table size. Seat ``a`` of side ``k`` is seat ``k``, seat ``b`` its partner ``k + n_sides``
(``spades_ai.seats.side_seats``); solo every ``*_b`` column is null. Columns (``HAND_COLUMNS``
and ``MATCH_COLUMNS`` hold their types), in the package's one vocabulary (``ARCHITECTURE.md``)::

    pairing, rotation, side, dealer        indices; rotation: the duplicate orientation, 0..n_sides-1
    players                                players at the table (3, 4, 5)
    deal_no                                hands mode: the deal index i of (seed, i)
    match_no, hand_no                      matches mode: the match, and the hand within it
    agent, opponent                        the entrants' labels (categorical): an agent, or a
                                           partnership such as ``hard+normal``; opponent: the
                                           other side's entrant with two sides, null with more
    agent_a, agent_b                       the agents at this side's seats a and b (categorical):
                                           a partnership's first and second partner, else the
                                           side's agent twice (solo: b null)
    bid_a, bid_b, nil_a, nil_b,            bids (0 = nil), nil and blind flags,
    blind_a, blind_b, nil_made_a, nil_made_b   whether each nil was made
    tricks_won_a, tricks_won_b,            tricks per player, per side, and those counted
    team_tricks, counted_tricks            toward the contract
    contract, made, contract_points, nil_points,
    new_bags, bag_penalties, points        this hand's bags, penalties and points
    score, opp_score, bag_count, winner    matches mode only: running scores and bag count
                                           after the hand (opp_score: the best other side's);
                                           winner: the match winner's side on the match's last
                                           row, -1 elsewhere
    plays                                  runs with keep_plays only: the hand's card ids in
                                           play order (one byte each, as many as the deck has
                                           cards: 52 at 4 players, 156 at 12; the same on every side row)

Rows are ordered by (pairing, deal_no, rotation, side) in hands mode and (pairing, match_no,
rotation, hand_no, side) in matches mode, whatever the chunking.

``config.json`` records ``schema`` (``SCHEMA``). Schema 4 (issue 34) holds any table: ``team``
became ``side`` and ``table`` became ``rotation``, ``players`` is new, and the ``*_b`` and
``opponent`` columns may be null; folders of schemas 1..3 load with ``rotation = table``,
``side = team`` and ``players = 4``. Schema 3 (issue 23) added ``agent_a`` and
``agent_b`` for partnerships of two agents; folders of schema 2 are read with both filled with
``agent`` (the only seating they could hold), and resuming one is refused. Folders of schema 1 (spades_ai 0.1, whose
columns were ``deal``, ``tricks_a``, ``tricks``, ``counted``, ``bags``, ``nil_won_a``, ``match``,
``hand`` ...) are read by ``load_results`` with their columns renamed (``SCHEMA_1_RENAMES``)
and a note. Resuming a run of an older schema is refused with a clear message.
"""

from __future__ import annotations

import json
import os
import time
import warnings
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from spades_ai.folders import LOCK_FILE, FolderLock, damaged_advice, is_temporary, parquet_problem, set_aside, write_atomic
from spades_ai.version import __version__
from spades_ai.engine import score as _sc

if TYPE_CHECKING:
    import pandas
from spades_ai.errors import RulesError
from spades_ai.rules import Rules
from spades_ai.seats import side_seats, sides
from spades_ai.tournament.schedule import Chunk, Tournament, as_json
from spades_ai.tournament.stopping import SPRT

#: The results schema this version writes; ``config.json`` records it (schema 1 said "format").
SCHEMA = 4
#: Schema 1 column -> schema 2 column (matches mode's ``deal`` duplicated ``hand`` and is dropped).
SCHEMA_1_RENAMES = {
    "deal": "deal_no",
    "tricks_a": "tricks_won_a",
    "tricks_b": "tricks_won_b",
    "tricks": "team_tricks",
    "counted": "counted_tricks",
    "bags": "new_bags",
    "nil_won_a": "nil_made_a",
    "nil_won_b": "nil_made_b",
    "match": "match_no",
    "hand": "hand_no",
}
#: Schema 3 column -> schema 4 column (schemas 1..3 held one table: ``players`` is 4).
SCHEMA_3_RENAMES = {"table": "rotation", "team": "side"}
CONFIG_FILE = "config.json"
#: The key of ``config.json`` that records each agent's code (label -> fingerprint).
CODE_KEY = "code"
SPRT_FILE = "sprt.json"
DATA_DIR = "data"
META_KEY = b"spades_ai"
COMPRESSION = "zstd"

# name -> (arrow type, description)
HAND_COLUMNS = {
    "pairing": (pa.int16(), "index of the pairing in config.json"),
    "rotation": (pa.int8(), "duplicate orientation: 0 = first agent of the pairing on side 0"),
    "side": (pa.int8(), "the side: seats side and side + n_sides with pairs (0, 2 or 1, 3 at 4), seat side solo"),
    "players": (pa.int8(), "players at the table"),
    "dealer": (pa.int8(), "dealer seat"),
    "agent": (pa.dictionary(pa.int8(), pa.string()), "this side's agent"),
    "opponent": (pa.dictionary(pa.int8(), pa.string()), "the other side's agent (two sides; null with more)"),
    "agent_a": (pa.dictionary(pa.int8(), pa.string()), "the agent at seat a: a partnership's first partner"),
    "agent_b": (pa.dictionary(pa.int8(), pa.string()), "the agent at seat b: a partnership's second partner (solo: null)"),
    "bid_a": (pa.int8(), "bid of seat side (0 = nil)"),
    "bid_b": (pa.int8(), "bid of seat side + n_sides, the partner (0 = nil; solo: null)"),
    "nil_a": (pa.bool_(), "seat a bid nil (blind or not)"),
    "nil_b": (pa.bool_(), "seat b bid nil"),
    "blind_a": (pa.bool_(), "seat a bid blind nil"),
    "blind_b": (pa.bool_(), "seat b bid blind nil"),
    "nil_made_a": (pa.bool_(), "seat a bid nil and made it"),
    "nil_made_b": (pa.bool_(), "seat b bid nil and made it"),
    "tricks_won_a": (pa.int8(), "tricks won by seat a"),
    "tricks_won_b": (pa.int8(), "tricks won by seat b"),
    "team_tricks": (pa.int8(), "tricks won by the side"),
    "counted_tricks": (pa.int8(), "tricks counted toward the contract"),
    "contract": (pa.int8(), "sum of the non-nil bids"),
    "made": (pa.bool_(), "counted_tricks >= contract"),
    "contract_points": (pa.int32(), "points from the contract (negative when set)"),
    "nil_points": (pa.int32(), "points from nil bids"),
    "new_bags": (pa.int8(), "bags taken this hand"),
    "bag_penalties": (pa.int8(), "bag penalties paid this hand"),
    "points": (pa.int32(), "this hand's points, everything included"),
}
#: The columns schema 3 added: the agent at each of the side's seats.
SEAT_AGENT_COLUMNS = ("agent_a", "agent_b")
#: Hands mode's unit column, after ``pairing``.
DEAL_COLUMNS = {"deal_no": (pa.int64(), "deal index i: the cards of (seed, i)")}
MATCH_COLUMNS = {
    "match_no": (pa.int64(), "match index"),
    "hand_no": (pa.int16(), "hand number in the match, from 0"),
    "score": (pa.int32(), "side's score after the hand"),
    "opp_score": (pa.int32(), "the best other side's score after the hand (two sides: the opponents')"),
    "bag_count": (pa.int32(), "side's bag count after the hand"),
    "winner": (pa.int8(), "match winner's side on the last hand, -1 elsewhere"),
}


#: The column of runs with ``keep_plays`` (last): with the bids and the deal of the row's
#: (seed, deal_no) or match stream, it replays the hand card by card (``spades-ai replay``).
PLAYS_COLUMNS = {
    "plays": (pa.binary(52), "the hand's card ids (suit * 13 + rank) in play order, one byte each (52 at 4 players, "
                             "156 at 12: a card may repeat)"),
}
#: The seat-b columns, null solo (a side of one seat).
SEAT_B_COLUMNS = ("agent_b", "bid_b", "nil_b", "blind_b", "nil_made_b", "tricks_won_b")


#: Column name -> description, for ``spades-ai summary --columns`` and notebooks.
COLUMNS_DOC = {
    name: doc for name, (_, doc) in {**DEAL_COLUMNS, **HAND_COLUMNS, **MATCH_COLUMNS, **PLAYS_COLUMNS}.items()
}


class ResultsError(ValueError):
    """A results folder that cannot be used: unreadable file, another run's folder, a lock."""


class CodeChangedError(ResultsError):
    """A results folder whose finished chunks were played by other code for an agent."""


def columns(mode: str, keep_plays: bool = False, deck_size: int = 52) -> dict:
    """name -> (arrow type, description) of a run's columns, in order (``plays`` of
    ``deck_size`` bytes)."""
    pairing, rest = {"pairing": HAND_COLUMNS["pairing"]}, {k: v for k, v in HAND_COLUMNS.items() if k != "pairing"}
    plays = {"plays": (pa.binary(deck_size), PLAYS_COLUMNS["plays"][1])} if keep_plays else {}
    if mode == "matches":
        return {**pairing, **{k: MATCH_COLUMNS[k] for k in ("match_no", "hand_no")}, **rest,
                **{k: v for k, v in MATCH_COLUMNS.items() if k not in ("match_no", "hand_no")}, **plays}  # fmt: skip
    return {**pairing, **DEAL_COLUMNS, **rest, **plays}


def run_columns(t: Tournament) -> dict:
    """``columns`` of the run ``t``: its mode, ``plays`` if kept, sized to its deck."""
    return columns(t.mode, t.keep_plays, t.rules.players * t.rules.cards_each)


def null_columns(t: Tournament) -> tuple[str, ...]:
    """The columns that hold no value at ``t``'s table: seat b solo, ``opponent`` (and so
    nothing) with more than two sides."""
    return (SEAT_B_COLUMNS if t.rules.teams != "pairs" else ()) + (("opponent",) if t.rules.n_sides > 2 else ())


def schema(t: Tournament, config: dict | None = None) -> pa.Schema:
    meta = {META_KEY: json.dumps(config).encode()} if config is not None else None
    # required (non-nullable) fields wherever the table has a value: Parquet then writes no
    # definition levels, which makes the encoding a quarter faster
    empty = null_columns(t)
    cols = run_columns(t)
    return pa.schema([pa.field(n, typ, nullable=n in empty) for n, (typ, _) in cols.items()], metadata=meta)


# -- records -> rows --------------------------------------------------------------------------
_SIDE_FIELDS = {
    "team_tricks": _sc.F_TRICKS,
    "counted_tricks": _sc.F_COUNTED,
    "contract": _sc.F_CONTRACT,
    "made": _sc.F_MADE,
    "contract_points": _sc.F_CONTRACT_POINTS,
    "nil_points": _sc.F_NIL_POINTS,
    "new_bags": _sc.F_NEW_BAGS,
    "bag_penalties": _sc.F_PENALTIES,
    "points": _sc.F_POINTS,
    "score": _sc.F_SCORE,
    "bag_count": _sc.F_BAGS,
}


def _flat_columns(records: list, lineups: list[tuple[int, ...]], rotations: list[int]) -> dict[str, np.ndarray]:
    """Columns of rotations holding the same number of hands, rows ordered (hand, rotation, side).

    Shapes are read from the records: per-seat arrays ``(n, players)``, the score sheet
    ``(n, n_sides, F)``. Each source array is stacked over the rotations and transposed once, so
    every column comes out contiguous (reading the fields one by one, strided, cost more than the
    Parquet encoding). Seat-b columns are left out solo, ``opponent`` with more than two sides.
    """
    n, k = len(records[0]), len(records)
    players, n_sides, n_fields = records[0].bids.shape[1], *records[0].sheet.shape[1:]
    per_side = players // n_sides  # 2 with pairs, 1 solo
    stacked = np.empty((n, k, n_sides, n_fields), np.int32)  # cast first: the transpose
    for i, r in enumerate(records):  # of the narrower type is faster
        stacked[:, i] = r.sheet
    side = np.ascontiguousarray(stacked.reshape(-1, n_fields).T)  # (field, hand * rotation * side)
    out = {name: side[f] for name, f in _SIDE_FIELDS.items()}
    out["made"] = out["made"] != 0

    def seats(arrays):  # (hand, seat) per rotation -> (seat a/b, hand, rotation, side): seat = side + j * n_sides
        o = np.empty((per_side, n, k, n_sides), arrays[0].dtype)
        for i, a in enumerate(arrays):
            o[:, :, i, :] = a.reshape(n, per_side, n_sides).transpose(1, 0, 2)
        return o.reshape(per_side, -1)

    bids = seats([r.bids for r in records])
    per_seat = {"bid": bids, "nil": bids == 0, "blind": seats([r.blind for r in records]),
                "tricks_won": seats([r.tricks_won for r in records]), "nil_made": seats([r.nil_made for r in records])}
    for name, values in per_seat.items():  # seat a, and seat b where sides have two seats
        for j, suffix in enumerate("ab"[:per_side]):
            out[f"{name}_{suffix}"] = values[j]
    if records[0].plays is not None:  # (hand, rotation, side, deck): the hand's cards on every side row
        plays = np.stack([r.plays for r in records], axis=1)
        out["plays"] = np.repeat(plays, n_sides, axis=1).reshape(-1, plays.shape[-1])
    per_row = n_sides * k
    out["dealer"] = np.repeat(records[0].dealer, per_row)
    out["rotation"] = np.tile(np.repeat(np.array(rotations, np.int8), n_sides), n)
    out["side"] = np.tile(np.arange(n_sides, dtype=np.int8), n * k)
    out["players"] = np.full(n * per_row, players, np.int8)
    out["agent"] = np.tile(np.array(lineups, np.int8).reshape(-1), n)
    if n_sides == 2:
        out["opponent"] = np.tile(np.array([(b, a) for a, b in lineups], np.int8).reshape(-1), n)
    if records[0].match_no is None:
        out["deal_no"] = np.repeat(records[0].deal_no, per_row)
    else:
        out["hand_no"] = np.repeat(records[0].hand_no, per_row)
        out["match_no"] = np.repeat(records[0].match_no, per_row)
        out["winner"] = np.repeat(records[0].winner, per_row)
        out["opp_score"] = best_other(side[_sc.F_SCORE].reshape(-1, n_sides)).reshape(-1)
    return out


def best_other(values: np.ndarray) -> np.ndarray:
    """``(rows, sides)`` -> for each side the highest value among the other sides (with two
    sides, the other side's).

    >>> best_other(np.array([[3, 7, 5], [1, 2, 2]])).tolist()
    [[7, 5, 7], [2, 2, 2]]
    """
    top = np.sort(values, axis=1)
    best, second = top[:, -1:], top[:, -2:-1]
    return np.where(values == best, second, best)


def chunk_table(t: Tournament, chunk: Chunk, records: list, config: dict | None = None) -> pa.Table:
    """The rows of one chunk from its rotations' ``HandRecords`` (rotation 0, 1, ...)."""
    cols = run_columns(t)
    empty = null_columns(t)
    k = len(records)
    lineups = [t.lineup(chunk.pairing, rotation) for rotation in range(k)]
    if t.mode == "hands":
        out = _flat_columns(records, lineups, list(range(k)))
    else:
        # rotations of a match last different numbers of hands: (match, rotation, hand, side) order
        parts = [_flat_columns([rec], [lineups[i]], [i]) for i, rec in enumerate(records)]
        flat = {name: np.concatenate([p[name] for p in parts]) for name in cols
                if name not in ("pairing", *SEAT_AGENT_COLUMNS, *empty)}
        order = np.argsort(flat["match_no"] * k + flat["rotation"], kind="stable")
        out = {name: a[order] for name, a in flat.items()}
    n_rows = len(out["side"])
    out["pairing"] = np.full(n_rows, chunk.pairing, np.int16)
    members = seat_labels(t)
    n_sides = t.rules.n_sides
    # (rotation, side, seat a/b) -> index into ``members``
    lookup = np.array([[[members.index(t.seat_specs(chunk.pairing, rotation)[seat].label)
                         for seat in side_seats(side, t.rules)] for side in sides(t.rules)] for rotation in range(k)],
                      np.int8).reshape(k, n_sides, -1)  # fmt: skip
    for j in range(lookup.shape[-1]):
        out[SEAT_AGENT_COLUMNS[j]] = lookup[out["rotation"], out["side"], j]
    vocabulary = dict.fromkeys(SEAT_AGENT_COLUMNS, pa.array(members, pa.string()))
    labels = pa.array(t.labels, pa.string())
    arrays = []
    for name, (typ, _) in cols.items():
        if name in empty:
            arrays.append(pa.nulls(n_rows, typ))
        elif pa.types.is_dictionary(typ):
            arrays.append(pa.DictionaryArray.from_arrays(pa.array(out[name], pa.int8()), vocabulary.get(name, labels)))
        elif pa.types.is_fixed_size_binary(typ):  # plays: (rows, deck) int8, one value a row
            data = np.ascontiguousarray(out[name], np.int8)
            arrays.append(pa.FixedSizeBinaryArray.from_buffers(typ, len(data), [None, pa.py_buffer(data)]))
        else:
            arrays.append(pa.array(out[name].astype(typ.to_pandas_dtype(), copy=False), typ))
    return pa.Table.from_arrays(arrays, schema=schema(t, config))


def seat_labels(t: Tournament) -> list[str]:
    """The labels of every agent that sits in ``t`` (the partners of its partnerships, its
    other entrants), each once in order of appearance: the categories of ``agent_a``/``agent_b``."""
    return list(dict.fromkeys(m.label for a in t.agents for m in a.members))


def encode(table: pa.Table) -> bytes:
    """Parquet bytes of a chunk (made in the worker, so the parent only writes them).

    zstd level 1, dictionary encoding for the small-valued columns and delta encoding for the
    index columns: ~4 bytes a row, and the encoding costs ~10% of the play of Normal vs Easy.
    """
    keys = [c for c in ("deal_no", "match_no") if c in table.schema.names]
    sink = pa.BufferOutputStream()
    pq.write_table(
        table,
        sink,
        compression=COMPRESSION,
        compression_level=1,
        # plays: no dictionary (one value a hand, each on adjacent side rows, which zstd finds)
        use_dictionary=[c for c in table.schema.names if c not in keys and c != "plays"],
        column_encoding={c: "DELTA_BINARY_PACKED" for c in keys},
        write_statistics=["pairing", *keys],
    )
    return sink.getvalue().to_pybytes()


# -- the folder -------------------------------------------------------------------------------
def config_schema(config: dict) -> int:
    """The results schema a run's configuration was written with (schema 1 said "format": 1)."""
    return int(config.get("schema", config.get("format", 1)))


def _check_readable_schema(config: dict, where) -> int:
    schema = config_schema(config)
    if schema > SCHEMA:
        raise ResultsError(
            f"{where} was written by spades_ai {config.get('version', '?')} with results schema {schema}; "
            f"this spades_ai ({__version__}) reads schemas 1..{SCHEMA}: upgrade spades_ai"
        )
    return schema


def _from_schema_1(table: pa.Table, where, requested) -> pa.Table:
    """A schema-1 table with this version's column names and order (matches mode's ``deal``
    dropped); ``requested``: the columns asked for, in their order, or None for all."""
    if "match" in table.schema.names and "deal" in table.schema.names:
        table = table.drop_columns(["deal"])
    table = table.rename_columns([SCHEMA_1_RENAMES.get(n, n) for n in table.schema.names])
    if requested is None:
        order = list(columns("matches" if "match_no" in table.schema.names else "hands"))
        order = [{new: old for old, new in SCHEMA_3_RENAMES.items()}.get(n, n) for n in order]  # schema 3's names
        table = table.select(sorted(table.schema.names, key=lambda n: order.index(n) if n in order else len(order)))
    warnings.warn(
        f"{where}: written with results schema 1 (spades_ai 0.1); columns renamed to this version's names "
        f"({', '.join(f'{a} -> {b}' for a, b in SCHEMA_1_RENAMES.items())})",
        stacklevel=4,
    )
    return table


def run_config(t: Tournament, sprt: SPRT | None = None) -> dict:
    """What ``config.json`` holds: the tournament, the results schema and the package version,
    the sequential test's settings if the run has one, and each seated agent's code
    (``CODE_KEY``: label -> ``AgentSpec.fingerprint``; a bot program is started for its hello)."""
    extra = {"sprt": sprt.to_dict()} if sprt is not None else {}
    code = {}
    for entrant in t.agents:
        for member in entrant.members:
            code.setdefault(member.label, member.fingerprint(t.rules))
    return as_json({"schema": SCHEMA, "version": __version__, **t.to_dict(), **extra, CODE_KEY: code})


def _sprt_text(d) -> str:
    if not isinstance(d, dict):
        return "none"
    try:
        return f"{d['d0']:g},{d['d1']:g} (alpha {d['alpha']:g}, beta {d['beta']:g}, min_deals {d['min_deals']})"
    except (KeyError, TypeError, ValueError):  # a hand-edited file: show it as it is
        return repr(d)


def _describe_difference(old: dict, new: dict) -> str:
    diffs = []
    for key in sorted(set(old) | set(new)):
        if old.get(key) != new.get(key):
            if key == "rules" and isinstance(old.get(key), dict) and isinstance(new.get(key), dict):
                inner = [
                    f"{k} {old[key].get(k)!r} vs {new[key].get(k)!r}"
                    for k in sorted(set(old[key]) | set(new[key]))
                    if old[key].get(k) != new[key].get(k)
                ]
                diffs.append("rules (" + ", ".join(inner) + ")")
            elif key == "sprt":
                diffs.append(f"sprt {_sprt_text(old.get(key))} vs {_sprt_text(new.get(key))}")
            elif key == "agents":
                diffs.append(
                    f"agents {[a.get('label') for a in old.get(key, [])]} vs {[a.get('label') for a in new.get(key, [])]}"
                    if [a.get("label") for a in old.get(key, [])] != [a.get("label") for a in new.get(key, [])]
                    else "agents' options"
                )
            else:
                diffs.append(f"{key} {old.get(key)!r} vs {new.get(key)!r}")
    return "; ".join(diffs)


def _is_extension(old: dict, new: dict) -> bool:
    """``new`` is ``old`` with more deals, and both have the same sequential test: a run that
    stops when decided treats ``deals`` as a budget, which may grow (never shrink: the deals
    beyond a smaller budget would be on disk and yet not part of the run)."""
    if old.get("sprt") is None or old.get("sprt") != new.get("sprt"):
        return False
    deals_old, deals_new = old.get("deals"), new.get("deals")
    if not (isinstance(deals_old, int) and isinstance(deals_new, int) and deals_new > deals_old):
        return False
    return {**old, "deals": deals_new} == new


def _without_code(config: dict) -> dict:
    """The run's identity: ``config`` without the code record, its rules as ``Rules`` reads
    them (a folder written before a rules field existed holds that field's default)."""
    out = {k: v for k, v in config.items() if k != CODE_KEY}
    if isinstance(out.get("rules"), dict):
        try:
            out["rules"] = as_json(Rules.load(out["rules"]).to_dict())
        except RulesError:  # rules this version cannot read: compared as written, and so refused
            pass
    return out


def _code_changes(old: dict, new: dict) -> str:
    """Which agents' code differs between two ``code`` records, and where: ``'mybot:AGENT'
    (module mybot)``."""
    out = []
    for label in sorted(set(old) | set(new), key=str):
        a, b = old.get(label) or {}, new.get(label) or {}
        if a != b:
            parts = sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))
            named = [f"spades_ai {a.get(k, '?')} -> {b.get(k, '?')}" if k == "spades_ai"
                     else k if k.startswith(("file ", "hello")) else f"module {k}" for k in parts]  # fmt: skip
            out.append(f"{label!r} ({', '.join(named)})")
    return "; ".join(out)


def check_folder(out: str | Path, config: dict) -> dict | None:
    """The ``config.json`` that ``out`` holds (None if it holds none), checked against the run
    ``config`` (``run_config``) without changing anything: another run is refused with
    ``ResultsError`` saying what differs, other code for an agent with ``CodeChangedError``
    naming the agent and how to start afresh. A folder without a code record (written before
    runs kept one) is accepted with a warning that its agents' code cannot be checked."""
    out = Path(out)
    cfg_path = out / CONFIG_FILE
    if not cfg_path.exists():
        return None
    try:
        old = json.loads(cfg_path.read_text())
    except (OSError, ValueError) as exc:
        raise ResultsError(f"{cfg_path} is not a readable run configuration ({exc}); use another output folder") from None
    if config_schema(old) != SCHEMA:
        raise ResultsError(
            f"output folder {out} holds results of schema {config_schema(old)} (spades_ai {old.get('version', '?')}); "
            f"this version ({__version__}) writes schema {SCHEMA} and cannot add to it: use another output "
            f"folder (load_results still reads this one), or --fresh (run_tournament(fresh=True)) to move it aside "
            f"to {out.name}.old-<time> and play again"
        )
    old_run, new_run = _without_code(old), _without_code(config)
    if old_run != new_run and not _is_extension(old_run, new_run):
        hint = ""
        if old.get("sprt") is not None and {**old_run, "deals": config.get("deals")} == new_run:
            hint = " (a run with a sequential test may grow its deals, not shrink them)"
        raise ResultsError(
            f"output folder {out} holds a different tournament ({_describe_difference(old_run, new_run)}){hint}; "
            "use another output folder, or delete this one to start over"
        )
    if CODE_KEY not in old:
        warnings.warn(
            f"{out}: written before runs recorded their agents' code; resumed without checking that the agents' "
            "code is the code that played its finished chunks",
            stacklevel=3,
        )
    elif old[CODE_KEY] != config.get(CODE_KEY):
        raise CodeChangedError(
            f"output folder {out} was played by other code for agent {_code_changes(old[CODE_KEY], config.get(CODE_KEY, {}))}: "
            "resuming would mix two versions of it in one table. Start afresh: another output folder (--out), or "
            f"--fresh (run_tournament(fresh=True)) to move this one aside to {out.name}.old-<time> and play again"
        )
    return old


def prepare_folder(out: str | Path, config: dict) -> Path:
    """Create ``out`` (or check that it holds this very run, ``check_folder``) and write
    ``config.json`` (``run_config``).

    A run with a sequential test may come back with a larger ``deals``: ``config.json`` is then
    rewritten (under the folder's lock).
    """
    out = Path(out)
    cfg_path = out / CONFIG_FILE
    old = check_folder(out, config)
    if old is not None:
        if _without_code(old) != _without_code(config):  # an extension: check_folder refused the rest
            with FolderLock(out, ResultsError):
                write_atomic(cfg_path, (json.dumps(config, indent=2) + "\n").encode(), sync=True)
    else:
        if out.exists() and not out.is_dir():
            raise ResultsError(f"output folder {out} is a file")
        if out.exists() and any(p.name != LOCK_FILE for p in out.iterdir()):
            raise ResultsError(
                f"output folder {out} is not empty and holds no {CONFIG_FILE}; use an empty or new folder"
            )
        out.mkdir(parents=True, exist_ok=True)
        write_atomic(cfg_path, (json.dumps(config, indent=2) + "\n").encode(), sync=True)
    (out / DATA_DIR).mkdir(exist_ok=True)
    return out


def move_aside(out: str | Path) -> Path | None:
    """Rename the results folder ``out`` to ``<out>.old-<YYYYmmdd-HHMMSS>`` beside it (``-2``,
    ``-3`` ... if taken) so that a run starts afresh there, and return the new name; nothing is
    deleted. None, and nothing moved, when ``out`` holds no run (no ``config.json``). A folder a
    live run is writing is refused (``ResultsError``)."""
    out = Path(out)
    if not (out / CONFIG_FILE).is_file():
        return None
    with FolderLock(out, ResultsError):
        pass  # a live run holds it: refused
    stem = f"{out.name}.old-{time.strftime('%Y%m%d-%H%M%S')}"
    aside, k = out.with_name(stem), 1
    while aside.exists():
        k += 1
        aside = out.with_name(f"{stem}-{k}")
    os.replace(out, aside)
    return aside


def expected_rows(t: Tournament, chunk: Chunk) -> int | None:
    """Rows of a whole chunk in hands mode (a row per side at every rotation: 4 per unit at 4
    players in pairs, 9 at 3 players); None in matches mode (it varies)."""
    return t.rules.n_sides**2 * chunk.size if t.mode == "hands" else None


def check_chunk_file(path: Path, t: Tournament, chunk: Chunk) -> str | None:
    """None if ``path`` is a whole chunk file of this run, else what is wrong with it."""
    return parquet_problem(path, run_columns(t), expected_rows(t, chunk))


def finished_chunks(out: Path, t: Tournament, *, quarantine: bool = True) -> list[Chunk]:
    """The chunks already on disk and whole. Stale temporary files are removed; a damaged chunk
    file is renamed ``*.parquet.bad`` (kept, never deleted) so that its units are played again."""
    data = Path(out) / DATA_DIR
    done = []
    if not data.is_dir():
        return done
    for path in sorted(data.iterdir()):
        if is_temporary(path):
            path.unlink(missing_ok=True)  # an interrupted write: its chunk is played again
            continue
        chunk = Chunk.from_filename(path.name)
        if chunk is None:
            continue
        problem = check_chunk_file(path, t, chunk) if chunk.pairing < len(t.pairings) else "a pairing this run lacks"
        if problem:
            if not quarantine:
                raise ResultsError(f"{path}: {problem}")
            set_aside(path, problem, "its deals are played again")
            continue
        done.append(chunk)
    return done


# -- reading ----------------------------------------------------------------------------------
def read_config(path: str | Path) -> dict:
    """``config.json`` of a results folder."""
    cfg = Path(path) / CONFIG_FILE
    try:
        return json.loads(cfg.read_text())
    except FileNotFoundError:
        raise ResultsError(f"{path} is not a tournament results folder: it has no {CONFIG_FILE}") from None
    except (OSError, ValueError) as exc:
        raise ResultsError(f"{cfg}: cannot read the run configuration ({exc})") from None


def chunk_files(path: Path) -> list[tuple[Chunk, Path]]:
    data = Path(path) / DATA_DIR
    files = [(Chunk.from_filename(p.name), p) for p in data.iterdir()] if data.is_dir() else []
    return sorted((c, p) for c, p in files if c is not None)


def load_results(path: str | Path, *, columns: Iterable[str] | None = None) -> pandas.DataFrame:
    """All rows of a results folder (or of one chunk file) as a pandas DataFrame.

    ``df.attrs["config"]`` holds the run's configuration, ``df.attrs["complete"]`` whether every
    chunk is there (an unfinished run loads with a warning). A file that cannot be read raises
    ``ResultsError`` naming it; nothing on disk is changed. ``columns`` reads only those
    columns; schema 3's names ``table`` and ``team`` (deprecated) read ``rotation`` and ``side``
    under the names asked for, with a ``DeprecationWarning``.

    >>> from spades_ai import run_tournament
    >>> df = load_results(run_tournament("normal,easy", deals=100, n_jobs=1, progress=False))
    >>> len(df), list(df.columns[:7])
    (400, ['pairing', 'deal_no', 'rotation', 'side', 'players', 'dealer', 'agent'])
    """
    path = Path(path)
    asked = None if columns is None else list(columns)
    columns = None if asked is None else _schema_4_names(asked)
    if path.is_file():
        meta = _read_metadata(path).metadata or {}
        config = json.loads(meta.get(META_KEY, b"{}"))
        version = _check_readable_schema(config, path)
        tables = [_read(path, _stored_names(columns, version))]
        missing = 0
    else:
        if not path.exists():
            raise ResultsError(f"results folder {path} does not exist")
        config = read_config(path)
        version = _check_readable_schema(config, path)
        files = chunk_files(path)
        t = Tournament.from_dict(config)
        _check_overlaps(files)
        tables = [_read(p, _stored_names(columns, version)) for _, p in files]
        for (chunk, p), table in zip(files, tables):
            rows = expected_rows(t, chunk)
            if rows is not None and columns is None and table.num_rows != rows:
                raise ResultsError(f"{p}: holds {table.num_rows} rows, not {rows}; the file is damaged")
        have = sum(c.size for c, _ in files)
        missing = t.deals * len(t.pairings) - have
        record = read_sprt(path) if config.get("sprt") is not None else None
        if record is not None and record["decision"] is not None:
            # a decided test needs only the deals it used, which must all be there
            missing = max(0, record["deals"] - _prefix_stop([c for c, _ in files], 0))
        if not tables:
            tables = [schema(t).empty_table()]
            if columns is not None:
                tables = [tables[0].select(list(columns))]
    table = pa.concat_tables(tables, promote_options="none") if len(tables) > 1 else tables[0]
    if version < SCHEMA:
        table = _as_this_schema(table, version, path, columns)
    df = table.replace_schema_metadata(None).to_pandas()
    if asked is not None:
        df = df.rename(columns={new: name for name, new in zip(asked, columns) if name != new})
    df.attrs["config"] = config
    df.attrs["complete"] = missing == 0
    if not path.is_file() and config.get("sprt") is not None:
        df.attrs["sprt"] = record
    if missing:
        warnings.warn(f"{path}: the run is unfinished, {missing:,} of its units are not played yet", stacklevel=2)
    return df


def _schema_4_names(columns: list[str]) -> list[str]:
    """``columns`` in this schema's names: schema 3's ``table`` and ``team``, deprecated since
    schema 4 (issue 34: tables of 3 to 5 players), read as ``rotation`` and ``side`` with a
    ``DeprecationWarning``."""
    old = [c for c in columns if c in SCHEMA_3_RENAMES]
    if old:
        renamed = ", ".join(f"{c!r} is {SCHEMA_3_RENAMES[c]!r}" for c in old)
        warnings.warn(f"load_results(columns=...): since results schema 4 {renamed}; the old names are deprecated",
                      DeprecationWarning, stacklevel=3)  # fmt: skip
    return [SCHEMA_3_RENAMES.get(c, c) for c in columns]


def _stored_names(columns, version: int) -> list[str] | None:
    """The names to read from the files for the requested ``columns``."""
    if columns is None:
        return None
    columns = list(columns)
    if version < 4:  # ``players`` is made (``_with_players``), ``rotation`` and ``side`` renamed
        back = {new: old for old, new in SCHEMA_3_RENAMES.items()}
        columns = [back.get(c, c) for c in columns if c != "players"] or ["pairing"]
    if version < 3:  # the seat columns are made from ``agent`` (``_with_seat_agents``)
        columns = list(dict.fromkeys("agent" if c in SEAT_AGENT_COLUMNS else c for c in columns))
    if version == 1:
        back = {new: old for old, new in SCHEMA_1_RENAMES.items()}
        return [back.get(c, c) for c in columns]
    return columns


def _as_this_schema(table: pa.Table, version: int, where, requested) -> pa.Table:
    """A table of an older schema with this version's columns: schema 1's renamed
    (``_from_schema_1``), schema 1 and 2's seat agents made (``_with_seat_agents``), and
    ``rotation``, ``side`` (schema 3's ``table``, ``team``) and ``players`` (4: the only table
    they held) where this version puts them; ``requested``: the columns asked for, in their
    order, or None for all."""
    if version == 1:
        table = _from_schema_1(table, where, requested)
    table = table.rename_columns([SCHEMA_3_RENAMES.get(n, n) for n in table.schema.names])
    if "agent" in table.schema.names and SEAT_AGENT_COLUMNS[0] not in table.schema.names:
        table = _with_seat_agents(table)
    names = table.schema.names
    if "players" not in names:
        at = names.index("side") + 1 if "side" in names else len(names)
        table = table.add_column(at, "players", pa.array(np.full(table.num_rows, 4, np.int8)))
    return table if requested is None else table.select(list(requested))


def _with_seat_agents(table: pa.Table) -> pa.Table:
    """A table of schema 1 or 2 (one agent per side: no partnerships) with ``agent_a`` and
    ``agent_b`` made from ``agent``, after ``opponent`` (where this version puts them)."""
    names = table.schema.names
    at = names.index("opponent") + 1 if "opponent" in names else len(names)
    for k, name in enumerate(SEAT_AGENT_COLUMNS):
        table = table.add_column(at + k, name, table.column("agent"))
    return table


_DAMAGED = damaged_advice("tournament", "its deals are played again")


def _read_metadata(path: Path):
    try:
        return pq.read_schema(path)
    except Exception as exc:  # noqa: BLE001 -- damaged files raise ArrowInvalid, OSError, ...
        raise ResultsError(f"{path}: cannot read this chunk file ({type(exc).__name__}: {exc}){_DAMAGED}") from None


# -- the sequential test's record -------------------------------------------------------------
#: The only columns the sequential test reads, named once here (column names may change):
#: the unit index, the side's agent and the side's points.
DEAL_COLUMN, AGENT_COLUMN, POINTS_COLUMN = "deal_no", "agent", "points"


def deal_differences(table: pa.Table, agent: str, start: int, size: int, n_sides: int = 2) -> np.ndarray:
    """The duplicate difference of each deal ``start .. start + size - 1`` of a hands-mode
    chunk: ``agent``'s points minus the mean of the other sides' in the same rotation, averaged
    over the rotations (as the summary's ``diff``; at two sides, its points minus its
    opponent's over both tables, halved). ``agent`` sits on one side at every rotation (the
    pairing's first entrant). ``table`` needs only the columns ``DEAL_COLUMN``,
    ``AGENT_COLUMN`` and ``POINTS_COLUMN``.
    """
    deal = table.column(DEAL_COLUMN).to_numpy() - start
    labels = table.column(AGENT_COLUMN).cast(pa.string()).to_numpy(zero_copy_only=False)
    points = table.column(POINTS_COLUMN).to_numpy().astype(np.int64)
    if len(deal) and (deal.min() < 0 or deal.max() >= size):
        raise ResultsError(
            f"a chunk of deals {start}..{start + size - 1} holds deal {int(deal.min() + start)}..{int(deal.max() + start)}"
        )
    mine = labels == agent
    # per rotation: (n_sides - 1) * agent's points - the others' = (n_sides - 1) * (its points - their mean)
    signed = np.where(mine, (n_sides - 1) * points, -points)
    hands = np.bincount(deal, weights=mine, minlength=size)  # the agent's rows: one a rotation
    if (hands == 0).any():
        raise ResultsError(f"a chunk of deals {start}..{start + size - 1} lacks deal {start + int(np.argmin(hands))}")
    # a ratio of integers per deal: the test's sums do not depend on the chunking
    return np.bincount(deal, weights=signed, minlength=size) / (hands * (n_sides - 1))


def read_differences(source: Path | bytes, agent: str, chunk: Chunk, n_sides: int = 2) -> np.ndarray:
    """``deal_differences`` of a chunk file, or of a chunk's Parquet bytes, at a table of ``n_sides``."""
    columns = [DEAL_COLUMN, AGENT_COLUMN, POINTS_COLUMN]
    if isinstance(source, (bytes, bytearray)):
        table = pq.read_table(pa.BufferReader(source), columns=columns)
    else:
        table = _read(Path(source), columns)
    return deal_differences(table, agent, chunk.start, chunk.size, n_sides)


def _prefix_stop(chunks: Iterable[Chunk], pairing: int) -> int:
    """Where the run of chunks from unit 0 of ``pairing`` ends (the first gap)."""
    stop = 0
    for c in sorted(c for c in chunks if c.pairing == pairing):
        if c.start > stop:
            break
        stop = max(stop, c.stop)
    return stop


def write_sprt(out: str | Path, record: dict) -> None:
    """Write ``sprt.json`` (whole or absent, like every file of the folder)."""
    write_atomic(Path(out) / SPRT_FILE, (json.dumps(record, indent=2) + "\n").encode())


def read_sprt(path: str | Path) -> dict | None:
    """The record of a run's sequential test, or None if it has none (yet).

    Keys: ``sprt`` (the settings), ``decision`` (``"H0"``, ``"H1"`` or None), ``deals`` (deals
    used), ``llr``, ``lower``, ``upper``, ``mean``, ``sd``, ``total``, ``total_sq``, and
    ``max_deals`` (the run's budget) and ``agents`` (first minus second).
    ``spades_ai.tournament.SPRTResult.from_dict(record)`` makes it an object again.
    """
    f = Path(path) / SPRT_FILE
    try:
        return json.loads(f.read_text())
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        raise ResultsError(f"{f}: cannot read the sequential test's record ({exc})") from None


def sprt_rows(df: pandas.DataFrame) -> pandas.DataFrame:
    """The rows of the deals a decided sequential test used (``df.attrs["sprt"]``), so that a
    summary covers exactly them whatever else workers finished meanwhile; ``df`` otherwise."""
    record = df.attrs.get("sprt")
    if not record or record.get("decision") is None:
        return df
    used = df[df[DEAL_COLUMN].to_numpy() < record["deals"]]
    used.attrs = dict(df.attrs)
    return used


def _read(path: Path, columns) -> pa.Table:
    try:
        return pq.read_table(path, columns=columns)
    except Exception as exc:  # noqa: BLE001 -- damaged files raise ArrowInvalid, OSError, ...
        error = exc
    try:  # a column asked for that the file lacks is the caller's mistake, not damage
        names = pq.read_schema(path).names
    except Exception:  # noqa: BLE001
        names = None
    unknown = [c for c in columns or () if names is not None and c not in names]
    if unknown:
        raise ResultsError(f"{path}: no column {', '.join(map(repr, unknown))} in these results; "
                           f"the columns are {', '.join(names)}")
    raise ResultsError(f"{path}: cannot read this chunk file ({type(error).__name__}: {error}){_DAMAGED}") from None


def _check_overlaps(files: list[tuple[Chunk, Path]]) -> None:
    last: dict[int, tuple[Chunk, Path]] = {}
    for chunk, p in files:
        prev = last.get(chunk.pairing)
        if prev is not None and chunk.start < prev[0].stop:
            raise ResultsError(f"{p} overlaps {prev[1].name}: the folder mixes two runs' files")
        last[chunk.pairing] = (chunk, p)
