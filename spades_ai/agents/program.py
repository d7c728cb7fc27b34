"""Bots as programs: an agent that is another process, spoken to in JSON lines (``docs/PROTOCOL.md``).

``ProgramAgent("python mybot.py")`` starts the command on its first question, says hello
(protocol version, the rules and the table), checks the bot's answer (its name, the protocol
version, the rules it accepts), and from then on sends one request a decision, the seat's
observation with its legal actions and the table, and reads one answer, the action. A bot of
protocol 1 plays four players in pairs only (``capabilities.PARTS["protocol 1"]``); one of
protocol 2 plays every table. The process is kept for every later
question of the same rules (one per worker process: ``program_agent`` keeps them). The program
runs in a session of its own: ``close`` (also called on every error, when the agent is garbage
collected, at the end of a ``with`` block and when the Python process exits) ends it and every
process it started, each wait bounded (``EXIT_GRACE``).

Requests may be pipelined: ``ask_many`` writes a batch of requests before reading their
answers, so the pipe's round trip is paid once per batch instead of once per decision (the
self-play loop asks every waiting table at once: ``answer_batch``). Every answer must come
within ``timeout`` seconds of the answer before it (the first: of the batch being sent);
anything else, a line that is not a JSON object (or longer than ``MAX_LINE``, not UTF-8,
nested too deeply), an answer to another request, an illegal action, a late answer, a bot that
dies or closes its output, raises ``ProgramError`` naming the bot, the seat, the deal (when the
caller knows it) and the request it failed on, and ends the program.

>>> import sys
>>> with ProgramAgent(f"{sys.executable} examples/protocol_bot.py") as bot:  # doctest: +SKIP
...     record = play_hands([bot, "normal"], 100)
"""

from __future__ import annotations

import dataclasses
import json
import os
import select
import shlex
import signal
import subprocess
import time
import weakref
from collections.abc import Sequence
from typing import Self

from spades_ai.capabilities import FOUR_IN_PAIRS, Part, Tables, part, require_table
from spades_ai.cards import Card
from spades_ai.errors import TableError, TournamentError
from spades_ai.seats import seats, side_of

#: The protocol version this side speaks (``docs/PROTOCOL.md``): its hello says it.
PROTOCOL_VERSION = 2
#: The versions a bot may answer the hello with: 1 (four players in pairs only) and 2.
PROTOCOL_VERSIONS = (1, 2)
#: Seconds a bot may take to answer one request (and to say hello), unless told otherwise.
DEFAULT_TIMEOUT = 30.0
#: The longest line a bot may write, in bytes, its newline not counted (1 MiB): an answer takes a
#: few dozen bytes, a hello a few hundred; a longer line is refused before it fills the memory.
MAX_LINE = 1 << 20
#: Seconds (at most the decision timeout) a bot is given to exit once its input is closed, and
#: again once it is sent SIGTERM, before SIGKILL; and to exit once it has closed its output.
EXIT_GRACE = 1.0
#: One request as one compact line (a shared encoder: no per-call set-up, no circularity check
#: of the plain dicts and lists a request is made of).
_ENCODE = json.JSONEncoder(separators=(",", ":"), check_circular=False).encode
#: The rules fields that make the table (``Rules.TABLES``): a bot's hello refusing one of them
#: refuses the table (``require_table``).
TABLE_FIELDS = ("players", "teams")
#: The request types, by the question the agent interface asks.
REQUESTS = ("bid", "play", "pass", "blind_nil")


class ProgramError(TournamentError):
    """A bot program that broke the protocol: garbage, an illegal action, no answer in time, or
    death. The message names the bot, the seat, the deal (if known) and the request."""


def table_json(rules) -> dict:
    """The table of ``rules`` as the hello and every request say it (``docs/PROTOCOL.md``)."""
    return {
        "players": rules.players,
        "teams": rules.teams,
        "sides": rules.n_sides,
        "side_of": [side_of(seat, rules) for seat in seats(rules)],
        "cards_each": rules.cards_each,
        "decks": rules.decks,
    }


