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
from spades_ai.observation import Observation


@runtime_checkable
class Agent(Protocol):
    """What the harness needs of an agent."""

    name: str

    def bid(self, obs: Observation) -> int: ...

    def play(self, obs: Observation) -> Card | str | int: ...


def _seed(v) -> int:
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or not 0 <= int(v) < 2**63:
        raise ValueError(f"seed must be an int in 0..2**63-1, not {v!r}")
    return int(v)


def _probability(v) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0.0 <= v <= 1.0:
        raise ValueError(f"must be a probability in [0, 1], not {v!r}")
    return float(v)


@dataclass(frozen=True)
class _Spec:
    kind: int
    description: str
    options: dict[str, tuple[Any, Callable]] = field(default_factory=dict)


_COMMON = {"seed": (0, _seed)}
BUILTINS: dict[str, _Spec] = {
    "random": _Spec(_d.KIND_RANDOM, "uniformly random legal bids and cards", dict(_COMMON)),
    "easy": _Spec(
        _d.KIND_EASY,
        "rough-count bidder, never nil, often careless",
        {**_COMMON, "careless": (0.3, _probability)},
    ),
    "normal": _Spec(_d.KIND_NORMAL, "counting bidder, plays for the contract, covers and attacks nils", dict(_COMMON)),
}


class BuiltinAgent:
    """A built-in agent: a numba kernel kind plus its parameters. Made by ``make_agent``."""

    def __init__(self, name: str, kind: int, options: dict):
        self.name = name
        self.kind = kind
        self.options = dict(options)
        params = np.zeros(_d.N_PARAMS, dtype=np.int64)
        params[_d.PARAM_SEED] = options["seed"]
        if "careless" in options:
            params[_d.PARAM_CARELESS] = round(options["careless"] * 1000)
        params.setflags(write=False)
        self.params = params

    def bid(self, obs: Observation) -> int:
        b, _ = _d.agent_bid(*self._seat_arrays(obs.seat), obs.public, obs.seat, np.uint64(obs.hand), obs.rules_array)
        return int(b)

    def play(self, obs: Observation) -> Card:
        return DECK[_d.agent_play(*self._seat_arrays(obs.seat), obs.public, obs.seat, np.uint64(obs.hand), obs.rules_array)]

    def _seat_arrays(self, seat: int):
        """The (kinds, params) tables the kernels read, with this agent at ``seat``."""
        kinds = np.full(4, self.kind, dtype=np.int64)
        params = np.broadcast_to(self.params, (4, _d.N_PARAMS))
        return kinds, np.ascontiguousarray(params)

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
