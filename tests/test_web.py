"""``spades-ai serve`` at the HTTP level: every endpoint, every refusal, and the safety items of
issue 24 (loopback by default, the engine decides every action, unguessable ids, no path from
a client, bounded requests and matches), against a real server on a free port.

Easy opponents (and the Hard partner), 250 points, fixed seeds: the kernels are the ones other
tests compile, and the same seed gives the same deals every run.
"""

from __future__ import annotations

import http.client
import json
import re
import threading
from contextlib import contextmanager
from itertools import count

import pytest

from spades_ai import Card, Rules, RulesError
from spades_ai.cli import main
from spades_ai.table.replay import replay_lines, replay_source
from spades_ai.web import make_server
from spades_ai.web.client import HTTPRefusal, TableClient, first_choice, play_match
from spades_ai.web.server import MAX_BODY
from spades_ai.web.store import ID_PATTERN
from spades_ai.web.view import BrowserMatch

SHORT = {"target_score": 250}
#: seed 6, first legal choices: a refused follow-suit card on your 1st card and a refused
#: spade lead later in hand 1 (found once by playing it; the deals are fixed by the seed)
SEED = 6


@contextmanager
def running(folder, seeds=None, **kw):
    """A server on a free port in a thread; its client."""
    seeds = seeds or count(SEED).__next__
    server = make_server(folder, port=0, level="easy", seeds=seeds, **kw)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server, TableClient(server.url, timeout=120)
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    with running(tmp_path_factory.mktemp("matches")) as (server, client):
        yield server, client


def refused(status: int, fn, *args, match: str = ""):
    with pytest.raises(HTTPRefusal) as info:
        fn(*args)
    assert info.value.status == status, info.value
    assert re.search(match, info.value.message), info.value.message
    return info.value.message


def raw(server, method: str, path: str, body: bytes | None = None, headers: dict | None = None):
    """A hand-made request (what urllib will not send): (status, JSON answer or text)."""
    conn = http.client.HTTPConnection(*server.server_address[:2], timeout=60)
    conn.putrequest(method, path, skip_host="Host" in (headers or {}), skip_accept_encoding=True)
    for k, v in (headers or {}).items():
        conn.putheader(k, v)
    conn.endheaders()
    if body:
        conn.send(body)
    r = conn.getresponse()
    text = r.read().decode()
    conn.close()
    try:
        return r.status, json.loads(text)
    except ValueError:
        return r.status, text


def until_your_turn(client, state):
    while not state["over"] and not state["hand"]["your_turn"]:
        state = client.step(state["id"])
    return state


def test_the_page_is_served_from_the_package_with_nothing_from_elsewhere(table):
    server, client = table
    page = client.request("GET", "/").decode()
    assert '<script src="/static/app.js"' in page and 'href="/static/style.css"' in page
    for path in ("/", "/static/app.js", "/static/style.css"):
        text = client.request("GET", path).decode()
        assert not re.search(r"(src|href)=[\"']?(https?:)?//|@import|url\(\s*['\"]?https?:", text), path  # no CDN, no download
    status, headers = _headers(server, "/")
    assert status == 200 and "default-src 'self'" in headers["Content-Security-Policy"]
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert raw(server, "GET", "/static/../server.py")[0] == 404  # a client names no file
    assert raw(server, "GET", "/static/store.py")[0] == 404
    assert raw(server, "GET", "/etc/passwd")[0] == 404


def _headers(server, path):
    conn = http.client.HTTPConnection(*server.server_address[:2], timeout=30)
    conn.request("GET", path)
    r = conn.getresponse()
    r.read()
    conn.close()
    return r.status, dict(r.getheaders())


