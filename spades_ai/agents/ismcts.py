"""ISMCTS: information-set Monte Carlo tree search as a built-in agent (a research baseline).

The search is ``spades_ai.montecarlo.tree_search`` (its params, ``ISMCTS_PARAMS``); the bids
are Hard's Monte Carlo over ``bid_worlds`` deals, or the rollout policy's with ``bid_worlds=0``.
``rollout=`` binds the policy that plays out every world, of the play and of the bids alike.
"""

from __future__ import annotations

import numpy as np

from spades_ai.agents.builtin import BuiltinAgent, seed_param
from spades_ai.montecarlo import binding
from spades_ai.montecarlo import tree_search as _tree

#: ISMCTS: iterations (one determinization and one playout each) per card. Chosen for a median
#: decision <= 10 ms CPU: experiments/RESULTS.md.
ISMCTS_ITERATIONS = 5000
#: ISMCTS's UCB exploration constant, in points of Hard's utility (tuned: experiments/RESULTS.md).
ISMCTS_EXPLORATION = 150.0


class IsmctsAgent(BuiltinAgent):
    """ISMCTS: the play searched by single-observer information-set MCTS, the bids Hard's
    (``bid_worlds`` worlds) or the rollout policy's (``bid_worlds=0``). 4 players in pairs
    only, as Hard."""

    tables_part = "ismcts"

    def __init__(self, options: dict, defaults: dict):
        self.module = binding.bound(options["rollout"]).tree_search
        t = _tree
        params = np.zeros(len(t.ISMCTS_PARAMS), dtype=np.int64)
        params[t.IS_SEED] = seed_param(options["seed"])
        params[t.IS_ITERATIONS] = options["iterations"]
        params[t.IS_EXPLORATION] = round(options["exploration"] * 1000)
        params[t.IS_BID_AWARE] = options["bid_aware"]
        params[t.IS_BID_WORLDS] = options["bid_worlds"]
        super().__init__("ismcts", self.module.ismcts_agent_bid, self.module.ismcts_agent_play, params, options, defaults)
