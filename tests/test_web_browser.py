"""The browser table in a real headless Chromium, driven by selenium: settings, PLAY, a whole
hand played by clicking (an illegal card refused with the engine's reason, changing nothing),
a reload in the middle that continues the match, the score sheet and NEXT HAND, at phone width
and at desktop width; screenshots saved.

Needs Chromium and its driver (Debian/Ubuntu: ``apt-get install chromium chromium-driver``) and
selenium (in the ``[test]`` extra); skipped, saying so, where one is missing. The screenshots go
to ``$SPADES_AI_SCREENSHOTS`` (the README's are made with ``SPADES_AI_SCREENSHOTS=docs``), else
to the test's temporary folder.
"""

from __future__ import annotations

import os
import re
import shutil
import threading
from pathlib import Path

import pytest

from spades_ai.rules import Rules
from spades_ai.web import make_server

INSTALL = ("install Chromium and its driver to run the browser test: apt-get install chromium chromium-driver "
           "(Debian/Ubuntu), and selenium: pip install -e '.[test]'")  # fmt: skip
webdriver = pytest.importorskip("selenium.webdriver", reason=f"selenium is missing; {INSTALL}")
BROWSER = os.environ.get("SPADES_AI_CHROMIUM") or next(
    (p for p in map(shutil.which, ("chromium", "chromium-browser", "google-chrome")) if p), None)  # fmt: skip
DRIVER = os.environ.get("SPADES_AI_CHROMEDRIVER") or shutil.which("chromedriver")
pytestmark = pytest.mark.skipif(BROWSER is None or DRIVER is None, reason=f"no Chromium or chromedriver found; {INSTALL}")
PHONE = (390, 844)
DESKTOP = (1000, 860)


@pytest.fixture(scope="module")
def browser():
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = BROWSER
    # headless, and nothing fetched from elsewhere (this machine's network is closed)
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"):  # fmt: skip
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    driver.set_window_size(*PHONE)
    yield driver
    driver.quit()


@pytest.fixture
def server(tmp_path):
    from itertools import count

    srv = make_server(tmp_path / "matches", port=0, level="normal", seeds=count(6).__next__)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield srv
    srv.shutdown()
    srv.server_close()