def test_settings_offer_every_level_and_every_rules_field(table, tmp_path):
    _, client = table
    form = client.settings()
    assert form["levels"] == ["easy", "normal", "hard", "crazy"] and form["targets"] == [500, 250]
    with running(tmp_path, rules=Rules(target_score=None, max_hands=3)) as (_, other):  # the server's own rules
        assert other.settings()["targets"] == [500, 250, None]
    fields = {f["name"]: f for f in form["rules"]}
    assert set(fields) == set(Rules().to_dict())
    assert fields["players"]["choices"] == list(range(3, 13)) and fields["teams"]["choices"] == ["pairs", "solo"]
    assert fields["must_win"]["kind"] == "bool" and fields["failed_bid"]["choices"] == [0, 10, 50]
    assert fields["equal_cards"]["choices"] == ["first", "last"]  # two and three decks: identical cards meet
    assert form["tables"] == [{"players": n, "teams": ["pairs", "solo"] if n % 2 == 0 else ["solo"],
                               "default": "pairs" if n == 4 else "solo"} for n in range(3, 13)]  # fmt: skip
    assert form["timers"] == [None, 7, 15, 30, 60] and form["timer"] is None  # the seeds' timers, off by default
    assert fields["pass_cards"]["kind"] == "int" and fields["closed_bidding"]["kind"] == "bool"
    assert fields["spade_lead"]["choices"][0] == "broken" and fields["loss_threshold"]["optional"]
    assert all(f["doc"].endswith(".") for f in fields.values())


def test_a_new_match_is_yours_only_and_shows_only_your_cards(table):
    server, client = table
    state = client.new_match("easy", SHORT)
    assert ID_PATTERN.fullmatch(state["id"]) and (server.store.folder / f"{state['id']}.jsonl").exists()
    assert "seed" not in json.dumps(state)  # the seed tells every card: never sent while the match goes on
    match = BrowserMatch.load(server.store.path(state["id"]))
    hand = state["hand"]
    assert {c["card"] for c in hand["cards"]} == {str(c) for c in match.hand.cards(0)}
    shown = set(re.findall(r'data-card=\\"(\w\w)\\"', json.dumps(state)))
    assert shown == {str(c) for c in match.hand.cards(0)}, "a card of another seat was sent"
    assert hand["held"] == [13, 13, 13, 13] and state["level"] == "easy" and state["partner_level"] == "hard"
    # two matches, two unrelated ids
    other = client.new_match("easy", SHORT)
    assert other["id"] != state["id"]


@pytest.mark.parametrize("body, status, message", [
    ({"level": "expert"}, 422, "unknown level 'expert'"),
    ({"level": "easy", "colour": "red"}, 400, "unknown field"),
    ({"rules": {"no_such_rule": 1}}, 422, "unknown rules field 'no_such_rule'"),
    ({"rules": {"nil": "yes"}}, 422, "'nil' is true or false"),
    ({"rules": {"bag_limit": 2.5}}, 422, "'bag_limit' is a whole number"),
    ({"rules": {"spade_lead": "never"}}, 422, "'spade_lead' is one of broken"),
    ({"rules": {"target_score": 10**9}}, 422, "at most 2000 points"),
    ({"rules": {"target_score": None, "max_hands": 5000}}, 422, "at most 100 hands"),
    ({"rules": {"pass_cards": 2, "blind_nil": True}}, 422, "blind_nil"),
    ({"rules": {"nil": None}}, 422, "cannot be off"),
    ({"rules": [1, 2]}, 422, "rules must be an object"),
    ({"rules": {"players": 13}}, 422, "'players' is one of 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, not 13"),
    ({"rules": {"players": "3"}}, 422, "'players' is one of 3, 4, 5, .*, 12"),
    ({"rules": {"players": 8, "teams": "pairs", "pass_cards": 1}}, 422, "'pass_cards' = 1 is played with one deck"),
    ({"rules": {"players": 3, "teams": "pairs"}}, 422, "'teams' = 'pairs' needs an even number of players"),
    ({"rules": {"must_win": True}}, 422, "must_win"),  # pairs at four: must win is solo only
    ({"rules": {"players": 5, "failed_bid": 20}}, 422, "'failed_bid' is one of 0, 10, 50"),
    ({"rules": {"equal_cards": "third"}}, 422, "'equal_cards' is one of first, last"),
    ({"timer": 5}, 422, "'timer' is one of off, 7, 15, 30, 60"),
    ({"timer": 7.0}, 422, "'timer' is one of"),
    ({"timer": True}, 422, "'timer' is one of"),
    ({"timer": "15"}, 422, "'timer' is one of"),
])  # fmt: skip
def test_bad_settings_are_refused_with_the_reason_and_make_no_match(table, body, status, message):
    server, client = table
    before = len(server.store)
    refused(status, client.request, "POST", "/api/matches", body, match=message)
    assert len(server.store) == before


