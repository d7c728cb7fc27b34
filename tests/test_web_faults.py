"""``spades-ai serve`` against faulty and hostile clients (issue 33), and its warm-up (issue 32),
with real sockets on loopback: every malformed request gets a 4xx and changes nothing, idle or
slow clients cannot starve the others, a method the server does not take gets 405 with
``Allow``, a killed server's temporary files are removed at the next start (and nothing else),
and the server answers at once while the engine compiles.
"""

from __future__ import annotations

import http.client
import json
import os
import socket
import subprocess
import sys
import threading

import pytest
from test_web import SHORT, refused, running, until_your_turn

from spades_ai.errors import RulesError
from spades_ai.web.client import TableClient
from spades_ai.web.server import MAX_BODY, MAX_DEPTH, Handler
from spades_ai.web.settings import rules_from_form
from spades_ai.web.store import MatchStore


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    with running(tmp_path_factory.mktemp("matches")) as (server, client):
        yield server, client


def exchange(server, data: bytes, method: str = "GET"):
    """Send ``data`` as it is on a new connection: (status, headers, JSON answer or text)."""
    with socket.create_connection(server.server_address[:2], timeout=30) as s:
        s.sendall(data)
        r = http.client.HTTPResponse(s, method=method)
        r.begin()
        text = r.read().decode()
    try:
        return r.status, dict(r.getheaders()), json.loads(text)
    except ValueError:
        return r.status, dict(r.getheaders()), text


def request(server, method: str, path: str, body: bytes = b"", headers: str = "") -> bytes:
    """A request's bytes with this server's ``Host``; ``headers``: more header lines."""
    host = f"127.0.0.1:{server.server_address[1]}"
    return f"{method} {path} HTTP/1.1\r\nHost: {host}\r\n{headers}\r\n".encode("latin-1") + body


def folder_files(server) -> dict:
    return {p.name: p.read_bytes() for p in server.store.folder.iterdir()}


JSON = "Content-Type: application/json\r\n"


@pytest.fixture(scope="module")
def yours(table):
    """A match waiting for your bid."""
    _, client = table
    return until_your_turn(client, client.new_match("easy", SHORT))


