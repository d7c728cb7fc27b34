"""The agent interface, the built-in agents and ``make_agent`` / ``list_agents``.

An agent is any object with a ``name``, ``bid(obs) -> int`` (0 = nil) and
``play(obs) -> card`` (a ``Card``, a string such as ``"AS"`` or an id); it may also have
``blind_nil(obs) -> bool``, asked before it sees its cards when the rules allow a blind nil,
and ``pass_cards(obs) -> list of cards``, asked when the rules pass cards (``obs.pass_count``
of its cards; an agent without it passes its highest cards, ``default_pass``).

>>> agent = make_agent("normal")
>>> agent.name
'normal'
>>> make_agent("easy", careless=0.5).options
{'seed': 0, 'careless': 0.5}
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Protocol, runtime_checkable

import numpy as np

from spades_ai.agents.kernel_agent import KernelAgent
from spades_ai.cards import Card
from spades_ai.checks import check_seed
from spades_ai.observation import Observation


@runtime_checkable
class Agent(Protocol):
    """What the harness needs of an agent. ``play_hands`` plays many deals at once and may ask
    a Python agent about several hands in turn, so its decisions should depend on the
    observation alone (``check_agent`` checks that), not on the order of the questions."""

    name: str

    def bid(self, obs: Observation) -> int: ...

    def play(self, obs: Observation) -> Card | str | int: ...


def default_pass(obs: Observation) -> list[Card]:
    """The pass of an agent that has no ``pass_cards``: its ``obs.pass_count`` highest cards
    (by rank; a spade before a side card of the same rank), as ``kernels.default_pass``."""
    from spades_ai.kernels import default_pass as _default

    mask = int(_default(obs.public, obs.seat, obs.engine_cards, np.int64(obs.pass_count), obs.rules_array))
    return list(obs.rules.engine_cards(mask))


def _probability(v) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0.0 <= v <= 1.0:
        raise ValueError(f"must be a probability in [0, 1], not {v!r}")
    return float(v)


def _worlds(v) -> int:
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or not 1 <= int(v) <= 100_000:
        raise ValueError(f"must be an int in 1..100000, not {v!r}")
    return int(v)


def _rollouts(v) -> int:
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or not 0 <= int(v) <= 10_000_000:
        raise ValueError(f"must be an int in 0..10000000 (0: no cap), not {v!r}")
    return int(v)


def _iterations(v) -> int:
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or not 1 <= int(v) <= 1_000_000:
        raise ValueError(f"must be an int in 1..1000000, not {v!r}")
    return int(v)


def _bid_worlds(v) -> int:
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or not 0 <= int(v) <= 100_000:
        raise ValueError(f"must be an int in 0..100000 (0: bid as Normal), not {v!r}")
    return int(v)


def _exploration(v) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float, np.integer, np.floating)) or not 0.0 <= float(v) <= 1e6:
        raise ValueError(f"must be a number of points in 0..1000000, not {v!r}")
    return float(v)


def _solver_tricks(v) -> int:
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or not 0 <= int(v) <= 13:
        raise ValueError(f"must be an int in 0..13 (tricks solved exactly at the end of each rollout; 0: none), not {v!r}")
    return int(v)


def _noise(v) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0.0 < v < 1.0:
        raise ValueError(f"must be a probability strictly between 0 and 1, not {v!r}")
    return float(v)


def _flag(v) -> bool:
    if not isinstance(v, bool):
        raise ValueError(f"must be True or False, not {v!r}")
    return v


#: Budgets: ``worlds`` sampled per decision; ``rollouts`` caps the playouts of one decision
#: (a playout per world and candidate card or bid; 0: no cap), which bounds the time of the
#: decisions with many candidates. Chosen for the time targets: benchmarks/RESULTS.md.
HARD_WORLDS = 512
HARD_ROLLOUTS = 0
CRAZY_WORLDS = 4096
CRAZY_ROLLOUTS = 24_576
#: ISMCTS: iterations (one determinization and one playout each) per card. Chosen for a median
#: decision <= 10 ms CPU: experiments/RESULTS.md.
ISMCTS_ITERATIONS = 5000
#: ISMCTS's UCB exploration constant, in points of Hard's utility (tuned: experiments/RESULTS.md).
ISMCTS_EXPLORATION = 150.0
#: ``solver_tricks``: the last tricks of every rollout are solved exactly (with every card of
#: the world visible, both teams playing their best on Hard's utility) instead of played by the
#: rollout policy; a card chosen that late gets its exact value in each world. 0: none.
#: Hard keeps 0: its best strength per millisecond within its 5 ms budget. Crazy finishes the
#: last 3 tricks of every world exactly: on the same 2,000 deals of seed 61 against Hard it
#: gained over Crazy without them (``crazy_leaves_paired``, experiments/RESULTS.md, issue 11), at a
#: median decision of 45 ms (within its 100 ms budget).
HARD_SOLVER_TRICKS = 0
CRAZY_SOLVER_TRICKS = 3
#: ``racing``: candidates clearly worse than the leader over the first worlds stop playing
#: worlds (``agents.hard.evaluate``); the final choice is still anchored on Normal's. On for
#: Hard: its strength is unchanged at 28% less CPU per decision. Off for Crazy: on the same 300
#: deals against two Hards, Crazy without racing scored +2.5 [+0.2, +4.8] per deal more than
#: with it (experiments/RESULTS.md, issue 11 item 4, and ``crazy_noracing_vs_hard``).
HARD_RACING = True
CRAZY_RACING = False
#: ``thrift``: of the cards with the same effect on the current trick, play the cheapest unless
#: the rollouts show the dearer one gains (``agents.hard.thrifty_choice``; issue 11, item 6). On
#: by default: a quarter less waste, its noise share from 33% to 3%, strength unchanged.
HARD_THRIFT = True
CRAZY_THRIFT = True
#: ``read_play``: weigh the worlds by how likely the other seats' cards played so far are under
#: Normal's play with noise ``play_noise`` (``agents.inference``; 0.3 fits Hard's play best).
#: Off by default: on 550 paired deals against Hard it measured -2.9 [-7.6, +1.7] per deal
#: against Crazy without it (experiments/RESULTS.md, issue 11, item 3).
CRAZY_READ_PLAY = False
CRAZY_PLAY_NOISE = 0.3


def _rollout(v):
    """The rollout policy of Hard or Crazy: None (Normal), a kernel agent, or a name/spec."""
    if v is None:
        return None
    if isinstance(v, str):
        from spades_ai.tournament.schedule import parse_agent

        v = parse_agent(v).build()
    if not isinstance(v, KernelAgent):
        raise ValueError(f"must be a kernel agent (a built-in or spades_ai.kernel_agent(...)), not {v!r}")
    if isinstance(v, (MonteCarloAgent, IsmctsAgent)):
        raise ValueError(f"{v.label} searches itself: a rollout policy must be a fast agent (random, easy, normal, a kernel agent)")
    return v


@dataclass(frozen=True)
class _Spec:
    description: str
    options: dict[str, tuple[Any, Callable]] = field(default_factory=dict)


_COMMON = {"seed": (0, check_seed)}
BUILTINS: dict[str, _Spec] = {
    "random": _Spec("uniformly random legal bids and cards", dict(_COMMON)),
    "easy": _Spec("rough-count bidder, never nil, often careless", {**_COMMON, "careless": (0.3, _probability)}),
    "normal": _Spec(
        "counting bidder, plays for the contract, covers and attacks nils",
        {**_COMMON, "blind_nil": (True, _flag)},
    ),
    "hard": _Spec(
        "Monte Carlo over sampled worlds that fit the play, rollouts by a fast policy (Normal)",
        {**_COMMON, "worlds": (HARD_WORLDS, _worlds), "rollouts": (HARD_ROLLOUTS, _rollouts), "bid_aware": (False, _flag),
         "rollout": (None, _rollout), "solver_tricks": (HARD_SOLVER_TRICKS, _solver_tricks),
         "blind_nil": (True, _flag), "racing": (HARD_RACING, _flag),
         "thrift": (HARD_THRIFT, _flag), "read_play": (False, _flag), "play_noise": (CRAZY_PLAY_NOISE, _noise)},
    ),  # fmt: skip
    "crazy": _Spec(
        "Hard with far more worlds, weighted by how well they explain the bids (and, read_play=True, the cards played)",
        {**_COMMON, "worlds": (CRAZY_WORLDS, _worlds), "rollouts": (CRAZY_ROLLOUTS, _rollouts), "bid_aware": (True, _flag),
         "rollout": (None, _rollout), "solver_tricks": (CRAZY_SOLVER_TRICKS, _solver_tricks),
         "blind_nil": (True, _flag), "racing": (CRAZY_RACING, _flag),
         "thrift": (CRAZY_THRIFT, _flag), "read_play": (CRAZY_READ_PLAY, _flag), "play_noise": (CRAZY_PLAY_NOISE, _noise)},
    ),  # fmt: skip
    "ismcts": _Spec(
        "information-set MCTS over fresh determinizations (availability counts), Hard's bidding",
        {**_COMMON, "iterations": (ISMCTS_ITERATIONS, _iterations), "exploration": (ISMCTS_EXPLORATION, _exploration),
         "bid_aware": (False, _flag), "bid_worlds": (HARD_WORLDS, _bid_worlds), "rollout": (None, _rollout)},
    ),  # fmt: skip
}
#: ``blind_nil=False`` keeps Normal, Hard or Crazy from ever bidding blind nil, even where the
#: rules allow it (to measure what the option is worth); random and Easy never bid it.


def _seed_param(seed: int) -> int:
    return int(np.uint64(seed).view(np.int64))  # the full uint64 range in an int64 slot


class BuiltinAgent(KernelAgent):
    """A built-in agent: a kernel agent made by ``make_agent``, shown with its options."""

    def __init__(self, name: str, bid, play, params, options: dict, pass_=None):
        spec = BUILTINS[name]
        extra = {k: v for k, v in options.items() if v != spec.options[k][0]}
        shown = {k: (v.label if isinstance(v, KernelAgent) else v) for k, v in extra.items()}
        label = name + (f"({', '.join(f'{k}={v}' for k, v in shown.items())})" if shown else "")
        super().__init__(name, bid, play, pass_=pass_, params=params, options=options, label=label)

    def __repr__(self) -> str:
        return f"make_agent({self.name!r}, {', '.join(f'{k}={v!r}' for k, v in self.options.items())})"


class MonteCarloAgent(BuiltinAgent):
    """Hard or Crazy. From Python it also counts its decisions and how many bid-aware ones
    tempered collapsing world weights toward uniform (``stats``)."""

    def __init__(self, name: str, options: dict):
        from spades_ai.agents import hard
        from spades_ai.agents.codegen import rollout_module

        self.module = hard if options["rollout"] is None else rollout_module(options["rollout"])
        params = np.zeros(len(hard.MC_PARAMS), dtype=np.int64)
        params[hard.P_MC_SEED] = _seed_param(options["seed"])
        params[hard.P_MC_WORLDS] = options["worlds"]
        params[hard.P_MC_ROLLOUTS] = options["rollouts"]
        params[hard.P_MC_BID_AWARE] = options["bid_aware"]
        params[hard.P_MC_SOLVER_TRICKS] = options["solver_tricks"]
        params[hard.P_MC_BLIND_NIL] = options["blind_nil"]
        params[hard.P_MC_RACING] = options["racing"]
        params[hard.P_MC_THRIFT] = options["thrift"]
        params[hard.P_MC_PLAY_EPS] = round(options["play_noise"] * hard.PLAY_EPS_SCALE) if options["read_play"] else 0
        super().__init__(name, self.module.mc_agent_bid, self.module.mc_agent_play, params, options, self.module.mc_agent_pass)
        #: decisions taken through ``bid``/``play`` and how many bid-aware ones fell back to
        #: uniform worlds (the numba self-play loop does not count)
        self.stats = {"decisions": 0, "uniform_fallbacks": 0}

    def _mc(self, obs: Observation):
        from spades_ai.kernels import decision_stream

        hand = obs.engine_cards
        p = self.params
        state = np.uint64(decision_stream(p[0], obs.public, obs.seat, hand))  # numba returns a uint64 as an int
        play_eps = p[self.module.P_MC_PLAY_EPS] / self.module.PLAY_EPS_SCALE
        return (obs.public, obs.seat, hand, obs.rules_array), (p[1], p[2], p[3] != 0, state, p[4], self.module.race_z_of(p), play_eps)

    def bid(self, obs: Observation) -> int:
        (pub, seat, hand, rules), (worlds, rollouts, aware, state, solver_tricks, race_z, _) = self._mc(obs)
        from spades_ai.engine.bids import legal_bids

        legal = np.int64(legal_bids(seat, hand, pub, rules) & 0x3FFF)
        b, fell_back = self.module.mc_bid(pub, seat, hand, rules, legal, worlds, rollouts, aware, state, solver_tricks, race_z)
        self._tally(fell_back)
        return int(b)

    def play(self, obs: Observation) -> Card:
        (pub, seat, hand, rules), (worlds, rollouts, aware, state, solver_tricks, race_z, play_eps) = self._mc(obs)
        from spades_ai.engine.state import legal_now

        legal = np.uint64(legal_now(pub, hand, rules))  # numba hands a uint64 back as a Python int
        c, fell_back = self.module.mc_play(pub, seat, hand, rules, legal, worlds, rollouts, aware, state, solver_tricks, race_z,
                                            self.params[self.module.P_MC_THRIFT] != 0, play_eps)
        self._tally(fell_back)
        return obs.rules.engine_card(int(c).bit_length() - 1)

    def _tally(self, fell_back: bool) -> None:
        self.stats["decisions"] += 1
        self.stats["uniform_fallbacks"] += bool(fell_back)


class IsmctsAgent(BuiltinAgent):
    """ISMCTS (``agents.ismcts``): the play searched by single-observer information-set MCTS,
    the bids Hard's (``bid_worlds`` worlds) or Normal's (``bid_worlds=0``)."""

    def __init__(self, options: dict):
        from spades_ai.agents import ismcts
        from spades_ai.agents.codegen import rollout_module

        policy = options["rollout"]
        self.module = ismcts if policy is None else rollout_module(policy, "spades_ai.agents.ismcts")
        params = np.zeros(len(ismcts.ISMCTS_PARAMS), dtype=np.int64)
        params[ismcts.P_IS_SEED] = _seed_param(options["seed"])
        params[ismcts.P_IS_ITERATIONS] = options["iterations"]
        params[ismcts.P_IS_EXPLORATION] = round(options["exploration"] * 1000)
        params[ismcts.P_IS_BID_AWARE] = options["bid_aware"]
        params[ismcts.P_IS_BID_WORLDS] = options["bid_worlds"]
        super().__init__("ismcts", self.module.ismcts_agent_bid, self.module.ismcts_agent_play, params, options)


def _build(name: str, values: dict) -> BuiltinAgent:
    from spades_ai.agents import easy, normal

    seed = _seed_param(values["seed"])
    if name == "random":
        return BuiltinAgent(name, easy.random_agent_bid, easy.random_agent_play, [seed], values, easy.random_agent_pass)
    if name == "easy":
        careless = round(values["careless"] * 1000)
        return BuiltinAgent(name, easy.easy_agent_bid, easy.easy_agent_play, [seed, careless], values, easy.easy_agent_pass)
    if name == "normal":
        bid = normal.normal_agent_bid if values["blind_nil"] else normal.normal_agent_bid_sighted
        return BuiltinAgent(name, bid, normal.normal_agent_play, None, values, normal.normal_agent_pass)
    if name == "ismcts":
        return IsmctsAgent(values)
    return MonteCarloAgent(name, values)


def list_agents() -> dict[str, str]:
    """The built-in agents' names, each with a one-line description."""
    return {name: spec.description for name, spec in BUILTINS.items()}


