"""Pictures of hands (issue 22, item 1): every card exactly once and where the hand has it,
in the HTML and SVG pictures of a new, a half-played and a finished hand, under the default
rules and with jokers and high deuces; an observation shows no hidden card; the replay's steps;
and a real browser's screenshot of a finished hand (where chromium is installed)."""

from __future__ import annotations

import hashlib
import random
import re
import shutil
import subprocess
from html.parser import HTMLParser

import pytest

import spades_ai as sa
from spades_ai import CardSet, Hand, Rules, deal, render


class Cards(HTMLParser):
    """The cards of a picture: (name, where, seat box or None) in document order."""

    def __init__(self):
        super().__init__()
        self.found, self.seats = [], []  # the seat box open at each depth

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag in ("div", "rect", "svg", "text", "span", "tspan", "table", "tr", "td", "th", "small", "b"):
            self.seats.append(int(a["data-seat"]) if "data-seat" in a else None)
        if "data-card" in a:
            seat = next((s for s in reversed(self.seats) if s is not None), None)
            self.found.append((a["data-card"], a["data-where"], seat))

    def handle_endtag(self, tag):
        if self.seats and tag in ("div", "rect", "svg", "text", "span", "tspan", "table", "tr", "td", "th", "small", "b"):
            self.seats.pop()


def cards_of(picture: str):
    p = Cards()
    p.feed(picture)
    return p.found


def random_hand(seed: int, rules: Rules, n_plays: int) -> Hand:
    rnd = random.Random(seed)
    hand = Hand(deal(seed, 0, rules), rules=rules, dealer=seed % rules.players)
    while hand.phase == "bidding" or (hand.phase == "playing" and len(hand.plays) < n_plays):
        if hand.phase == "bidding":
            hand.bid(rnd.choice(hand.legal_bids()))
        else:
            hand.play(rnd.choice(hand.legal_cards()))
    return hand


RULES = [Rules(), Rules(jokers=2, deuces_high=1), Rules(jokers=1, deuces_high=3)]
#: The tables of 3 to 5 players: the HTML pictures draw them all.
TABLES = [Rules.preset("cutthroat"), Rules.preset("solo"), Rules(players=5, jokers=1)]


@pytest.mark.parametrize("rules", RULES + TABLES, ids=["default", "jokers2_deuce1", "joker1_deuces3", "three", "four_solo", "five"])
@pytest.mark.parametrize("n_plays", [0, 22, 52])
def test_html_picture_holds_every_card_once_where_the_hand_has_it(rules, n_plays):
    hand = random_hand(7 + n_plays, rules, n_plays)
    found = cards_of(hand._repr_html_())
    names = {str(c) for c in rules.deck} - {str(c) for c in rules.removed_cards}  # 2D out at 3, 2D and 2C at 5
    if hand.phase == "over":
        dealt = [(c, s) for c, w, s in found if w == "dealt"]
        assert sorted(c for c, _ in dealt) == sorted(names)
        for seat in range(rules.players):
            assert sorted(c for c, s in dealt if s == seat) == sorted(map(str, hand.deal[seat]))
        played = [c for c, w, _ in found if w == "played"]
        assert played == [str(c) for _, c in hand.plays]  # the tricks in order
        assert {w for _, w, _ in found} == {"dealt", "played"}
        return
    assert sorted(c for c, _, _ in found) == sorted(names)  # every card exactly once
    for seat in range(rules.players):
        assert sorted(c for c, w, s in found if w == "hand" and s == seat) == sorted(map(str, hand.cards(seat)))
    assert [c for c, w, _ in found if w == "trick"] == [str(c) for _, c in hand.current_trick]
    done = len(hand.plays) - len(hand.current_trick)
    assert [c for c, w, _ in found if w == "played"] == [str(c) for _, c in hand.plays[:done]]


@pytest.mark.parametrize("rules", RULES[:2], ids=["default", "jokers"])
def test_svg_picture_holds_every_card_once(rules):
    for n_plays in (0, 30, 52):
        hand = random_hand(3, rules, n_plays)
        found = cards_of(render.hand_svg(hand))
        where = "dealt" if hand.phase == "over" else "hand"
        held = [c for c, w, _ in found if w == where]
        assert len(held) == len(set(held))
        want = set(map(str, rules.deck)) if hand.phase == "over" else {str(c) for s in range(4) for c in hand.cards(s)}
        assert set(held) == want
        assert [c for c, w, _ in found if w == "trick"] == [str(c) for _, c in hand.current_trick]
        assert len([c for c, w, _ in found if w == "played"]) == len(hand.plays) // 4 * 4