class CardNames:
    """The names of the rules' cards by engine id (``"AS"``, ``"BJ"`` under jokers), the card of
    each name, and the table: requests are written from the loop's bitboards without a ``Card``
    each."""

    def __init__(self, rules):
        deck = rules.engine_deck
        self.of = [str(c) if c is not None else "" for c in deck]
        self.card = {str(c): c for c in deck if c is not None}
        #: ``[seat, name]`` of each ``64 * seat + engine id`` of the loop's rows of plays
        self.played = [[v >> 6, self.of[v & 63] if (v & 63) < len(self.of) else ""] for v in range(64 * rules.players)]
        #: the ``table`` field of every request (one dict, shared by them)
        self.table = table_json(rules)

    def mask(self, mask: int) -> list[str]:
        """The names of the cards of an engine bitboard, lowest id first."""
        out, m = [], int(mask)
        while m:
            low = m & -m
            out.append(self.of[low.bit_length() - 1])
            m ^= low
        return out


_NAMES: dict = {}


def card_names(rules) -> CardNames:
    """The ``CardNames`` of ``rules`` (kept by the rules object's identity: comparing rules
    field by field on every request would cost more than the names)."""
    kept = _NAMES.get(id(rules))
    if kept is None or kept[0] is not rules:
        if len(_NAMES) > 64:
            _NAMES.clear()
        kept = _NAMES[id(rules)] = (rules, CardNames(rules))
    return kept[1]


def hand_json(obs, names: CardNames) -> list[str]:
    """The seat's cards by name, lowest id first, a card held twice or three times (several
    decks) named as often, its copies side by side: ``["KH", "AS", "AS"]``."""
    if obs.rules.decks == 1:
        return names.mask(obs.engine_cards)
    return [names.of[c] for c in obs.cards]  # several decks: no jokers nor high deuces, engine id = card id


def observation_json(obs, what: str) -> dict:
    """The request body of a decision: everything ``obs`` shows the seat, in plain JSON."""
    names = card_names(obs.rules)
    played = names.played
    plays = [played[v] for v in obs.play_codes()]
    body = {
        "seat": obs.seat,
        "dealer": obs.dealer,
        "hand": hand_json(obs, names),
        "bids": obs.bids,
        "blind": obs.blind,
        "tricks_won": obs.tricks_won,
        "plays": plays,
        "trick": plays[len(plays) - len(plays) % obs.rules.players:],  # a card a seat a trick: the last ones unfinished
        "spades_broken": bool(obs.spades_broken),
        "scores": list(obs.scores),
        "bags": list(obs.bag_count),
        "hands_played": obs.hands_played,
    }
    if what == "bid":
        body["legal"] = obs.legal_bids()
    elif what == "play":
        body["legal"] = names.mask(obs.legal_mask())
    elif what == "pass":
        body["count"] = obs.pass_count
    if obs.rules.pass_cards or obs.rules.blind_pass:
        body["gave"], body["received"] = [str(c) for c in obs.gave], [str(c) for c in obs.received]
    body["table"] = names.table
    return body