def test_malformed_requests_get_a_4xx_and_change_nothing(table, yours):
    """Each header and body fault of issue 33 (a ``Content-Length`` of ``²``, a body nested too
    deep, a rules number beyond 64 bits: each a 500 before) and the others around them."""
    server, client = table
    mid = yours["id"]
    action, create = f"/api/matches/{mid}/action", "/api/matches"
    deep = b"[" * 2000 + b"]" * 2000  # within MAX_BODY, deeper than the parser's recursion limit
    nested = json.dumps({"rules": {"nil": [[[[True]]]]}}).encode()

    def post(path, body: bytes, headers: str = JSON, length: str | None = None):
        return request(server, "POST", path, body, headers + f"Content-Length: {len(body) if length is None else length}\r\n")

    # a refused header is answered before the body is read: these send none (a server closing a
    # connection with unread data resets it, and the client may lose the answer)
    cases = [
        (post(action, b"", length="²"), 400, "ASCII digits"),  # b"\xb2": "²".isdigit(), int("²") fails
        (post(action, b"", length="١٧".encode().decode("latin-1")), 400, "ASCII digits"),  # its UTF-8 bytes
        (post(action, b"", length="-1"), 400, "ASCII digits"),
        (post(action, b"", length="1e3"), 400, "ASCII digits"),
        (post(action, b"", length="9" * 5000), 413, f"at most {MAX_BODY}"),
        (post(action, b"", length=str(MAX_BODY + 1)), 413, f"at most {MAX_BODY}"),
        (post(action, b"", headers=JSON + "Content-Length: 0\r\n"), 400, "one number"),
        (request(server, "POST", action, b"", JSON + "Transfer-Encoding: chunked\r\n"), 411, "Content-Length"),
        (request(server, "POST", create, b"", JSON), 411, "Content-Length"),
        (post(action, '{"action": "nil"}'.encode("utf-16")), 400, "not JSON"),
        (post(action, b'{"action": "\xc3"}'), 400, "not JSON"),
        (post(create, deep), 400, "nested too deep"),
        (post(create, nested), 400, f"at most {MAX_DEPTH} levels"),
        (post(create, json.dumps({"rules": {"bag_limit": 2**70}}).encode()), 422, "'bag_limit' must be an int in 1..1_000_000"),
        (post(create, json.dumps({"rules": {"nil_bonus": -(2**64)}}).encode()), 422, "'nil_bonus' must be an int in 1..10_000"),
        (post(create, json.dumps({"level": ["easy"]}).encode()), 422, "unknown level"),
        (post(create, json.dumps({"level": {"easy": 1}}).encode()), 422, "unknown level"),
        (post(create, json.dumps({"rules": {"target_score": 1.0e300}}).encode()), 422, "whole number"),
        (post(action, json.dumps({"action": ["nil"]}).encode()), 400, "an action is"),
        (post(action, json.dumps({"action": None}).encode()), 400, "an action is"),
        (post(action, json.dumps({"action": "²"}).encode()), 422, "Not a bid"),
        (post(action, json.dumps({"action": "--3"}).encode()), 422, "Not a bid"),
        (post(action, json.dumps({"action": "\x00"}).encode()), 422, ""),
        (post(f"/api/matches/{mid}/step", b"[1]"), 400, "JSON object"),
        (request(server, "GET", "http://[::1/api/settings"), 400, "not a path"),
        (request(server, "GET", "/api/matches/" + "\xff" * 22), 404, "no such match"),
        (request(server, "GET", f"/matches/{mid}/replay/\xb2"), 404, "no such match"),
        (request(server, "GET", f"/matches/{mid}/replay/0?review=%ff%00&&=&review"), 404, "not finished"),
        (request(server, "GET", "/api/matches/" + "A" * 22), 404, "no such match"),
        # the standard library's limits, answered in JSON: exactly one byte over, so that nothing is left unread
        (request(server, "GET", "/api/settings")[:-2] + b"X-Long: " + b"x" * (65537 - 8), 431, ""),
        (b"GET /" + b"x" * (65537 - 5), 414, ""),
        (b"GET / HTTP/9.9\r\n\r\n", 505, ""),
        (b"GET / HTTP/1.x\r\n\r\n", 400, "Bad request version"),
    ]  # fmt: skip
    before = folder_files(server)
    for data, want, message in cases:
        status, _, answer = exchange(server, data)
        assert status == want and message in answer["error"], (data[:80], status, answer)
    assert folder_files(server) == before
    assert client.state(mid)["hand"] == yours["hand"]


@pytest.mark.parametrize("hosts", [("ours", "evil.example:8000"), ("evil.example:8000", "ours"), ("ours", "ours"), ()],
                         ids=["ours first", "ours second", "ours twice", "none"])
def test_a_request_without_exactly_one_host_is_a_400(table, hosts):
    """Issue 42: two ``Host`` headers with this server's first were answered 200; HTTP/1.1
    (RFC 9112, 3.2) wants a 400 for a request with more than one, or none."""
    server, _ = table
    ours = f"127.0.0.1:{server.server_address[1]}"
    lines = "".join(f"Host: {ours if h == 'ours' else h}\r\n" for h in hosts)
    status, _, answer = exchange(server, f"GET /api/settings HTTP/1.1\r\n{lines}\r\n".encode("latin-1"))
    assert status == 400 and f"one Host header, not {len(hosts)}" in answer["error"], (status, answer)


def test_any_error_from_building_the_rules_is_a_refusal(table, monkeypatch):
    """Whatever the rules' own checks raise (a range bound in ``Rules`` itself, a number the
    kernels' int64 array cannot hold) is a 422 with its reason, never a 500."""
    server, client = table
    for value in (2**63, 2**63 - 1, 10**6 + 1):  # the bound is the Rules field's own (spades_ai.rules)
        with pytest.raises(RulesError, match="'bag_limit' must be an int in 1..1_000_000"):
            rules_from_form(server.rules, {"bag_limit": value})
    assert rules_from_form(server.rules, {"bag_limit": 10**6}).bag_limit == 10**6
    before = folder_files(server)
    for error in (OverflowError("Python int too large to convert to C long"), ValueError("bag_limit is too large")):
        def failing(base, given, error=error):
            raise error

        monkeypatch.setattr("spades_ai.web.server.rules_from_form", failing)
        refused(422, client.new_match, "easy", SHORT, match=str(error))
    assert folder_files(server) == before


