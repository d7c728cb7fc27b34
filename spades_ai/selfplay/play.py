"""Self-play: many deals or whole matches, one agent a seat, returned as tidy arrays.

Every lineup runs in one numba loop (``loop``, bound to the lineup's kernel agents by
``codegen``): kernel agents, the built-ins included, are called directly inside it;
with Python agents it plays many deals at once and stops where they are to act, and Python
answers those questions in a batch (``python_seats``) before the loop goes on. So the same deals
give the same records whichever kind of agent sits down, and a Python agent pays only for its
own decisions.

Deal ``i`` of ``play_hands`` comes from ``(seed, i)``; hand ``k`` of match ``m`` of
``play_matches`` from ``(seed, m, stream 1 + k)``, and match ``m``'s first dealer from its own
stream, so the same seed gives the same cards to whichever agents sit down.
"""

from __future__ import annotations

import functools
from typing import Sequence

import numpy as np

from spades_ai.agents.grammar import PROGRAM_PREFIX
from spades_ai.agents.program import program_agent
from spades_ai.agents.registry import make_agent
from spades_ai.checks import check_count, check_dealer, check_seed
from spades_ai.engine import state as _st
from spades_ai.errors import IllegalBidError, IllegalPassError, IllegalPlayError
from spades_ai.game import Hand
from spades_ai.policies.agent import Agent, default_pass
from spades_ai.policies.kernel_agent import KernelAgent, Mixed
from spades_ai.rules import Rules
from spades_ai.seats import cards_dealt
from spades_ai.selfplay.codegen import NON_ALLOCATING, bind
from spades_ai.selfplay.loop import (
    A_TABLE,
    ASKED_WIDTH,
    BAD_BID,
    BAD_PASS,
    ERR_SIZE,
    MAX_PLAYS,
    S_ASK_BLIND,
    S_BID,
    S_PLAY,
    S_PY_BID,
    S_PY_PLAY,
    SLOTS_WIDTH,
    T_HAND_NO,
    T_JOB,
    TABLE_WIDTH,
)
from spades_ai.selfplay.loop_kernels import record_arrays
from spades_ai.selfplay.python_seats import answer
from spades_ai.selfplay.records import HandRecords, make_records


# -- records ---------------------------------------------------------------------------------
# -- the lineup ------------------------------------------------------------------------------
def resolve_lineup(lineup: Sequence[Agent | str], rules: Rules | None = None) -> list[Agent]:
    """One agent a seat of the table (``Rules().players``, four by default) from agents,
    built-in names or bot programs ``"cmd:COMMAND"`` (one process per command, kept:
    ``agents.program``); with pairs, one entry a side means each side's two seats (at four,
    (A, B) is (A, B, A, B))."""
    rules = Rules() if rules is None else rules
    lineup = list(lineup)
    if rules.teams == "pairs" and len(lineup) == rules.n_sides:
        lineup = lineup * 2
    if len(lineup) != rules.players:
        sides = f" (or {rules.n_sides} sides)" if rules.teams == "pairs" else ""
        raise ValueError(f"a lineup has {rules.players} seats{sides} at this table, not {len(lineup)}")
    agents = []
    for seat, a in enumerate(lineup):
        if isinstance(a, str):
            a = program_agent(a.partition(":")[2].strip()) if a.startswith(f"{PROGRAM_PREFIX}:") else make_agent(a)
        if not (hasattr(a, "bid") and hasattr(a, "play")):
            raise TypeError(f"seat {seat}: {a!r} is not an agent (it needs bid(obs) and play(obs))")
        agents.append(a)
    return agents


def _check_keep_plays(keep_plays) -> bool:
    if not isinstance(keep_plays, (bool, np.bool_)):
        raise TypeError(f"keep_plays must be True or False, not {keep_plays!r}")
    return bool(keep_plays)


def check_rules(rules) -> Rules:
    """The rules of a self-play run: ``Rules()`` for None; anything but a ``Rules`` is refused."""
    rules = Rules() if rules is None else rules
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a spades_ai.Rules, not {type(rules).__name__}")
    return rules


