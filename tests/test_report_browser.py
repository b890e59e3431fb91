"""The game report in a real headless Chromium, driven over the DevTools protocol.

Chromium is started with ``--remote-debugging-pipe``: the protocol then runs over
file descriptors 3 and 4 as NUL-separated JSON, so the standard library is enough
(no websocket client, no Playwright). The test steps through a round with the
keyboard, checks the board changed, that the console stayed clean, that no dialog
opened (a player is named ``<script>alert(1)</script>``) and that the page asked
for nothing over the network; it writes a screenshot to a temp dir
(``MJAUDIT_SCREENSHOT_DIR`` picks the folder).
"""

from __future__ import annotations

import base64
import dataclasses
import json
import os
import re
from pathlib import Path
from typing import Any

import pytest

from analyzer.checks.audit import resolve_rules
from mjaudit.events import DeclareMeld, DoraReveal, GameLog, PlayerInfo, RoundStart
from mjaudit.melds import MeldKind
from parsers import load
from reports.html import render_game
from reports.views import build_game_view
from reports.views_board import split_tokens
from reports.views_facts import GameFacts, collect_game
from tests.board_oracle import watch
from tests.chromium import DevTools
from tests.conftest import CORPUS, SAMPLES

ROOT = Path(__file__).resolve().parents[1]
EVIL = "<script>alert(1)</script>"


def _evil_report(tmp_path: Path) -> Path:
    log = load(str(ROOT / "sample_logs" / "clean_game.xml"))
    start = log.start
    players = (PlayerInfo(EVIL), *start.players[1:])
    events = (dataclasses.replace(start, players=players), *log.events[1:])
    log = dataclasses.replace(log, events=events)
    view = build_game_view(collect_game(log, resolve_rules(log, "auto")))
    page = tmp_path / "game.html"
    page.write_text(render_game(view), encoding="utf-8")
    return page


def _board_state(tools: DevTools) -> dict[str, Any]:
    state: dict[str, Any] = tools.evaluate(
        """(() => {
          const b = document.querySelector('#board-0');
          return {
            caption: b.querySelector('.caption').textContent,
            step: b.querySelector('.stepno').textContent,
            ponds: [...b.querySelectorAll('.seat .pond')].map(p => p.textContent),
            hands: [...b.querySelectorAll('.seat .h')].map(h => h.textContent),
            tiles: b.querySelectorAll('.seat .pond svg.tile').length,
            hash: location.hash,
          };
        })()"""
    )
    return state


def test_report_steps_with_the_keyboard_in_chromium(browser: DevTools, tmp_path: Path) -> None:
    page = _evil_report(tmp_path)
    browser.call("Page.navigate", url=page.as_uri())
    browser.wait_for("Page.loadEventFired")
    browser.evaluate("document.querySelector('#r0').scrollIntoView()")

    start = _board_state(browser)
    assert start["step"].startswith("step 0 /")
    assert start["tiles"] == 0  # nothing discarded yet

    for _ in range(6):
        browser.key("ArrowRight", 39)
    after = _board_state(browser)
    assert after["step"].startswith("step 6 /")
    assert after["hash"] == "#r0s6"
    assert after["caption"] != start["caption"]
    assert after["tiles"] > 0  # discards reached the ponds
    assert after["ponds"] != start["ponds"]

    browser.key("ArrowLeft", 37)
    assert _board_state(browser)["step"].startswith("step 5 /")
    browser.key("ArrowDown", 40)
    assert browser.evaluate("location.hash") == "#r1s0"
    browser.key("ArrowUp", 38)
    assert browser.evaluate("location.hash") == "#r0s0"
    for _ in range(5):
        browser.key("ArrowRight", 39)

    # The untrusted name is shown as text and nothing ran.
    assert EVIL in browser.evaluate("document.body.innerText")
    assert browser.evaluate("document.querySelectorAll('script:not([type])').length") == 1

    shot = browser.call("Page.captureScreenshot", format="png")["data"]
    folder = Path(os.environ.get("MJAUDIT_SCREENSHOT_DIR", str(tmp_path)))
    folder.mkdir(parents=True, exist_ok=True)
    png = folder / "report-board.png"
    png.write_bytes(base64.b64decode(shot))
    print(f"screenshot: {png}")
    assert png.stat().st_size > 10_000

    browser.drain()
    methods = [e.get("method") for e in browser.events]
    assert "Page.javascriptDialogOpening" not in methods
    console_errors = [
        e["params"]
        for e in browser.events
        if (e.get("method") == "Runtime.consoleAPICalled" and e["params"]["type"] == "error")
        or e.get("method") == "Runtime.exceptionThrown"
        or (e.get("method") == "Log.entryAdded" and e["params"]["entry"]["level"] == "error")
    ]
    assert console_errors == []
    requested = [
        e["params"]["request"]["url"]
        for e in browser.events
        if e.get("method") == "Network.requestWillBeSent"
    ]
    assert requested == [page.as_uri()]


