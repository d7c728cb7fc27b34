"""The HTTP server of the browser table: the standard library's ``ThreadingHTTPServer``.

Endpoints (JSON in and out unless said otherwise; a match only by its id):

======  ====================================  ===============================================
GET     ``/``, ``/static/app.js|style.css``   the page (package files; nothing from elsewhere)
GET     ``/api/status``                        ``{"warm": ...}``: whether the engine is compiled
GET     ``/api/settings``                      the levels and every rules field (the form)
POST    ``/api/matches``                       ``{"level", "rules", "timer"}``: a new match;
                                               201 + state
GET     ``/api/matches/ID``                    the match as you see it (``view.match_view``)
POST    ``/api/matches/ID/action``             ``{"action": "3" | "nil" | "blind nil" | "look"
                                               | "AS" | "AS KH"}``: your bid, card or pass,
                                               checked by the engine (``TableMatch.answer``)
POST    ``/api/matches/ID/step``               one agent acts (the page paces the agents),
                                               or, your turn's time run out, the table
                                               plays Normal's choice for you; ``step_ms``:
                                               how long it took on the server
GET     ``/api/matches/ID/save``               the save file (JSON lines), once the match is
                                               over (it holds the seed, which tells every deal)
GET     ``/matches/ID/replay/K[?review=1]``    finished hand K trick by trick (HTML; with
                                               ``review=1`` the review's marks, solver judge,
                                               at every table)
======  ====================================  ===============================================

``HEAD`` answers as ``GET`` without the body. The server listens at once; its ``warm_up`` (the
engine's kernels, compiled or loaded: about a minute on a cold cache) runs in a thread, and
until it is done the page is a short one that reloads itself and the endpoints that run the
engine answer 503 with ``Retry-After`` (the static files, ``/api/status`` and ``/api/settings``
answer at once).

Refusals change nothing and say why in ``{"error": ...}``: 400 a malformed request (two
``Host`` headers, or an HTTP/1.1 request without one; a ``Content-Length`` that is not ASCII digits, a body that is not UTF-8 JSON or nested deeper
than ``MAX_DEPTH``, a wrong field), 404 an unknown path or match, 405 a method the path does
not take (with ``Allow``), 408 a request not all sent within ``Handler.timeout`` seconds, 409
not your turn (or no agent's, or the match not over, or your time run out), 411 a body without its length, 413 a
body over ``MAX_BODY`` bytes, 415 a body that is not ``application/json`` (so that a form on
another site cannot post here), 421 a ``Host`` that is not this server's when it listens on a
loopback address (DNS rebinding), 422 an action or settings the engine refuses, 503 the
server full (``MatchStore``), warming up or busy with reviews. A refused body is not read on:
the connection is closed.

The turn timer (``timer``: off, 7, 15, 30 or 60 seconds) is kept here, not in the page: the
clock of your turn starts when a state showing it is first sent (a new hand's first turn: when
the page asks for the state after the score sheet), the state says ``time_left``, and once it
is 0 an action is refused (409) and ``step`` plays Normal's choice for you, saying so in its
lines. The server reads the time from ``make_server``'s ``clock``, so a test need not wait.

Slow or silent clients cannot starve the others: each connection has ``Handler.timeout``
seconds to send its whole request (line, headers and body; a ``Deadlines`` thread shuts a late
one's reading side, however it trickles), and ``max_threads`` (256) connections are handled at
once, so that a hundred idle sockets leave room for the page's requests.
"""

from __future__ import annotations

import html
import ipaddress
import json
import logging
import re
import socket
import sys
import threading
import time
from collections.abc import Callable
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from spades_ai.errors import RulesError
from spades_ai.render import page, replay_html
from spades_ai.render.text import table_names
from spades_ai.rules import Rules
from spades_ai.web.settings import check_level, check_timer, rules_from_form, settings_form
from spades_ai.web.store import ID_PATTERN, MatchStore, StoreFull, UnknownMatch
from spades_ai.web.view import match_view

