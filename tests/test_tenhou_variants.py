"""Tenhou mjlog variants the corpus holds few of, built from real logs.

Each test edits a copy of a real game so that it stays what Tenhou would write
(or so that exactly one number is wrong) and checks the audit's verdict, with the
reference it follows from (../shared/reference/tenhou-format.md).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from lxml import etree

from analyzer.checks.audit import FileAudit, resolve_rules
from parsers.tenhou_xml import parse_tenhou_xml
from reports.views_facts import collect_game
from tests.conftest import corpus_file, elements, error_codes, rebuild, tamper

Els = list[etree._Element]

KYUUSHU_GAME = "2022060100gm-00a9-0000-afa8349e.xml"  # a yao9 draw
REACH4_GAME = "2018040923gm-00a9-0000-1833afca.xml"  # the corpus's one reach4 draw
RON3_GAME = "2010113000gm-0061-0000-ef7062e1.xml"  # a ron3 draw


def _errors(result: FileAudit) -> list[tuple[str, int | None]]:
    return [(f.code, f.seat) for f in result.findings if f.severity.value == "error"]


def _draw(c: Els, kind: str) -> etree._Element:
    return next(e for e in c if e.tag == "RYUUKYOKU" and e.get("type") == kind)


def _draw_of(game: str, kind: str) -> etree._Element:
    return _draw(elements(corpus_file(game)), kind)


def _shown_seats(el: etree._Element) -> list[int]:
    return [s for s in range(4) if el.get(f"hai{s}")]


@pytest.mark.parametrize(
    "game, kind", [(KYUUSHU_GAME, "yao9"), (REACH4_GAME, "reach4"), (RON3_GAME, "ron3")]
)
@pytest.mark.parametrize("same_kind", [False, True])
def test_a_hand_shown_at_an_abortive_draw_is_compared_with_the_replay(
    game: str, kind: str, same_kind: bool
) -> None:
    """yao9 shows the declarer's 14 tiles, reach4 every hand, ron3 the three winners'
    hands (tenhou-format.md §1.10, §1.11): each is a claim about the hand. One tile id
    changed in one of them is one error naming that seat; another copy of the same
    tile is another tile, as at an exhaustive draw (docs/findings.md)."""
    seat: list[int] = []

    def edit(c: Els) -> None:
        draw = _draw(c, kind)
        s = _shown_seats(draw)[-1]
        seat.append(s)
        ids = [int(x) for x in draw.get(f"hai{s}", "").split(",")]
        used = {
            int(x)
            for e in c
            if e.tag == "RYUUKYOKU"
            for k in range(4)
            for x in (e.get(f"hai{k}") or "").split(",")
            if x
        }
        first = ids[0]
        if same_kind:
            new = next(first // 4 * 4 + k for k in range(4) if first // 4 * 4 + k not in ids)
        else:
            kinds = {i // 4 for i in ids}
            new = next(i for i in range(136) if i // 4 not in kinds and i not in used)
        draw.set(f"hai{s}", ",".join(map(str, sorted([new, *ids[1:]]))))

    assert error_codes(tamper(game, lambda c: None)) == []
    result = tamper(game, edit)
    assert _errors(result) == [("tenpai-hand-mismatch", seat[0])], [
        f.message for f in result.findings
    ]
    assert dict(result.checks)["tenpai_hands_checked"] >= len(_shown_seats(_draw_of(game, kind)))


@pytest.mark.parametrize(
    "game, fu",
    [
        ("dnovikoff-tenhou_pao.xml", 50),  # daisangen, ten="40,32000,5"
        ("2009100718gm-00e1-0000-470654d3.xml", 30),  # kokushi, ten="0,32000,5"
        ("2010112211gm-00a9-0000-56a320b2.xml", 60),  # suuankou tanki, ten="70,32000,5"
    ],
)
def test_the_fu_of_a_yakuman_win_is_compared(game: str, fu: int) -> None:
    """A yakuman win's ``ten`` still carries the hand's fu (tenhou-format.md §1.10;
    rules-matrix §G "Yakuman": ``40,32000,5``); the 23 yakuman wins of the corpus
    all write the fu the hand's shape gives (kokushi 0). One fu changed is one
    ``fu-mismatch``."""

    def edit(c: Els) -> None:
        win = next(e for e in c if e.tag == "AGARI" and e.get("yakuman"))
        ten = win.get("ten", "").split(",")
        win.set("ten", ",".join([str(fu), *ten[1:]]))

    assert error_codes(tamper(game, lambda c: None)) == []
    result = tamper(game, edit)
    assert error_codes(result) == ["fu-mismatch"], [f.message for f in result.findings]


def test_a_last_hand_started_with_a_wrong_stick_count_is_one_root_finding() -> None:
    """The last hand's INIT names one riichi stick too many (seed[2]; tenhou-format.md
    §1.5). The chain says so once, and goes on from the log's count; the result's
    ``ba`` and the final scores of ``owari`` (leftover sticks to the top, §1.10) follow
    the sticks the chain had, so they add no second root finding."""
    game = "2009072917gm-0061-0000-85a7478c.xml"  # E4-0 is drawn with a riichi stick left

    def edit(c: Els) -> None:
        init = [e for e in c if e.tag == "INIT"][-1]
        seed = [int(x) for x in init.get("seed", "").split(",")]
        seed[2] += 1
        init.set("seed", ",".join(map(str, seed)))

    assert error_codes(tamper(game, lambda c: None)) == []
    result = tamper(game, edit)
    roots = [f for f in result.findings if f.severity.value == "error" and f.cause is None]
    assert [f.code for f in roots] == ["score-chain-mismatch"], [
        (f.code, f.cause, f.message) for f in result.findings
    ]


def _notes(result: FileAudit, code: str) -> list[tuple[str | None, int | None]]:
    return [(f.round, f.seat) for f in result.findings if f.code == code]


def test_no_review_note_on_what_the_server_played_for_a_disconnected_seat() -> None:
    """While a seat is disconnected (``<BYE who=>`` until its ``<UN>``), the server
    plays for it by discarding what it draws (tenhou-format.md §1.4): a win it lets
    go then is not the player's choice. Seat 0 of this game draws its winning 6m in
    E3-0 (element 565) and discards it at once; with a BYE before that draw and its
    reconnect after the discard, the play is the server's: no ``missed-tsumo``. The
    audit's errors do not change."""
    game = "2014051204gm-0041-0000-c9ebd8d8.xml"
    plain = tamper(game, lambda c: None)
    assert ("E3-0", 0) in _notes(plain, "missed-tsumo")

    def edit(c: Els) -> None:
        # c[k] is element k + 1: the draw is element 565, its discard 566.
        assert (c[564].tag, c[565].tag) == ("T22", "D22")
        name = next(e for e in c if e.tag == "UN").get("n0", "")
        c.insert(566, etree.Element("UN", n0=name))
        c.insert(564, etree.Element("BYE", who="0"))

    away = tamper(game, edit)
    assert ("E3-0", 0) not in _notes(away, "missed-tsumo")
    assert error_codes(away) == []
    others = [(f.code, f.round, f.seat) for f in plain.findings if f.code != "missed-tsumo"]
    assert [(f.code, f.round, f.seat) for f in away.findings if f.code != "missed-tsumo"] == others