class ProgramAgent:
    """An agent that is a program speaking ``docs/PROTOCOL.md`` on its stdin and stdout.

    ``command`` is a command line (split as a shell would, not run by one), ``timeout`` the
    seconds per decision, ``cwd`` the folder it runs in (None: the current one). ``name`` is
    the bot's own name from its hello once it has started (the command line until then).
    """

    def __init__(self, command: str, timeout: float = DEFAULT_TIMEOUT, cwd: str | None = None):
        if not isinstance(command, str) or not command.strip():
            raise TournamentError(f"a bot program is a command line, such as 'python mybot.py', not {command!r}")
        if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not timeout > 0:
            raise TournamentError(f"the decision timeout must be a positive number of seconds, not {timeout!r}")
        self.command = command.strip()
        self.argv = shlex.split(self.command)
        self.timeout = float(timeout)
        self.cwd = cwd
        self.name = self.command
        self.bot_name: str | None = None
        #: The bot's answer to the hello, once it has started (a run records it: its code's fingerprint).
        self.hello: dict | None = None
        self._proc: subprocess.Popen | None = None
        self._ender: weakref.finalize | None = None
        self._rules = None
        self._buffer = b""
        self._next_id = 0

    # -- the process ------------------------------------------------------------------------
    def start(self, rules) -> None:
        """Start the program (if it is not running under these rules) and shake hands."""
        if self._proc is not None and self._proc.poll() is None and self._rules == rules:
            return
        require_table(rules, "protocol")
        self.close()
        try:
            # a session of its own: its process group holds every process it starts, ended with it
            self._proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0,
                                          cwd=self.cwd, start_new_session=True)  # fmt: skip
        except OSError as exc:
            raise ProgramError(f"bot {self.command!r} cannot be started: {exc}") from None
        os.set_blocking(self._proc.stdin.fileno(), False)
        # ends the program when this agent is collected or the interpreter exits, if close has not
        self._ender = weakref.finalize(self, _end, self._proc, self._grace)
        self._buffer, self._rules = b"", rules
        hello = {"type": "hello", "protocol": PROTOCOL_VERSION, "rules": rules.to_dict(), "table": table_json(rules)}
        timeout, which = self._hello_timeout()
        answer = self._exchange([hello], timeout=timeout, which=which)[0]
        self._check_hello(answer, rules)

    def _hello_timeout(self) -> tuple[float, str]:
        """The seconds the hello is given and, for a bot that does not answer in time, which
        timeout that is: starting a program is not a decision, so its hello may take the
        default time (``DEFAULT_TIMEOUT``) at least."""
        if self.timeout >= DEFAULT_TIMEOUT:
            return self.timeout, "--decision-timeout"
        return DEFAULT_TIMEOUT, f"the least a hello is given; the decision timeout, {self.timeout:g} s, is for decisions"

    def _check_hello(self, answer: dict, rules) -> None:
        where = f"bot {self.command!r} answered the hello with {_short(answer)}"
        if answer.get("type") != "hello" or not isinstance(answer.get("name"), str) or not answer["name"]:
            self.close()
            raise ProgramError(f"{where}: it must be {{\"type\": \"hello\", \"name\": ..., \"protocol\": {PROTOCOL_VERSION}, "
                               "\"rules\": ...}")  # fmt: skip
        version = answer.get("protocol")
        if type(version) is not int or version not in PROTOCOL_VERSIONS:  # not True, not 1.0: an int
            self.close()
            kind = "" if type(version) is int else f" (a {type(version).__name__}, not an int)"
            raise ProgramError(f"{where}: it speaks protocol {json.dumps(version)}{kind}, this side "
                               f"{' and '.join(map(str, PROTOCOL_VERSIONS))}")  # fmt: skip
        self._refuse_table(answer, rules)
        refused = _refused_rules(answer.get("rules", "any"), rules)
        if refused:
            self.close()
            raise ProgramError(f"bot {answer['name']!r} ({self.command!r}) does not accept these rules: {refused}")
        self.bot_name = answer["name"]
        self.name = answer["name"]
        self.hello = answer

    def _refuse_table(self, answer: dict, rules) -> None:
        """Refuse (``TableError``, through ``require_table``; the program ended first) a table
        the bot cannot play: one its hello's rules do not accept (``players``, ``teams``), or
        any but four in pairs for a bot of protocol 1 (``capabilities.PARTS["protocol 1"]``)."""
        who = f"bot {answer['name']!r} ({self.command!r})"
        version = answer["protocol"]
        parts = [_accepted_tables(answer.get("rules", "any"), who)]
        if version != PROTOCOL_VERSION:
            parts.append(dataclasses.replace(part(f"protocol {version}"), name=f"{who}, of protocol {version},"))
        try:
            for p in parts:
                if p is not None:
                    require_table(rules, p)
        except TableError:
            self.close()
            raise

    def close(self) -> None:
        """End the program and every process it started (``_end``); nothing if it is not running.
        A later question starts it again."""
        ender, self._ender, self._proc = self._ender, None, None
        if ender is not None:
            ender()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    @property
    def _grace(self) -> float:
        return min(EXIT_GRACE, self.timeout)

    # -- the pipe ---------------------------------------------------------------------------
    def _fail(self, what: str, request: dict | None, where: str = "") -> ProgramError:
        """The error of a bot that broke the protocol at ``request``; the program is ended first:
        a bot is not asked again after an error."""
        self.close()
        shown = "" if request is None else f"; request: {json.dumps(request)[:600]}"
        return ProgramError(f"bot {self.name!r}{where} {what}{shown}")

    def _ended(self, request, where) -> ProgramError:
        """The error of a bot whose output ended: it died (its exit code), or closed its output
        and did not exit within the grace."""
        code = _wait(self._proc, self._grace)
        how = "closed its standard output (and did not exit)" if code is None else f"died (exit code {code})"
        return self._fail(f"{how} before answering", request, where)

    def _decode(self, line: bytes, request, where) -> dict:
        """The JSON object of one answer line, or the error saying why it is none."""
        shown = f"{line[:200]!r}" + (f"... ({len(line):,} bytes)" if len(line) > 200 else "")
        try:
            answer = json.loads(line.decode("utf-8"))
        except UnicodeDecodeError as exc:
            raise self._fail(f"answered {shown}, which is not UTF-8 ({exc.reason} at byte {exc.start})", request,
                             where) from None  # fmt: skip
        except RecursionError:
            raise self._fail(f"answered {shown}, which is nested too deeply to be read", request, where) from None
        except ValueError:
            raise self._fail(f"answered {shown}, which is not a JSON line", request, where) from None
        if not isinstance(answer, dict):
            raise self._fail(f"answered {_short(answer)}, which is not a JSON object", request, where)
        return answer

    def _exchange(self, requests: Sequence[dict], seats: Sequence[str] | None = None, timeout: float | None = None,
                  which: str = "--decision-timeout") -> list[dict]:  # fmt: skip
        """Send ``requests`` (one line each), then read one JSON answer per request, in order;
        ``seats``: where each request is asked (" at seat 2, deal 17"), for the messages;
        ``which``: the timeout that applies, as the message of a bot too slow names it."""
        seats = seats or [""] * len(requests)
        timeout = self.timeout if timeout is None else timeout
        data = ("\n".join(map(_ENCODE, requests)) + "\n").encode()
        stdin, stdout = self._proc.stdin.fileno(), self._proc.stdout.fileno()
        answers, pending, last, shut = [], memoryview(data), time.monotonic(), ""
        while len(answers) < len(requests):
            k = len(answers)
            deadline = last + timeout  # each answer within the timeout of the one before (or of sending)
            while (end := self._buffer.find(b"\n", 0, MAX_LINE + 1)) < 0:
                if len(self._buffer) > MAX_LINE:
                    raise self._fail(f"answered a line longer than {MAX_LINE:,} bytes (the most a line may be): "
                                     f"{self._buffer[:60]!r}...", requests[k], seats[k])  # fmt: skip
                left = deadline - time.monotonic()
                if left <= 0:
                    what = f"{shut}gave no answer within {timeout:g} s ({which})"
                    raise self._fail(what, requests[k], seats[k])
                ready, writable, _ = select.select([stdout], [stdin] if pending else [], [], left)
                if writable:
                    try:
                        pending = pending[os.write(stdin, pending):]
                    except BlockingIOError:
                        pass
                    except BrokenPipeError:  # it reads no more: its answers to what it read still count
                        pending, shut = pending[:0], "closed its standard input and "
                if ready:
                    chunk = os.read(stdout, 1 << 16)
                    if not chunk:
                        raise self._ended(requests[k], seats[k])
                    self._buffer += chunk
            line, self._buffer = self._buffer[:end], self._buffer[end + 1:]
            answer = self._decode(line, requests[k], seats[k])
            if "id" in requests[k] and answer.get("id") != requests[k]["id"]:
                raise self._fail(f"answered {_short(answer)} with id {_short(answer.get('id'))}, not {requests[k]['id']}",
                                 requests[k], seats[k])  # fmt: skip
            answers.append(answer)
            last = time.monotonic()
        return answers

    # -- decisions --------------------------------------------------------------------------
    def request(self, obs, what: str) -> dict:
        """The request of the decision ``what`` (``bid``, ``play``, ``pass``, ``blind_nil``) at ``obs``."""
        self._next_id += 1
        return {"type": what, "id": self._next_id, **observation_json(obs, what)}

    def ask_many(self, questions: Sequence[tuple[object, str]], units: Sequence | None = None) -> list:
        """The actions for ``questions`` = [(observation, what), ...], pipelined: every request
        is written before the answers are read. Each action is checked against its legal set.
        ``units`` names each question's deal (``"deal 17"``; None where unknown)."""
        if not questions:
            return []
        self.start(questions[0][0].rules)
        requests = [self.request(obs, what) for obs, what in questions]
        units = units or [None] * len(questions)
        seats = [f" at seat {obs.seat}" + (f", {u}" if u else "") for (obs, _), u in zip(questions, units)]
        answers = self._exchange(requests, seats)
        return [self._action(*args) for args in zip(answers, requests, (obs for obs, _ in questions), seats)]

    def _action(self, answer: dict, request: dict, obs, where: str):
        if "action" not in answer:
            raise self._fail(f"answered {_short(answer)} without an action", request, where)
        action, what = answer["action"], request["type"]
        if what == "bid":
            if type(action) is not int or action not in request["legal"]:
                raise self._fail(f"chose the illegal bid {_short(action)} (legal: {request['legal']})", request, where)
            return action
        if what == "blind_nil":
            if not isinstance(action, bool):
                raise self._fail(f"answered {_short(action)} to a blind-nil question (true or false)", request, where)
            return action
        if what == "play":
            if not isinstance(action, str) or action.upper() not in request["legal"]:
                legal = " ".join(request["legal"])
                raise self._fail(f"chose the illegal card {_short(action)} (legal: {legal})", request, where)
            return card_names(obs.rules).card[action.upper()]
        held = set(request["hand"])
        if (not isinstance(action, list) or len(action) != request["count"] or len(set(action)) != len(action)
                or not all(isinstance(c, str) and c.upper() in held for c in action)):  # fmt: skip
            what = f"chose the illegal pass {_short(action)} ({request['count']} different cards it holds)"
            raise self._fail(what, request, where)
        return [card_names(obs.rules).card[c.upper()] for c in action]

    def bid(self, obs) -> int:
        return self.ask_many([(obs, "bid")])[0]

    def play(self, obs) -> Card:
        return self.ask_many([(obs, "play")])[0]

    def pass_cards(self, obs) -> list[Card]:
        return self.ask_many([(obs, "pass")])[0]

    def blind_nil(self, obs) -> bool:
        return self.ask_many([(obs, "blind_nil")])[0]

    def answer_batch(self, questions: Sequence[tuple[object, str]], units: Sequence | None = None) -> list:
        """What the self-play loop asks of a batch (``ask_many``): every waiting table at once."""
        return self.ask_many(questions, units)

    def __repr__(self) -> str:
        return f"ProgramAgent({self.command!r}, timeout={self.timeout:g})"


