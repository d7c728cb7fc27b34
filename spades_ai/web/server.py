"""The HTTP server of the browser table: the standard library's ``ThreadingHTTPServer``.

Endpoints (JSON in and out unless said otherwise; a match only by its id):

======  ====================================  ===============================================
GET     ``/``, ``/static/app.js|style.css``   the page (package files; nothing from elsewhere)
GET     ``/api/settings``                      the levels and every rules field (the form)
POST    ``/api/matches``                       ``{"level", "rules"}``: a new match; 201 + state
GET     ``/api/matches/ID``                    the match as you see it (``view.match_view``)
POST    ``/api/matches/ID/action``             ``{"action": "3" | "nil" | "blind nil" | "look"
                                               | "AS" | "AS KH"}``: your bid, card or pass,
                                               checked by the engine (``TableMatch.answer``)
POST    ``/api/matches/ID/step``               one agent acts (the page paces the agents);
                                               ``step_ms``: how long it took on the server
GET     ``/api/matches/ID/save``               the save file (JSON lines), once the match is
                                               over (it holds the seed, which tells every deal)
GET     ``/matches/ID/replay/K[?review=1]``    finished hand K trick by trick (HTML; with
                                               ``review=1`` the review's marks, solver judge)
======  ====================================  ===============================================

Refusals change nothing and say why in ``{"error": ...}``: 400 a malformed request, 404 an
unknown path or match, 405 a wrong method, 409 not your turn (or no agent's, or the match not
over), 411 a body without its length, 413 a body over ``MAX_BODY`` bytes, 415 a body that is not
``application/json`` (so that a form on another site cannot post here), 421 a ``Host`` that
is not this server's when it listens on a loopback address (DNS rebinding), 422 an action or
settings the engine refuses, 503 the server full (``MatchStore``). At most ``max_threads``
requests are handled at once (more wait to be accepted), and a client that sends nothing for
``Handler.timeout`` seconds is dropped.
"""

from __future__ import annotations

import html
import ipaddress
import json
import logging
import re
import socket
import threading
import time
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from spades_ai.errors import RulesError
from spades_ai.render import page, replay_html
from spades_ai.render.text import TABLE_NAMES
from spades_ai.rules import Rules
from spades_ai.web.settings import check_level, rules_from_form, settings_form
from spades_ai.web.store import ID_PATTERN, MatchStore, StoreFull, UnknownMatch
from spades_ai.web.view import match_view

MAX_BODY = 4096
MAX_ACTION = 64
#: The package files the page is made of, by URL path: (file, content type).
STATIC = {
    "/": ("index.html", "text/html; charset=utf-8"),
    "/static/app.js": ("app.js", "text/javascript; charset=utf-8"),
    "/static/style.css": ("style.css", "text/css; charset=utf-8"),
}
PAGE_POLICY = "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'"
REPLAY_POLICY = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; frame-ancestors 'none'"
_ID = ID_PATTERN.pattern
ROUTES = [
    ("GET", re.compile(r"/api/settings"), "settings"),
    ("POST", re.compile(r"/api/matches"), "create"),
    ("GET", re.compile(rf"/api/matches/({_ID})"), "state"),
    ("POST", re.compile(rf"/api/matches/({_ID})/action"), "action"),
    ("POST", re.compile(rf"/api/matches/({_ID})/step"), "step"),
    ("GET", re.compile(rf"/api/matches/({_ID})/save"), "save"),
    ("GET", re.compile(rf"/matches/({_ID})/replay/(\d{{1,3}})"), "replay"),
]
log = logging.getLogger("spades_ai.web")