def shots_folder(tmp_path) -> Path:
    folder = Path(os.environ.get("SPADES_AI_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def wait_for(driver, script: str, timeout: float = 60):
    """Wait until the JavaScript expression ``script`` is true; its value."""
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout, poll_frequency=0.05).until(lambda d: d.execute_script(f"return {script}"))


DRAWS = "Number(document.body.dataset.draws || 0)"
YOUR_TURN = "document.getElementById('status').textContent.startsWith('Your turn') && !document.getElementById('table').hidden"
SHEET = "!document.getElementById('sheet').hidden"


def test_a_hand_played_by_clicking_in_chromium(browser, server, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    shots = shots_folder(tmp_path)
    d = browser
    d.get(server.url + "?pace=20")
    wait_for(d, "!document.getElementById('setup').hidden && document.querySelectorAll('#level option').length == 4")
    Select(d.find_element(By.ID, "level")).select_by_value("easy")
    d.find_element(By.CSS_SELECTOR, "input[name=target][value='250']").click()
    d.find_element(By.CSS_SELECTOR, "#house summary").click()
    d.save_screenshot(str(shots / "web_settings.png"))
    d.find_element(By.ID, "play").click()
    wait_for(d, YOUR_TURN)
    assert "#m=" in d.current_url
    refused = reloaded = False
    while not d.execute_script(f"return {SHEET}"):
        wait_for(d, f"({YOUR_TURN}) || ({SHEET})")
        if d.execute_script(f"return {SHEET}"):
            break
        if d.find_elements(By.CSS_SELECTOR, "#panel button[id^=bid-]"):
            d.save_screenshot(str(shots / "web_bidding.png"))
            drawn = d.execute_script(f"return {DRAWS}")
            d.find_element(By.CSS_SELECTOR, "#panel button[id^=bid-]").click()  # the lowest legal bid
            wait_for(d, f"{DRAWS} > {drawn} || ({SHEET})")
        else:
            cards = d.find_elements(By.CSS_SELECTOR, "#hand button.card")
            illegal = [c for c in cards if "legal" not in c.get_attribute("class").split()]
            if illegal and not refused:
                before = [c.get_attribute("data-card") for c in cards]
                illegal[0].click()
                message = wait_for(d, "document.getElementById('message').textContent")
                assert message.startswith(("You must follow suit: play ", "Spades aren't broken yet")), message
                after = [c.get_attribute("data-card") for c in d.find_elements(By.CSS_SELECTOR, "#hand button.card")]
                assert after == before  # nothing changed
                d.save_screenshot(str(shots / "web_refused.png"))
                refused = True
            if len(cards) == 8 and not reloaded:  # five tricks played: a reload continues the match
                names = [c.get_attribute("data-card") for c in cards]
                d.refresh()
                wait_for(d, YOUR_TURN)
                assert [c.get_attribute("data-card") for c in d.find_elements(By.CSS_SELECTOR, "#hand button.card")] == names
                reloaded = True
                continue
            legal = d.find_elements(By.CSS_SELECTOR, "#hand button.card.legal")
            drawn = d.execute_script(f"return {DRAWS}")
            legal[0].click()
            wait_for(d, f"({DRAWS} > {drawn} && document.querySelectorAll('#hand button.card').length == {len(cards) - 1}) || ({SHEET})")
    assert refused and reloaded
    d.set_window_size(*DESKTOP)
    d.save_screenshot(str(shots / "web_sheet.png"))
    sheet = d.find_element(By.ID, "sheet-body").text
    assert "contract points" in sheet and "bag penalty" in sheet
    d.find_element(By.ID, "next-hand").click()
    wait_for(d, f"({YOUR_TURN}) && document.querySelectorAll('#hand button.card').length == 13")
    d.save_screenshot(str(shots / "web_table.png"))
    d.set_window_size(*PHONE)
    width = d.execute_script("return document.documentElement.scrollWidth")
    assert width <= PHONE[0], f"the page is {width} px wide at phone width"
    # the tab closed: the page at its plain address offers to continue the match
    d.get(server.url + "?pace=20")
    wait_for(d, "!document.getElementById('resume').hidden")
    d.find_element(By.ID, "resume-button").click()
    wait_for(d, f"({YOUR_TURN}) && document.querySelectorAll('#hand button.card').length == 13")



def test_a_finished_match_shows_its_results_and_replays(browser, server, tmp_path):
    """A match played to its end over HTTP, opened in the page: the results screen (contracts
    made, your statistics, every hand's sheet), then the replay of hand 1 with the review."""
    from selenium.webdriver.common.by import By

    from spades_ai.web.client import TableClient, play_match

    client = TableClient(server.url)
    state = play_match(client, client.new_match("easy", {"target_score": None, "max_hands": 1})).state
    d = browser
    d.set_window_size(*DESKTOP)
    d.get(f"{server.url}#m={state['id']}")
    wait_for(d, "!document.getElementById('results').hidden")
    assert d.find_element(By.ID, "result-line").text == state["result_line"]
    stats = d.find_element(By.ID, "stats").text
    assert "contracts made" in stats and "your nils made" in stats and "tricks you took" in stats
    assert d.find_element(By.ID, "save-link").get_attribute("href").endswith(f"/api/matches/{state['id']}/save")
    d.save_screenshot(str(shots_folder(tmp_path) / "web_results.png"))
    d.find_element(By.CSS_SELECTOR, "#all-sheets a").click()
    d.switch_to.window(d.window_handles[-1])
    wait_for(d, "document.querySelectorAll('.sa-step').length == 14")
    assert "solver judge" in d.page_source
    d.close()
    d.switch_to.window(d.window_handles[0])


def test_cards_are_passed_by_clicking_them(browser, server):
    """Under card passing the page asks for the cards, you click them and PASS; a wrong count
    is refused with the engine's reason; North's cards are shown once exchanged."""
    from selenium.webdriver.common.by import By

    from spades_ai.web.client import TableClient

    state = TableClient(server.url).new_match("easy", {"target_score": 250, "pass_cards": 2, "closed_bidding": True})
    d = browser
    d.get(f"{server.url}?pace=20#m={state['id']}")
    wait_for(d, f"({YOUR_TURN}) && document.getElementById('pass') !== null")
    cards = d.find_elements(By.CSS_SELECTOR, "#hand button.card")
    cards[-1].click()
    d.find_element(By.ID, "pass").click()
    assert wait_for(d, "document.getElementById('message').textContent") == "Pass 2 different cards to North."
    cards = d.find_elements(By.CSS_SELECTOR, "#hand button.card")  # the page drew nothing new: the same cards
    cards[-2].click()
    drawn = d.execute_script(f"return {DRAWS}")
    d.find_element(By.ID, "pass").click()
    wait_for(d, f"{DRAWS} > {drawn}")
    assert "You pass" in d.find_element(By.ID, "log").text
    status = wait_for(d, "document.getElementById('status').textContent.includes('North passed you') && "
                         "document.getElementById('status').textContent")
    assert re.search(r"North passed you \w\w \w\w", status), status


def test_a_three_player_table_is_chosen_in_the_settings_and_seats_three(browser, server, tmp_path):
    """Players 3 in the settings (the sides follow: solo), a turn timer: the table draws three
    seats around the trick, one score column a seat, and counts your time down."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    d = browser
    d.set_window_size(*DESKTOP)
    d.get(server.url + "?pace=20")
    wait_for(d, "!document.getElementById('setup').hidden && document.querySelectorAll('#players option').length == 10")
    assert [o.text for o in Select(d.find_element(By.ID, "teams")).options] == ["in pairs", "solo"]
    Select(d.find_element(By.ID, "players")).select_by_value("3")
    assert [o.get_attribute("value") for o in Select(d.find_element(By.ID, "teams")).options] == ["solo"]
    Select(d.find_element(By.ID, "level")).select_by_value("easy")
    Select(d.find_element(By.ID, "timer")).select_by_value("60")
    d.find_element(By.ID, "play").click()
    wait_for(d, YOUR_TURN)
    names = d.execute_script("return [...document.querySelectorAll('#felt .seat .who')].map((w) => w.firstChild.textContent)")
    assert names == ["You", "West (Easy)", "East (Easy)"]
    assert "team tricks" not in d.find_element(By.ID, "felt").text  # solo: no partnership line
    assert len(d.find_elements(By.CSS_SELECTOR, "#hand button.card")) == 17
    assert re.fullmatch(r"Timer: \d+ s left", d.find_element(By.ID, "clock").text)
    d.save_screenshot(str(shots_folder(tmp_path) / "web_three.png"))


@pytest.mark.parametrize("players", [8])
def test_eight_players_are_chosen_in_the_settings_and_seated_around_the_trick(browser, server, tmp_path, players):
    """Players 8 in the settings (solo by default, pairs offered): the table draws the eight
    seats where the server places them, named by the compass, and deals you 13 cards."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    from spades_ai.render.html import seat_places
    from spades_ai.render.text import TABLE_SEATS

    d = browser
    d.set_window_size(*DESKTOP)
    d.get(server.url + "?pace=20")
    wait_for(d, "!document.getElementById('setup').hidden && document.querySelectorAll('#players option').length == 10")
    Select(d.find_element(By.ID, "players")).select_by_value(str(players))
    teams = Select(d.find_element(By.ID, "teams"))
    assert [o.get_attribute("value") for o in teams.options] == (["pairs", "solo"] if players % 2 == 0 else ["solo"])
    assert teams.first_selected_option.get_attribute("value") == "solo"
    Select(d.find_element(By.ID, "level")).select_by_value("easy")
    d.find_element(By.ID, "play").click()
    wait_for(d, YOUR_TURN)
    names = d.execute_script("return [...document.querySelectorAll('#felt .seat .who')]"
                             ".map((w) => w.firstChild.textContent)")
    assert names == ["You"] + [f"{name} (Easy)" for name in TABLE_SEATS[players][1:]]
    places = d.execute_script("return [...document.querySelectorAll('#felt .seat')]"
                              ".map((b) => [Number(b.style.gridRowStart), Number(b.style.gridColumnStart)])")
    assert places == [list(p) for p in seat_places(players)[1]]
    assert len(d.find_elements(By.CSS_SELECTOR, "#hand button.card")) == Rules(players=players).cards_each
    d.save_screenshot(str(shots_folder(tmp_path) / f"web_{players}.png"))