def make_agent(name: str, **options) -> BuiltinAgent:
    """A built-in agent by name; unknown names and options are refused with the valid ones.

    Hard, Crazy and ISMCTS take ``rollout=``: the policy that plays out every sampled world (a
    kernel agent, or a name such as ``"easy"``; Normal by default). Hard and Crazy also take
    ``solver_tricks=k`` (0..13): the last ``k`` tricks of every world are solved exactly on
    Hard's utility rather than played by that policy (0: none; each trick more costs time, see
    ``benchmarks/RESULTS.md``). ``racing=True`` stops playing worlds with a candidate card or bid
    once it is clearly worse than the best so far (``agents.hard.evaluate``).

    >>> make_agent("ismcts", iterations=500).label
    'ismcts(iterations=500)'
    """
    spec = BUILTINS.get(name)
    if spec is None:
        raise ValueError(f"unknown agent {name!r}; built-in agents: {', '.join(BUILTINS)}")
    unknown = sorted(set(options) - set(spec.options))
    if unknown:
        raise ValueError(f"agent {name!r} has no option {', '.join(map(repr, unknown))}; its options: {', '.join(spec.options)}")
    values = {}
    for key, (default, check) in spec.options.items():
        try:
            values[key] = check(options.get(key, default))
        except ValueError as exc:
            raise ValueError(f"agent {name!r} option {key!r}: {exc}") from None
    return _build(name, values)
