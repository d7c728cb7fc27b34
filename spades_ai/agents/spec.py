"""Entrants: an agent as a tournament or experiment file names it, built again in every worker.

An ``AgentSpec`` holds a built-in name with its options, or a user agent's ``module:attribute``
(the grammar is ``agents.grammar``), and the label the results call it by. A ``Partnership``
is an entrant of two agents, ``"hard+normal"``: the first sits at its side's first seat (side
``k``'s is seat ``k``), the second at its partner's (``spades_ai.seats``: at four in pairs seats
0 and 2, or 1 and 3). Both are JSON-able, so a results folder records exactly which agents
played.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import os
import shlex
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from spades_ai.agents.grammar import (PROGRAM_PREFIX, check_target, find_folder, import_module_of, load_target,
                                     parse_options, split_spec)
from spades_ai.agents.program import DEFAULT_TIMEOUT, ProgramAgent, program_agent
from spades_ai.agents.registry import BUILTINS, make_agent
from spades_ai.errors import TournamentError
from spades_ai.policies.kernel_agent import KernelAgent
from spades_ai.templates import module_digests
from spades_ai.version import __version__


@dataclass(frozen=True)
class AgentSpec:
    """One entrant: a built-in ``name`` with ``options``, or a Python ``target`` ``module:attr``.

    ``label`` names the agent in results and summaries (by default the built-in's label, such
    as ``easy(careless=0.5)``, or the target). ``build()`` makes the agent object.
    """

    name: str
    """Built-in agent name, or ``"python"`` for a user agent."""
    options: dict = field(default_factory=dict)
    """Options passed to ``make_agent`` (or to a user factory); built-ins get every default."""
    label: str = ""
    """The agent's name in results."""
    target: str | None = None
    """``module:attribute`` of a user agent."""
    folder: str | None = None
    """The folder a user agent's module was found in, outside Python's path (the current
    folder, or an experiment file's; None when Python's path holds it), or the folder a bot
    program runs in."""

    def build(self):
        """The agent object (built-ins through ``make_agent``, user agents by import).

        A user factory is called afresh for every chunk, so an agent that keeps state between
        decisions starts each chunk the same way; for results that do not depend on the
        chunking, its decisions should depend only on what it observes (and its own seed).
        """
        if self.name == PROGRAM_PREFIX:  # one process per worker, started once and kept
            return program_agent(self.options["command"], self.options.get("timeout", DEFAULT_TIMEOUT), self.folder)
        if self.target is None:
            return _builtin_agent(self.name, json.dumps(self.options, sort_keys=True))
        return load_target(self.target, dict(self.options), self.folder)

    @property
    def is_builtin(self) -> bool:
        return self.target is None and self.name != PROGRAM_PREFIX

    def fingerprint(self, rules) -> dict[str, str]:
        """What this agent's code is, as a results folder records it (``config.json``'s
        ``code``), so that a run resumed with other code is refused rather than mixed:

        - a built-in: the package version, ``{"spades_ai": "0.2.0"}``, with the code of a user
          rollout policy (``hard:rollout=mymod:AGENT``) and the hash of a model file it names;
        - a user agent: a hash of its module's source and of every module that source imports
          (leaving out the standard library, numpy, numba and spades_ai), by module name:
          the hashes ``spades_ai.templates`` names bound copies by (``module_digests``);
        - a bot program: its answer to the hello under ``rules`` (``"hello"``; starting it, as
          the run would) and a hash of each file its command line names (``"file mybot.py"``).

        Files are read as they are on disk now.
        """
        if self.name == PROGRAM_PREFIX:
            return _program_fingerprint(self, rules)
        if self.target is not None:
            return _module_fingerprint(self.target, self.folder)
        out = {"spades_ai": __version__}
        for value in self.options.values():
            if isinstance(value, str) and split_spec(value)[1] is not None:  # a user rollout policy
                out.update(_module_fingerprint(split_spec(value)[1], find_folder(split_spec(value)[1])))
            elif isinstance(value, str) and Path(value).is_file():  # a model's weights
                out[f"file {value}"] = _file_digest(Path(value))
        return out

    @property
    def members(self) -> tuple[AgentSpec, ...]:
        """The agents this entrant seats: itself (a ``Partnership`` has two)."""
        return (self,)

    def build_team(self) -> tuple:
        """(the agent at its side's first seat, the agent at its partner's): one agent, twice
        (solo, the side's one seat takes the first). *Team* is the partnership game's side."""
        agent = self.build()
        return agent, agent

    def to_dict(self) -> dict:
        d = {"label": self.label, "name": self.name, "options": dict(self.options)}
        if self.target is not None:
            d["target"] = self.target
        if self.folder is not None:
            d["folder"] = self.folder
        return d

    @classmethod
    def from_dict(cls, d: dict) -> AgentSpec:
        return cls(name=d["name"], options=dict(d.get("options", {})), label=d["label"], target=d.get("target"),
                   folder=d.get("folder"))