# -- the lineup's loop -----------------------------------------------------------------------
class Seating:
    """Each seat's bid slot and play slot in a lineup's loop (``Mixed`` agents bid like one
    agent and play like another): kernel agents first, one slot per distinct agent, then
    Python agents; the compiled loop for those kernel agents; their params."""

    #: Tables played at once when a Python agent sits down: enough questions per kernel call to
    #: make the call's cost negligible, few enough to keep the copies they read small.
    TABLES = 256

    def __init__(self, agents: Sequence[Agent], rules: Rules | None = None):
        self.agents = list(agents)
        self.rules = rules = Rules() if rules is None else rules
        for a in self.agents:
            for role in (a.bidder, a.player) if isinstance(a, Mixed) else (a,):
                if hasattr(role, "check_table"):
                    role.check_table(rules)
        roles = [(a.bidder, a.player) if isinstance(a, Mixed) else (a, a) for a in self.agents]
        # Kernel agents with the same kernels and params decide alike: they share a slot (four
        # copies of Normal inline Normal once). Python agents are told apart by identity.
        def key(a):
            return (a.kernels_key(), a.params.tobytes()) if isinstance(a, KernelAgent) else id(a)

        first = {}
        for pair in roles:
            for a in pair:
                first.setdefault(key(a), a)
        # in a canonical order, so that every lineup of the same kernel agents shares one loop
        kernel = sorted(
            (a for a in first.values() if isinstance(a, KernelAgent)),
            key=lambda a: (_qualified(a.bid_kernel), _qualified(a.play_kernel), a.params.tobytes()),
        )
        kernel = _shared(kernel)
        python = [a for a in first.values() if not isinstance(a, KernelAgent)]
        self.by_slot = kernel + python
        slot_of = {k: self.by_slot.index(a) for k, a in first.items()}
        self.python = {k: a for k, a in enumerate(self.by_slot) if k >= len(kernel)}
        self.slots = np.zeros((len(self.agents), SLOTS_WIDTH), dtype=np.int64)
        for seat, (b, p) in enumerate(roles):
            bid_slot, play_slot = slot_of[key(b)], slot_of[key(p)]
            self.slots[seat, S_BID], self.slots[seat, S_PLAY] = bid_slot, play_slot
            self.slots[seat, S_PY_BID] = bid_slot in self.python
            self.slots[seat, S_PY_PLAY] = play_slot in self.python
            # a Python bidder without blind_nil never takes a blind nil: it is not asked
            self.slots[seat, S_ASK_BLIND] = bid_slot not in self.python or hasattr(b, "blind_nil")
        width = max([1] + [len(a.params) for a in kernel])
        self.params = np.zeros((max(1, len(kernel)), width), dtype=np.int64)
        for k, a in enumerate(kernel):
            self.params[k, : len(a.params)] = a.params
        self.module = _loop(tuple(kernel))

    def tables(self, jobs: int) -> tuple:
        """Fresh tables for ``jobs`` deals or matches: one when only kernel agents sit (it plays
        every job in one kernel call), else up to ``TABLES``. Each table's hand, public array,
        cards played and bookkeeping row, and the job counters."""
        n = 1 if not self.python else max(1, min(jobs, self.TABLES))
        table_rows = np.zeros((n, TABLE_WIDTH), dtype=np.int64)
        table_rows[:, T_JOB] = -1
        return (np.zeros((n, _st.N_PUBLIC), np.int64), np.zeros((n, self.rules.players * self.rules.decks), np.uint64),
                np.zeros((n, MAX_PLAYS), np.int64), table_rows, np.zeros(2, np.int64))  # fmt: skip

    def run(self, kernel_name: str, rules: Rules, job: tuple | None = None, *, tables: tuple, records: tuple | None = None,
            jobs: tuple | None = None) -> tuple:  # fmt: skip
        """Call the loop's ``kernel_name(job, slots, params, rules, tables, records, asked,
        answers, err, views)`` (``job`` and ``records`` left out where None) until no question is
        left, answering the Python agents' questions in between; returns the records (a tuple of
        arrays). Raises an error naming the agent on an illegal action.

        ``answers`` is None when only kernel agents sit, and ``views`` when the rules hide
        nothing: the loop then compiles without the code it would not run (``selfplay.loop``).
        ``jobs`` says what a table's job is, so that a batch-answering agent can name the deal
        of each question: ``("deal", first)`` (job ``j`` is deal ``first + j``), ``("match",)``,
        or None (not known)."""
        fn = getattr(self.module, kernel_name)
        rules_array = rules.as_array()
        err = np.zeros(ERR_SIZE, dtype=np.int64)
        asked = np.zeros((0, ASKED_WIDTH), dtype=np.int64)
        answers = np.zeros(0, dtype=np.int64) if self.python else None
        views = np.zeros((len(tables[0]), _st.N_PUBLIC), dtype=np.int64) if _hides_anything(rules_array) else None
        first = () if job is None else (job,)
        while True:
            middle = (tables,) if records is None else (tables, records)
            asked, seen_pub, seen_seq, *rest = fn(*first, self.slots, self.params, rules_array, *middle, asked, answers, err, views)
            records = rest[0] if rest else None
            if err[0]:
                self._raise(err, rules)
            if not len(asked):
                return () if records is None else tuple(records)
            answers = answer(asked, seen_pub, seen_seq, self.python, rules, _units(asked, tables[3], jobs))

    def _raise(self, err: np.ndarray, rules: Rules):
        what, seat, action, slot = (int(x) for x in err[:4])
        agent = self.by_slot[slot]
        name = getattr(agent, "label", None) or agent_name(agent)
        if what == BAD_PASS:
            n = int(_pass_count_at(err, rules))
            shown = " ".join(str(rules.engine_deck[c] or c) for c in range(56) if action >> c & 1) or "no card"
            why = f"it passes {n} different cards it holds"
            raise IllegalPassError(f"agent {name!r} at seat {seat} chose an illegal pass {shown}: {why}", "count", why)
        kind = "bid" if what == BAD_BID else "card"
        shown = str(action) if what == BAD_BID or not 0 <= action < 56 else str(rules.engine_deck[action] or action)
        error = IllegalBidError if what == BAD_BID else IllegalPlayError
        raise error(f"agent {name!r} at seat {seat} chose an illegal {kind} {shown}: {_reason(err, rules)}")