# -- the board: every step as the audit's replay holds it -----------------------------
# Each test opens its own page; the DevTools events are cleared first, so waiting
# for a load waits for this page's.

_KANS = (MeldKind.ANKAN, MeldKind.DAIMINKAN, MeldKind.KAKAN)
KANS_4P = "tenhou-xml/2014052606gm-00c1-0000-6c0dfa74.xml"  # ankan, daiminkan and kakan
KANS_3P = "tenhou-json/full-game/2024010120gm-00b9-0000-ef5da89f.json"  # the same, sanma


def _corpus(name: str) -> Path:
    path = CORPUS / name
    if not path.exists():
        pytest.skip(f"corpus not available: {path}")
    return path


def _longest_game() -> Path:
    """The Tenhou XML game of the corpus with the most hands (then the most events)."""
    folder = CORPUS / "tenhou-xml"
    if not folder.is_dir():
        pytest.skip(f"corpus not available: {folder}")

    def size(p: Path) -> tuple[int, int]:
        data = p.read_bytes()
        return data.count(b"<INIT"), data.count(b"<")

    return max(sorted(folder.glob("*.xml")), key=size)


def _page(tmp_path: Path, log: GameLog, name: str = "game.html") -> tuple[Path, GameFacts]:
    facts = collect_game(log, resolve_rules(log, "auto"))
    page = tmp_path / name
    page.write_text(render_game(build_game_view(facts)), encoding="utf-8")
    return page, facts


def _open(tools: DevTools, page: Path, fragment: str = "") -> None:
    tools.events.clear()
    tools.call("Page.navigate", url=page.as_uri() + fragment)
    tools.wait_for("Page.loadEventFired")


def _errors(tools: DevTools) -> list[Any]:
    tools.drain(0.1)
    return [
        e["params"]
        for e in tools.events
        if e.get("method") == "Runtime.exceptionThrown"
        or (e.get("method") == "Runtime.consoleAPICalled" and e["params"]["type"] == "error")
    ]


# The board of round r as the page shows it: each tile as its face ("back" for a
# face-down one) and its marks, read from the drawn tiles themselves.
_READ_BOARD = """
const tiles = (el) => el ? [...el.querySelectorAll('svg.tile')].map(t => {
  const face = t.querySelector('use').getAttribute('href').slice(2);
  return [face, ['tsumogiri', 'side', 'called'].filter(c => t.classList.contains(c))];
}) : [];
const read = (b) => ({
  caption: b.querySelector('.caption').textContent,
  step: b.querySelector('.stepno').textContent,
  dora: tiles(b.querySelector('.dora')),
  left: Number(b.querySelector('.left').textContent),
  sticks: Number(b.querySelector('.sticks').textContent),
  notes: b.querySelector('.notes').textContent,
  seats: [...b.querySelectorAll('.seat')].map(s => ({
    hand: tiles(s.querySelector('.h')),
    drawn: tiles(s.querySelector('.drawn')),
    melds: [...s.querySelectorAll('.melds .tiles')].map(tiles),
    pond: tiles(s.querySelector('.pond')),
    waits: tiles(s.querySelector('.waits')),
    furiten: s.querySelector('.furiten').textContent,
    score: Number(s.querySelector('.score').textContent),
    riichi: s.classList.contains('riichi'),
    active: s.classList.contains('active'),
  })),
});
"""


