"""Replay a recorded hand trick by trick: who led, each card, who won, the running tricks
against the bids, and the score sheet at the end, at any table of 3 to 12 players (PBN records
alone hold four players in pairs, and refuse other tables by name).

A hand comes from one of four sources, and is always played again through ``Hand``, so that
every bid and card is checked by the engine once more:

- a saved match of ``spades-ai play`` (JSON lines; ``hand_no`` picks one hand, else all);
- a ``Hand`` record (``Hand.to_json()``), a JSON file, or a file of JSON lines of hand records
  (``spades_ai.records``; ``hand_no`` picks one);
- a PBN-style text record (``Hand.to_pbn()``, ``spades_ai.pbn``; a file may hold several);
- a tournament results folder of a run made with ``keep_plays``: the rows of a hand (one per
  side) hold each seat's bid (seat ``a`` of side k is seat k, seat ``b`` its partner) and the
  same ``players * cards_each`` cards in play order, on the deal of ``(seed, deal_no)`` in
  hands mode or of hand ``hand_no`` of match ``match_no`` in matches mode (the match streams
  of ``play_matches``), at the seed of the rotation (``table``). The replayed hand must give
  every side's row its tricks and points. ``run_records`` writes a run as JSON lines.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from spades_ai.errors import IllegalBidError, IllegalPassError, IllegalPlayError
from spades_ai.game import Hand
from spades_ai.render import text as render
from spades_ai.rules import Rules
from spades_ai.capabilities import require_table
from spades_ai.seats import cards_dealt, seat_order, seats, side_of, side_seats


class ReplayError(ValueError):
    """A hand that cannot be replayed: unknown deal, a run without plays, a refused card."""


@dataclass(frozen=True)
class Recorded:
    """A hand to replay: its record (``Hand.to_record()`` keys), the seats' and sides' names,
    a title line, and (from a results folder) the agent of each side and where the hand is
    (``teams``: the sides' names, the name the partnership game gave them)."""

    record: dict
    names: tuple[str, ...]
    teams: tuple[str, ...]
    title: str
    agents: tuple[str, ...] | None = None
    where: dict | None = None


def replay_hand(record: dict, where: str = "the hand") -> Hand:
    """The hand of ``record`` played again action by action through ``Hand``; a refused
    action raises ``ReplayError`` naming it."""
    try:
        hand = Hand(
            record["deal"], record["dealer"], Rules.from_dict(record["rules"]) if isinstance(record["rules"], dict) else record["rules"],
            record.get("scores"), record.get("bag_count"), hands_played=record.get("hands_played", 0),
        )  # fmt: skip
    except (KeyError, TypeError, ValueError) as exc:
        raise ReplayError(f"{where}: not a hand record ({exc})") from None
    bids, blind, plays = record.get("bids", []), record.get("blind", []), record.get("plays", [])
    if len(blind) != len(bids):
        raise ReplayError(f"{where}: {len(bids)} bids but {len(blind)} blind flags")
    passes = record.get("passes", [[], []])
    _replay_passes(hand, passes[0], where, "the pass")
    for i, (b, bl) in enumerate(zip(bids, blind)):
        try:
            hand.bid(b, blind=bl)
        except IllegalBidError as exc:
            raise ReplayError(f"{where}: bid {i + 1} is refused: {exc}") from None
    _replay_passes(hand, passes[1], where, "the blind pass")
    for i, c in enumerate(plays):
        try:
            hand.play(c)
        except IllegalPlayError as exc:
            raise ReplayError(f"{where}: card {i + 1} ({c}) is refused: {exc}") from None
    return hand


def _replay_passes(hand: Hand, passes, where: str, what: str) -> None:
    for seat, cards in enumerate(passes):
        if cards is not None:
            try:
                hand.pass_cards(seat, cards)
            except IllegalPassError as exc:
                raise ReplayError(f"{where}: {what} of seat {seat} is refused: {exc}") from None


def replay_lines(recorded: Recorded) -> list[str]:
    """The text of one hand, trick by trick (see the module docstring)."""
    rec, names, teams = recorded.record, recorded.names, recorded.teams
    hand = replay_hand(rec, recorded.title)
    width = max(map(len, names))
    lines = [recorded.title]
    lines.append(
        f"Dealer {names[hand.dealer]}. Before the hand: "
        + render.format_match_score(hand.scores, hand.bag_count, teams)[len("Match: "):]
    )
    n = hand.rules.players
    for s in seats(hand.rules):
        lines.append(f"  {names[s]:{width}}  {render.format_cards(hand.deal[s])}")
    lines.append(render.format_bids(hand, names))
    won = [0] * n
    winners = render.trick_winners(hand)
    for trick_no, k in enumerate(range(0, len(hand.plays), n)):
        trick = hand.plays[k : k + n]
        leader = trick[0][0]
        cards = ", ".join(f"{names[s]} {c}" for s, c in trick[1:])
        text = f"Trick {trick_no + 1:2d}: {names[leader]} leads {trick[0][1]}" + (f"; {cards}" if cards else "")
        if len(trick) == n:
            winner = winners[trick_no]
            won[winner] += 1
            text += f". {names[winner]} wins.  {render.tricks_against_bids(hand.bids, won, names)}"
        else:
            text += " ... (unfinished)"
        lines.append(text)
    if hand.phase == "over":
        lines.append(render.format_sheet(hand.result(), names, teams, "Score sheet"))
    else:
        lines.append(f"The hand stops here: {len(hand.plays)} of {cards_dealt(hand.rules)} cards played.")
    return lines


# -- sources ---------------------------------------------------------------------------------
def from_match_file(path: str | os.PathLike, hand_no: int | None = None) -> list[Recorded]:
    """The hands of a saved match (all, or hand ``hand_no``, counted from 0)."""
    from spades_ai.table.game import SaveFileError, read_match_file

    try:
        lines = read_match_file(path)
    except SaveFileError as exc:
        raise ReplayError(str(exc)) from None
    if hand_no is not None:
        picked = [line for line in lines if line.get("hand_no") == hand_no]
        if not picked:
            raise ReplayError(f"{path} holds hands 0..{len(lines) - 1} (hand_no), not {hand_no}")
        lines = picked
    out = []
    for line in lines:
        k = line.get("hand_no")
        title = f"{path}: hand_no {k} (hand {k + 1 if isinstance(k, int) else '?'} of the match), seed {line.get('seed')}, level {line.get('level')}"
        rules = _record_rules(line["hand"], title)
        names = render.table_names(rules)
        out.append(Recorded(line["hand"], names, render.team_names(names, rules), title))
    return out


def _record_rules(record: dict, where: str) -> Rules:
    """The rules of a ``Hand`` record (a table of fields), or ``ReplayError``."""
    try:
        rules = record["rules"]
        return Rules.from_dict(rules) if isinstance(rules, dict) else rules
    except (KeyError, TypeError, ValueError) as exc:
        raise ReplayError(f"{where}: not a hand record ({exc})") from None


def from_record_file(path: str | os.PathLike) -> list[Recorded]:
    """A ``Hand`` record written by ``Hand.to_json()`` (the whole file one JSON object)."""
    try:
        record = json.loads(Path(path).read_text())
    except OSError as exc:
        raise ReplayError(f"cannot read {path}: {exc.strerror or exc}") from None
    except ValueError as exc:
        raise ReplayError(f"{path} is neither a Hand record nor a saved match: {exc}") from None
    if not isinstance(record, dict) or "deal" not in record:
        raise ReplayError(f"{path} is neither a Hand record nor a saved match")
    rules = _record_rules(record, str(path))
    names = render.seat_names(players=rules.players)
    return [Recorded(record, names, render.team_names(names, rules), f"{path}: a recorded hand")]


def from_records_file(path: str | os.PathLike, hand_no: int | None = None) -> list[Recorded]:
    """The hands of a JSON lines file of hand records (``spades_ai.records``; all, or the
    ``hand_no``-th record, from 0), at every table; a file of one record is one recorded hand."""
    from spades_ai.records import RecordError, read_lines

    path = Path(path)
    try:
        found = read_lines(path.read_text(encoding="utf-8"), str(path))
    except RecordError as exc:
        raise ReplayError(str(exc)) from None
    out = []
    for k, (no, hand, event) in enumerate(found):
        names = render.seat_names(players=hand.rules.players)
        title = f"{path}: a recorded hand" if len(found) == 1 else f"{path}: record {k} (line {no})"
        out.append(Recorded(hand.to_record(), names, render.team_names(names, hand.rules), title + (f", {event}" if event else "")))
    if hand_no is not None:
        if len(out) == 1:
            raise ReplayError(f"--hand picks a hand of a saved match, a PBN file or a file of JSON lines, and {path} "
                              "holds one hand record")
        if not 0 <= hand_no < len(out):
            raise ReplayError(f"{path} holds records 0..{len(out) - 1} (--hand), not {hand_no}")
        out = [out[hand_no]]
    return out


def replay_source(
    source: str | os.PathLike,
    *,
    hand_no: int | None = None,
    deal_no: int | None = None,
    match_no: int | None = None,
    table: int | None = None,
    pairing: int | None = None,
) -> list[Recorded]:
    """The hands to replay from ``source`` (a saved match, a record file or a results folder),
    checked against the options that source takes; ``ReplayError`` in one line otherwise."""
    path = Path(source)
    if path.is_dir():
        return [from_run(path, deal_no=deal_no, match_no=match_no, hand_no=hand_no, table=table, pairing=pairing)]
    if not path.exists():
        raise ReplayError(f"{path} does not exist")
    extra = [f"--{k.replace('_', '-')}" for k, v in (("deal", deal_no), ("match", match_no), ("table", table), ("pairing", pairing)) if v is not None]
    if extra:
        raise ReplayError(f"{', '.join(extra)} pick a hand of a tournament results folder, and {path} is a file")
    text = path.read_text(errors="replace")
    first = next((line for line in text.splitlines() if line.strip()), "")
    try:
        head = json.loads(first)
    except ValueError:
        head = None
    if isinstance(head, dict) and "hand" in head:
        return from_match_file(path, hand_no)
    if first.lstrip().startswith(("[", "%")):
        return from_pbn_file(path, hand_no)
    if isinstance(head, dict) or (head is None and first.lstrip().startswith("{") and not _is_json(text)):
        return from_records_file(path, hand_no)  # a JSON object a line: hand records (``spades_ai.records``)
    if hand_no is not None:
        raise ReplayError(f"--hand picks a hand of a saved match, a PBN file or a file of JSON lines, and {path} "
                          "holds one hand record")
    return from_record_file(path)  # one record over several lines


def _is_json(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


def from_pbn_file(path: str | os.PathLike, hand_no: int | None = None) -> list[Recorded]:
    """The hands of a PBN file (all, or the ``hand_no``-th record, from 0)."""
    from spades_ai.pbn import PBNError, read_pbn

    try:
        hands = read_pbn(Path(path).read_text(encoding="utf-8"))
    except PBNError as exc:
        raise ReplayError(f"{path}: {exc}") from None
    names = render.seat_names()
    out = [Recorded(h.to_record(), names, render.team_names(names), f"{path}: record {k}") for k, h in enumerate(hands)]
    if hand_no is not None:
        if not 0 <= hand_no < len(out):
            raise ReplayError(f"{path} holds records 0..{len(out) - 1} (--hand), not {hand_no}")
        out = [out[hand_no]]
    return out


def run_hands(path: str | os.PathLike, *, table: int | None = None, pairing: int | None = None,
              match_no: int | None = None) -> list[Recorded]:
    """Every hand of a ``keep_plays`` results folder, deal by deal (hands mode), or every hand
    of match ``match_no`` (matches mode), at one table and pairing: for export (``--pbn``)."""
    from spades_ai.tournament.results import chunk_files

    path = Path(path)
    if not path.is_dir():
        raise ReplayError(f"{path} is not a results folder")
    pairing = 0 if pairing is None else pairing
    if match_no is not None:
        out, k = [], 0
        while True:
            try:
                out.append(from_run(path, match_no=match_no, hand_no=k, table=table, pairing=pairing))
            except ReplayError as exc:
                if out and "(hand_no), not" in str(exc):
                    return out
                raise
            k += 1
    units = sorted({u for c, _ in chunk_files(path) if c.pairing == pairing for u in range(c.start, c.stop)})
    return [from_run(path, deal_no=u, table=table, pairing=pairing) for u in units]


def from_run(
    path: Path,
    *,
    deal_no: int | None = None,
    match_no: int | None = None,
    hand_no: int | None = None,
    table: int | None = None,
    pairing: int | None = None,
) -> Recorded:
    """One hand of a tournament run made with ``keep_plays`` (see the module docstring): the
    rows of its sides (one per side) at rotation ``table``, checked against the replayed hand."""
    t = _keep_plays_run(path)
    table = 0 if table is None else table
    pairing = 0 if pairing is None else pairing
    if table not in t.rotations:
        raise ReplayError(f"--table is {_rotations_text(t)}, not {table}")
    if not 0 <= pairing < len(t.pairings):
        raise ReplayError(f"{path} has pairings 0..{len(t.pairings) - 1}, not {pairing}")
    if t.mode == "hands":
        if deal_no is None or match_no is not None:
            raise ReplayError(f"{path} is a hands-mode run: pick a hand with --deal N (and --table T)")
        what = f"deal {deal_no}"
        title = f"{path}: deal {deal_no}, table {table}, pairing {pairing}"
    else:
        if match_no is None or hand_no is None or deal_no is not None:
            raise ReplayError(f"{path} is a matches-mode run: pick a hand with --match M --hand K (and --table T)")
        what = f"match {match_no}"
        title = f"{path}: match {match_no}, hand_no {hand_no}, table {table}, pairing {pairing}"
    rows = _unit_rows(path, t, pairing, table, deal_no if t.mode == "hands" else match_no, what)
    before = None
    if t.mode == "matches":
        before = rows[rows.hand_no == hand_no - 1].sort_values("side")
        if len(rows) and hand_no not in set(rows.hand_no):
            raise ReplayError(f"match {match_no} at table {table} has hands 0..{int(rows.hand_no.max())} (hand_no), not {hand_no}")
        rows = rows[rows.hand_no == hand_no]
    k = t.rules.n_sides
    if len(rows) != k:
        raise ReplayError(f"{what}, table {table}: expected {k} rows (one per {'team' if k == 2 else 'side'}), found {len(rows)}")
    side_rows = [row for _, row in rows.sort_values("side").iterrows()]
    record = _row_record(t, side_rows, t.table_seed(table), (deal_no, match_no, hand_no), before, title)
    teams = tuple(f"{row.agent} ({_seats_text(side_seats(side, t.rules))})" for side, row in enumerate(side_rows))
    where = {"deal_no": deal_no, "match_no": match_no, "hand_no": hand_no, "table": table, "pairing": pairing}
    names = render.seat_names(players=t.rules.players)
    recorded = Recorded(record, names, teams, title, tuple(str(row.agent) for row in side_rows), where)
    _check_against_rows(replay_hand(record, title), side_rows, title)
    return recorded


def _rotations_text(t) -> str:
    """The rotations ``--table`` picks from: ``0 or 1`` at two sides, ``0..k-1`` else."""
    k = len(t.rotations)
    return "0 or 1" if k == 2 else f"0..{k - 1}"


def _seats_text(seat_list: Sequence[int]) -> str:
    return f"seat{'s' if len(seat_list) > 1 else ''} {', '.join(map(str, seat_list))}"


def run_rotations(path: str | os.PathLike) -> range:
    """The rotations of the ``keep_plays`` results folder ``path``: one per side of its table."""
    return _keep_plays_run(Path(path)).rotations


def _keep_plays_run(path: Path):
    """The ``Tournament`` of the run in ``path``, which must have kept its plays."""
    from spades_ai.tournament.results import ResultsError, read_config
    from spades_ai.tournament.schedule import Tournament

    try:
        t = Tournament.from_dict(read_config(path))
    except ResultsError as exc:
        raise ReplayError(str(exc)) from None
    except (KeyError, TypeError, ValueError) as exc:
        raise ReplayError(f"{path}: cannot read the run configuration ({exc})") from None
    if not t.keep_plays:
        raise ReplayError(f"{path} was played without --keep-plays: its rows hold no cards to replay")
    require_table(t.rules, "replay")
    return t


def _unit_rows(path: Path, t, pairing: int, table: int, unit: int, what: str):
    """The rows of deal (or match) ``unit`` of ``pairing`` at ``table`` (rotation), from its
    chunk file, with this version's column names (``side``, ``rotation``) whatever its schema."""
    import pyarrow.parquet as pq

    from spades_ai.tournament.results import SCHEMA_3_RENAMES, chunk_files

    key = "deal_no" if t.mode == "hands" else "match_no"
    chunks = [(c, p) for c, p in chunk_files(path) if c.pairing == pairing]
    files = [p for c, p in chunks if c.start <= unit < c.stop]
    if not files:
        held = ", ".join(f"{a}..{b - 1}" for a, b in _merge(sorted((c.start, c.stop) for c, _ in chunks))) or "none yet"
        unit_name = "deals" if t.mode == "hands" else "matches"
        raise ReplayError(f"{what} is not in {path} (pairing {pairing} holds {unit_name} {held})")
    try:
        rotation = "rotation" if "rotation" in pq.read_schema(files[0]).names else "table"  # schema 3 and older: table
        rows = pq.read_table(files[0], filters=[(key, "=", unit), (rotation, "=", table)]).to_pandas()
    except Exception as exc:  # noqa: BLE001 -- pyarrow raises several types for a damaged file
        raise ReplayError(f"{files[0]}: cannot read ({exc})") from None
    return rows[rows.pairing == pairing].rename(columns=SCHEMA_3_RENAMES)


def _row_deal(t, seed: int, deal_no, match_no, hand_no) -> list:
    """The deal of a row: of ``(seed, deal_no)`` in hands mode, of the match stream in matches
    mode; bitboards at a table of one deck, ``CardSet``s (copies included) with several."""
    from spades_ai.simulate import deal, deal_masks, match_deal

    if t.mode == "matches":
        return match_deal(seed, match_no, hand_no, t.rules)
    if t.rules.decks > 1:
        return list(deal(seed, deal_no, t.rules))
    return [int(m) for m in deal_masks(seed, deal_no, 1, t.rules)[0]]


def _row_record(t, side_rows, seed, unit, before, title: str) -> dict:
    """The ``Hand`` record of the side rows of a hand (one per side, side 0 first): its deal
    (from the run's seed), the scores carried into it, the bids and the plays. ``unit`` is
    ``(deal_no, match_no, hand_no)``."""
    deal_no, match_no, hand_no = unit
    rules = t.rules
    scores, bags, played = [0] * rules.n_sides, [0] * rules.n_sides, 0
    if t.mode == "matches":
        played = hand_no
        if hand_no > 0:
            scores, bags = [int(x) for x in before.score], [int(x) for x in before.bag_count]
    dealer = int(side_rows[0].dealer)
    # seat a of side k is its first seat, seat b its partner (``side_seats``)
    column = {s: (side_of(s, rules), "ab"[side_seats(side_of(s, rules), rules).index(s)]) for s in seats(rules)}
    order = seat_order(dealer + 1, rules)
    plays = np.frombuffer(side_rows[0]["plays"], dtype=np.int8)
    if any(not np.array_equal(plays, np.frombuffer(row["plays"], dtype=np.int8)) for row in side_rows[1:]):
        raise ReplayError(f"{title}: the {'two teams' if len(side_rows) == 2 else 'sides'}' rows hold different plays; the file is damaged")
    return {
        "deal": _row_deal(t, seed, deal_no, match_no, hand_no),
        "dealer": dealer,
        "rules": rules.to_dict(),
        "scores": scores,
        "bag_count": bags,
        "hands_played": played,
        "bids": [int(side_rows[column[s][0]][f"bid_{column[s][1]}"]) for s in order],
        "blind": [bool(side_rows[column[s][0]][f"blind_{column[s][1]}"]) for s in order],
        "plays": [int(c) for c in plays],
    }


def _check_against_rows(hand: Hand, side_rows, title: str) -> None:
    """The replayed hand must give each side the tricks (by seat) and points its row holds."""
    result = hand.result()
    for side, row in enumerate(side_rows):
        mine = side_seats(side, hand.rules)
        got = (*(result.tricks_won[s] for s in mine), result.points[side])
        want = (*(int(row[f"tricks_won_{ab}"]) for ab in "ab"[: len(mine)]), int(row.points))
        if got != want:
            what = "team" if len(side_rows) == 2 else "side"
            raise ReplayError(
                f"{title}: the replayed hand gives {what} {side} tricks {got[:-1]} and {got[-1]} points, "
                f"the row says {want[:-1]} and {want[-1]}"
            )


def _merge(spans: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[list[int]] = []
    for a, b in spans:
        if out and a <= out[-1][1]:
            out[-1][1] = max(out[-1][1], b)
        else:
            out.append([a, b])
    return [(a, b) for a, b in out]


def run_pbn(path: str | os.PathLike, *, table: int | None = None, pairing: int | None = None,
            match_no: int | None = None) -> str:
    """A ``keep_plays`` results folder as PBN text, deal by deal (``run_hands``), each record's
    ``Event`` naming the run, the deal and the table: ``spades-ai replay DIR --pbn``; four
    players in pairs only (``run_records`` writes every table)."""
    return "\n".join(replay_hand(r.record, r.title).to_pbn(event=r.title)
                     for r in run_hands(path, table=table, pairing=pairing, match_no=match_no))


def run_records(path: str | os.PathLike, *, table: int | None = None, pairing: int | None = None,
                match_no: int | None = None) -> str:
    """A ``keep_plays`` results folder as JSON lines of hand records (``spades_ai.records``),
    as ``run_pbn`` at every table, each record's ``event`` naming the run, the deal and the
    table: ``spades-ai replay DIR --json``."""
    from spades_ai.records import records_text

    hands = run_hands(path, table=table, pairing=pairing, match_no=match_no)
    return records_text([replay_hand(r.record, r.title) for r in hands], [r.title for r in hands])