def test_no_efficiency_note_on_a_discard_the_server_made() -> None:
    """The seat review notes a discard that kept fewer useful tiles than another;
    a discard the server made for a disconnected seat (tenhou-format.md §1.4) is no
    choice of the player's. Seat 0 of this game draws and discards 1s at elements
    158 and 159 (E2-0), a discard the review notes; with a BYE before the draw and
    the reconnect after the discard, it is not noted."""
    game = "2014051204gm-0041-0000-c9ebd8d8.xml"

    def edit(c: Els) -> None:
        assert (c[157].tag, c[158].tag) == ("T72", "D72")
        name = next(e for e in c if e.tag == "UN").get("n0", "")
        c.insert(159, etree.Element("UN", n0=name))
        c.insert(157, etree.Element("BYE", who="0"))

    def noted(edit_: Callable[[Els], None]) -> list[str]:
        children = elements(corpus_file(game))
        edit_(children)
        log = parse_tenhou_xml(rebuild(children), game)
        facts = collect_game(log, resolve_rules(log, "auto"), seat=0)
        return [
            log.events[t.discard_index].pos.where
            for t in facts.turns.values()
            if t.note is not None and t.discard_index is not None
        ]

    assert "element 159 <D72/>" in noted(lambda c: None)
    assert [w for w in noted(edit) if w.endswith("<D72/>")] == []