def _expected_tiles(text: str) -> list[list[Any]]:
    out: list[list[Any]] = []
    for token in split_tokens(text):
        flags = token[2:]
        marks = [
            name
            for name, on in (
                ("tsumogiri", "t" in flags),
                ("side", "r" in flags or "^" in flags),
                ("called", "c" in flags),
            )
            if on
        ]
        out.append(["back" if "b" in flags else token[:2], marks])
    return out


def _expected(snap: dict[str, Any], caption: str, k: int, steps: int) -> dict[str, Any]:
    players = len(snap["hands"])
    return {
        "caption": caption,
        "step": f"step {k} / {steps}",
        "dora": _expected_tiles(snap["dora"]),
        "left": snap["left"],
        "sticks": snap["sticks"],
        "seats": [
            {
                "hand": _expected_tiles("".join(snap["hands"][s])),
                "drawn": _expected_tiles(snap["drawn"][s]),
                "melds": [_expected_tiles(m) for m in snap["melds"][s]],
                "pond": _expected_tiles("".join(snap["ponds"][s])),
                "waits": _expected_tiles(snap["waits"][s]),
                "furiten": f"furiten: {snap['furiten'][s]}" if snap["furiten"][s] else "",
                "score": snap["scores"][s],
                "riichi": bool(snap["riichi"][s]),
            }
            for s in range(players)
        ],
    }


def _every_step(tools: DevTools) -> list[list[dict[str, Any]]]:
    """Every step of every round, reached with each board's own slider."""
    found: list[list[dict[str, Any]]] = tools.evaluate(
        "(() => {"
        + _READ_BOARD
        + """
        return [...document.querySelectorAll('.board')].map(b => {
          const range = b.querySelector('input[type=range]'), out = [];
          for (let k = 0; k <= Number(range.max); k++) {
            range.value = String(k);
            range.dispatchEvent(new Event('input'));
            out.push(read(b));
          }
          return out;
        });
      })()"""
    )
    return found


def _check_every_step(tools: DevTools, tmp_path: Path, path: Path) -> int:
    log = load(str(path))
    page, facts = _page(tmp_path, log)
    watched = watch(log)
    _open(tools, page)
    shown = _every_step(tools)
    assert len(shown) == len(watched.snapshots)
    compared = 0
    for r, (steps, snaps) in enumerate(zip(shown, watched.snapshots, strict=True)):
        captions = facts.boards[r].captions
        assert len(steps) == len(snaps)
        for k, (have, snap) in enumerate(zip(steps, snaps, strict=True)):
            want = _expected(snap, captions[k], k, len(snaps) - 1)
            if watched.labels[r] in watched.dora_timing_rounds:
                want["dora"] = have["dora"]
            for seat in have["seats"]:
                del seat["active"]
            del have["notes"]
            assert have == want, f"{path.name} round {r} step {k}: {captions[k]}"
            compared += 1
    assert _errors(tools) == []
    return compared


def test_board_in_chromium_shows_the_audits_state_at_every_step(
    browser: DevTools, tmp_path: Path
) -> None:
    assert _check_every_step(browser, tmp_path, SAMPLES / "kans.xml") > 100


@pytest.mark.corpus
@pytest.mark.parametrize("name", [KANS_4P, KANS_3P], ids=["4p-kans", "sanma-kans"])
def test_corpus_board_in_chromium_shows_the_audits_state_at_every_step(
    browser: DevTools, tmp_path: Path, name: str
) -> None:
    assert _check_every_step(browser, tmp_path, _corpus(name)) > 500


def _board_at(tools: DevTools, r: int) -> dict[str, Any]:
    state: dict[str, Any] = tools.evaluate(
        "(() => {" + _READ_BOARD + f"return read(document.querySelector('#board-{r}'));}})()"
    )
    return state


