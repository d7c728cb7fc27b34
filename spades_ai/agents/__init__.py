"""Agents by name: the built-ins (random, easy, normal, hard, crazy, ismcts), ``make_agent``,
``list_agents``, the agent spec grammar (``grammar``, ``spec``), and the Hard, Crazy and ISMCTS
agents (``hard``, ``ismcts``) built on ``spades_ai.montecarlo``. The agent interface and the
rule-based policies are ``spades_ai.policies``; self-play is ``spades_ai.selfplay``."""

from spades_ai.agents.builtin import BuiltinAgent
from spades_ai.agents.registry import list_agents, make_agent
from spades_ai.policies import Agent, KernelAgent, Mixed, kernel_agent

__all__ = [
    "Agent",
    "BuiltinAgent",
    "KernelAgent",
    "Mixed",
    "kernel_agent",
    "list_agents",
    "make_agent",
]


def __getattr__(name: str):
    # spades_ai.agents.HandRecords / play_hands / play_matches moved to spades_ai.selfplay
    if name in ("HandRecords", "play_hands", "play_matches"):
        import warnings

        import spades_ai.selfplay as selfplay

        warnings.warn(f"spades_ai.agents.{name} is spades_ai.selfplay.{name} (or spades_ai.{name})",
                      DeprecationWarning, stacklevel=2)
        return getattr(selfplay, name)
    raise AttributeError(f"module 'spades_ai.agents' has no attribute {name!r}")