MAX_BODY = 4096
#: Levels of nesting in a body: an object of objects of values (a rules field's value may be a
#: list, which the form refuses with its reason).
MAX_DEPTH = 4
MAX_ACTION = 64
#: The methods the server takes; any other is answered 405 with the path's ``Allow``.
METHODS = ("GET", "HEAD", "POST")
#: Seconds a client is told to wait while the engine compiles (``Retry-After``).
WARMING_RETRY = 2
WARMING = "the table is warming up (compiling the engine, first run only); try again in a few seconds"
#: The package files the page is made of, by URL path: (file, content type).
STATIC = {
    "/": ("index.html", "text/html; charset=utf-8"),
    "/static/app.js": ("app.js", "text/javascript; charset=utf-8"),
    "/static/style.css": ("style.css", "text/css; charset=utf-8"),
}
PAGE_POLICY = "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'"
REPLAY_POLICY = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; frame-ancestors 'none'"
#: The page while the engine compiles: it reloads itself until the table is ready.
WARMING_PAGE = page(f'<meta http-equiv="refresh" content="{WARMING_RETRY}"><h2>Spades against the bots</h2>'
                    f"<p>{html.escape(WARMING[0].upper() + WARMING[1:])}.</p><p>This page reloads itself.</p>",
                    "spades_ai: warming up").encode()
_ID = ID_PATTERN.pattern
ROUTES = [
    ("GET", re.compile(r"/api/status"), "status"),
    ("GET", re.compile(r"/api/settings"), "settings"),
    ("POST", re.compile(r"/api/matches"), "create"),
    ("GET", re.compile(rf"/api/matches/({_ID})"), "state"),
    ("POST", re.compile(rf"/api/matches/({_ID})/action"), "action"),
    ("POST", re.compile(rf"/api/matches/({_ID})/step"), "step"),
    ("GET", re.compile(rf"/api/matches/({_ID})/save"), "save"),
    ("GET", re.compile(rf"/matches/({_ID})/replay/([0-9]{{1,3}})"), "replay"),
]
#: The routes that do not run the engine: answered while it warms up.
COLD_ROUTES = {"status", "settings"}
log = logging.getLogger("spades_ai.web")


class Refused(Exception):
    """A request answered with an error status and ``{"error": message}`` (and ``headers``,
    such as ``Allow``); nothing changed."""

    def __init__(self, status: int, message: str, headers: dict | None = None):
        super().__init__(message)
        self.status = status
        self.message = message
        self.headers = headers or {}


def static_file(name: str) -> bytes:
    """A file of the page, from the package (``spades_ai/web/static``)."""
    return resources.files("spades_ai.web").joinpath("static", name).read_bytes()


class Deadlines:
    """The connections still sending a request, each with the time it must be in by. A thread
    shuts the reading side of a late one, so that its handler's read returns at once: a socket
    timeout alone starts again at every byte, and a client trickling its headers would hold a
    handler for as long as it liked.

    >>> deadlines = Deadlines()
    >>> a, b = socket.socketpair()
    >>> deadlines.start(a, 0.05); time.sleep(0.5)
    >>> deadlines.expired(a), a.recv(1)
    (True, b'')
    >>> deadlines.stop(a); deadlines.close(); a.close(); b.close()
    """

    def __init__(self, tick: float = 0.05):
        self._due: dict[socket.socket, float | None] = {}  # None: late, its reading side shut
        self._lock = threading.Lock()
        self._closed = threading.Event()
        threading.Thread(target=self._watch, args=(tick,), name="spades-ai deadlines", daemon=True).start()

    def start(self, sock: socket.socket, seconds: float) -> None:
        """``sock`` has ``seconds`` from now to send what it is sending."""
        with self._lock:
            self._due[sock] = time.monotonic() + seconds

    def stop(self, sock: socket.socket) -> None:
        """``sock`` has sent it (or is done with)."""
        with self._lock:
            self._due.pop(sock, None)

    def expired(self, sock: socket.socket) -> bool:
        """Whether ``sock`` was late (its reading side is shut)."""
        with self._lock:
            return sock in self._due and self._due[sock] is None

    def close(self) -> None:
        self._closed.set()

    def _watch(self, tick: float) -> None:
        while not self._closed.wait(tick):
            now = time.monotonic()
            with self._lock:
                late = [sock for sock, due in self._due.items() if due is not None and due <= now]
                for sock in late:
                    self._due[sock] = None
            for sock in late:
                try:
                    sock.shutdown(socket.SHUT_RD)
                except OSError:  # closed by the client meanwhile
                    pass


