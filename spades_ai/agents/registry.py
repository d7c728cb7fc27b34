"""The built-in agents by name: ``make_agent`` / ``list_agents`` and what each option takes.

An agent is any object with a ``name``, ``bid(obs) -> int`` (0 = nil) and
``play(obs) -> card`` (``policies.agent.Agent``); the built-ins are kernel agents
(``BuiltinAgent``): random, Easy and Normal (``policies``), Hard and Crazy (``agents.hard``) and
ISMCTS (``agents.ismcts``), the last three searching with ``spades_ai.montecarlo``, and the
learned agent (``spades_ai.models``: networks fitted on the toolkit's hands, weights in a file).

>>> agent = make_agent("normal")
>>> agent.name
'normal'
>>> make_agent("easy", careless=0.5).options
{'seed': 0, 'careless': 0.5}
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from spades_ai.agents import options as opt
from spades_ai.agents.builtin import BuiltinAgent, seed_param
from spades_ai.agents.grammar import check_target, load_target, parse_options, split_spec
from spades_ai.agents.hard import (
    CRAZY_BID_AWARE,
    CRAZY_BIDDER,
    CRAZY_PLAY_NOISE,
    CRAZY_READ_PLAY,
    CRAZY_ROLLOUTS,
    CRAZY_SOLVER_TRICKS,
    CRAZY_RACING,
    CRAZY_THRIFT,
    CRAZY_WORLDS,
    HARD_BIDDER,
    HARD_RACING,
    HARD_ROLLOUTS,
    HARD_SOLVER_TRICKS,
    HARD_THRIFT,
    HARD_WORLDS,
    MonteCarloAgent,
)
from spades_ai.agents.ismcts import ISMCTS_EXPLORATION, ISMCTS_ITERATIONS, ISMCTS_UTILITY, IsmctsAgent
from spades_ai.checks import check_seed
from spades_ai.models.bidder import learned_bid
from spades_ai.models.model import load_models, models_part, pack_models
from spades_ai.models.player import learned_play
from spades_ai.montecarlo.utility import DEFAULT_UTILITY
from spades_ai.policies import easy, normal
from spades_ai.policies.kernel_agent import KernelAgent


def check_rollout(v):
    """The rollout policy of Hard, Crazy or ISMCTS: None (Normal), a kernel agent, or a spec
    (``"easy:careless=0.5"``, ``"mymod:AGENT"``)."""
    if v is None:
        return None
    if isinstance(v, str):
        name, target, rest = split_spec(v.strip())
        options = parse_options(rest, v) if rest else {}
        if target is None:
            v = make_agent(name, **options)
        else:
            check_target(target, v)
            v = load_target(target, options)
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
    "easy": _Spec("rough-count bidder, never nil, often careless", {**_COMMON, "careless": (0.3, opt.check_probability)}),
    "normal": _Spec(
        "counting bidder, plays for the contract, covers and attacks nils",
        {**_COMMON, "blind_nil": (True, opt.check_flag)},
    ),
    "hard": _Spec(
        "Monte Carlo over sampled worlds that fit the play, rollouts by a fast policy (Normal)",
        {**_COMMON, "worlds": (HARD_WORLDS, opt.check_worlds), "rollouts": (HARD_ROLLOUTS, opt.check_rollouts), "bid_aware": (False, opt.check_bid_aware),
         "rollout": (None, check_rollout), "solver_tricks": (HARD_SOLVER_TRICKS, opt.check_solver_tricks),
         "blind_nil": (True, opt.check_flag), "racing": (HARD_RACING, opt.check_flag),
         "thrift": (HARD_THRIFT, opt.check_flag), "read_play": (False, opt.check_flag), "play_noise": (CRAZY_PLAY_NOISE, opt.check_noise),
         "play_model": (None, opt.check_play_model), "utility": (DEFAULT_UTILITY, opt.check_utility),
         "bidder": (HARD_BIDDER, opt.check_bidder)},
    ),  # fmt: skip
    "crazy": _Spec(
        "Hard with far more worlds, weighted by how well they explain the bids where one deck is dealt "
        "(and, read_play=True, the cards played)",
        {**_COMMON, "worlds": (CRAZY_WORLDS, opt.check_worlds), "rollouts": (CRAZY_ROLLOUTS, opt.check_rollouts), "bid_aware": (CRAZY_BID_AWARE, opt.check_bid_aware),
         "rollout": (None, check_rollout), "solver_tricks": (CRAZY_SOLVER_TRICKS, opt.check_solver_tricks),
         "blind_nil": (True, opt.check_flag), "racing": (CRAZY_RACING, opt.check_flag),
         "thrift": (CRAZY_THRIFT, opt.check_flag), "read_play": (CRAZY_READ_PLAY, opt.check_flag), "play_noise": (CRAZY_PLAY_NOISE, opt.check_noise),
         "play_model": (None, opt.check_play_model), "utility": (DEFAULT_UTILITY, opt.check_utility),
         "bidder": (CRAZY_BIDDER, opt.check_bidder)},
    ),  # fmt: skip
    "ismcts": _Spec(
        "information-set MCTS over fresh determinizations (availability counts), Hard's bidding",
        {**_COMMON, "iterations": (ISMCTS_ITERATIONS, opt.check_iterations), "exploration": (ISMCTS_EXPLORATION, opt.check_exploration),
         "bid_aware": (False, opt.check_flag), "bid_worlds": (HARD_WORLDS, opt.check_bid_worlds), "rollout": (None, check_rollout),
         "utility": (ISMCTS_UTILITY, opt.check_tree_utility)},
    ),  # fmt: skip
    "learned": _Spec(
        "networks fitted on the toolkit's own hands: bids by expected score, plays as it learned from Hard (spades_ai.models)",
        {"model": ("default", opt.check_model)},
    ),
}
#: ``blind_nil=False`` keeps Normal, Hard or Crazy from ever bidding blind nil, even where the
#: rules allow it (to measure what the option is worth); random and Easy never bid it.



def _build(name: str, values: dict) -> BuiltinAgent:
    defaults = {k: d for k, (d, _) in BUILTINS[name].options.items()}
    if name == "learned":  # deterministic: no seed
        models = load_models(values["model"])  # its part: the tables of its models (of each shipped one, by default)
        return BuiltinAgent(name, learned_bid, learned_play, pack_models(models), values, defaults, normal.normal_agent_pass,
                            tables_part=models_part(models, "the learned model"))  # fmt: skip
    seed = seed_param(values["seed"])
    if name == "random":
        return BuiltinAgent(name, easy.random_agent_bid, easy.random_agent_play, [seed], values, defaults, easy.random_agent_pass)
    if name == "easy":
        careless = round(values["careless"] * 1000)
        return BuiltinAgent(name, easy.easy_agent_bid, easy.easy_agent_play, [seed, careless], values, defaults, easy.easy_agent_pass)
    if name == "normal":
        bid = normal.normal_agent_bid if values["blind_nil"] else normal.normal_agent_bid_sighted
        return BuiltinAgent(name, bid, normal.normal_agent_play, None, values, defaults, normal.normal_agent_pass)
    if name == "ismcts":
        return IsmctsAgent(values, defaults)
    return MonteCarloAgent(name, values, defaults)


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
    once it is clearly worse than the best so far (``montecarlo.search.evaluate``). The rollout
    policy plays out every world of the agent's search, its bids' included (ISMCTS with
    ``bid_worlds=0`` bids as that policy). Hard's and Crazy's ``utility=`` says what a hand is
    worth to their side when there are several others: ``"own"`` (its own points),
    ``"paranoid"`` (its points minus the best other side's) or ``"mean"`` (minus the mean of
    the others'); with two sides the last two are the same (``montecarlo.utility``). ISMCTS's
    ``utility=`` takes these three (the searching side's value, which every other side
    minimizes in the tree) and ``"vector"``, its default: one value per side at every node,
    each side choosing by its own (max^n); at two sides all but ``"own"`` play alike.
    ``bidder="learned"`` makes Hard or Crazy bid like the learned agent (its shipped model's
    bidder, at a network's cost a bid) at the table of four in pairs, a blind nil still decided
    by the search; ``"search"`` bids by their Monte Carlo.

    >>> make_agent("crazy", bidder="learned").label
    'crazy(bidder=learned)'
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


def __getattr__(name: str):
    # deprecated: the agent interface moved to spades_ai.policies.agent
    if name in ("Agent", "default_pass"):
        import warnings

        from spades_ai.policies import agent

        warnings.warn(f"spades_ai.agents.registry.{name} is spades_ai.policies.agent.{name}", DeprecationWarning,
                      stacklevel=2)
        return getattr(agent, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
