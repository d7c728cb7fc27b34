"""The rollout policy of the Monte Carlo templates (``rollouts``, ``search``, ``tree_search``):
Normal. A bound copy of the templates (``montecarlo.binding.bound``) has its own ``_binding``,
written for another kernel agent, in place of this file."""

from spades_ai.policies.normal import normal_agent_bid as rollout_bid
from spades_ai.policies.normal import normal_agent_pass as rollout_pass
from spades_ai.policies.normal import normal_agent_play as rollout_play

__all__ = ["rollout_bid", "rollout_pass", "rollout_play"]