@pytest.mark.corpus
def test_longest_game_shows_both_waits_at_r8s140(browser: DevTools, tmp_path: Path) -> None:
    page, facts = _page(tmp_path, load(str(_longest_game())))
    _open(browser, page, "#r8s140")
    board = _board_at(browser, 8)
    assert board["step"].startswith("step 140 /")
    waits = [[face for face, _ in seat["waits"]] for seat in board["seats"]]
    assert ["2s", "5s"] in waits
    # The finding on the same page names the same waits, and the player by name.
    text = browser.evaluate("document.querySelector('#findings').innerText")
    assert "waits 25s" in text
    assert f"{facts.names[0]} (seat 0) discards 7s and is tenpai but furiten" in text
    assert _errors(browser) == []


@pytest.mark.corpus
@pytest.mark.parametrize("name", [KANS_4P, KANS_3P], ids=["4p", "sanma"])
def test_dora_row_gains_each_kans_indicator_at_its_step(
    browser: DevTools, tmp_path: Path, name: str
) -> None:
    log = load(str(_corpus(name)))
    page, facts = _page(tmp_path, log)
    _open(browser, page)
    kinds: set[MeldKind] = set()
    round_no, last_kan = -1, None
    for index, ev in enumerate(log.events):
        if isinstance(ev, RoundStart):
            round_no, last_kan = round_no + 1, None
        elif isinstance(ev, DeclareMeld) and ev.meld.kind in _KANS:
            last_kan = ev.meld.kind
        elif isinstance(ev, DoraReveal) and last_kan is not None:
            k = facts.boards[round_no].events.index(index)
            browser.evaluate(f"location.hash = '#r{round_no}s{k - 1}'")
            browser.drain(0.05)
            before = [face for face, _ in _board_at(browser, round_no)["dora"]]
            browser.evaluate(f"location.hash = '#r{round_no}s{k}'")
            browser.drain(0.05)
            at = _board_at(browser, round_no)
            assert at["caption"] == f"new dora indicator {ev.indicator}"
            assert [face for face, _ in at["dora"]] == [*before, str(ev.indicator)]
            kinds.add(last_kan)
    assert kinds == set(_KANS)


def test_arrow_keys_step_the_board_in_view(browser: DevTools, tmp_path: Path) -> None:
    page, _ = _page(tmp_path, load(str(SAMPLES / "clean_game.xml")))
    _open(browser, page)
    browser.evaluate("document.querySelector('#board-2').scrollIntoView({block: 'center'})")
    for _ in range(3):
        browser.key("ArrowRight", 39)
    assert browser.evaluate("location.hash") == "#r2s3"
    assert _board_at(browser, 2)["step"].startswith("step 3 /")
    assert _board_at(browser, 0)["step"].startswith("step 0 /")
    # Scrolled back to the first board, the keys step that one.
    browser.evaluate("document.querySelector('#board-0').scrollIntoView({block: 'center'})")
    browser.key("ArrowRight", 39)
    assert browser.evaluate("location.hash") == "#r0s1"
    assert _board_at(browser, 2)["step"].startswith("step 3 /")
    assert "n/p next/previous finding" in browser.evaluate("document.body.innerText")


def test_keys_jump_to_the_next_and_previous_finding(browser: DevTools, tmp_path: Path) -> None:
    page, _ = _page(tmp_path, load(str(SAMPLES / "broken_dora.xml")))
    _open(browser, page)
    href = browser.evaluate("document.querySelector('#findings td a').getAttribute('href')")
    browser.evaluate("window.scrollTo(0, 0)")
    browser.key("n", 78)
    assert browser.evaluate("location.hash") == href
    r = int(href[2:].split("s")[0])
    board = _board_at(browser, r)
    assert "dora-timing" in board["notes"]
    browser.key("ArrowRight", 39)
    assert "dora-timing" not in _board_at(browser, r)["notes"]
    browser.key("p", 80)
    assert browser.evaluate("location.hash") == href
    assert _errors(browser) == []