@dataclass(frozen=True)
class Partnership:
    """An entrant of two agents: ``first`` at its side's first seat (side ``k``'s is seat ``k``),
    ``second`` at its partner's; ``label`` (by default ``first+second``) names the pair in
    results.

    >>> p = parse_agent("hard+normal")
    >>> p.label, [m.label for m in p.members]
    ('hard+normal', ['hard', 'normal'])
    """

    first: AgentSpec
    """The agent at its side's first seat (at four in pairs 0 on side 0, 1 on side 1)."""
    second: AgentSpec
    """The agent at the first one's partner's seat (at four in pairs 2 or 3)."""
    label: str = ""
    """The partnership's name in results."""

    @property
    def members(self) -> tuple[AgentSpec, AgentSpec]:
        return (self.first, self.second)

    @property
    def is_builtin(self) -> bool:
        return self.first.is_builtin and self.second.is_builtin

    def build_team(self) -> tuple:
        """(the first partner's agent, the second's), each built as its ``AgentSpec`` builds it."""
        return self.first.build(), self.second.build()

    def to_dict(self) -> dict:
        return {"label": self.label, "partners": [self.first.to_dict(), self.second.to_dict()]}

    @classmethod
    def from_dict(cls, d: dict) -> Partnership:
        first, second = (AgentSpec.from_dict(m) for m in d["partners"])
        return cls(first, second, d["label"])


#: What a tournament seats as one side: one agent in every seat of it, or a partnership of two.
Entrant = AgentSpec | Partnership


def entrant_from_dict(d: dict) -> Entrant:
    """An entrant from its ``to_dict`` (``config.json``): a partnership has ``partners``."""
    return Partnership.from_dict(d) if "partners" in d else AgentSpec.from_dict(d)


def split_partners(text: str) -> list[str] | None:
    """The two partners of ``"hard+normal"`` (or ``"easy:careless=0.5+normal"``), None for a
    single agent; more than two, or an empty one, is refused."""
    if "+" not in text:
        return None
    parts = [p.strip() for p in text.split("+")]
    if len(parts) != 2 or not all(parts):
        raise TournamentError(f"a partnership is two agents joined by '+', such as 'hard+normal', not {text!r}")
    return parts


def _partnership(partners, label: str | None, text: str, base) -> Partnership:
    if not isinstance(partners, (list, tuple)) or len(partners) != 2:
        raise TournamentError(f"partnership {text!r}: partners must be a list of two agents, not {partners!r}")
    first, second = (parse_agent(p, base) for p in partners)
    if isinstance(first, Partnership) or isinstance(second, Partnership):
        raise TournamentError(f"partnership {text!r}: a partner is one agent, not a partnership")
    return Partnership(first, second, label or f"{first.label}+{second.label}")


def _file_digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]


#: The hash of each user module this process has run in a tournament, as first seen, by module
#: name and module object: a module edited since is still its old code here (Python does not
#: import a module twice; one imported afresh is another object).
_AS_RUN: dict[tuple[str, int], str] = {}


def _module_fingerprint(target: str, folder: str | None) -> dict[str, str]:
    """``module -> hash`` of a user agent's module and what it imports (imported first).

    A module whose file changed since this process first ran it is refused: the process would
    play the old code under the new code's fingerprint (a notebook's kernel, edited between runs).
    """
    module = import_module_of(target, folder)
    digests = dict(module_digests({module.__name__}))
    stale = sorted(m for m, d in digests.items() if _AS_RUN.setdefault((m, id(sys.modules.get(m))), d) != d)
    if stale:
        raise TournamentError(
            f"agent {target!r}: module {', '.join(stale)} changed on disk since this process imported it, and "
            "this process would still play the old code: start a new process (restart the notebook's kernel) "
            "to play the new code"
        )
    return digests


