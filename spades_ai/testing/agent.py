"""The conformance check of an agent: ``check_agent(agent)``.

>>> from spades_ai import make_agent
>>> check_agent(make_agent("easy"), hands=20)
'easy: 20 hands, 560 decisions, all legal and reproducible'
"""

from __future__ import annotations

import numpy as np

from spades_ai.agents.registry import make_agent
from spades_ai.policies.agent import default_pass
from spades_ai.selfplay.play import agent_name
from spades_ai.errors import TableError
from spades_ai.game import Hand
from spades_ai import seats
from spades_ai.rules import Rules
from spades_ai.simulate import deal


class AgentCheckError(AssertionError):
    """An agent broke the interface: an illegal or malformed action, a crash, or a decision
    that changed when asked again about the same observation."""


def check_agent(agent, hands: int = 200, seed: int = 0, rules: Rules | None = None, partner=None, opponents="normal") -> str:
    """Play ``hands`` deals with ``agent`` at every seat in turn and check each decision.

    The agent sits at seat ``i % players`` of deal ``i`` at the table of ``rules`` (its partner,
    with pairs, and the other seats are built-ins or agents). Every decision is asked twice on
    the same observation and must agree, must be legal, and must not raise. Returns a one-line
    report; raises ``AgentCheckError``, or the agent's own ``TableError`` where it refuses the
    table (``capabilities.require_table``).
    """
    rules = Rules() if rules is None else rules
    name = agent_name(agent)
    partner = agent if partner is None else partner
    opp = make_agent(opponents) if isinstance(opponents, str) else opponents
    partner = make_agent(partner) if isinstance(partner, str) else partner
    n = rules.players
    decisions = 0
    for i in range(hands):
        me = i % n
        lineup = [agent if s == me else partner if s == seats.partner(me, rules) else opp for s in seats.seats(rules)]
        hand = Hand(deal(seed, i, rules), dealer=i % n, rules=rules)
        while hand.phase != "over":
            seat = hand.to_act
            who = lineup[seat]
            checked = who is agent
            where = f"agent {name!r} at seat {seat}, deal {i} of seed {seed}"
            if hand.phase == "passing":
                _check_pass(hand, who, checked, where)
            elif hand.phase == "bidding":
                if hand.legal_bids(blind=True) and hasattr(who, "blind_nil"):
                    said = _ask(who.blind_nil, hand.observation(blind_decision=True), checked, where, "blind_nil")
                    if not isinstance(said, (bool, np.bool_)):
                        raise AgentCheckError(f"{where}: blind_nil returned {said!r}, not True or False")
                    decisions += checked  # the question is a decision too
                    if said:
                        hand.bid(0, blind=True)
                        continue
                b = _ask(who.bid, hand.observation(), checked, where, "bid")
                if checked and (isinstance(b, bool) or not isinstance(b, int)):
                    raise AgentCheckError(f"{where}: bid returned {b!r}, not an int")
                if b not in hand.legal_bids():
                    raise AgentCheckError(f"{where}: illegal bid {b!r}; legal bids: {hand.legal_bids()}")
                hand.bid(b)
            else:
                c = _ask(who.play, hand.observation(), checked, where, "play")
                try:
                    card = hand.rules.named(c)
                except (ValueError, TypeError) as exc:
                    raise AgentCheckError(f"{where}: play returned {c!r}, not a card ({exc})") from None
                if card not in hand.legal_cards():
                    raise AgentCheckError(f"{where}: illegal card {card}; legal cards: {' '.join(map(str, hand.legal_cards()))}")
                hand.play(card)
            decisions += checked
    return f"{name}: {hands} hands, {decisions} decisions, all legal and reproducible"


def _check_pass(hand: Hand, who, checked: bool, where: str) -> None:
    """The cards the seat to act passes: asked of it, checked, and passed."""
    seat, obs = hand.to_act, hand.observation()
    ask = who.pass_cards if hasattr(who, "pass_cards") else default_pass
    chosen = _ask(ask, obs, checked, where, "pass_cards")
    try:
        cards = hand.rules.named_cards(chosen)  # a card named must be in the rules' deck
    except (ValueError, TypeError) as exc:
        raise AgentCheckError(f"{where}: pass_cards returned {chosen!r}, not cards ({exc})") from None
    count = obs.pass_count
    if len(cards) != count or len(set(cards)) != count or any(c not in obs.cards for c in cards):
        shown = " ".join(map(str, cards)) or "no card"
        raise AgentCheckError(f"{where}: illegal pass {shown}: it passes {count} of {obs.cards}")
    hand.pass_cards(seat, cards)


def _ask(method, obs, checked: bool, where: str, what: str):
    try:
        first = method(obs)
        if not checked:
            return first
        second = method(obs)
    except TableError:  # the agent refuses the table through the one table check: not a fault
        raise
    except Exception as exc:  # the point is to report any crash of the agent
        raise AgentCheckError(f"{where}: {what} raised {type(exc).__name__}: {exc}") from exc
    if first != second:
        raise AgentCheckError(f"{where}: {what} is not reproducible: {first!r} then {second!r} on the same observation")
    return first