def _units(asked: np.ndarray, table_rows: np.ndarray, jobs: tuple | None) -> list[str] | None:
    """What each question is about, for messages: ``"deal 17"``, or ``"match 3, hand 2"``."""
    if jobs is None:
        return None
    rows = table_rows[asked[:, A_TABLE]]
    if jobs[0] == "deal":
        return [f"deal {jobs[1] + j}" for j in rows[:, T_JOB].tolist()]
    return [f"match {m}, hand {k}" for m, k in rows[:, [T_JOB, T_HAND_NO]].tolist()]


def _hides_anything(rules_array: np.ndarray) -> bool:
    """``engine.state.hides_anything``, run as Python (compiled for a call from Python, it would
    be one more kernel to compile on a first run)."""
    return bool(getattr(_st.hides_anything, "py_func", _st.hides_anything)(rules_array))


def _pass_count_at(err: np.ndarray, rules: Rules) -> int:
    return _st.pass_count(err[4 : 4 + _st.N_PUBLIC], rules.as_array())


def _reason(err: np.ndarray, rules: Rules) -> str:
    """The engine's own reason for the illegal action in ``err``: the hand is rebuilt from the
    state the loop reported and the action is tried on it."""
    st = _st
    what, seat, action = (int(x) for x in err[:3])
    n, seats, sides = st.N_PUBLIC, rules.players, rules.n_sides
    pub, hands, seq = err[4 : 4 + n], err[4 + n : 4 + n + seats].astype(np.uint64), err[4 + n + st.MAX_HAND_SLOTS :]
    played = [int(pub[st.P_PLAYED_BY + s]) for s in range(seats)]
    # the cards as they stood after any passing, replayed without it
    rules = rules.replace(pass_cards=0, blind_pass=0) if rules.pass_cards or rules.blind_pass else rules
    hand = Hand([rules.public_mask(int(hands[s]) | played[s]) for s in range(seats)], int(pub[st.P_DEALER]), rules,
                pub[st.P_SCORES : st.P_SCORES + sides].tolist(), pub[st.P_BAGS : st.P_BAGS + sides].tolist(),
                hands_played=int(pub[st.P_HANDS_PLAYED]))  # fmt: skip
    for i in range(int(pub[st.P_N_BIDS])):
        s = (hand.dealer + 1 + i) % seats
        hand.bid(int(pub[st.P_BIDS + s]), blind=bool(pub[st.P_BLIND + s]))
    for v in seq[: sum(p.bit_count() for p in played)]:
        hand.play(rules.public_id(int(v) & 63))
    try:
        card = rules.engine_deck[action] if 0 <= action < 56 else None
        hand.bid(action) if what == BAD_BID else hand.play(-1 if card is None else card)
    except (IllegalBidError, IllegalPlayError) as exc:
        return str(exc)
    return "refused by the engine"  # pragma: no cover -- the loop and the Hand agree on legality


