"""mjai as libriichi (Mortal, mjai.app) and convlog write it: fields they leave out.

Each test takes a corpus mjlog game that audits clean, writes it as mjai, strips
what such a producer does not write (mjai-format.md §2.8, §2.9), and audits it: a
valid log must stay clean, and what the reader makes of it must be what the mjlog
says (the draw's kind, say).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from mjaudit.events import GameLog, RoundDraw
from parsers import load, load_bytes
from parsers.convert import convert_log
from tests.conftest import corpus_file
from tests.test_twins import error_findings

Edit = Callable[[dict[str, Any]], dict[str, Any]]


def _as_mjai(name: str) -> tuple[GameLog, list[dict[str, Any]]]:
    log = load(str(corpus_file(name)))
    assert error_findings(log) == [], name  # the game is clean as recorded
    lines = convert_log(log, "mjai").decode().splitlines()
    return log, [json.loads(line) for line in lines]


def _reread(events: list[dict[str, Any]], name: str) -> GameLog:
    text = "".join(json.dumps(e) + "\n" for e in events)
    return load_bytes(text.encode(), f"{name}.jsonl")


def _without(kind: str, *keys: str) -> Edit:
    def edit(ev: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in ev.items() if k not in keys} if ev["type"] == kind else ev

    return edit


@pytest.mark.parametrize(
    "name",
    [
        "mjx-project-mjx_nm.xml",  # nagashi mangan
        "mjx-project-mjx_kaze4.xml",  # four winds
        "2016052515gm-00a9-0000-c4d72066.xml",  # four kans
        "2018040923gm-00a9-0000-1833afca.xml",  # four riichi
    ],
)
def test_a_draw_without_its_reason_is_read_as_the_hand_ended(name: str) -> None:
    # libriichi and convlog write a draw's deltas only: it was read as exhaustive (or
    # nine terminals after a draw), which gave a nagashi mangan "a plain exhaustive
    # draw" with its payments wrong, and four winds, four kans and four riichi
    # "an exhaustive draw with N tiles still in the live wall".
    log, events = _as_mjai(name)
    strip = _without("ryukyoku", "reason", "tenpais", "tehais", "scores")
    bare = _reread([strip(e) for e in events], name)
    assert error_findings(bare) == []
    reasons = [e.reason for e in log.events if isinstance(e, RoundDraw)]
    assert [e.reason for e in bare.events if isinstance(e, RoundDraw)] == reasons


def test_pao_is_not_judged_where_the_producer_never_writes_it() -> None:
    # A libriichi hora (actor, target, deltas, ura_markers) on a pao win was a
    # pao-mismatch: "log names nobody liable". Its deltas are still checked.
    _, events = _as_mjai("dnovikoff-tenhou_pao.xml")
    riichi: set[int] = set()
    bare: list[dict[str, Any]] = []
    for e in events:
        if e["type"] == "start_kyoku":
            riichi = set()
        elif e["type"] == "reach_accepted":
            riichi.add(e["actor"])
        elif e["type"] == "hora":
            ura = e.get("uradora_markers", []) if e["actor"] in riichi else []
            e = {k: e[k] for k in ("type", "actor", "target", "deltas")} | {"ura_markers": ura}
        bare.append(e)
    assert error_findings(_reread(bare, "pao")) == []
    # A wrong delta on that win is still an error.
    win = next(k for k, e in enumerate(bare) if e["type"] == "hora" and e["actor"] != e["target"])
    deltas = bare[win]["deltas"]
    bare[win]["deltas"] = [d + 100 if d > 0 else d - 100 if d < 0 else 0 for d in deltas]
    codes = {f[0] for f in error_findings(_reread(bare, "pao"))}
    assert "payment-mismatch" in codes and "pao-mismatch" not in codes


def test_convlog_ura_on_a_winner_without_riichi_is_no_claim() -> None:
    # convlog writes the hand's ura indicators on every hora of the hand: on a double
    # ron where one winner had no riichi it was "did not declare riichi, but the win
    # shows ura indicators".
    _, events = _as_mjai("2014120823gm-0029-0000-26f781c3.xml")
    ura_of_hand: list[list[str]] = []
    for e in events:
        if e["type"] == "start_kyoku":
            ura_of_hand.append([])
        elif e["type"] == "hora" and e.get("uradora_markers"):
            ura_of_hand[-1] = e["uradora_markers"]
    hand = -1
    shared: list[dict[str, Any]] = []
    for e in events:
        if e["type"] == "start_kyoku":
            hand += 1
        elif e["type"] == "hora":
            e = {k: v for k, v in e.items() if k != "uradora_markers"}
            e["ura_markers"] = ura_of_hand[hand]
        shared.append(e)
    assert error_findings(_reread(shared, "shared")) == []


def test_a_yakuman_name_for_both_forms_without_the_winning_hand() -> None:
    # mjai's "suanko" names suuankou and its single-wait form; without hora_tehais
    # the form cannot be told, and the single-wait win was "log lists yakuman
    # suuankou, recomputed suuankou tanki" (mjaudit's own JSON-to-mjai output).
    _, events = _as_mjai("2010112211gm-00a9-0000-56a320b2.xml")
    strip = _without("hora", "hora_tehais")
    assert error_findings(_reread([strip(e) for e in events], "suanko")) == []
    # A yakuman the hand does not have is still a yaku-mismatch.
    win = next(e for e in events if e["type"] == "hora" and e.get("fan", 0) >= 100)
    win["yakus"] = [["kokushimuso", 100] if y[0] == "suanko" else y for y in win["yakus"]]
    codes = {f[0] for f in error_findings(_reread([strip(e) for e in events], "suanko"))}
    assert "yaku-mismatch" in codes


def test_four_riichi_written_after_the_next_draw() -> None:
    # libriichi writes a four-riichi draw after the next seat's draw (reach_accepted,
    # tsumo, ryukyoku): that seat holds 14 tiles, which made the hand unreplayable
    # ("holds 14 tiles ... at the suucha-riichi draw").
    from collections import Counter

    log, events = _as_mjai("2018040923gm-00a9-0000-1833afca.xml")
    k = next(
        k
        for k, e in enumerate(events)
        if e["type"] == "ryukyoku" and events[k - 1]["type"] == "reach_accepted"
    )
    start = max(j for j in range(k) if events[j]["type"] == "start_kyoku")
    seen = Counter(t for e in events[start : k + 1] for t in _tiles_of(e))
    tile = next(t for t in ("1m", "9m", "1p", "9p", "1s", "9s", "E", "S") if seen[t] < 4)
    actor = (events[k - 1]["actor"] + 1) % 4
    draw = {"type": "tsumo", "actor": actor, "pai": tile}
    strip = _without("ryukyoku", "reason", "tenpais", "tehais", "scores")
    bare = _reread([strip(e) for e in events[:k]] + [draw] + [strip(e) for e in events[k:]], "r4")
    assert error_findings(bare) == []
    reasons = [e.reason for e in log.events if isinstance(e, RoundDraw)]
    assert [e.reason for e in bare.events if isinstance(e, RoundDraw)] == reasons


def _tiles_of(event: dict[str, Any]) -> list[str]:
    """The tiles an mjai event shows (a start's hands, a draw, a discard, a call)."""
    if event["type"] == "start_kyoku":
        return [t for hand in event["tehais"] for t in hand] + [event["dora_marker"]]
    found = [event["pai"]] if isinstance(event.get("pai"), str) else []
    return found + list(event.get("consumed", [])) if event["type"] != "dahai" else []