class TableServer(ThreadingHTTPServer):
    """The browser table's server: a ``MatchStore``, the default level and rules, a bound on
    the connections handled at once, and the engine's warm-up (``warm_up``, run in a thread;
    ``warm`` is set once it is done)."""

    daemon_threads = True
    request_queue_size = 128
    #: seconds a review waits for the one before it (reviews take a core each) before a 503
    review_wait = 30.0

    def __init__(self, address, store: MatchStore, level: str = "normal", rules: Rules | None = None,
                 max_threads: int = 256, review_jobs: int = 1, warm_up: Callable[[], None] | None = None):
        self.store = store
        self.level = check_level(level)
        self.rules = Rules() if rules is None else rules
        self._slots = threading.BoundedSemaphore(max_threads)
        self._reviews = threading.BoundedSemaphore(review_jobs)
        self.files = {path: static_file(name) for path, (name, _) in STATIC.items()}
        self.deadlines = Deadlines()
        #: set once the engine is warm: the endpoints that run it answer 503 until then
        self.warm = threading.Event()
        if ":" in address[0]:
            self.address_family = socket.AF_INET6
        try:
            super().__init__(address, Handler)
        except BaseException:
            self.deadlines.close()
            raise
        if warm_up is None:
            self.warm.set()
        else:
            threading.Thread(target=self._warm_up, args=(warm_up,), name="spades-ai warm-up", daemon=True).start()
        host = self.server_address[0]
        self.loopback_only = _is_loopback(host)
        port = self.server_address[1]
        names = ("127.0.0.1", "localhost", "[::1]")
        self.hosts = {f"{h}:{port}" for h in names} | (set(names) if port == 80 else set())  # :80 may be left out

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{'[' + host + ']' if ':' in host else host}:{port}/"

    def process_request(self, request, client_address):
        self._slots.acquire()  # at most max_threads at once; the others wait in the listen queue
        try:
            super().process_request(request, client_address)
        except BaseException:
            self._slots.release()
            raise

    def process_request_thread(self, request, client_address):
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._slots.release()

    def handle_error(self, request, client_address):
        """A connection the client dropped (or let time out) is no error of the server's."""
        exc = sys.exc_info()[1]
        if isinstance(exc, OSError):
            log.info("%s: connection lost: %s", client_address[0], exc)
        else:
            log.exception("%s: the connection failed", client_address[0])

    def server_close(self):
        super().server_close()
        self.deadlines.close()

    def _warm_up(self, warm_up: Callable[[], None]) -> None:
        try:
            warm_up()
        except Exception:  # the endpoints compile what they need on first use, and say so if it fails
            log.exception("the warm-up failed; the table compiles the engine on first use")
        finally:
            self.warm.set()


def _allowed(path: str) -> list[str]:
    """The methods ``path`` takes (HEAD wherever GET is); none: nothing is there."""
    verbs = {verb for verb, pattern, _ in ROUTES if pattern.fullmatch(path)} | ({"GET"} if path in STATIC else set())
    return [m for m in METHODS if m in verbs or (m == "HEAD" and "GET" in verbs)]