@pytest.mark.parametrize(
    "game, n",
    [
        ("2016052515gm-00a9-0000-c4d72066.xml", 27),  # an ankan (N who=1)
        ("2014091101gm-00b9-0000-5ca6b487.xml", 7),  # a kita in sanma (N who=1)
    ],
)
def test_a_kan_or_kita_given_to_another_seat_is_one_root_finding(game: str, n: int) -> None:
    """``<N who=>`` names the caller (tenhou-format.md §1.8); after a kan or a kita
    the caller's next draw is a replacement tile from the dead wall (tenhou-wall.md
    §1.7). Naming another seat breaks the replay there (``inconsistent-log``), and the
    wall, walked with the same wrong caller, then differs at a later draw of that
    hand: that follows from the same number, so it names the first as its cause."""

    def edit(c: Els) -> None:
        meld = [e for e in c if e.tag == "N"][n]
        meld.set("who", str((int(meld.get("who", "0")) + 1) % 4))

    assert error_codes(tamper(game, lambda c: None)) == []
    result = tamper(game, edit)
    roots = [f for f in result.findings if f.severity.value == "error" and f.cause is None]
    assert [f.code for f in roots] == ["inconsistent-log"], [
        (f.code, f.cause, f.message) for f in result.findings
    ]


def test_a_call_given_to_a_seat_in_riichi_is_one_root_finding() -> None:
    """A chi whose ``<N who=>`` names the seat after the caller (tenhou-format.md §1.8),
    here a seat in riichi: the call cannot be made from the discard before it
    (``inconsistent-log``), and the rule a seat in riichi may not call, judged on the
    same impossible call, follows from it."""
    game = "2022060100gm-00a9-0000-34c99cfa.xml"

    def edit(c: Els) -> None:
        meld = [e for e in c if e.tag == "N"][4]
        meld.set("who", str((int(meld.get("who", "0")) + 1) % 4))

    assert error_codes(tamper(game, lambda c: None)) == []
    result = tamper(game, edit)
    roots = [f for f in result.findings if f.severity.value == "error" and f.cause is None]
    assert [f.code for f in roots] == ["inconsistent-log"], [
        (f.code, f.cause, f.message) for f in result.findings
    ]
    assert "illegal-call" in error_codes(result)


def test_a_kyuushu_hand_shown_under_another_seat_is_one_root_finding() -> None:
    """yao9 shows the declarer's fourteen tiles (tenhou-format.md §1.11), the seat
    whose turn it is. The same hand shown as another seat's is one finding, the shown
    hand's; the draw itself, judged on the seat that declared it, stands."""
    game = "2010112714gm-00a9-0000-d497e395.xml"

    def edit(c: Els) -> None:
        draw = _draw(c, "yao9")
        draw.set("hai2", draw.get("hai3", ""))
        del draw.attrib["hai3"]

    assert error_codes(tamper(game, lambda c: None)) == []
    assert _errors(tamper(game, edit)) == [("tenpai-hand-mismatch", 2)]


def test_a_triple_ron_that_leaves_out_a_winners_hand() -> None:
    """ron3 shows the three winners' hands (tenhou-format.md §1.10): one left out is
    one ``tenpai-hand-mismatch``, as a tenpai hand left out at an exhaustive draw."""
    game = RON3_GAME

    def edit(c: Els) -> None:
        del _draw(c, "ron3").attrib["hai2"]

    result = tamper(game, edit)
    assert error_codes(result) == ["tenpai-hand-mismatch"], [f.message for f in result.findings]