def test_malformed_and_oversized_requests_get_a_4xx_and_change_nothing(table):
    server, client = table
    state = until_your_turn(client, client.new_match("easy", SHORT))
    path = f"/api/matches/{state['id']}/action"
    saved = server.store.path(state["id"]).read_bytes()
    json_type = {"Content-Type": "application/json"}
    cases = [
        (raw(server, "POST", path, headers=json_type), 411, "Content-Length"),
        (raw(server, "POST", path, b"x" * 10, {**json_type, "Content-Length": "ten"}), 400, "number of bytes"),
        (raw(server, "POST", path, b"{}", {**json_type, "Content-Length": str(MAX_BODY + 1)}), 413, f"at most {MAX_BODY}"),
        (raw(server, "POST", path, b"action=AS", {"Content-Type": "application/x-www-form-urlencoded", "Content-Length": "9"}), 415, "send JSON"),
        (raw(server, "POST", path, b"{nope", {**json_type, "Content-Length": "5"}), 400, "not JSON"),
        (raw(server, "POST", path, b"[1]", {**json_type, "Content-Length": "3"}), 400, "JSON object"),
        (raw(server, "POST", path, b"\xff\xfe", {**json_type, "Content-Length": "2"}), 400, "not JSON"),
    ]  # fmt: skip
    for (status, answer), want, message in cases:
        assert status == want and message in answer["error"], (status, answer)
    refused(400, client.request, "POST", path, {"action": 3}, match="an action is")
    refused(400, client.request, "POST", path, {"action": "AS", "seat": 2}, match="an action is")
    refused(400, client.act, state["id"], "A" * 65, match="at most 64 characters")
    assert server.store.path(state["id"]).read_bytes() == saved
    assert client.state(state["id"])["hand"] == state["hand"]


def test_ids_that_are_not_a_match_get_404_and_wrong_methods_405(table):
    server, client = table
    refused(404, client.state, "A" * 22, match="no such match")
    refused(404, client.step, "A" * 22, match="no such match")
    for bad in ("short", "../../../../etc/passwd", "A" * 23, "%2e%2e%2f" * 3):
        assert raw(server, "GET", f"/api/matches/{bad}")[0] == 404
    state = client.new_match("easy", SHORT)
    refused(405, client.request, "GET", f"/api/matches/{state['id']}/action", match="use POST")
    refused(405, client.request, "DELETE", f"/api/matches/{state['id']}", match="use GET")
    refused(405, client.request, "PUT", "/api/matches", {}, match="use POST")
    refused(404, client.request, "GET", "/api/nothing", match="nothing at")


def test_the_server_answers_only_to_its_own_address_on_loopback(table):
    server, _ = table
    status, answer = raw(server, "GET", "/api/settings", headers={"Host": "evil.example:8000"})
    assert status == 421 and "its own address" in answer["error"]
    assert raw(server, "GET", "/api/settings", headers={"Host": f"localhost:{server.server_address[1]}"})[0] == 200
    assert server.loopback_only and server.server_address[0] == "127.0.0.1"


