"""A participant in a real browser: Debian's chromium, headless, driven by Selenium through the
system's chromedriver (no browser or driver is ever downloaded).  It opens the study on 127.0.0.1,
sees the study's title and no command, agrees to the consent, plays the study's whole Tic-Tac-Toe
game by keys, and the game is in the study's store under that participant's pseudonym.

xterm.js draws on a canvas, so the screen's text is read from what the app sent: a script wraps
the page's WebSocket before the page runs and keeps the text of every frame received.
"""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest

from tcgtui.perf._participant import BOARD, CONSENT, DONE, OVER, PROGRESS
from tests.serve.support import games_of, person, served, write_study

CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
pytestmark = pytest.mark.skipif(not (shutil.which(CHROMIUM) and shutil.which(CHROMEDRIVER)),
                                reason="Debian's chromium and chromium-driver are not installed "
                                       "(apt-get install chromium chromium-driver; .ci/run installs them)")

RECORD = """
window.__screen = "";
const Native = window.WebSocket;
window.WebSocket = function (url, protocols) {
  const ws = new Native(url, protocols);
  const decoder = new TextDecoder();
  ws.addEventListener("message", (event) => {
    if (event.data instanceof ArrayBuffer) window.__screen += decoder.decode(event.data, {stream: true});
    else if (event.data instanceof Blob) event.data.arrayBuffer().then((b) => { window.__screen += decoder.decode(b, {stream: true}); });
  });
  return ws;
};
window.WebSocket.prototype = Native.prototype;
Object.assign(window.WebSocket, {CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3});
"""


@pytest.fixture
def browser():
    os.environ["SE_OFFLINE"] = "true"          # Selenium Manager, were it ever asked, may not download
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--disable-gpu", "--window-size=1280,900", "--no-first-run",
                "--disable-background-networking", "--disable-dev-shm-usage"):
        options.add_argument(arg)
    if os.geteuid() == 0:
        options.add_argument("--no-sandbox")   # chromium refuses to run as root with its sandbox
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": RECORD})
    try:
        yield driver
    finally:
        driver.quit()


def screen(driver) -> str:
    from tcgtui.perf._participant import screen_text
    return screen_text(driver.execute_script("return window.__screen || ''").encode("utf-8"))


def wait_until(check, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while not (found := check()):
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not after {timeout} s")
        time.sleep(0.2)
    return found


def test_a_participant_plays_a_whole_game_in_chromium(browser, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    study, db = write_study(tmp_path), tmp_path / "study.sqlite3"
    with served(tmp_path, study, db) as base:
        browser.get(f"{base}/")
        token = browser.current_url.rsplit("/p/", 1)[1]
        page = browser.page_source
        assert "Tic-Tac-Toe against a random player" in page
        for hidden in ("python", "tcgtui", "launch", str(tmp_path), "--db", "study.toml"):
            assert hidden not in page, f"the page shows {hidden!r}"
        wait_until(lambda: CONSENT in screen(browser), 60, "the consent screen")
        fetched = browser.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")
        assert fetched and all(url.startswith(base) for url in fetched), fetched     # no third party asked
        browser.find_element(By.ID, "terminal").click()
        keys = browser.switch_to.active_element
        assert person(db, token) is None                  # nothing recorded before consent
        keys.send_keys("y")
        wait_until(lambda: PROGRESS in screen(browser), 30, "the study's screen after consent")
        pid, finished_at = person(db, token)
        assert finished_at is None
        keys.send_keys(Keys.ENTER)
        wait_until(lambda: BOARD in screen(browser), 30, "the game's board")
        # Sweep every cell (a digit picks the column, Down the next row); a taken cell is refused.
        for _ in range(6):
            for key in ["1", Keys.ENTER, "2", Keys.ENTER, "3", Keys.ENTER, Keys.DOWN] * 3:
                keys.send_keys(key)
                time.sleep(0.15)
                if OVER in screen(browser):
                    break
            if OVER in screen(browser):
                break
        wait_until(lambda: OVER in screen(browser), 10, "the game-over dialog")
        keys.send_keys("r")
        wait_until(lambda: DONE in screen(browser), 30, "the study's end")
        [(index, status, moves)] = games_of(db, pid)
        assert (index, status) == (0, "finished") and moves >= 3
        assert person(db, token)[1] is not None           # the participant finished the study