def test_a_390px_window_never_scrolls_sideways(browser: DevTools, tmp_path: Path) -> None:
    path = CORPUS / "tenhou-xml"
    log = load(str(_longest_game() if path.is_dir() else SAMPLES / "kans.xml"))
    page, _ = _page(tmp_path, log)
    browser.call(
        "Emulation.setDeviceMetricsOverride",
        width=390,
        height=844,
        deviceScaleFactor=1,
        mobile=True,
    )
    try:
        _open(browser, page, "#r1s30")
        width = browser.evaluate("window.innerWidth")
        assert width == 390
        assert browser.evaluate("document.documentElement.scrollWidth") <= width
        assert browser.evaluate("document.body.scrollWidth") <= width
    finally:
        browser.call("Emulation.clearDeviceMetricsOverride")


def test_the_printed_page_has_no_controls(browser: DevTools, tmp_path: Path) -> None:
    page, _ = _page(tmp_path, load(str(SAMPLES / "kans.xml")))
    _open(browser, page)
    browser.call("Emulation.setEmulatedMedia", media="print")
    try:
        shown = browser.evaluate(
            """[...document.querySelectorAll('.controls, .help, details.moves')]
                 .filter(e => getComputedStyle(e).display !== 'none').length"""
        )
        assert shown == 0
        assert (
            browser.evaluate("getComputedStyle(document.querySelector('.board')).display") != "none"
        )
        assert browser.evaluate("document.querySelectorAll('.board svg.tile').length") > 50
    finally:
        browser.call("Emulation.setEmulatedMedia", media="")


@pytest.mark.corpus
def test_a_note_naming_an_untrusted_player_is_text(browser: DevTools, tmp_path: Path) -> None:
    log = load(str(_longest_game()))
    start = log.start
    players = (PlayerInfo(EVIL), *start.players[1:])
    log = dataclasses.replace(
        log, events=(dataclasses.replace(start, players=players), *log.events[1:])
    )
    page, _ = _page(tmp_path, log)
    _open(browser, page, "#r8s140")
    notes = _board_at(browser, 8)["notes"]
    assert f"{EVIL} (seat 0) discards 7s and is tenpai but furiten" in notes
    assert browser.evaluate("document.querySelectorAll('.notes script').length") == 0
    browser.drain()
    assert "Page.javascriptDialogOpening" not in [e.get("method") for e in browser.events]
    assert _errors(browser) == []


def test_the_seat_view_shows_each_turn_and_the_keys_visit_its_notes(
    browser: DevTools, tmp_path: Path
) -> None:
    """Reviewed from a seat: at each own turn the board says the seat's shanten and
    the best discards; n visits the efficiency notes (and findings), not every turn."""
    log = load(str(SAMPLES / "clean_game.xml"))
    seat = 1
    facts = collect_game(log, resolve_rules(log, "auto"), seat=seat)
    page = tmp_path / "seat.html"
    page.write_text(render_game(build_game_view(facts)), encoding="utf-8")
    # The first turn of the seat, its draw's step: the turn note is shown there.
    steps = {index: (r, k) for r, b in enumerate(facts.boards) for k, index in enumerate(b.events)}
    _, begun = min(facts.turns)
    r, k = steps[begun]
    _open(browser, page, f"#r{r}s{k}")
    assert browser.evaluate("document.querySelector('#board-0 .seat').dataset.seat") == str(seat)
    board = _board_at(browser, r)
    name = facts.names[seat]
    assert f"{name}: " in board["notes"] and "best discard" in board["notes"]
    # n visits the efficiency notes and the findings, in board order, not the turns.
    text = page.read_text(encoding="utf-8")
    datas = re.findall(r'<script type="application/json" class="frames">(.*?)</script>', text, re.S)
    visited = [
        (r, n[0], n[1])
        for r, data in enumerate(datas)
        for n in sorted(json.loads(data)["notes"], key=lambda n: n[0])
        if n[1] != "turn"
    ]
    assert any(kind == "efficiency" for _, _, kind in visited)
    browser.evaluate("location.hash = '#r0s0'")
    browser.drain(0.2)
    for r1, k1, kind in visited[:4]:
        browser.key("n", 78)
        assert browser.evaluate("location.hash") == f"#r{r1}s{k1}"
        shown = _board_at(browser, r1)["notes"]
        assert ("leaves" in shown) if kind == "efficiency" else (kind in shown)
    assert _errors(browser) == []