def test_a_body_that_does_not_all_arrive_is_refused_and_changes_nothing(tmp_path, monkeypatch):
    """A body cut short (the client stops writing) is a 400; a body that stalls is a 408 once
    ``Handler.timeout`` is up; neither reaches the match."""
    monkeypatch.setattr(Handler, "timeout", 0.5)
    with running(tmp_path) as (server, client):
        state = until_your_turn(client, client.new_match("easy", SHORT))
        before = folder_files(server)
        data = request(server, "POST", f"/api/matches/{state['id']}/action", b'{"action": ', JSON + "Content-Length: 17\r\n")
        with socket.create_connection(server.server_address[:2], timeout=30) as s:
            s.sendall(data)
            s.shutdown(socket.SHUT_WR)  # cut short
            r = http.client.HTTPResponse(s, method="POST")
            r.begin()
            assert r.status == 400 and "ended after 11 of its 17 bytes" in json.loads(r.read())["error"]
        with socket.create_connection(server.server_address[:2], timeout=30) as s:
            s.sendall(data)  # and nothing more
            r = http.client.HTTPResponse(s, method="POST")
            r.begin()
            assert r.status == 408 and "did not arrive" in json.loads(r.read())["error"]
        assert folder_files(server) == before


def test_a_client_trickling_its_headers_is_cut_off_at_the_deadline(tmp_path, monkeypatch):
    """A byte every 0.1 s never lets a socket timeout fire; the request's deadline does: 408,
    then the connection is closed."""
    monkeypatch.setattr(Handler, "timeout", 0.5)
    with running(tmp_path) as (server, _), socket.create_connection(server.server_address[:2], timeout=30) as s:
        s.sendall(request(server, "GET", "/api/settings")[:-2])  # the headers, without their end
        answer = b""
        s.settimeout(0.1)
        for _ in range(100):  # 10 s at most; cut off after 0.5 s
            try:
                chunk = s.recv(4096)
            except TimeoutError:  # nothing yet: one more byte of the header
                try:
                    s.sendall(b"X")
                except OSError:  # closed by the server: its answer is in the socket
                    pass
                continue
            answer += chunk
            if not chunk or answer.endswith(b"}"):
                break
        assert answer.startswith(b"HTTP/1.0 408 ") and b"did not arrive within 0.5 s" in answer, answer


def test_a_hundred_idle_connections_do_not_starve_a_request(tmp_path, monkeypatch):
    """100 connections that send nothing (or half a request line) hold their handlers, even
    with a long ``Handler.timeout``; the page's next request is still answered at once, since
    the server handles more connections at once than that (64 before: the request waited
    for the idle ones' 20 s timeout)."""
    monkeypatch.setattr(Handler, "timeout", 60)
    with running(tmp_path) as (server, _):
        idle = [socket.create_connection(server.server_address[:2], timeout=30) for _ in range(100)]
        try:
            for s in idle[::2]:
                s.sendall(b"GET /api/sett")
            client = TableClient(server.url, timeout=5)  # the answer within 5 s, or a timeout error
            for _ in range(3):
                assert client.settings()["levels"]
            assert client.status() == {"warm": True}
        finally:
            for s in idle:
                s.close()