def _program_fingerprint(spec: AgentSpec, rules) -> dict[str, str]:
    """A bot program's hello answer and the hash of each file its command line names (its
    first word only when that is a file in the bot's folder, ``./mybot``: ``python`` or
    ``/usr/bin/python3`` is the interpreter, not the bot)."""
    agent = spec.build()
    agent.start(rules)
    out = {"hello": json.dumps(agent.hello, sort_keys=True)}
    folder = Path(spec.folder or Path.cwd()).resolve()
    for k, word in enumerate(shlex.split(spec.options["command"])):
        path = (folder / word).resolve()
        if path.is_file() and (k > 0 or folder in path.parents):
            out[f"file {word}"] = _file_digest(path)
    return out


@functools.lru_cache(maxsize=64)
def _builtin_agent(name: str, options_json: str):
    """Built-in agents hold no state that play changes: one per process serves every chunk."""
    return make_agent(name, **json.loads(options_json))


def parse_agent(spec: str | dict | Entrant, base: str | os.PathLike | None = None) -> Entrant:
    """An ``AgentSpec`` from ``"normal"``, ``"hard:worlds=64"``, ``"pkg.mod:MyBot"``,
    ``"pkg.mod:make_bot:depth=3"`` or a table ``{name = "easy", careless = 0.5, label = "sloppy"}``;
    a ``Partnership`` from ``"hard+normal"`` or ``{partners = ["hard", "normal"], label = "mixed"}``.
    ``label`` is the agent's name in results, written among the options on a command line too:
    ``"easy:careless=0.5,label=sloppy"``, ``"pkg.mod:MyBot:label=mine"`` (so ``label`` is never
    passed to a factory).

    Built-in names are checked (with their options) at once; a user agent is imported, from
    Python's path or else from the folder ``base`` (that of the file naming it) or the current
    folder (``agents.grammar.find_folder``).

    >>> parse_agent("easy:careless=0.5,seed=3").options
    {'seed': 3, 'careless': 0.5}
    >>> parse_agent("easy:careless=0.5,label=sloppy").label
    'sloppy'
    >>> parse_agent("best")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    spades_ai.errors.TournamentError: unknown agent 'best'; built-in agents: random, easy, normal...
    """
    if isinstance(spec, (AgentSpec, Partnership)):
        return spec
    if isinstance(spec, dict) and "partners" in spec:
        extra = sorted(set(spec) - {"partners", "label"})
        if extra:
            raise TournamentError(f"partnership table {spec!r}: unknown key(s) {', '.join(extra)}; give partners and label")
        return _partnership(spec["partners"], spec.get("label"), str(spec["partners"]), base)
    if isinstance(spec, dict):
        spec = dict(spec)
        name = spec.pop("name", None) or spec.pop("agent", None)
        label = spec.pop("label", None)
        options = spec.pop("options", {}) or {}
        if not isinstance(name, str) or not name:
            raise TournamentError(f"agent table {spec!r} needs a name (a built-in name or module:attribute)")
        if not isinstance(options, dict):
            raise TournamentError(f"agent {name!r}: options must be a table")
        options = {**options, **spec}
        head, target, rest = split_spec(name)
        if head == PROGRAM_PREFIX:
            options = {"command": rest, **options}
        elif rest:
            options = {**parse_options(rest, name), **options}
        return _make_spec(head, target, options, label, name, base)
    if not isinstance(spec, str) or not spec.strip():
        raise TournamentError(f"an agent is a name such as 'normal' or 'module:attribute', not {spec!r}")
    text = spec.strip()
    partners = split_partners(text)
    if partners is not None:
        return _partnership(partners, None, text, base)
    head, target, rest = split_spec(text)
    if head == PROGRAM_PREFIX:
        return _make_spec(head, None, {"command": rest}, None, text, base)
    return _make_spec(head, target, parse_options(rest, text) if rest else {}, None, text, base)


