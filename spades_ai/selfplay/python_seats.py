"""Python agents in the self-play loop: answering the loop's questions, a batch at a time.

The self-play loop (``selfplay.loop``) stops each table where a Python agent is to act and hands back one
row of ``asked`` per waiting table, with its own copy of that table's public array and cards
played. ``answer`` asks each agent in turn, with an ``Observation`` that reads those copies
(its ``plays`` decoded only if read), and returns the answers for the loop to check and apply.
So an agent may be asked about several hands in turn, interleaved: its decision should depend
on its observation only (what ``check_agent`` checks), not on the order it is asked in.

A bid or card that is not even a bid or a card raises here, naming the agent and the seat; one
that is illegal is caught by the loop like a kernel agent's.
"""

from __future__ import annotations

import numpy as np

from spades_ai.selfplay.loop import A_HAND, A_LEGAL, A_N, A_SEAT, A_SLOT, A_WHAT, Q_BID, Q_BLIND, Q_CARD, Q_PASS
from spades_ai.cards import Card, cards_to_mask, to_card
from spades_ai.engine.bids import BLIND_NIL_BIT
from spades_ai.errors import IllegalBidError, IllegalPassError, IllegalPlayError
from spades_ai.observation import Observation
from spades_ai.policies.agent import default_pass


def _name(agent) -> str:
    return str(getattr(agent, "name", type(agent).__name__))


def _bid(b, agent, seat) -> int:
    if isinstance(b, bool) or not isinstance(b, (int, np.integer)) or not -(2**63) <= b < 2**63:
        raise IllegalBidError(f"agent {_name(agent)!r} at seat {seat} bid {b!r}: a bid is an int, 0 (nil) to 13")
    return int(b)


def _pass(cards, agent, seat, rules) -> int:
    """The engine mask of the cards passed (a card named must be in the rules' deck)."""
    try:
        mask = cards_to_mask(cards)
        if rules.extra_trumps:
            rules.check_names(cards)
            mask = rules.engine_mask(mask)
        return mask
    except (ValueError, TypeError) as exc:
        raise IllegalPassError(f"agent {_name(agent)!r} at seat {seat} passed {cards!r}: {exc}", "bad_pass", str(exc)) from None


def _card(c, agent, seat, rules) -> int:
    """The engine id of the card played (a card named must be in the rules' deck)."""
    try:
        return rules.engine_id(rules.named(c)) if rules.extra_trumps else int(to_card(c))
    except (ValueError, TypeError) as exc:
        raise IllegalPlayError(f"agent {_name(agent)!r} at seat {seat} played {c!r}: {exc}") from None


#: The question kinds, as a batch-answering agent is told them.
KINDS = {Q_PASS: "pass", Q_BID: "bid", Q_BLIND: "blind_nil", Q_CARD: "play"}


def _converted(what: int, action, agent, seat, rules, extra: bool) -> int:
    """The loop's value of an agent's answer to a question of kind ``what``."""
    if what == Q_PASS:
        return _pass(action, agent, seat, rules)
    if what == Q_BID:
        return action if type(action) is int and -64 < action < 64 else _bid(action, agent, seat)
    if what == Q_BLIND:
        return BLIND_NIL_BIT if action else 0
    return action if type(action) is Card and not extra else _card(action, agent, seat, rules)


def answer(asked: np.ndarray, seen_pub: np.ndarray, seen_seq: np.ndarray, agents: dict, rules, units=None) -> np.ndarray:
    """The answers (bid, card id, mask of the cards passed, or ``BLIND_NIL_BIT`` / 0 for a
    blind-nil question) of the Python agents ``{slot: agent}`` to the loop's questions ``asked``.

    An agent with ``answer_batch(questions, units)`` (a bot program: ``agents.program``) gets
    all of its questions at once, ``[(observation, kind), ...]`` with kind ``"bid"``,
    ``"play"``, ``"pass"`` or ``"blind_nil"``, and ``units`` naming each one's deal (such as
    ``"deal 17"``; None where unknown), and returns the actions in order."""
    seen_pub.flags.writeable = False  # the observations' ``public`` rows: read-only, like Hand's copies
    seen_seq.flags.writeable = False

    rules_array = rules.as_array()
    extra = bool(rules.extra_trumps)  # jokers or high deuces: cards to the engine's layout
    asked_obs = Observation.of_question
    out = [0] * len(asked)
    batches: dict = {slot: [] for slot, agent in agents.items() if hasattr(agent, "answer_batch")}
    for q, row in enumerate(asked.tolist()):
        agent, seat, what = agents[row[A_SLOT]], row[A_SEAT], row[A_WHAT]
        legal = None if what == Q_PASS else row[A_LEGAL]  # a pass question's A_LEGAL is the count
        obs = asked_obs(seat, row[A_HAND], seen_pub[q], rules, rules_array, what == Q_BLIND, seen_seq, q, row[A_N], legal)
        if row[A_SLOT] in batches:
            batches[row[A_SLOT]].append((q, obs, what))
        elif what == Q_PASS:  # the passing round: ``default_pass`` for an agent without ``pass_cards``
            cards = agent.pass_cards(obs) if hasattr(agent, "pass_cards") else default_pass(obs)
            out[q] = _pass(cards, agent, seat, rules)
        elif what == Q_BID:
            out[q] = _converted(what, agent.bid(obs), agent, seat, rules, extra)
        elif what == Q_BLIND:
            out[q] = BLIND_NIL_BIT if hasattr(agent, "blind_nil") and agent.blind_nil(obs) else 0
        else:
            out[q] = _converted(what, agent.play(obs), agent, seat, rules, extra)
    for slot, questions in batches.items():
        if questions:
            agent = agents[slot]
            actions = agent.answer_batch([(obs, KINDS[what]) for _, obs, what in questions],
                                         [None if units is None else units[q] for q, _, _ in questions])  # fmt: skip
            for (q, obs, what), action in zip(questions, actions):
                out[q] = _converted(what, action, agent, obs.seat, rules, extra)
    return np.array(out, dtype=np.int64)