def test_every_action_is_the_engines_and_a_refusal_changes_nothing(table):
    """Seed 6: a card that does not follow suit and a spade led before spades are broken are
    refused with the engine's reason; a turn out of order, a step on your turn, a bid in the
    play, a card you do not hold: refused too, and the match and its file stay as they were."""
    server, _ = table
    with running(server.store.folder.parent / "seed4") as (srv, cl):  # its first match: seed 6
        state = cl.new_match("easy", SHORT)
        mid = state["id"]
        reasons = set()
        if not state["hand"]["your_turn"]:
            refused(409, cl.act, mid, "nil", match="turn, not yours")
        while not state["over"] and state["hand"]["hand_no"] == 0:
            state = until_your_turn(cl, state)
            hand = state["hand"]
            if hand["phase"] == "bidding":
                refused(409, cl.step, mid, match="it is your turn")
                refused(422, cl.act, mid, "14", match="You may not bid 14")
                refused(422, cl.act, mid, "three", match="Not a bid")
            if hand["phase"] == "playing":
                held = {c["card"] for c in hand["cards"]}
                refused(422, cl.act, mid, next(c for c in ("AS", "KS", "QS", "JS", "2C", "3C", "4C") if c not in held),
                        match="You do not hold")
                refused(422, cl.act, mid, "nil", match="Not a card")
                for c in (c for c in hand["cards"] if not c["legal"]):
                    before = srv.store.path(mid).read_bytes()
                    reasons.add(refused(422, cl.act, mid, c["card"]))
                    assert srv.store.path(mid).read_bytes() == before and cl.state(mid)["hand"] == hand
            state = cl.act(mid, first_choice(state["hand"]))
            if not state["over"] and not state["hand"]["your_turn"]:
                refused(409, cl.act, mid, first_choice(hand), match="turn, not yours")
        assert any(r.startswith("You must follow suit: play ") for r in reasons), reasons
        assert "Spades aren't broken yet: lead another suit." in reasons, reasons


def test_a_whole_match_over_http_is_saved_in_the_play_format(table):
    """Every action is in the save file as it is made; the file of a finished match downloads
    and ``spades-ai replay`` reads it; the replay view shows each finished hand."""
    server, client = table
    state = client.new_match("easy", {"target_score": None, "max_hands": 1})
    mid = state["id"]
    refused(409, client.save_file, mid, match="once the match is over")
    refused(404, client.request, "GET", f"/matches/{mid}/replay/0", match="not finished")

    def check_saved(before, after):
        match = BrowserMatch.load(server.store.path(mid))
        hand = match.hands[-1] if match.hand is None else match.hand
        assert len(hand.plays) + sum(b is not None for b in hand.bids) >= 1

    played = play_match(client, state, on_action=check_saved)
    final = played.state
    assert final["over"] and final["stats"]["hands"] == 1 and len(final["sheets"]) == 1
    assert "<table" in final["sheets"][0]["html"] and final["result_line"].endswith("after 1 hands.")
    assert played.actions == 14 and played.steps == 3 * 13 + 3  # your 13 cards and bid; theirs
    refused(409, client.step, mid, match="the match is over")
    refused(409, client.act, mid, "AS", match="the match is over")
    data = client.save_file(mid)
    assert data == server.store.path(mid).read_bytes()
    out = server.store.folder / "downloaded.jsonl"
    out.write_bytes(data)
    [recorded] = replay_source(out)
    assert "Score sheet" in "\n".join(replay_lines(recorded))
    page = client.request("GET", f"/matches/{mid}/replay/0").decode()
    assert page.count('class="sa-step"') == 14 and "Hand 1" in page
    reviewed = client.request("GET", f"/matches/{mid}/replay/0?review=1").decode()
    assert "solver judge" in reviewed and reviewed.count('class="sa-step"') == 14
    server._reviews.acquire()  # a review under way elsewhere: the next one waits, then is refused
    server.review_wait = 0.05
    try:
        refused(503, client.request, "GET", f"/matches/{mid}/replay/0?review=1", match="busy with other reviews")
    finally:
        server._reviews.release()
        server.review_wait = type(server).review_wait
    refused(404, client.request, "GET", f"/matches/{mid}/replay/1", match="not finished")