def _make_spec(name: str, target: str | None, options: dict, label: str | None, text: str, base=None) -> AgentSpec:
    if "label" in options:  # ``easy:careless=0.6,label=sloppy``: as ``label =`` in a file's agent table
        if label is not None:
            raise TournamentError(f"agent {text!r}: label given twice ({label!r} and {options['label']!r})")
        options = dict(options)
        label = str(options.pop("label"))
        if not label.strip():
            raise TournamentError(f"agent {text!r}: an empty label")
    if name == PROGRAM_PREFIX:
        return _program_spec(options, label, text, base)
    if target is None:
        if name not in BUILTINS:
            raise TournamentError(
                f"unknown agent {name!r}; built-in agents: {', '.join(BUILTINS)}; a Python agent is written module:attribute"
            )
        try:
            agent = make_agent(name, **options)
        except (ValueError, TypeError) as exc:
            raise TournamentError(str(exc)) from None
        return AgentSpec(name=name, options=_as_written(agent.options, options, text), label=label or agent.label)
    check_target(target, text)
    folder = find_folder(target, base)
    load_target(target, options, folder)  # fail now, not in a worker
    if label is None:
        label = target + (f"({', '.join(f'{k}={v}' for k, v in options.items())})" if options else "")
    return AgentSpec(name="python", options=options, label=label, target=target, folder=folder)


def _program_spec(options: dict, label: str | None, text: str, base) -> AgentSpec:
    """A bot that is a program: its command line, its decision timeout, and the folder it runs
    in (that of the file naming it, else the current one), so every worker starts the same bot."""
    unknown = sorted(set(options) - {"command", "timeout"})
    if unknown:
        raise TournamentError(f"agent {text!r}: a program takes only command and timeout, not {', '.join(unknown)}")
    command = options.get("command")
    if not isinstance(command, str) or not command.strip():
        raise TournamentError(f"agent {text!r}: a program is written cmd:COMMAND LINE, such as 'cmd:python mybot.py'")
    ProgramAgent(command, options.get("timeout", DEFAULT_TIMEOUT))  # checks the command line and the timeout
    folder = str(Path(base if base is not None else Path.cwd()).resolve())
    options = {"command": command.strip(), **({"timeout": options["timeout"]} if "timeout" in options else {})}
    return AgentSpec(name=PROGRAM_PREFIX, options=options, label=label or f"{PROGRAM_PREFIX}:{command.strip()}", folder=folder)


def with_decision_timeout(entrants: Iterable, timeout: float) -> list:
    """``entrants`` with every bot program's decision timeout set to ``timeout`` seconds."""
    def one(spec):
        if isinstance(spec, Partnership):
            return dataclasses.replace(spec, first=one(spec.first), second=one(spec.second))
        if spec.name != PROGRAM_PREFIX:
            return spec
        ProgramAgent(spec.options["command"], timeout)  # checks the timeout
        return dataclasses.replace(spec, options={**spec.options, "timeout": timeout})

    return [one(a) for a in entrants]


def parse_agents(specs: str | Iterable, base: str | os.PathLike | None = None) -> list[Entrant]:
    """Entrants from ``"normal,easy:careless=0.5,seed=3,hard+normal"`` or a list of specs
    (``base``: the folder of the file naming them, searched for user agents' modules, as in
    ``parse_agent``).

    In the comma-separated form an item ``key=value`` with no name continues the previous
    agent's options. Repeated labels get ``#2``, ``#3``.
    """
    if isinstance(specs, str):
        items: list[str] = []
        for token in (t.strip() for t in specs.split(",")):
            if not token:
                raise TournamentError(f"empty agent name in {specs!r}")
            if "=" in token and ":" not in token and items:
                items[-1] += "," + token
            else:
                items.append(token)
        specs = items
    agents = [parse_agent(s, base) for s in specs]
    seen: dict[str, int] = {}
    out = []
    for a in agents:
        seen[a.label] = seen.get(a.label, 0) + 1
        out.append(a if seen[a.label] == 1 else dataclasses.replace(a, label=f"{a.label}#{seen[a.label]}"))
    return out


def _as_written(built: dict, given: dict, text: str) -> dict:
    """A built-in's options as an entrant keeps them (JSON, so every worker builds the agent
    again): every option's value, a rollout policy as the spec it was given by."""
    out = {}
    for key, value in built.items():
        if isinstance(value, KernelAgent):
            if not isinstance(given.get(key), str):
                raise TournamentError(f"agent {text!r}: option {key!r} must be written as an agent spec, such as "
                                      f"'easy' or 'mymodule:AGENT', for the run to rebuild it in every worker")
            value = given[key]
        out[key] = value
    return out
