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
from spades_ai.montecarlo.utility import TREE_UTILITIES

#: ISMCTS: iterations (one determinization and one playout each) per card. Chosen for a median
#: decision <= 10 ms CPU: experiments/RESULTS.md.
ISMCTS_ITERATIONS = 5000
#: ISMCTS's UCB exploration constant, in points of Hard's utility (tuned: experiments/RESULTS.md).
ISMCTS_EXPLORATION = 150.0
#: ``utility``: what a finished world is worth in the tree (``montecarlo.utility``).
#: ``"vector"`` keeps one value per side at every node, each seat choosing by its own side's
#: mean (max^n, the multi-player form of UCT); at four in pairs it is the point difference of
#: the two partnerships, to the bit, as before. ``"own"``, ``"paranoid"`` and ``"mean"`` keep
#: one value, the searching side's read that way, which every other side minimizes.
ISMCTS_UTILITY = "vector"


class IsmctsAgent(BuiltinAgent):
    """ISMCTS: the play searched by single-observer information-set MCTS, the bids Hard's
    (``bid_worlds`` worlds) or the rollout policy's (``bid_worlds=0``). Every table: the tree
    keeps one value per side (``utility="vector"``, the default) or the searching side's alone
    (``"own"``, ``"paranoid"``, ``"mean"``), and a card's copies are one move. A rollout policy
    that refuses a table is refused there by name.

    >>> from spades_ai import make_agent
    >>> make_agent("ismcts", utility="paranoid").options["utility"]
    'paranoid'
    """

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
        params[t.IS_UTILITY] = TREE_UTILITIES.index(options["utility"])
        super().__init__("ismcts", self.module.ismcts_agent_bid, self.module.ismcts_agent_play, params, options, defaults)

    # -- from Python: both questions through one compiled entry, ``ismcts_decide`` -----------
    def _decide(self, args: tuple, what: int) -> int:
        pub, seat, hand, legal, rules, params = args
        return int(self.module.ismcts_decide(pub, seat, hand, np.int64(legal), rules, params, what))

    def _bid_now(self, args: tuple) -> int:
        return self._decide(args, _tree.IS_DECIDE_BID)

    def _play_now(self, args: tuple) -> int:
        return self._decide(args, _tree.IS_DECIDE_CARD)

    def check_table(self, rules) -> None:
        """Refuse (``TableError``) a table the rollout policy refuses, naming it."""
        super().check_table(rules)
        if self.options["rollout"] is not None:
            self.options["rollout"].check_table(rules)