def test_passing_and_closed_bidding_play_at_the_browser_table(table):
    """The browser shows what the terminal cannot: your pass (refused when it is not the count
    the rules ask), the bids hidden until the play under closed bidding."""
    _, client = table
    state = until_your_turn(client, client.new_match("easy", {**SHORT, "pass_cards": 2, "closed_bidding": True}))
    hand = state["hand"]
    assert hand["phase"] == "passing" and hand["pass_count"] == 2 and hand["question"].startswith("Pass 2 cards")
    refused(422, client.act, state["id"], hand["cards"][0]["card"], match="Pass 2 different cards")
    state = client.act(state["id"], first_choice(hand))
    assert "You pass" in state["lines"][0]
    while state["hand"]["phase"] != "playing":
        state = until_your_turn(client, state)
        hand = state["hand"]
        if hand["phase"] == "bidding":
            assert hand["received"], "North's pass is shown once the cards are exchanged"
            assert [b for s, b in enumerate(hand["bids"]) if s] == [None] * 3  # closed: no bid seen
            state = client.act(state["id"], first_choice(hand))
    assert None not in state["hand"]["bids"]  # all four shown at the start of play


def test_a_restarted_server_continues_the_match_and_memory_is_bounded(tmp_path):
    with running(tmp_path, max_live=1, max_matches=2) as (server, client):
        a = until_your_turn(client, client.new_match("easy", SHORT))
        b = until_your_turn(client, client.new_match("easy", SHORT))
        assert server.store.live == 1  # a was dropped from memory: it is read again from its file
        refused(503, client.new_match, "easy", SHORT, match="limit")
        a = client.act(a["id"], first_choice(a["hand"]))
        assert server.store.live == 1
    with running(tmp_path) as (server, client):
        assert client.state(a["id"])["hand"] == a["hand"] and client.state(b["id"])["hand"] == b["hand"]
        assert len(server.store) == 2


