"""A small HTTP client of the browser table, for tests and load scripts: what the page does,
without the page (``urllib`` only).

``TableClient(url)`` sends the page's requests; ``play_match`` plays a whole match as South
with a chooser of your own (by default the first legal bid or card, and the first cards held to
pass), stepping the agents as the page does, and counts your actions and the agents'.

>>> import tempfile, threading
>>> from spades_ai.web import make_server
>>> server = make_server(tempfile.mkdtemp(), port=0)
>>> threading.Thread(target=server.serve_forever, daemon=True).start()
>>> TableClient(server.url).settings()["levels"]
['easy', 'normal', 'hard', 'crazy']
>>> server.shutdown(); server.server_close()
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass


class HTTPRefusal(Exception):
    """An answer with an error status: ``status`` and the server's ``message``."""

    def __init__(self, status: int, message: str):
        super().__init__(f"HTTP {status}: {message}")
        self.status = status
        self.message = message


class TableClient:
    """The page's requests to a server at ``url`` (``http://127.0.0.1:8000/``)."""

    def __init__(self, url: str, timeout: float = 60.0):
        self.url = url.rstrip("/")
        self.timeout = timeout

    def request(self, method: str, path: str, body=None, raw: bytes | None = None, headers: dict | None = None):
        """The JSON answer (or the bytes of a non-JSON one); ``HTTPRefusal`` for an error."""
        data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        req = urllib.request.Request(self.url + path, data=data, method=method)
        if data is not None:
            req.add_header("Content-Type", "application/json")
        for k, v in (headers or {}).items():
            req.add_header(k, v)
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as r:
                payload = r.read()
                kind = r.headers.get("Content-Type", "")
        except urllib.error.HTTPError as exc:
            text = exc.read().decode(errors="replace")
            try:
                message = json.loads(text)["error"]
            except (ValueError, KeyError, TypeError):
                message = text
            raise HTTPRefusal(exc.code, message) from None
        return json.loads(payload) if kind.startswith("application/json") else payload

    def status(self) -> dict:
        """``{"warm": ...}``: whether the server has compiled the engine (until then the
        endpoints that run it answer 503)."""
        return self.request("GET", "/api/status")

    def wait_until_warm(self, timeout: float = 600.0, poll: float = 0.25) -> None:
        """Return once the server plays (``status()["warm"]``); ``TimeoutError`` after
        ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while not self.status()["warm"]:
            if time.monotonic() > deadline:
                raise TimeoutError(f"the table at {self.url} was still warming up after {timeout:.0f} s")
            time.sleep(poll)

    def settings(self) -> dict:
        return self.request("GET", "/api/settings")

    def new_match(self, level: str = "normal", rules: dict | None = None, timer: int | None = None) -> dict:
        """A new match; ``timer``: your turn's seconds (None: off)."""
        return self.request("POST", "/api/matches", {"level": level, "rules": rules or {}, "timer": timer})

    def state(self, match_id: str) -> dict:
        return self.request("GET", f"/api/matches/{match_id}")

    def act(self, match_id: str, action: str) -> dict:
        return self.request("POST", f"/api/matches/{match_id}/action", {"action": action})

    def step(self, match_id: str) -> dict:
        return self.request("POST", f"/api/matches/{match_id}/step")

    def save_file(self, match_id: str) -> bytes:
        return self.request("GET", f"/api/matches/{match_id}/save")


def first_choice(hand: dict) -> str:
    """The first legal action of the hand as the page shows it: a look (blind nil asked), the
    first legal bid, the first cards held to pass, the first raised card."""
    if hand["blind_nil_question"]:
        return "look"
    if hand["phase"] == "bidding":
        b = hand["legal_bids"][0]
        return "nil" if b == 0 else str(b)
    if hand["phase"] == "passing":
        return " ".join(c["card"] for c in hand["cards"][: hand["pass_count"]])
    return next(c["card"] for c in hand["cards"] if c["legal"])


@dataclass
class Played:
    """What ``play_match`` did: the final state, your actions and the agents' steps."""

    state: dict
    actions: int
    steps: int


def play_match(client: TableClient, state: dict, choose: Callable[[dict], str] = first_choice,
               on_action: Callable[[dict, dict], None] | None = None, max_actions: int = 100_000) -> Played:
    """Play the match of ``state`` to its end (see the module docstring); ``on_action(before,
    after)`` is called after each of your actions."""
    match_id, actions, steps = state["id"], 0, 0
    while not state["over"]:
        if actions + steps > max_actions:
            raise RuntimeError(f"match {match_id} is not over after {max_actions} actions")
        if state["hand"]["your_turn"]:
            after = client.act(match_id, choose(state["hand"]))
            if on_action is not None:
                on_action(state, after)
            state, actions = after, actions + 1
        else:
            state, steps = client.step(match_id), steps + 1
    return Played(state, actions, steps)