def _short(value) -> str:
    """``repr(value)``, cut to 200 characters: what a bot sent, shown in a one-line error."""
    try:
        text = repr(value)
    except RecursionError:  # nested nearly as deep as json reads: deeper than repr goes
        return "a value nested too deeply to be shown"
    return text if len(text) <= 200 else f"{text[:200]}... ({len(text):,} characters)"


def _accepted_tables(accepts, who: str) -> Part | None:
    """The tables a bot's ``rules`` answer of its hello accepts, as a ``Part`` named ``who``
    (``require_table`` refuses the others), or None when it names no table field."""
    if accepts == "default":
        return Part(who, FOUR_IN_PAIRS, "docs/PROTOCOL.md#handshake", "its hello accepts the default rules only")
    named = {k: accepts[k] for k in TABLE_FIELDS if k in accepts} if isinstance(accepts, dict) else {}
    if not named:
        return None
    words = ", ".join(f"{k} = {_short(v)}" for k, v in named.items())
    return Part(who, Tables(f"the tables of {words}", lambda rules: not _refused_rules(named, rules)),
                "docs/PROTOCOL.md#handshake", "what its hello's rules accept")  # fmt: skip


def _refused_rules(accepts, rules) -> str:
    """What of ``rules`` a bot's ``rules`` answer of its hello refuses ('' for nothing):
    ``"any"``, ``"default"`` (the default rules only), or a table of option -> accepted values."""
    if accepts == "any":
        return ""
    if accepts == "default":
        changed = [k for k, v in rules.to_dict().items() if v != type(rules)().to_dict().get(k)]
        return "" if not changed else f"it plays the default rules only, and these change {', '.join(changed)}"
    if not isinstance(accepts, dict):
        return f'its hello\'s rules must be "any", "default" or a table of option -> accepted values, not {_short(accepts)}'
    given = rules.to_dict()
    out = []
    for key, allowed in accepts.items():
        allowed = allowed if isinstance(allowed, list) else [allowed]
        if key in given and given[key] not in allowed:
            out.append(f"{key} = {given[key]!r} (it accepts {_short(allowed)})")
    return "; ".join(out)