def test_concurrent_requests_on_one_match_take_turns_and_lose_no_action(table):
    """Four clients step one match's agents at once, after your bid: each step that succeeds
    is one saved action, the others are refused once it is your turn; nothing lost or doubled."""
    server, client = table
    state = until_your_turn(client, client.new_match("easy", SHORT))
    mid = state["id"]
    state = client.act(mid, first_choice(state["hand"]))  # your bid: the agents are to act
    assert not state["hand"]["your_turn"]

    def actions() -> int:
        hand = BrowserMatch.load(server.store.path(mid)).hand
        return len(hand.plays) + sum(b is not None for b in hand.bids)

    before = actions()
    done, errors = [], []

    def stepper():
        for _ in range(10):
            try:
                client.step(mid)
                done.append(1)
            except HTTPRefusal as exc:  # your turn came: the others' steps are refused
                if exc.status != 409:
                    errors.append(exc)

    threads = [threading.Thread(target=stepper) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and done
    assert client.state(mid)["hand"]["your_turn"]
    assert actions() == before + len(done)



def test_spades_ai_serve_prints_its_address_and_binds_to_loopback_by_default(tmp_path):
    import subprocess
    import sys

    from spades_ai.cli import build_parser

    args = build_parser().parse_args(["serve"])
    assert (args.host, args.port, args.level) == ("127.0.0.1", 8000, "normal")
    proc = subprocess.Popen([sys.executable, "-m", "spades_ai", "serve", "--port", "0", "--level", "easy", "--dir",
                             str(tmp_path)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        line = next(line for line in proc.stdout if "the table is at" in line)
        url = re.search(r"the table is at (http://127\.0\.0\.1:\d+/);", line).group(1)
        assert f"matches saved in {tmp_path}" in line
        client = TableClient(url)
        assert client.settings()["level"] == "easy"  # at once, while the engine may still compile
        client.wait_until_warm()  # the warm-up runs in a thread: the table plays once it is done
        assert client.new_match("easy", SHORT)["hand"]
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_requests_at_once_are_bounded_and_a_silent_client_is_dropped(tmp_path, monkeypatch):
    """With one request at a time, a client that connects and sends nothing holds the only
    slot until ``Handler.timeout``; then it is dropped and the next request is answered."""
    import socket
    import time

    from spades_ai.web.server import Handler

    monkeypatch.setattr(Handler, "timeout", 0.5)
    with running(tmp_path, max_threads=1) as (server, client):
        silent = socket.create_connection(server.server_address[:2])
        time.sleep(0.1)  # accepted: it holds the slot
        began = time.perf_counter()
        assert client.settings()["levels"]
        waited = time.perf_counter() - began
        silent.close()
    assert 0.3 < waited < 5, waited


def test_blind_nil_is_asked_before_your_cards_are_sent(table):
    """Where the rules allow a blind nil, your cards are not sent until you look; a blind nil
    after looking is refused."""
    _, client = table
    state = until_your_turn(client, client.new_match("easy", {**SHORT, "blind_nil": True}))
    hand = state["hand"]
    assert hand["blind_nil_question"] and hand["cards"] == [] and hand["legal_bids"] == []
    assert "Bid blind nil before you look" in hand["question"]
    state = client.act(state["id"], "look")
    hand = state["hand"]
    assert not hand["blind_nil_question"] and len(hand["cards"]) == 13 and 0 in hand["legal_bids"]
    refused(422, client.act, state["id"], "blind nil", match="before looking at your cards")
    second = until_your_turn(client, client.new_match("easy", {**SHORT, "blind_nil": True}))
    after = client.act(second["id"], "blind nil")
    assert after["hand"]["blind"][0] and after["hand"]["bids"][0] == 0 and after["lines"] == ["You bid blind nil."]


def test_an_action_whose_save_fails_is_not_kept(tmp_path, monkeypatch):
    """The save file is the match: if writing it fails, the action is forgotten too (the
    next request reads the file again), so no action lives only in memory."""
    with running(tmp_path) as (server, client):
        state = until_your_turn(client, client.new_match("easy", SHORT))

        def full_disk(self, path):
            raise OSError(28, "No space left on device")

        monkeypatch.setattr(BrowserMatch, "save", full_disk)
        refused(500, client.act, state["id"], first_choice(state["hand"]), match="internal error")
        monkeypatch.undo()
        assert client.state(state["id"])["hand"] == state["hand"]


def test_the_server_offers_its_own_table_first(tmp_path):
    """``spades-ai serve --rules cutthroat``: the form starts at three players solo."""
    from spades_ai.web.settings import rules_from_form

    with running(tmp_path, rules=Rules.preset("cutthroat")) as (_, client):
        fields = {f["name"]: f["value"] for f in client.settings()["rules"]}
        assert (fields["players"], fields["teams"]) == (3, "solo")
        assert client.new_match("easy")["names"] == ["You", "West", "East"]
    with pytest.raises(RulesError, match="'must_win' needs teams='solo'|must_win"):
        rules_from_form(Rules(), {"must_win": True})


@pytest.mark.parametrize("rules, names, held", [
    ({"players": 3}, ["You", "West", "East"], 17),
    ({"players": 5}, ["You", "West", "North-west", "North-east", "East"], 10),
    ({"players": 4, "teams": "solo", "must_win": True}, ["You", "West", "North", "East"], 13),
])  # fmt: skip
def test_a_whole_match_at_three_four_solo_and_five_players_over_http(table, rules, names, held, capsys):
    """Every seat its own side: the seats named around the table, the cards each, every
    opponent at the level and no partner, the sheets and the results a column a side; the save
    file replays in the terminal and the page, with the review's marks, and ``spades-ai review``
    judges it."""
    server, client = table
    state = client.new_match("easy", {**rules, "target_score": None, "max_hands": 2})
    mid, n = state["id"], len(names)
    assert state["names"] == state["teams"] == names and state["side_of"] == list(range(n))
    assert state["partner"] is None and state["partner_level"] is None and state["seat_levels"] == [None] + ["easy"] * (n - 1)
    assert state["hand"]["held"] == [held] * n and len(state["hand"]["contracts"]) == n
    assert len(state["hand"]["cards"]) == held
    final = play_match(client, state).state
    assert final["over"] and final["stats"]["hands"] >= 2 and len(final["scores"]) == n
    assert all(len(final["stats"][k]) == n for k in ("contracts_made", "contracts_bid", "bags"))
    winner = names[final["winner"]]
    assert final["result_line"].startswith(f"{winner} {'win' if winner == 'You' else 'wins'} the match, {max(final['scores'])} to ")
    sheet = final["sheets"][0]["html"]
    assert sheet.count("<th>") == n + 1 and all(f"<th>{name}</th>" in sheet for name in names)
    page = client.request("GET", f"/matches/{mid}/replay/0?review=1").decode()
    assert page.count('class="sa-step"') == held + 1 and page.count('data-where="dealt"') == n * held
    assert "tricks that lose over 0.5 points (solver judge)" in page  # the review judges every table
    out = server.store.folder / f"downloaded-{n}.jsonl"
    out.write_bytes(client.save_file(mid))
    text = "\n".join(replay_lines(replay_source(out)[0]))
    assert "Score sheet" in text and f"  {names[-1]}" in text and f"Trick {held}: " in text
    assert main(["review", str(out), "--hand", "0"]) == 0
    assert "decisions judged by solver" in capsys.readouterr().out


def test_the_turn_timer_plays_normals_choice_for_you_and_says_so(tmp_path):
    """A 15 s timer on a fake clock: your turn's clock starts when it is shown; an action in
    time is yours; once the time ran out your action is refused and step plays the card or bid
    Normal chooses for you, with a line that says so; the timer is saved with the match. Off by
    default: no time left is sent and the clock never plays for you."""
    from spades_ai import make_agent

    now = [1000.0]
    with running(tmp_path, clock=lambda: now[0]) as (server, client):
        state = until_your_turn(client, client.new_match("easy", {"players": 3, **SHORT}, timer=15))
        mid = state["id"]
        assert state["timer"] == 15 and state["hand"]["time_left"] == 15.0
        now[0] += 10
        assert client.state(mid)["hand"]["time_left"] == 5.0
        refused(409, client.step, mid, match="it is your turn")  # time is left: no one plays for you
        state = until_your_turn(client, client.act(mid, first_choice(state["hand"])))  # your bid, in time
        assert state["hand"]["phase"] == "playing" and state["hand"]["time_left"] == 15.0  # a new turn, a new clock
        now[0] += 15
        assert client.state(mid)["hand"]["time_left"] == 0.0
        refused(409, client.act, mid, first_choice(state["hand"]), match="your 15 s ran out")
        match = BrowserMatch.load(server.store.path(mid))
        assert match.timer == 15
        normal = str(make_agent("normal", seed=match.seed).play(match.hand.observation()))
        after = client.step(mid)
        assert after["lines"][:2] == [f"Time ran out (15 s): the table plays {normal} for you (Normal's choice).",
                                      f"You play {normal}."]  # fmt: skip
        assert BrowserMatch.load(server.store.path(mid)).hand.plays[-1] == (0, Card.parse(normal))  # saved
        off = until_your_turn(client, client.new_match("easy", {"players": 3, **SHORT}))
        now[0] += 10**6
        assert off["timer"] is None and off["hand"]["time_left"] is None
        refused(409, client.step, off["id"], match="it is your turn")


def test_a_new_hands_first_turn_starts_its_clock_after_the_score_sheet():
    """When you open a hand, the view that ends the hand before (the page shows its score
    sheet) does not start your clock; the next state asked for (after NEXT HAND) does."""
    from spades_ai.web.view import match_view

    rules = Rules.preset("cutthroat", target_score=None, max_hands=2)
    seed = next(s for s in count() if BrowserMatch(s, "easy", rules).dealer_of(1) == 2)  # you bid first in hand 2
    match = BrowserMatch(seed, "easy", rules, timer=30)
    match.clock = lambda: 0.0
    view = match_view(match)
    while match.hand_no == 0:
        if match.agent_to_act:
            lines = match.step()
        else:
            ok, lines = match.answer(first_choice(view["hand"]))
            assert ok, lines
        view = match_view(match, lines, start_clock=not match.fresh)
    assert match.fresh and view["hand"]["your_turn"] and view["hand"]["time_left"] is None
    assert "Score sheet, hand 1" in "\n".join(view["lines"]) and len(view["sheets"]) == 1
    match.clock = lambda: 500.0  # the score sheet read for a while: no time lost
    assert match_view(match)["hand"]["time_left"] == 30.0
