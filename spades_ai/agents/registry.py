"""The agent interface, the built-in agents and ``make_agent`` / ``list_agents``.

An agent is any object with a ``name``, ``bid(obs) -> int`` (0 = nil) and
``play(obs) -> card`` (a ``Card``, a string such as ``"AS"`` or an id); it may also have
``blind_nil(obs) -> bool``, asked before it sees its cards when the rules allow a blind nil.

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

from spades_ai.agents import dispatch as _d
from spades_ai.cards import DECK, Card
from spades_ai.checks import check_seed
from spades_ai.observation import Observation


@runtime_checkable
class Agent(Protocol):
    """What the harness needs of an agent."""

    name: str

    def bid(self, obs: Observation) -> int: ...

    def play(self, obs: Observation) -> Card | str | int: ...


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


@dataclass(frozen=True)
class _Spec:
    kind: int
    description: str
    options: dict[str, tuple[Any, Callable]] = field(default_factory=dict)


_COMMON = {"seed": (0, check_seed)}
BUILTINS: dict[str, _Spec] = {
    "random": _Spec(_d.KIND_RANDOM, "uniformly random legal bids and cards", dict(_COMMON)),
    "easy": _Spec(
        _d.KIND_EASY,
        "rough-count bidder, never nil, often careless",
        {**_COMMON, "careless": (0.3, _probability)},
    ),
    "normal": _Spec(_d.KIND_NORMAL, "counting bidder, plays for the contract, covers and attacks nils", dict(_COMMON)),
    "hard": _Spec(
        _d.KIND_HARD,
        "Monte Carlo over sampled worlds that fit the play, Normal rollouts",
        {**_COMMON, "worlds": (HARD_WORLDS, _worlds), "rollouts": (HARD_ROLLOUTS, _rollouts), "bid_aware": (False, _flag)},
    ),
    "crazy": _Spec(
        _d.KIND_CRAZY,
        "Hard with far more worlds, weighted by how well they explain the bids",
        {**_COMMON, "worlds": (CRAZY_WORLDS, _worlds), "rollouts": (CRAZY_ROLLOUTS, _rollouts), "bid_aware": (True, _flag)},
    ),
}


class BuiltinAgent:
    """A built-in agent: a numba kernel kind plus its parameters. Made by ``make_agent``."""

    def __init__(self, name: str, kind: int, options: dict):
        self.name = name
        self.kind = kind
        self.options = dict(options)
        params = np.zeros(_d.N_PARAMS, dtype=np.int64)
        params[_d.PARAM_SEED] = np.uint64(options["seed"]).view(np.int64)  # the full uint64 range
        if "careless" in options:
            params[_d.PARAM_CARELESS] = round(options["careless"] * 1000)
        if "worlds" in options:
            params[_d.PARAM_WORLDS] = options["worlds"]
            params[_d.PARAM_ROLLOUTS] = options["rollouts"]
            params[_d.PARAM_BID_AWARE] = options["bid_aware"]
        params.setflags(write=False)
        self.params = params
        self._kinds = np.full(4, kind, dtype=np.int64)
        self._params = np.ascontiguousarray(np.broadcast_to(params, (4, _d.N_PARAMS)))
        #: decisions taken through ``bid``/``play`` and how many bid-aware ones fell back to
        #: uniform worlds (the numba self-play loop does not count)
        self.stats = {"decisions": 0, "uniform_fallbacks": 0}

    def bid(self, obs: Observation) -> int:
        b, fell_back = _d.agent_bid(self._kinds, self._params, obs.public, obs.seat, np.uint64(obs.cards), obs.rules_array)
        self._tally(fell_back)
        return int(b)

    def play(self, obs: Observation) -> Card:
        c, fell_back = _d.agent_play(self._kinds, self._params, obs.public, obs.seat, np.uint64(obs.cards), obs.rules_array)
        self._tally(fell_back)
        return DECK[c]

    def _tally(self, fell_back: bool) -> None:
        self.stats["decisions"] += 1
        self.stats["uniform_fallbacks"] += bool(fell_back)

    def blind_nil(self, obs: Observation) -> bool:
        return False

    @property
    def label(self) -> str:
        """The name with any non-default options: ``easy(careless=0.5)``."""
        spec = BUILTINS[self.name]
        extra = {k: v for k, v in self.options.items() if v != spec.options[k][0]}
        return self.name + (f"({', '.join(f'{k}={v}' for k, v in extra.items())})" if extra else "")

    def __repr__(self) -> str:
        return f"make_agent({self.name!r}, {', '.join(f'{k}={v!r}' for k, v in self.options.items())})"


def list_agents() -> dict[str, str]:
    """The built-in agents' names, each with a one-line description."""
    return {name: spec.description for name, spec in BUILTINS.items()}


def make_agent(name: str, **options) -> BuiltinAgent:
    """A built-in agent by name; unknown names and options are refused with the valid ones."""
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
    return BuiltinAgent(name, spec.kind, values)