def _wait(proc: subprocess.Popen, seconds: float) -> int | None:
    """``proc``'s exit code once it exits, waiting at most ``seconds``; None if it runs on."""
    try:
        return proc.wait(timeout=seconds)
    except subprocess.TimeoutExpired:
        return None


def _group_ended(proc: subprocess.Popen, seconds: float) -> bool:
    """Whether ``proc`` and every process of its group have exited, waiting at most ``seconds``
    (``proc`` reaped as it exits: until then it is still a member)."""
    deadline = time.monotonic() + seconds
    while True:
        proc.poll()
        try:
            os.killpg(proc.pid, 0)  # the session's leader's pid is its group's id
        except ProcessLookupError:
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.01)


def _end(proc: subprocess.Popen, grace: float) -> None:
    """End a bot and every process it started (the process group of its session): its input
    closed (a bot exits at the end of its input), then SIGTERM to the group, then SIGKILL, each
    waited for at most ``grace`` seconds. The group is signalled even when the bot itself has
    exited: a process it started may still run."""
    try:
        proc.stdin.close()
    except OSError:
        pass
    _wait(proc, grace)
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            break
        if _group_ended(proc, grace):
            break
    proc.stdout.close()


_AGENTS: dict = {}


def program_agent(command: str, timeout: float = DEFAULT_TIMEOUT, cwd: str | None = None) -> ProgramAgent:
    """The process's one ``ProgramAgent`` for ``command``, ``timeout`` and ``cwd``: a worker
    starts each bot once and keeps it for every chunk it plays."""
    key = (command, float(timeout), cwd)
    if key not in _AGENTS:
        _AGENTS[key] = ProgramAgent(command, timeout, cwd)
    return _AGENTS[key]


__all__ = ["DEFAULT_TIMEOUT", "MAX_LINE", "PROTOCOL_VERSION", "PROTOCOL_VERSIONS", "ProgramAgent", "ProgramError",
           "observation_json", "program_agent", "table_json"]