def test_svg_picture_of_four_players_is_the_picture_of_old_byte_for_byte():
    """The 4-player SVG (and PBN) of 32 hands, new, half-played and finished, hashed as they
    were before the SVG drew every table (issue 42)."""
    svg, pbn = hashlib.sha256(), hashlib.sha256()
    for rules in RULES:
        for seed in range(4):
            for n in (0, 9, 30, 52):
                hand = random_hand(seed, rules, n)
                svg.update(render.hand_svg(hand, title=f"seed {seed}" if seed % 2 else None).encode())
                pbn.update(hand.to_pbn(event=f"seed {seed}").encode())
    assert (svg.hexdigest()[:16], pbn.hexdigest()[:16]) == ("1b2730a47683a483", "e6e0039fa8c8e914")


#: every kind of table: one deck (3 to 5), two decks (6 to 8), three (9 to 12), solo and pairs
SVG_TABLES = [Rules(players=3), Rules(players=4), Rules(players=5), Rules(players=6, teams="pairs"), Rules(players=7),
              Rules(players=8), Rules(players=9), Rules(players=10, teams="pairs"), Rules(players=12),
              Rules(players=12, teams="pairs")]  # fmt: skip


def svg_rects(svg: str) -> list[tuple[int, int, int, int, str]]:
    """(x, y, width, height, what follows up to the next rect) of every ``<rect>``."""
    out = []
    for part in svg.split("<rect ")[1:]:
        a = dict(re.findall(r'(\w+)="([^"]*)"', part.split("/>")[0]))
        out.append((int(a["x"]), int(a["y"]), int(a["width"]), int(a["height"]), part))
    return out


def overlap(a, b) -> bool:
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


@pytest.mark.parametrize("rules", SVG_TABLES, ids=[render.svg.side_labels(r)[0] + f"-{r.players}" for r in SVG_TABLES])
@pytest.mark.parametrize("tricks", [0, 2.5, 99])
def test_svg_picture_seats_every_table_with_every_card_in_its_seats_box(rules, tricks):
    n = rules.players
    hand = random_hand(5, rules, int(tricks * n))
    svg = render.hand_svg(hand)
    table, *rects = svg_rects(svg)
    boxes = [r for r in rects if r[3] == 118]
    slots = [r for r in rects if r[3] == 24]
    assert len(boxes) == n and len(slots) == len(hand.current_trick) and len(rects) == len(boxes) + len(slots)
    at = render.svg.layout(hand)
    assert at.places == render.html.seat_places(n)[1]  # the HTML picture's seats
    where = "dealt" if hand.phase == "over" else "hand"
    for seat, (x, y, _, _, inside) in enumerate(boxes):
        assert (x + 6, y + 4) == at.cell(*at.places[seat])
        held = [c for c, w, _ in cards_of(inside) if w == where]
        assert sorted(held) == sorted(map(str, hand.deal[seat] if hand.phase == "over" else hand.cards(seat)))  # copies twice
    for (x, y, _, _, inside), (seat, card) in zip(slots, hand.current_trick):
        assert [c for c, w, _ in cards_of(inside) if w == "trick"] == [str(card)] and (x + 6, y + 16) == at.trick_slot(*at.places[seat])
    drawn = boxes + slots
    for i, a in enumerate(drawn):  # nothing overlaps, and all lies on the table
        assert 0 < a[0] and a[0] + a[2] < table[2] and 0 < a[1] and a[1] + a[3] < table[3], a[:4]
        assert not any(overlap(a, b) for b in drawn[i + 1 :]), a[:4]
    found = cards_of(svg)
    done = len(hand.plays) - len(hand.current_trick)
    assert [c for c, w, _ in found if w == "played"] == [str(c) for _, c in hand.plays[:done]]
    if hand.phase == "over":
        labels = render.svg.side_labels(rules)
        assert len(labels) == rules.n_sides and all(f"{label} " in svg or f"{label}: " in svg for label in labels)
    width, height = (int(v) for v in re.match(r'<svg [^>]*width="(\d+)" height="(\d+)"', svg).groups())
    assert width >= table[2] + (15 + 295) * (done > 0) and height >= table[3]


def test_svg_boxes_widen_for_the_copies_of_a_long_suit():
    rules = Rules(players=6)
    cards = sorted((c for c in rules.deck for _ in range(rules.decks) if c not in rules.removed_cards), key=int, reverse=True)
    each = rules.cards_each  # seat 0 holds AS AS KS KS ... 6S: seventeen spades, one line
    wide = Hand([" ".join(map(str, cards[s * each : (s + 1) * each])) for s in range(6)], rules=rules)
    assert wide.deal[0].count("AS") == 2 and render.svg.layout(wide).box > 300
    x, _, width, _, inside = svg_rects(render.hand_svg(wide))[1]
    assert inside.count('data-where="hand"') == each and width == render.svg.layout(wide).box
    assert render.svg.layout(random_hand(1, Rules(players=3), 0)).box == 200


def test_replay_steps_at_five_players_are_tricks_of_five():
    hand = random_hand(4, TABLES[2], 50)
    assert hand.phase == "over" and render.replay_html(hand).count('class="sa-step"') == 11  # before, then 10 tricks
    assert render.hand_html(hand).count("<tr><td>") == 10 + 9  # ten tricks, nine sheet rows