def test_methods_the_server_does_not_take_get_405_with_allow(table, yours):
    server, _ = table
    mid = yours["id"]
    for method, path, allow in [
        ("OPTIONS", "/", "GET, HEAD"),
        ("TRACE", "/api/settings", "GET, HEAD"),
        ("FOO", f"/api/matches/{mid}/action", "POST"),
        ("DELETE", f"/api/matches/{mid}", "GET, HEAD"),
        ("PUT", "/api/matches", "POST"),
        ("GET", f"/api/matches/{mid}/step", "POST"),
    ]:
        status, headers, answer = exchange(server, request(server, method, path))
        assert status == 405 and headers["Allow"] == allow and f"use {allow}" in answer["error"], (method, path, answer)
    assert exchange(server, request(server, "OPTIONS", "/nothing"))[0] == 404
    status, headers, text = exchange(server, request(server, "HEAD", "/api/settings"), method="HEAD")
    assert status == 200 and text == "" and int(headers["Content-Length"]) > 100
    status, _, answer = exchange(server, request(server, "PUT", "/api/matches", b'{"level": "easy"}', JSON + "Content-Length: 17\r\n"))
    assert status == 405  # its body read, the connection in step


def test_a_killed_servers_temporary_files_are_removed_at_start_and_nothing_else(tmp_path):
    """A save interrupted by kill -9 leaves ``.ID.jsonl.PID.tmp``; the next store deletes it
    (its writer is gone), and keeps the saved matches, a live writer's temporary file and
    every file of another name."""
    with running(tmp_path) as (_, client):
        kept = client.new_match("easy", SHORT)["id"]
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True, check=True)
    dead = int(gone.stdout)
    stale = [tmp_path / f".{kept}.jsonl.{dead}.tmp", tmp_path / f".{'B' * 22}.jsonl.{dead}.tmp"]
    others = [tmp_path / f".{kept}.jsonl.{os.getpid()}.tmp",  # a writer still running
              tmp_path / f".notes.jsonl.{dead}.tmp", tmp_path / f".{kept}.txt.{dead}.tmp", tmp_path / ".other.tmp",
              tmp_path / f"{kept}.jsonl.{dead}.tmp", tmp_path / "notes.txt"]  # fmt: skip
    for p in stale + others:
        p.write_bytes(b"")
    (tmp_path / f".{'C' * 22}.jsonl.{dead}.tmp").mkdir()
    saved = (tmp_path / f"{kept}.jsonl").read_bytes()
    store = MatchStore(tmp_path)
    assert not any(p.exists() for p in stale)
    assert all(p.exists() for p in others) and (tmp_path / f".{'C' * 22}.jsonl.{dead}.tmp").is_dir()
    assert len(store) == 1 and (tmp_path / f"{kept}.jsonl").read_bytes() == saved
    assert store.use(kept, lambda m: m.level) == "easy"


def test_the_server_answers_at_once_while_the_engine_warms_up(tmp_path):
    """Until its warm-up is done, the page is a short one that reloads itself and the engine's
    endpoints answer 503 with Retry-After; the static files, the status and the settings answer;
    then the table plays."""
    go, began = threading.Event(), threading.Event()

    def warm_up():
        began.set()
        assert go.wait(60)

    with running(tmp_path, warm_up=warm_up) as (server, client):
        assert began.wait(30)
        status, headers, page = exchange(server, request(server, "GET", "/"))
        assert status == 503 and headers["Retry-After"] == "2" and 'http-equiv="refresh"' in page
        assert "warming up (compiling the engine, first run only)" in page
        assert client.status() == {"warm": False}
        assert client.settings()["level"] == "easy"
        assert b"use strict" in client.request("GET", "/static/app.js")
        status, headers, answer = exchange(server, request(server, "POST", "/api/matches", b"{}", JSON + "Content-Length: 2\r\n"))
        assert status == 503 and headers["Retry-After"] == "2" and "warming up" in answer["error"]
        refused(503, client.state, "A" * 22, match="warming up")
        assert len(server.store) == 0
        go.set()
        assert server.warm.wait(30)
        assert client.status() == {"warm": True}
        assert b'<script src="/static/app.js"' in client.request("GET", "/")
        assert client.new_match("easy", SHORT)["hand"]


def test_a_failed_warm_up_is_logged_and_the_table_still_serves(tmp_path, caplog):
    def warm_up():
        raise RuntimeError("no compiler")

    with running(tmp_path, warm_up=warm_up) as (server, client):
        assert server.warm.wait(30)
        assert client.status() == {"warm": True}
    assert "the warm-up failed" in caplog.text
