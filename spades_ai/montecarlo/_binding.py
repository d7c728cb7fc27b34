"""The rollout policy of the Monte Carlo templates (``rollouts``, ``search``, ``tree_search``):
Normal. A bound copy of the templates (``montecarlo.binding.bound``) has its own ``_binding``,
written for another kernel agent, in place of this file."""

from spades_ai.policies.normal import normal_agent_bid as rollout_bid
from spades_ai.policies.normal import normal_agent_pass as rollout_pass
from spades_ai.policies.normal import normal_agent_play as rollout_play

#: Whether ``search`` compiles its optional parts: exact finishes (``solver_tricks`` > 0) and
#: weighted worlds (``bid_aware``, reading the play). Both here, for every setting; a copy for an
#: agent that uses neither (Hard's defaults) leaves them out, which nearly halves what its first
#: run compiles (``binding.bound``).
EXACT_FINISHES = True
WEIGHTED_WORLDS = True

__all__ = ["EXACT_FINISHES", "WEIGHTED_WORLDS", "rollout_bid", "rollout_pass", "rollout_play"]