def test_observation_picture_shows_its_own_cards_and_the_played_ones_only():
    hand = random_hand(5, Rules(), 17)
    obs = hand.observation()
    found = cards_of(obs._repr_html_())
    own = {c for c, w, _ in found if w == "hand"}
    assert own == {str(c) for c in obs.cards}
    seen = {str(c) for _, c in hand.plays}
    assert {c for c, w, _ in found if w != "hand"} == seen
    assert len(found) == len(obs.cards) + len(hand.plays)
    assert "hidden cards" in obs._repr_html_()


def test_small_pictures_cardset_result_and_colours():
    html = CardSet("AS 7H TD 2C")._repr_html_()
    assert [c for c, _, _ in cards_of(html)] == ["AS", "7H", "TD", "2C"]  # spades, hearts, diamonds, clubs
    assert 'class="sa-card sa-red" data-card="7H"' in html and 'class="sa-card sa-black" data-card="AS"' in html
    assert ">10<" in html  # a ten is written 10
    result = sa.score_hand([4, 3, 0, 2], [5, 3, 1, 4])
    sheet = result._repr_html_()
    assert "<table" in sheet and "+52" in sheet and "-58" in sheet


def test_finished_hand_shows_bids_tricks_leaders_winners_and_sheet():
    hand = random_hand(11, Rules(), 52)
    html = render.hand_html(hand)
    winners = render.text.trick_winners(hand)
    for k, w in enumerate(winners):
        row = html.split("<tr>")[k + 2]
        leader = hand.plays[4 * k][0]
        assert row.startswith(f"<td>{k + 1}</td><td>{render.default_names()[leader]}</td>")
        assert row.endswith(f"<td>{render.default_names()[w]}</td></tr>") or f"<td>{render.default_names()[w]}</td></tr>" in row
    for s in range(4):
        assert f"tricks {hand.tricks_won[s]}/" in html
    assert "contract points" in html and "NS (seats 0, 2)" in html


def test_replay_steps_trick_by_trick_and_save(tmp_path):
    hand = random_hand(2, Rules(), 52)
    pic = render.replay_html(hand)
    assert pic.count('class="sa-step"') == 14 and 'type="range"' in pic
    assert pic._repr_html_() == str(pic)
    half = random_hand(2, Rules(), 9)
    assert render.replay_html(half).count('class="sa-step"') == 4  # before trick 1, after 1 and 2, now
    render.save(hand, tmp_path / "h.svg")
    render.save(hand.to_record(), tmp_path / "h.html")
    render.save(hand.to_pbn(), tmp_path / "p.html")
    assert (tmp_path / "h.html").read_text() == (tmp_path / "p.html").read_text()
    assert (tmp_path / "h.svg").read_text().startswith("<svg")
    with pytest.raises(ValueError, match=r"\.svg or \.html, not \.png"):
        render.save(hand, tmp_path / "h.png")


def test_marks_draw_a_loss_on_a_card_and_a_bid():
    hand = random_hand(4, Rules(), 52)
    html = render.hand_html(hand, marks={("play", 5): 12.5, ("bid", 2): 30.0})
    assert len(re.findall(r'class="[^"]*sa-costly', html)) == 2 and "&minus;12.5" in html and "&minus;30.0" in html
    card = str(hand.plays[5][1])
    assert f'data-card="{card}" data-where="played" title="{card}: loses 12.5 points' in html


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")


def screenshot(html_file, png, tmp_path, size="1000,1300"):
    profile = tmp_path / "profile"
    profile.mkdir()
    cmd = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
           "--disable-background-networking", "--disable-component-update", "--disable-sync",
           f"--user-data-dir={profile}", f"--window-size={size}", f"--screenshot={png}", html_file.as_uri()]
    subprocess.run(cmd, capture_output=True, timeout=120, check=False)


@pytest.mark.skipif(CHROMIUM is None, reason="no chromium: install it (Debian: apt-get install -y chromium) to run the browser test")
def test_finished_hand_renders_in_a_real_browser(tmp_path):
    Image = pytest.importorskip("PIL.Image")
    hand = random_hand(3, Rules(), 52)
    page = tmp_path / "hand.html"
    render.save(hand, page)
    png = tmp_path / "hand.png"
    screenshot(page, png, tmp_path)
    assert png.exists(), "chromium wrote no screenshot"
    img = Image.open(png).convert("RGB")
    colours = img.getcolors(maxcolors=1 << 20)
    count = {rgb: n for n, rgb in colours}
    assert count.get((0x1D, 0x6B, 0x3A), 0) > 50_000  # the table's green
    red = sum(n for rgb, n in count.items() if rgb[0] > 150 and rgb[1] < 80 and rgb[2] < 90)
    assert red > 500  # hearts and diamonds drawn in red
    dark = sum(n for rgb, n in count.items() if max(rgb) < 60)
    assert dark > 2_000  # black text: the spades, clubs, names and the score sheet