class Refused(Exception):
    """A request answered with an error status and ``{"error": message}``; nothing changed."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
        self.message = message


def static_file(name: str) -> bytes:
    """A file of the page, from the package (``spades_ai/web/static``)."""
    return resources.files("spades_ai.web").joinpath("static", name).read_bytes()


class TableServer(ThreadingHTTPServer):
    """The browser table's server: a ``MatchStore``, the default level and rules, and a bound
    on the requests handled at once."""

    daemon_threads = True
    request_queue_size = 128
    #: seconds a review waits for the one before it (reviews take a core each) before a 503
    review_wait = 30.0

    def __init__(self, address, store: MatchStore, level: str = "normal", rules: Rules | None = None,
                 max_threads: int = 64, review_jobs: int = 1):
        self.store = store
        self.level = check_level(level)
        self.rules = Rules() if rules is None else rules
        self._slots = threading.BoundedSemaphore(max_threads)
        self._reviews = threading.BoundedSemaphore(review_jobs)
        self.files = {path: static_file(name) for path, (name, _) in STATIC.items()}
        if ":" in address[0]:
            self.address_family = socket.AF_INET6
        super().__init__(address, Handler)
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
    timeout = 20
    # the headers and the body go out in two writes: without TCP_NODELAY the second waits for
    # the client's delayed ACK of the first (40 ms on Linux), which was most of a step's wait
    disable_nagle_algorithm = True

    def log_message(self, format, *args):  # noqa: A002 -- the standard library's name
        log.info("%s %s", self.address_string(), format % args)

    # -- dispatch ----------------------------------------------------------------------------
    def do_GET(self):
        self._dispatch("GET")

    def do_POST(self):
        self._dispatch("POST")

    def do_PUT(self):
        self._dispatch("PUT")

    def do_DELETE(self):
        self._dispatch("DELETE")

    def do_PATCH(self):
        self._dispatch("PATCH")

    def _dispatch(self, method: str) -> None:
        try:
            self._check_host()
            url = urlsplit(self.path)
            if method == "GET" and url.path in STATIC:
                self._send(200, self.server.files[url.path], STATIC[url.path][1], PAGE_POLICY)
                return
            allowed = []
            for verb, pattern, name in ROUTES:
                m = pattern.fullmatch(url.path)
                if m:
                    if verb == method:
                        getattr(self, f"_{name}")(*m.groups(), query=parse_qs(url.query))
                        return
                    allowed.append(verb)
            if allowed:
                raise Refused(405, f"{method} is not allowed here; use {', '.join(allowed)}")
            if url.path.startswith(("/api/matches/", "/matches/")):
                raise Refused(404, "no such match")
            raise Refused(404, f"nothing at {url.path[:80]}")
        except Refused as exc:
            self._json(exc.status, {"error": exc.message})
        except UnknownMatch as exc:
            if exc.__cause__ is not None:
                log.warning("%s", exc.__cause__)
            self._json(404, {"error": str(exc)})
        except StoreFull as exc:
            self._json(503, {"error": str(exc)})
        except Exception:  # a bug: say so in one line, keep the traceback for the log
            log.exception("%s %s", method, self.path[:200])
            self._json(500, {"error": "internal error (the server's log has the details)"})

    def _check_host(self) -> None:
        if self.server.loopback_only and self.headers.get("Host", "") not in self.server.hosts:
            raise Refused(421, "this server answers only to its own address (127.0.0.1 or localhost and its port)")

    # -- requests ---------------------------------------------------------------------------
    def _body(self) -> dict:
        """The request's JSON object, checked: length given and small, JSON type, an object."""
        length = self.headers.get("Content-Length")
        if length is None:
            raise Refused(411, "a request body needs its Content-Length")
        if not length.isdigit():
            raise Refused(400, f"Content-Length is a number of bytes, not {length[:20]!r}")
        if int(length) > MAX_BODY:
            self.close_connection = True  # the body is not read
            raise Refused(413, f"the body is {length} bytes; at most {MAX_BODY}")
        kind = self.headers.get("Content-Type", "").split(";")[0].strip().lower()
        if kind != "application/json":
            raise Refused(415, f"send JSON (Content-Type: application/json), not {kind or 'no type'}")
        raw = self.rfile.read(int(length))
        try:
            body = json.loads(raw.decode("utf-8")) if raw else {}
        except (UnicodeDecodeError, ValueError) as exc:
            raise Refused(400, f"the body is not JSON: {exc}") from None
        if not isinstance(body, dict):
            raise Refused(400, f"the body is a JSON object, not {type(body).__name__}")
        return body

    def _settings(self, query) -> None:
        self._json(200, settings_form(self.server.rules, self.server.level))

    def _create(self, query) -> None:
        body = self._body()
        unknown = sorted(set(body) - {"level", "rules"})
        if unknown:
            raise Refused(400, f"unknown field(s) {', '.join(map(repr, unknown))}; a new match takes 'level' and 'rules'")
        try:
            level = check_level(body.get("level", self.server.level))
            rules = rules_from_form(self.server.rules, body.get("rules"))
        except (RulesError, ValueError) as exc:
            raise Refused(422, str(exc)) from None
        store = self.server.store
        match_id = store.create(level, rules)
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
            ok, lines = match.answer(text)
            if not ok:
                raise Refused(422, " ".join(lines))
            return match_view(match, lines)

        self._json(200, {"id": match_id, **self.server.store.use(match_id, act, save=True)})

    def _step(self, match_id: str, query) -> None:
        if self.headers.get("Content-Length", "0") != "0":
            self._body()  # a step takes no fields, but a body sent must still be a small JSON object

        def step(match):
            if match.over:
                raise Refused(409, "the match is over")
            if not match.agent_to_act:
                raise Refused(409, "it is your turn: no agent is to act")
            began = time.perf_counter()
            lines = match.step()
            return {**match_view(match, lines), "step_ms": round(1000 * (time.perf_counter() - began), 3)}

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
            marks = self._review_marks(hand)
            note = f"<p>Marked: the decisions of the last 6 tricks that lose over 0.5 points (solver judge): {len(marks)}.</p>"
        title = f"Hand {k + 1}"
        body = (f'<meta name="viewport" content="width=device-width,initial-scale=1"><h2>{html.escape(title)}</h2>{note}'
                f"{replay_html(hand, TABLE_NAMES, marks)}")
        self._send(200, page(body, f"spades_ai: {title}").encode(), "text/html; charset=utf-8", REPLAY_POLICY)

    def _review_marks(self, hand) -> dict:
        from spades_ai.analysis.review import review

        if not self.server._reviews.acquire(timeout=self.server.review_wait):
            raise Refused(503, "the server is busy with other reviews; try again")
        try:
            df = review(hand, judge="solver")
        finally:
            self.server._reviews.release()
        costly = df[df.loss > 0.5]
        return {("bid", int(r.seat)) if r.phase == "bid" else ("play", int(r.play_no)): float(r.loss) for r in costly.itertuples()}

    # -- answers ----------------------------------------------------------------------------
    def _json(self, status: int, data) -> None:
        self._send(status, json.dumps(data).encode(), "application/json")

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
                rules: Rules | None = None, max_live: int = 200, max_matches: int = 10_000,
                max_threads: int = 64, seeds=None) -> TableServer:
    """A server for the browser table, its matches saved in ``folder`` (``port=0``: any free
    port; ``server.url`` says which). Run it with ``serve_forever()``. ``seeds``: a function
    giving each new match's seed (default: random; tests fix them).

    >>> import tempfile
    >>> server = make_server(tempfile.mkdtemp(), port=0)
    >>> server.url.startswith("http://127.0.0.1:")
    True
    >>> server.server_close()
    """
    store = MatchStore(folder, max_live=max_live, max_matches=max_matches, seeds=seeds)
    return TableServer((host, port), store, level, rules, max_threads=max_threads)
