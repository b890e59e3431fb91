"""The same game in two formats gives the same events and the same audit result.

The corpus pairs (../shared/corpus/*/SOURCES.md): every Tenhou JSON server file
from mjlog2json and every mjx JSON Lines file has its mjlog under tenhou-xml/;
the 24 complete games gimite's converter turned into mjai were converted from
mjlogs that are under tenhou-xml/ too (matched by the input's SHA-256 there, and
by the names mjx gave them). ``comparable`` is also the yardstick of the convert
round trips (tests/test_convert.py).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from pathlib import Path

import pytest

from analyzer.checks.audit import audit_log, resolve_rules
from mjaudit.events import (
    DeclareMeld,
    Discard,
    DoraReveal,
    DrawTile,
    Event,
    GameEnd,
    GameLog,
    GameStart,
    Presence,
    RiichiAccepted,
    RiichiDeclared,
    RoundDraw,
    RoundStart,
    Win,
)
from mjaudit.findings import Severity
from mjaudit.yaku import Yaku
from parsers import load

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus"
XML_DIR = CORPUS / "tenhou-xml"
JSON_DIR = CORPUS / "tenhou-json"
MJAI_TWIN_DIR = CORPUS / "mjai" / "converted-from-tenhou" / "gimite-tenhouarchive"

# mjai file stem -> mjlog stem. The converter's input names are mjx's test names;
# mjai/SOURCES.md §7 gives each input's SHA-256, which is the XML file's.
MJAI_TWINS = {
    "tenhou_2010091009gm-00a9-0000-83af2648_tw2": "2010091009gm-00a9-0000-83af2648",
    "tenhou_double-ron": "2012091400gm-00a9-0000-ec58432b",
    "tenhou_encdec-chankan-ippatsu": "2018010702gm-00a9-0000-5dd4f9b4",
    "tenhou_encdec-chanta": "2020080212gm-00a9-0000-82c7d512",
    "tenhou_encdec-double-riichi": "2020051716gm-00a9-0000-7f8226dd",
    "tenhou_encdec-four-concealed-pons": "2020071200gm-00a9-0000-2703badd",
    "tenhou_encdec-four-winds-no-winner": "2020052221gm-00a9-0000-6f0524c7",
    "tenhou_encdec-fu-max": "2016081523gm-00a9-0000-122c42dc",
    "tenhou_encdec-game-end": "2020061922gm-00a9-0000-6183ff37",
    "tenhou_encdec-nine-gates": "2020052212gm-00a9-0000-3c7fe026",
    "tenhou_encdec-no-north-rounds": "2020060723gm-00a9-0000-58807e27",
    "tenhou_encdec-nowinner-multi-top": "2018022422gm-00a9-0000-0067d2a4",
    "tenhou_encdec-pao-false-pos": "2019060813gm-00a9-0000-08bb0ec3",
    "tenhou_encdec-pinfu-ipeiko-vs-sanankou": "2019062300gm-00a9-0000-4224185c",
    "tenhou_encdec-rinshan-fu": "2020052700gm-00a9-0000-75a4695c",
    "tenhou_encdec-sanankou-false-neg": "2017031200gm-00a9-0000-ebc05bd5",
    "tenhou_encdec-suankou-false-pos": "2010102910gm-00a9-0000-cdb9804c",
    "tenhou_encdec-tenhou-false-pos": "2017082021gm-00a9-0000-b8cc6957",
    "tenhou_encdec-tenhou": "2017040900gm-00a9-0000-af5434e3",
    "tenhou_first-example": "2011020417gm-00a9-0000-b67fcaa3",
    "tenhou_gimite_test": "gimite-mjai_test",
    "tenhou_pao-tsumo": "2017091022gm-00a9-0000-55c5aa68",
    "tenhou_sansyoku-doukou-false-neg": "2010122717gm-00a9-0000-8e787e61",
    "tenhou_trans-furiten-false-pos": "2010110100gm-00a9-0000-de3472e8",
}

# The win claims each format records (tile ids are never compared). mjai has no
# limit band and one name for a yakuman's single and double form; Tenhou JSON has
# no winning hand and no fu for a limit hand.
WIN_CLAIMS = {
    "tenhou-xml": frozenset(
        {"hand", "win_tile", "han", "fu", "points", "limit", "yaku", "yakuman"}
        | {"ura_indicators", "deltas", "pao_seat"}
    ),
    "tenhou-json": frozenset(
        {"han", "fu", "points", "limit", "yaku", "yakuman", "ura_indicators", "deltas", "pao_seat"}
    ),
    "mjai": frozenset(
        {"hand", "win_tile", "han", "fu", "points", "yaku", "yakuman", "ura_indicators"}
        | {"deltas", "pao_seat"}
    ),
    "mahjongsoul": frozenset(
        {"hand", "win_tile", "han", "fu", "points", "limit", "yaku", "yakuman"}
        | {"ura_indicators", "deltas", "pao_seat"}
    ),
}
_SINGLE = {
    Yaku.SUUANKOU_TANKI: Yaku.SUUANKOU,
    Yaku.JUNSEI_CHUUREN: Yaku.CHUUREN,
    Yaku.KOKUSHI_13: Yaku.KOKUSHI,
}


def _win(ev: Win, claims: frozenset[str]) -> tuple[object, ...]:
    c = ev.claims
    out: list[object] = ["win", ev.seat, ev.from_seat]
    for name in sorted(claims):
        value = getattr(c, name)
        if name in ("hand", "yaku") and value is not None:
            value = tuple(sorted(value))
        elif name == "yakuman" and value is not None:
            single = "limit" not in claims  # mjai: one name for both forms
            value = tuple(sorted(_SINGLE.get(y, y) if single else y for y in value))
        out.append((name, value))
    return tuple(out)


def comparable(log: GameLog, other_format: str, presence: bool = True) -> list[tuple[object, ...]]:
    """The events as plain tuples, keeping only what both formats can record.

    ``presence=False`` leaves out disconnections (mjai and Tenhou's viewer
    exports do not record them).
    """
    claims = WIN_CLAIMS[log.format] & WIN_CLAIMS[other_format]
    if other_format == "tenhou-json" or log.format == "tenhou-json":
        claims = claims - {"fu"}  # compared where JSON has it: see ``fu_agrees``
    presence = presence and "mjai" not in (log.format, other_format)
    out: list[tuple[object, ...]] = []
    for ev in log.events:
        item = _event(ev, claims, presence)
        if item is not None:
            out.append(item)
    if "tenhou-json" in (log.format, other_format):
        # The JSON ties a disconnection to a hand: one before the first deal
        # comes right after it.
        first = next((k for k, e in enumerate(out) if e[0] == "start"), 0)
        early = [e for e in out[:first] if e[0] == "presence"]
        head = [e for e in out[:first] if e[0] != "presence"]
        out = [*head, *out[first : first + 1], *early, *out[first + 1 :]]
    # Disconnections at one moment are kept in seat order by the JSON parser.
    k = 0
    while k < len(out):
        j = k
        while j < len(out) and out[j][0] == "presence":
            j += 1
        out[k:j] = sorted(out[k:j], key=repr)
        k = j + 1
    # Tenhou JSON has no end marker: a cut game and a finished one read alike.
    if out and out[-1] == ("end", None, None) and "tenhou-json" in (log.format, other_format):
        out.pop()
    return out


def _event(ev: Event, claims: frozenset[str], presence: bool) -> tuple[object, ...] | None:
    match ev:
        case GameStart():
            # Names are not compared: viewer exports anonymise them (Aさん...).
            return ("start-game", ev.first_dealer)
        case RoundStart():
            hands = tuple(tuple(sorted(h)) for h in ev.hands)
            return (
                "start",
                ev.round_index,
                ev.honba,
                ev.riichi_sticks,
                ev.dealer,
                ev.scores,
                ev.dora_indicator,
                hands,
            )
        case DrawTile():
            return ("draw", ev.seat, ev.tile)
        case Discard():
            return ("discard", ev.seat, ev.tile, ev.tsumogiri)
        case DeclareMeld():
            m = ev.meld
            return ("meld", ev.seat, m.kind, tuple(sorted(m.tiles)), m.called, m.from_seat, m.added)
        case DoraReveal():
            return ("dora", ev.indicator)
        case RiichiDeclared():
            return ("riichi", ev.seat)
        case RiichiAccepted():
            return ("accepted", ev.seat)
        case Win():
            return _win(ev, claims)
        case RoundDraw():
            return ("draw-end", ev.reason)
        case Presence():
            return ("presence", ev.seat, ev.connected) if presence else None
        case GameEnd():
            return ("end", None, None)


def draw_claims_agree(a: GameLog, b: GameLog) -> list[str]:
    """Deltas and tenpai seats of every draw, where both logs record them."""
    bad = []
    draws_a = [e for e in a.events if isinstance(e, RoundDraw)]
    draws_b = [e for e in b.events if isinstance(e, RoundDraw)]
    for x, y in zip(draws_a, draws_b, strict=True):
        for name in ("deltas", "tenpai"):
            u, v = getattr(x.claims, name), getattr(y.claims, name)
            if u is not None and v is not None and u != v:
                bad.append(f"{x.pos}: draw {name} {u} != {v}")
        shown_x, shown_y = dict(x.claims.hands), dict(y.claims.hands)
        if shown_x and shown_y and shown_x.keys() == shown_y.keys():
            for s in shown_x:
                if sorted(shown_x[s]) != sorted(shown_y[s]):
                    bad.append(f"{x.pos}: seat {s} shows another hand")
    return bad


def fu_agrees(a: GameLog, b: GameLog) -> list[str]:
    """Fu, where both record it (Tenhou JSON writes none for a limit hand)."""
    wins = zip(
        [e for e in a.events if isinstance(e, Win)],
        [e for e in b.events if isinstance(e, Win)],
        strict=True,
    )
    return [
        f"{x.pos}: fu {x.claims.fu} != {y.claims.fu}"
        for x, y in wins
        if x.claims.fu is not None and y.claims.fu is not None and x.claims.fu != y.claims.fu
    ]


def end_claims_agree(a: GameLog, b: GameLog) -> list[str]:
    ends = [[e for e in log.events if isinstance(e, GameEnd)] for log in (a, b)]
    if not ends[0] or not ends[1]:
        return []
    x, y = ends[0][-1].claims, ends[1][-1].claims
    return [
        f"end {name} {getattr(x, name)} != {getattr(y, name)}"
        for name in ("final_scores", "results")
        if getattr(x, name) is not None
        and getattr(y, name) is not None
        and getattr(x, name) != getattr(y, name)
    ]


def differences(a: GameLog, b: GameLog) -> list[str]:
    """Every way two parses of one game disagree, ignoring what a format cannot hold."""
    bad: list[str] = []
    presence = all(any(isinstance(e, Presence) for e in log.events) for log in (a, b))
    ea, eb = comparable(a, b.format, presence), comparable(b, a.format, presence)
    for k, (x, y) in enumerate(itertools.zip_longest(ea, eb)):
        if x != y:
            bad.append(f"event {k}: {x} != {y}")
            break
    return bad + draw_claims_agree(a, b) + fu_agrees(a, b) + end_claims_agree(a, b)


def error_findings(log: GameLog) -> list[tuple[object, ...]]:
    result = audit_log(log, resolve_rules(log, "auto"))
    return sorted(
        (f.code, f.round, f.seat, f.expected, f.actual)
        for f in result.findings
        if f.severity is Severity.ERROR
    )


def _pairs(found: Iterable[tuple[Path, Path]]) -> list[tuple[Path, Path]]:
    pairs = list(found)
    if not pairs:
        pytest.skip(f"corpus not available at {CORPUS}")
    return pairs


def _json_twins() -> list[tuple[Path, Path]]:
    if not JSON_DIR.is_dir():
        return []
    files = sorted(p for p in JSON_DIR.rglob("*") if p.suffix in (".json", ".jsonl"))
    return [
        (p, XML_DIR / f"{p.name.split('.')[0]}.xml")
        for p in files
        if (XML_DIR / f"{p.name.split('.')[0]}.xml").exists()
    ]


def _mjai_twins() -> list[tuple[Path, Path]]:
    if not MJAI_TWIN_DIR.is_dir():
        return []
    return [(MJAI_TWIN_DIR / f"{m}.jsonl", XML_DIR / f"{x}.xml") for m, x in MJAI_TWINS.items()]


@pytest.mark.corpus
@pytest.mark.parametrize("kind", ["tenhou-json", "mjai"])
def test_twins_give_the_same_events_and_the_same_audit(kind: str) -> None:
    pairs = _pairs(_json_twins() if kind == "tenhou-json" else _mjai_twins())
    assert len(pairs) == (37 if kind == "tenhou-json" else 24)
    problems = []
    for twin, xml in pairs:
        a, b = load(str(twin)), load(str(xml))
        assert a.format == kind and b.format == "tenhou-xml"
        problems += [f"{twin.name}: {d}" for d in differences(a, b)]
        ea, eb = error_findings(a), error_findings(b)
        if ea != eb:
            problems.append(f"{twin.name}: audit errors {ea} != {xml.name}: {eb}")
    assert problems == []


@pytest.mark.corpus
def test_the_twin_table_matches_the_hands() -> None:
    for twin, xml in _pairs(_mjai_twins()):
        hands = [
            [e.hands for e in load(str(p)).events if isinstance(e, RoundStart)] for p in (twin, xml)
        ]
        assert hands[0] == hands[1], twin.name