_LOOPS: dict = {}


@functools.lru_cache(maxsize=None)
def _rule_based() -> tuple:
    """The built-ins of ``codegen.NON_ALLOCATING`` (Random, Easy, Normal), as made by name."""
    return tuple(make_agent(name) for name in NON_ALLOCATING)


def _shared(kernel: list) -> list:
    """The kernel agents a lineup's loop is bound to, in slot order, for its distinct kernel
    agents ``kernel``: where there are two or more, each a rule-based built-in
    (``_rule_based``, whatever its params) and no two with the same kernels, all three of them
    (the lineup's own agent in its built-in's slot, the built-in itself in a slot no seat
    uses). So every mixed lineup of Random, Easy and Normal shares one compiled loop, where
    each pair of them compiled its own (about 4 s each from an empty cache); a seat calls its
    kernels as before, with its own params. A lineup of one agent keeps a loop without the
    slot test (bound to all three, Normal's self-play ran 3% slower: ``benchmarks/RESULTS.md``),
    and any other lineup is bound to its own kernel agents."""
    builtins = _rule_based()
    keys = [a.kernels_key() for a in kernel]
    if len(kernel) < 2 or len(set(keys)) < len(keys):
        return kernel
    by_key = dict(zip(keys, kernel))
    if not set(by_key) <= {b.kernels_key() for b in builtins}:
        return kernel
    return [by_key.get(b.kernels_key(), b) for b in builtins]


def _qualified(fn) -> str:
    py = getattr(fn, "py_func", fn)
    return f"{py.__module__}.{py.__qualname__}"


def _loop(kernel_agents: tuple):
    key = tuple(a.kernels_key() for a in kernel_agents)
    if key not in _LOOPS:
        _LOOPS[key] = bind("spades_ai.selfplay.loop", kernel_agents)
    return _LOOPS[key]


# -- driving a Hand in Python (check_agent, the table, the adapters) ----------------------------
def agent_name(agent) -> str:
    return str(getattr(agent, "name", type(agent).__name__))


def play_hand_python(hand: Hand, agents: Sequence[Agent]) -> None:
    """Drive ``hand`` to its end with the agents' ``pass_cards`` / ``bid`` / ``play`` (any
    Python agents)."""
    pass_round_python(hand, agents)
    while hand.phase == "bidding":
        seat = hand.to_act
        agent = agents[seat]
        if hand.legal_bids(blind=True) and hasattr(agent, "blind_nil"):
            if agent.blind_nil(hand.observation(blind_decision=True)):
                _act(hand.bid, agent, seat, 0, "blind nil", blind=True)
                continue
        b = agent.bid(hand.observation())
        _act(hand.bid, agent, seat, b, "bid")
    pass_round_python(hand, agents)
    while hand.phase == "playing":
        seat = hand.to_act
        agent = agents[seat]
        card = agent.play(hand.observation())
        _act(hand.play, agent, seat, card, "card")


