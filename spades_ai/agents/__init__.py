"""Agents: the interface, the built-ins (random, easy, normal, hard, crazy, ismcts), ``make_agent``,
the Monte Carlo parts (world sampling, bid-aware weights, rollouts) and self-play."""

from spades_ai.agents.kernel_agent import KernelAgent, Mixed, kernel_agent
from spades_ai.agents.registry import Agent, BuiltinAgent, list_agents, make_agent
from spades_ai.agents.selfplay import HandRecords, play_hands, play_matches

__all__ = [
    "Agent",
    "BuiltinAgent",
    "HandRecords",
    "KernelAgent",
    "Mixed",
    "kernel_agent",
    "list_agents",
    "make_agent",
    "play_hands",
    "play_matches",
]