def _depth(value) -> int:
    """How deep JSON ``value`` is nested (a scalar: 1), counted level by level, not by recursion."""
    depth, level = 0, [value]
    while level:
        depth += 1
        level = [v for x in level if isinstance(x, (dict, list)) for v in (x.values() if isinstance(x, dict) else x)]
    return depth


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class Handler(BaseHTTPRequestHandler):
    """One request: routed by ``ROUTES``, answered in JSON (see the module docstring)."""

    server: TableServer
    server_version = "spades-ai"
    sys_version = ""
    #: seconds a client has to send its whole request (and a socket read or write may wait)
    timeout = 5
    # the headers and the body go out in two writes: without TCP_NODELAY the second waits for
    # the client's delayed ACK of the first (40 ms on Linux), which was most of a step's wait
    disable_nagle_algorithm = True

    def log_message(self, format, *args):  # noqa: A002 -- the standard library's name
        log.info("%s %s", self.address_string(), format % args)

    # -- reading ----------------------------------------------------------------------------
    def handle_one_request(self):
        """One request, which must arrive within ``timeout`` seconds of waiting for it."""
        self.server.deadlines.start(self.connection, self.timeout)
        try:
            super().handle_one_request()
        finally:
            self.server.deadlines.stop(self.connection)

    def parse_request(self) -> bool:
        """The request line and headers (the standard library's checks), then: a late request
        408, a method the server does not take 405 (answered here: no ``do_`` method runs)."""
        if not super().parse_request():
            return False
        if self.server.deadlines.expired(self.connection):
            self.send_error(408, f"the request did not arrive within {self.timeout} s")
            return False
        if self.command not in METHODS:
            self._dispatch(self.command)
            return False
        return True

    def send_error(self, code, message=None, explain=None):
        """The standard library's refusals (a bad request line, headers too long...) in JSON,
        with a status line even when the request line was too broken to say its version."""
        self.close_connection = True
        self.request_version = self.protocol_version
        self._json(code, {"error": message or HTTPStatus(code).phrase})

    def _receive(self) -> None:
        """Read the request's body, if it has one, into ``self.raw`` (None: no body), or refuse
        it and close the connection (a body not read would be taken for the next request)."""
        self.raw = None
        try:
            if "Transfer-Encoding" in self.headers:
                raise Refused(411, "send the body with a Content-Length, not a Transfer-Encoding")
            lengths = self.headers.get_all("Content-Length") or []
            if not lengths:
                return
            length = lengths[0].strip()
            if len(lengths) > 1 or not re.fullmatch(r"[0-9]+", length):
                raise Refused(400, f"Content-Length is one number of bytes in ASCII digits, not {', '.join(lengths)[:20]!r}")
            if len(length) > 9 or int(length) > MAX_BODY:  # int() of thousands of digits is refused too
                raise Refused(413, f"the body is {length[:20]} bytes; at most {MAX_BODY}")
            n = int(length)
            try:
                self.raw = self.rfile.read(n)
            except TimeoutError:
                self.raw = b""
            if len(self.raw) < n:
                if self.server.deadlines.expired(self.connection) or not self.raw:
                    raise Refused(408, f"the body did not arrive within {self.timeout} s")
                raise Refused(400, f"the body ended after {len(self.raw)} of its {n} bytes")
        except Refused:
            self.close_connection = True
            raise
        finally:
            self.server.deadlines.stop(self.connection)  # all in: what follows is the server's time

    # -- dispatch ----------------------------------------------------------------------------
    def do_GET(self):
        self._dispatch("GET")

    def do_HEAD(self):
        self._dispatch("HEAD")

    def do_POST(self):
        self._dispatch("POST")

    def _dispatch(self, method: str) -> None:
        try:
            self._check_host()
            self._receive()
            try:
                url = urlsplit(self.path)
            except ValueError:
                raise Refused(400, "the request's target is not a path") from None
            verb = "GET" if method == "HEAD" else method
            if url.path in STATIC and verb == "GET":
                if url.path == "/" and not self.server.warm.is_set():
                    self._send(503, WARMING_PAGE, STATIC["/"][1], PAGE_POLICY, {"Retry-After": str(WARMING_RETRY)})
                else:
                    self._send(200, self.server.files[url.path], STATIC[url.path][1], PAGE_POLICY)
                return
            for route_verb, pattern, name in ROUTES:
                if route_verb == verb and (m := pattern.fullmatch(url.path)):
                    if name not in COLD_ROUTES and not self.server.warm.is_set():
                        raise Refused(503, WARMING, {"Retry-After": str(WARMING_RETRY)})
                    getattr(self, f"_{name}")(*m.groups(), query=parse_qs(url.query))
                    return
            allowed = _allowed(url.path)  # no route of this method matched: the methods that would
            if allowed:
                raise Refused(405, f"{method[:20]} is not allowed here; use {', '.join(allowed)}", {"Allow": ", ".join(allowed)})
            if url.path.startswith(("/api/matches/", "/matches/")):
                raise Refused(404, "no such match")
            raise Refused(404, f"nothing at {url.path[:80]}")
        except Refused as exc:
            self._json(exc.status, {"error": exc.message}, exc.headers)
        except UnknownMatch as exc:
            if exc.__cause__ is not None:
                log.warning("%s", exc.__cause__)
            self._json(404, {"error": str(exc)})
        except StoreFull as exc:
            self._json(503, {"error": str(exc)})
        except Exception:  # a bug: say so in one line, keep the traceback for the log
            log.exception("%s %s", method[:20], self.path[:200])
            self._json(500, {"error": "internal error (the server's log has the details)"})

    def _check_host(self) -> None:
        hosts = self.headers.get_all("Host") or []
        if len(hosts) > 1 or (not hosts and self.request_version == "HTTP/1.1"):  # RFC 9112, 3.2
            self.close_connection = True
            raise Refused(400, f"an HTTP/1.1 request holds one Host header, not {len(hosts)}")
        if self.server.loopback_only and self.headers.get("Host", "") not in self.server.hosts:
            self.close_connection = True  # its body, if any, is not read
            raise Refused(421, "this server answers only to its own address (127.0.0.1 or localhost and its port)")

    # -- requests ---------------------------------------------------------------------------
    def _body(self) -> dict:
        """The request's JSON object, checked: length given, JSON type, UTF-8, not nested
        deeper than ``MAX_DEPTH``, an object."""
        if self.raw is None:
            raise Refused(411, "a request body needs its Content-Length")
        kind = self.headers.get("Content-Type", "").split(";")[0].strip().lower()
        if kind != "application/json":
            raise Refused(415, f"send JSON (Content-Type: application/json), not {kind[:40] or 'no type'}")
        try:
            body = json.loads(self.raw.decode("utf-8")) if self.raw else {}
        except (UnicodeDecodeError, ValueError) as exc:
            raise Refused(400, f"the body is not JSON: {exc}") from None
        except RecursionError:  # the parser's own limit, far deeper than MAX_DEPTH
            raise Refused(400, f"the body is nested too deep: at most {MAX_DEPTH} levels") from None
        if _depth(body) > MAX_DEPTH:
            raise Refused(400, f"the body is nested too deep: at most {MAX_DEPTH} levels")
        if not isinstance(body, dict):
            raise Refused(400, f"the body is a JSON object, not {type(body).__name__}")
        return body

    def _status(self, query) -> None:
        self._json(200, {"warm": self.server.warm.is_set()})

    def _settings(self, query) -> None:
        self._json(200, settings_form(self.server.rules, self.server.level))

    def _create(self, query) -> None:
        body = self._body()
        unknown = sorted(set(body) - {"level", "rules", "timer"})
        if unknown:
            raise Refused(400, f"unknown field(s) {', '.join(map(repr, unknown))}; a new match takes 'level', 'rules' and 'timer'")
        try:
            level = check_level(body.get("level", self.server.level))
            timer = check_timer(body.get("timer"))
            rules = rules_from_form(self.server.rules, body.get("rules"))
        except (RulesError, ValueError, OverflowError) as exc:  # whatever the rules' own checks raise
            raise Refused(422, str(exc)) from None
        store = self.server.store
        match_id = store.create(level, rules, timer)
        state = store.use(match_id, match_view)
        self._json(201, {"id": match_id, **state})

    def _state(self, match_id: str, query) -> None:
        self._json(200, {"id": match_id, **self.server.store.use(match_id, match_view)})

    def _action(self, match_id: str, query) -> None:
        body = self._body()
        text = body.get("action")
        if set(body) != {"action"} or not isinstance(text, str):
            raise Refused(400, 'an action is {"action": TEXT}: a bid (3, nil, blind nil), look, a card (AS) or cards to pass (AS KH)')
        if len(text) > MAX_ACTION:
            raise Refused(400, f"an action is at most {MAX_ACTION} characters")

        def act(match):
            if match.over:
                raise Refused(409, "the match is over")
            if match.agent_to_act:
                raise Refused(409, f"it is {match.names[match.hand.to_act]}'s turn, not yours")
            if match.timed_out():
                raise Refused(409, f"your {match.timer} s ran out: the table plays Normal's choice for you")
            ok, lines = match.answer(text)
            if not ok:
                raise Refused(422, " ".join(lines))
            return match_view(match, lines, start_clock=not match.fresh)

        self._json(200, {"id": match_id, **self.server.store.use(match_id, act, save=True)})

    def _step(self, match_id: str, query) -> None:
        if self.raw:
            self._body()  # a step takes no fields, but a body sent must still be a small JSON object

        def step(match):
            if match.over:
                raise Refused(409, "the match is over")
            if not match.agent_to_act and not match.timed_out():
                raise Refused(409, "it is your turn: no agent is to act")
            began = time.perf_counter()
            lines = match.step() if match.agent_to_act else match.play_for_you()
            view = match_view(match, lines, start_clock=not match.fresh)
            return {**view, "step_ms": round(1000 * (time.perf_counter() - began), 3)}

        self._json(200, {"id": match_id, **self.server.store.use(match_id, step, save=True)})

    def _save(self, match_id: str, query) -> None:
        store = self.server.store

        def read(match):
            if not match.over:
                raise Refused(409, "the save file holds the match's seed, which tells every card to come: "
                                   "it can be downloaded once the match is over")
            return store.path(match_id).read_bytes()

        data = store.use(match_id, read)
        self._send(200, data, "application/x-ndjson", extra={"Content-Disposition": f'attachment; filename="spades-{match_id[:8]}.jsonl"'})

    def _replay(self, match_id: str, hand_no: str, query) -> None:
        k = int(hand_no)
        want_review = query.get("review", ["0"])[0] == "1"

        def record(match):
            if k >= len(match.hands):
                raise Refused(404, f"hand {k} is not finished: the match has {len(match.hands)} finished hands (0..)")
            return match.hands[k].clone()

        hand = self.server.store.use(match_id, record)
        marks, note = None, ""
        if want_review:
            marks, last = self._review_marks(hand)
            note = f"<p>Marked: the decisions of the last {last} tricks that lose over 0.5 points (solver judge): {len(marks)}.</p>"
        title = f"Hand {k + 1}"
        body = (f'<meta name="viewport" content="width=device-width,initial-scale=1"><h2>{html.escape(title)}</h2>{note}'
                f"{replay_html(hand, table_names(hand.rules), marks)}")
        self._send(200, page(body, f"spades_ai: {title}").encode(), "text/html; charset=utf-8", REPLAY_POLICY)

    def _review_marks(self, hand) -> tuple[dict, int]:
        from spades_ai.analysis.review import review

        if not self.server._reviews.acquire(timeout=self.server.review_wait):
            raise Refused(503, "the server is busy with other reviews; try again")
        try:
            df = review(hand, judge="solver")
        finally:
            self.server._reviews.release()
        costly = df[df.loss > 0.5]
        marks = {("bid", int(r.seat)) if r.phase == "bid" else ("play", int(r.play_no)): float(r.loss) for r in costly.itertuples()}
        return marks, hand.rules.cards_each - df.attrs["from_trick"] + 1

    # -- answers ----------------------------------------------------------------------------
    def _json(self, status: int, data, extra: dict | None = None) -> None:
        self._send(status, json.dumps(data).encode(), "application/json", extra=extra)

    def _send(self, status: int, data: bytes, kind: str, policy: str | None = None, extra: dict | None = None) -> None:
        self.send_response(status, HTTPStatus(status).phrase)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Referrer-Policy", "no-referrer")
        if policy:
            self.send_header("Content-Security-Policy", policy)
        for k, v in (extra or {}).items():
            self.send_header(k, v)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)


def make_server(folder: str | Path, host: str = "127.0.0.1", port: int = 8000, level: str = "normal",
                rules: Rules | None = None, max_threads: int = 256, warm_up: Callable[[], None] | None = None,
                **store) -> TableServer:
    """A server for the browser table, its matches saved in ``folder`` (``port=0``: any free
    port; ``server.url`` says which). Run it with ``serve_forever()``. ``warm_up``: compiles the
    engine, run in a thread while the server already answers (None: the server is warm).
    ``store``: the settings of its ``MatchStore`` by name: ``max_live`` (200), ``max_matches``
    (10 000), ``seeds`` (a function giving each new match's seed; default: random, tests fix
    them) and ``clock`` (where the turn timers read the time, in seconds; tests move it on).

    >>> import tempfile
    >>> server = make_server(tempfile.mkdtemp(), port=0)
    >>> server.url.startswith("http://127.0.0.1:")
    True
    >>> server.server_close()
    """
    if rules is not None:
        table_names(rules)  # a table the page can seat, or RulesError naming it
    return TableServer((host, port), MatchStore(folder, **store), level, rules, max_threads=max_threads, warm_up=warm_up)