def pass_round_python(hand: Hand, agents: Sequence[Agent]) -> None:
    """A passing round, if one is due: each passer chooses on its own observation (none sees
    its partner's choice before the exchange); ``default_pass`` for an agent without
    ``pass_cards``."""
    while hand.phase == "passing":
        seat = hand.to_act
        agent = agents[seat]
        obs = hand.observation()
        cards = agent.pass_cards(obs) if hasattr(agent, "pass_cards") else default_pass(obs)
        _act(lambda c: hand.pass_cards(seat, c), agent, seat, cards, "pass")


def _act(action, agent, seat, value, what, **kw):
    try:
        action(value, **kw)
    except (IllegalBidError, IllegalPlayError, IllegalPassError) as exc:
        raise type(exc)(
            f"agent {agent_name(agent)!r} at seat {seat} chose an illegal {what} {value!r}: {exc}", exc.reason, exc.detail
        ) from None


# -- public API ------------------------------------------------------------------------------
def play_hands(
    lineup, n: int, seed: int = 0, rules: Rules | None = None, dealer: int = 0, *, start: int = 0, keep_plays: bool = False
) -> HandRecords:
    """Play deals ``start .. start+n-1`` of ``seed`` (dealer fixed, scores from zero).

    ``lineup`` is an agent or name a seat (``resolve_lineup``: at four, two for (A, B, A, B)).
    ``keep_plays`` also returns each hand's cards in play order (``HandRecords.plays``).

    >>> rec = play_hands(["normal", "easy"], 100, seed=1)
    >>> len(rec), int(rec.tricks_won.sum(axis=1).max())
    (100, 13)
    """
    rules = check_rules(rules)
    seating = Seating(resolve_lineup(lineup, rules), rules)
    n, seed, dealer, start = check_count(n), check_seed(seed), check_dealer(dealer, rules), check_count(start, "start")
    keep_plays = _check_keep_plays(keep_plays)
    records = (*record_arrays(n, rules.as_array()), np.empty((n if keep_plays else 0, cards_dealt(rules)), dtype=np.int8))
    *parts, plays = seating.run(
        "play_hands_kernel", rules, (np.uint64(seed), start, n, dealer, keep_plays), tables=seating.tables(n),
        records=records, jobs=("deal", start),
    )
    return make_records(parts, plays, keep_plays, deal_no=np.arange(start, start + n, dtype=np.int64), dealer=np.full(n, dealer, np.int8))


def play_matches(
    lineup, n: int, seed: int = 0, rules: Rules | None = None, *, start: int = 0, keep_plays: bool = False
) -> HandRecords:
    """Play matches ``start .. start+n-1`` to the end (target, loss threshold or max hands).

    One row per hand, with ``match_no``, ``hand_no`` and, on each match's last row, ``winner``.
    A match still undecided after 10,000 hands ends there with winner -1.
    """
    rules = check_rules(rules)
    seating = Seating(resolve_lineup(lineup, rules), rules)
    n, seed, start = check_count(n), check_seed(seed), check_count(start, "start")
    keep_plays = _check_keep_plays(keep_plays)
    cap = max(16, n * 24)
    records = (*record_arrays(cap, rules.as_array()), np.empty((cap, 4), np.int64),
               np.empty((cap if keep_plays else 0, cards_dealt(rules)), dtype=np.int8))  # fmt: skip
    tables = seating.tables(n)
    *parts, meta, plays = seating.run(
        "play_matches_kernel", rules, (np.uint64(seed), start, n, keep_plays), tables=tables, records=records,
        jobs=("match",),
    )
    rows = int(tables[-1][1])
    # rows come in the order hands end; with several tables, put them back match by match
    order = np.lexsort((meta[:rows, 1], meta[:rows, 0]))
    parts = [a[:rows][order] for a in parts]
    meta, plays = meta[:rows][order], plays[: rows if keep_plays else 0][order[: rows if keep_plays else 0]]
    return make_records(
        parts,
        plays,
        keep_plays,
        dealer=meta[:, 2].astype(np.int8),
        match_no=meta[:, 0].copy(),
        hand_no=meta[:, 1].copy(),
        winner=meta[:, 3].copy(),
    )
