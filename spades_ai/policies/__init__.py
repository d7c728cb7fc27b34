"""Kernel policies: the agent interface, kernel agents (``kernel_agent``, ``KernelAgent``,
``Mixed``) and the fast rule-based policies written against ``spades_ai.kernels`` (random and
Easy in ``easy``, Normal in ``normal``, their shared reading of a trick in ``tactics``). The
Monte Carlo library plays its worlds out with them and models the other seats by Normal."""

from spades_ai.policies.agent import Agent, default_pass
from spades_ai.policies.kernel_agent import KernelAgent, Mixed, kernel_agent

__all__ = ["Agent", "KernelAgent", "Mixed", "default_pass", "kernel_agent"]
