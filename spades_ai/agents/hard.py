"""Hard and Crazy: the determinized Monte Carlo agents, the two strongest levels (docs/agents.md).

Both are the search of ``spades_ai.montecarlo.search`` as a kernel agent (its params,
``MC_PARAMS``); they differ in their defaults. Hard samples ``worlds=512`` worlds that fit
everything it has seen, plays every distinct card (or bid) in each, finishes the hand with its
rollout policy (Normal, or ``rollout=`` any fast kernel agent) and keeps that policy's choice
unless another is clearly better; candidates clearly worse stop playing worlds (``racing``) and
of the cards of the same effect on the trick the cheapest is played unless a dearer one gains
(``thrift``). Crazy is Hard with 8x the worlds, weighted by how well they explain the bids
where one deck is dealt (``bid_aware="one_deck"``; with ``read_play=True`` also by the cards
played), and the last 3 tricks of every world solved exactly (``solver_tricks=3``). With
``bidder="learned"`` either makes its sighted bids at the table of four in pairs like the
learned agent (``models.bidder``). ``spades_ai.montecarlo.decision_values(agent, obs)`` gives
the value of every legal card or bid, the very numbers a decision is made from.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from spades_ai.agents.builtin import BuiltinAgent, seed_param
from spades_ai.capabilities import part, require_table
from spades_ai.cards import Card
from spades_ai.engine.bids import BID_BITS, BLIND_NIL_BIT, legal_bids
from spades_ai.engine.state import legal_now
from spades_ai.errors import IllegalBidError
from spades_ai.kernels import decision_stream
from spades_ai.models.model import packed_after
from spades_ai.montecarlo import binding
from spades_ai.montecarlo import search as _search
from spades_ai.montecarlo.utility import UTILITIES
from spades_ai.observation import Observation

#: Budgets: ``worlds`` sampled per decision; ``rollouts`` caps the playouts of one decision
#: (a playout per world and candidate card or bid; 0: no cap), which bounds the time of the
#: decisions with many candidates. Chosen for the time targets: benchmarks/RESULTS.md.
HARD_WORLDS = 512
HARD_ROLLOUTS = 0
CRAZY_WORLDS = 4096
CRAZY_ROLLOUTS = 24_576
#: ``solver_tricks``: the last tricks of every rollout are solved exactly (with every card of
#: the world visible, both sides playing their best on Hard's utility; at a table other than
#: four in pairs the seat's side against every other seat, ``montecarlo.finishes``) instead of
#: played by the rollout policy; a card chosen that late gets its exact value in each world. 0: none.
#: Hard keeps 0: its best strength per millisecond within its 5 ms budget. Crazy finishes the
#: last 3 tricks of every world exactly: on the same 2,000 deals of seed 61 against Hard it
#: gained over Crazy without them (``crazy_leaves_paired``, experiments/RESULTS.md, issue 11), at a
#: median decision of 45 ms (within its 100 ms budget).
HARD_SOLVER_TRICKS = 0
CRAZY_SOLVER_TRICKS = 3
#: ``racing``: candidates clearly worse than the leader over the first worlds stop playing
#: worlds (``montecarlo.search.evaluate``); the final choice is still anchored on Normal's. On for
#: Hard: its strength is unchanged at 28% less CPU per decision. Off for Crazy: on the same 300
#: deals against two Hards, Crazy without racing scored +2.5 [+0.2, +4.8] per deal more than
#: with it (experiments/RESULTS.md, issue 11 item 4, and ``crazy_noracing_vs_hard``).
HARD_RACING = True
CRAZY_RACING = False
#: ``thrift``: of the cards with the same effect on the current trick, play the cheapest unless
#: the rollouts show the dearer one gains (``montecarlo.selection.thrifty_choice``; issue 11, item 6). On
#: by default: a quarter less waste, its noise share from 33% to 3%, strength unchanged.
HARD_THRIFT = True
CRAZY_THRIFT = True
#: ``read_play``: weigh the worlds by how likely the other seats' cards played so far are under
#: Normal's play with noise ``play_noise`` (``montecarlo.reading``; 0.3 fits Hard's play best).
#: Off by default: on 550 paired deals against Hard it measured -2.9 [-7.6, +1.7] per deal
#: against Crazy without it (experiments/RESULTS.md, issue 11, item 3). ``play_model``: a learned
#: model whose card network is the play model instead of Normal (``models.player``; issue 21).
CRAZY_READ_PLAY = False
CRAZY_PLAY_NOISE = 0.3
#: ``bid_aware``: weigh the worlds by the other seats' bids (``montecarlo.weights``: Normal's
#: bidding model) at every table (True), none (False), or one deck only (``"one_deck"``). Crazy's:
#: one deck only. With two decks the model misleads it: without the bids Crazy scored +10.1
#: [+2.8, +17.3] a deal more against Hard at 6 in pairs, paired on 200 deals (+13.5 on the 100
#: that chose the change, +6.6 on 100 fresh), +4.7 [+0.1, +9.3] at 8 solo and -0.2 [-3.0, +2.6]
#: at 6 solo (experiments/RESULTS.md, "Crazy above Hard at the other tables", issue 45).
CRAZY_BID_AWARE = "one_deck"
#: ``bidder``: how Hard and Crazy bid. ``"search"``: their Monte Carlo over the candidate bids
#: (``montecarlo.search.mc_bid``); ``"learned"``: a sighted bid at the table of four in pairs by
#: the learned agent's bidder (the shipped model, ``models.bidder``), a network's cost a bid; a
#: blind nil and every bid at another table stay the search's (``search.learned_bids_here``).
#: Learned for Hard: on 1,000 fresh deals it gained +6.6 [+4.3, +8.8] a deal over Hard's own
#: bidding against Normal, beat it head to head by +6.0 [+3.2, +8.8] and was set in 9.1% of its
#: contracts against Hard's 12.6% (``hard_learned_bids``, experiments/RESULTS.md, issue 36 item
#: 4). Crazy keeps its search: with the learned bids it was level with its own bidding on 120
#: fresh deals (+1.8 [-3.1, +6.7] paired against Normal, -3.4 [-8.7, +1.8] head to head;
#: ``crazy_learned_bids``).
BIDDERS = ("search", "learned")
HARD_BIDDER = "learned"
CRAZY_BIDDER = "search"
#: ``out`` where no candidate's value is wanted
_NO_VALUES = np.empty(0)


class MonteCarloAgent(BuiltinAgent):
    """Hard or Crazy. ``module`` is the search bound to its rollout policy (``montecarlo.search``
    itself for Normal). From Python it also counts its decisions and how many bid-aware ones
    tempered collapsing world weights toward uniform (``stats``). Every option plays every
    table (exact finishes off four in pairs: the side against every other seat,
    ``montecarlo.finishes``) except a learned ``play_model`` and a rollout policy of four in
    pairs only, which ``check_table`` refuses at another table by name."""

    def __init__(self, name: str, options: dict, defaults: dict):
        # the search without the parts these options never use (exact finishes, weighted
        # worlds), which would be most of what it compiles
        self.module = binding.bound(options["rollout"], exact=options["solver_tricks"] > 0,
                                    weighted=options["bid_aware"] is not False or options["read_play"]).search
        m = _search
        params = np.zeros(len(m.MC_PARAMS), dtype=np.int64)
        params[m.MC_SEED] = seed_param(options["seed"])
        params[m.MC_WORLDS] = options["worlds"]
        params[m.MC_ROLLOUTS] = options["rollouts"]
        params[m.MC_BID_AWARE] = m.BID_AWARE_CODES[options["bid_aware"]]
        params[m.MC_SOLVER_TRICKS] = options["solver_tricks"]
        params[m.MC_BLIND_NIL] = options["blind_nil"]
        params[m.MC_RACING] = options["racing"]
        params[m.MC_THRIFT] = options["thrift"]
        params[m.MC_PLAY_EPS] = round(options["play_noise"] * m.PLAY_EPS_SCALE) if options["read_play"] else 0
        params[m.MC_UTILITY] = UTILITIES.index(options["utility"])
        if options["play_model"] is not None:
            if not options["read_play"]:
                raise ValueError(f"{name}: play_model is the model of the reading of the play: give read_play=True with it")
            params, params[m.MC_PLAY_MODEL] = packed_after(params, options["play_model"])
        #: whether it bids like the learned agent (``bidder="learned"``), not by its search
        self.learned_bids = options["bidder"] == "learned"
        if self.learned_bids:
            params, params[m.MC_BID_MODEL] = packed_after(params, "default")
        bid = self.module.mc_agent_learned_bid if self.learned_bids else self.module.mc_agent_bid
        #: what ``search.mc_decide`` is asked for a sighted bid
        self.bid_what = m.DECIDE_LEARNED_BID if self.learned_bids else m.DECIDE_BID
        super().__init__(name, bid, self.module.mc_agent_play, params, options, defaults, self.module.mc_agent_pass)
        #: decisions taken through ``bid``/``play`` and how many bid-aware ones fell back to
        #: uniform worlds (the numba self-play loop does not count)
        self.stats = {"decisions": 0, "uniform_fallbacks": 0}

    def check_table(self, rules) -> None:
        """Refuse (``TableError``), naming the agent and the table, a table other than 4 players
        in pairs with a learned ``play_model`` (a model of that table), a table of several decks
        with ``read_play`` (its replay of the play holds one copy of a card), and any table its
        rollout policy refuses."""
        if self.options["read_play"]:
            require_table(rules, dataclasses.replace(part("play_noise"), name=f"agent {self.label!r} with read_play=True"))
        if self.options["play_model"] is not None:
            require_table(rules, dataclasses.replace(part("play_model"), name=f"agent {self.label!r} with play_model="
                                                     f"{self.options['play_model']!r}"))
        if self.options["rollout"] is not None:
            self.options["rollout"].check_table(rules)

    def search_args(self, obs: Observation) -> tuple:
        """``(pub, seat, hand, rules, settings, state)``: what the search kernels (``module``'s
        ``mc_bid`` / ``mc_play`` / ``evaluate``) take at ``obs``, as this agent decides there."""
        self.check_table(obs.rules)
        hand = obs.engine_cards
        state = np.uint64(decision_stream(self.params[_search.MC_SEED], obs.public, obs.seat, hand))  # numba gives an int
        return obs.public, obs.seat, hand, obs.rules_array, self.module.settings_of(self.params, obs.rules_array), state

    # -- from Python: every question through the search's one entry, ``mc_decide`` ------------
    def _decide(self, obs: Observation, hand, legal: int, what: int, out: np.ndarray) -> tuple[int, bool]:
        self.check_table(obs.rules)
        action, fell_back = self.module.mc_decide(obs.public, obs.seat, hand, np.int64(legal), obs.rules_array, self.params,
                                                  out, what)  # fmt: skip
        return int(action), bool(fell_back)

    def decide(self, obs: Observation, out: np.ndarray | None = None) -> int:
        """The bid or the card (its engine id) the search chooses at ``obs``, as the self-play
        loop decides it there; each candidate's value written into ``out`` when given (18 by
        bid, 56 by card id; ``montecarlo.decision_values``)."""
        hand = obs.engine_cards
        out = _NO_VALUES if out is None else out
        if obs.phase == "bidding":
            legal = int(legal_bids(obs.seat, hand, obs.public, obs.rules_array)) & BID_BITS
            action, fell_back = self._decide(obs, hand, legal, self.bid_what, out)
            if not legal >> action & 1:
                raise IllegalBidError(f"agent {self.label!r} at seat {obs.seat} bid {action}, which is not legal here")
        else:
            legal = int(legal_now(obs.public, hand, obs.rules_array))
            action, fell_back = self._decide(obs, hand, legal, _search.DECIDE_CARD, out)
        if out is _NO_VALUES:
            self._tally(fell_back)
        return action

    def blind_nil(self, obs: Observation) -> bool:
        """Asked before the seat sees its cards, when the rules allow it a blind nil."""
        legal = (1 << BLIND_NIL_BIT) | 1
        return self._decide(obs, np.uint64(0), legal, self.bid_what, _NO_VALUES)[0] == BLIND_NIL_BIT

    def bid(self, obs: Observation) -> int:
        return self.decide(obs)

    def play(self, obs: Observation) -> Card:
        return obs.rules.engine_card(self.decide(obs))

    def _tally(self, fell_back: bool) -> None:
        self.stats["decisions"] += 1
        self.stats["uniform_fallbacks"] += bool(fell_back)
