"""Tampered copies of real logs: each edit must give exactly the finding it deserves.

Where an edit changes a hand's payments, the scores of every later hand and the
final result are shifted to match (a consistent forgery), so the only thing wrong
is the edited hand itself.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from lxml import etree

from analyzer.checks.audit import FileAudit, audit_log, resolve_rules
from mjaudit.findings import Finding
from parsers.tenhou_xml import parse_tenhou_xml
from tests.conftest import corpus_file, elements, error_codes, rebuild, tamper

Els = list[etree._Element]

EXACT_GAME = "2022060100gm-00a9-0000-01481d95.xml"  # owari exact to 0.1 (2022)
DOUBLE_RON = "2022060100gm-00a9-0000-34c99cfa.xml"  # elements 720 and 721
PAO_GAME = "dnovikoff-tenhou_pao.xml"  # element 323
NAGASHI_GAME = "mjx-project-mjx_nm.xml"  # element 1183, the last hand
KYUUSHU_GAME = "2022060100gm-00a9-0000-afa8349e.xml"  # element 170


def _ints(el: etree._Element, key: str) -> list[int]:
    return [int(x) for x in el.get(key, "").split(",") if x]


def _set(el: etree._Element, key: str, values: list[int] | list[str]) -> None:
    el.set(key, ",".join(str(v) for v in values))


def _nth(
    c: Els, tag: str, n: int = 0, pred: Callable[[etree._Element], bool] = lambda e: True
) -> int:
    """The list index of the n-th element with ``tag`` that satisfies ``pred``."""
    found = [k for k, e in enumerate(c) if e.tag == tag and pred(e)]
    return found[n]


def _shift_after(c: Els, k: int, hundreds: list[int]) -> None:
    """Add ``hundreds`` (per seat, in Tenhou's units of 100) to every score after ``c[k]``.

    INIT ``ten``, REACH ``ten``, the "before" half of ``sc`` and the final scores of
    ``owari`` move; the owari results move with them (exact-to-0.1 logs), the top
    seat's result staying minus the sum of the others.
    """
    for el in c[k + 1 :]:
        if el.tag in ("INIT", "REACH") and el.get("ten"):
            _set(el, "ten", [t + d for t, d in zip(_ints(el, "ten"), hundreds, strict=True)])
        if el.tag in ("AGARI", "RYUUKYOKU"):
            sc = _ints(el, "sc")
            for s in range(4):
                sc[2 * s] += hundreds[s]
            _set(el, "sc", sc)
    _shift_owari(c, hundreds)


def _shift_owari(c: Els, hundreds: list[int]) -> None:
    end = next(e for e in c if e.get("owari"))
    parts = end.get("owari", "").split(",")
    finals = [int(parts[2 * s]) + hundreds[s] for s in range(4)]
    results = [float(parts[2 * s + 1]) for s in range(4)]
    top = max(range(4), key=lambda s: (finals[s], -s))
    for s in range(4):
        if s != top:
            results[s] = round(results[s] + hundreds[s] / 10, 1)
    results[top] = round(-sum(results[s] for s in range(4) if s != top), 1)
    for s in range(4):
        parts[2 * s] = str(finals[s])
        parts[2 * s + 1] = f"{results[s]:.1f}"
    end.set("owari", ",".join(parts))


def _change_delta(c: Els, k: int, hundreds: list[int]) -> None:
    """Change the deltas of result ``c[k]`` and carry the change through the game."""
    sc = _ints(c[k], "sc")
    for s in range(4):
        sc[2 * s + 1] += hundreds[s]
    _set(c[k], "sc", sc)
    _shift_after(c, k, hundreds)


def _only(result: FileAudit, code: str, *, wall: bool = False) -> None:
    """Every error has ``code``; with ``wall``, the one ``wall-mismatch`` a changed
    tile also causes is expected besides."""
    codes = error_codes(result)
    if wall:
        assert codes.count("wall-mismatch") == 1, [f.message for f in result.findings]
        codes.remove("wall-mismatch")
    assert codes and set(codes) == {code}, [f.message for f in result.findings]


def _errors(result: FileAudit) -> list[tuple[object, ...]]:
    """Each error finding as (code, seat, expected, actual), in the audit's order."""
    return [
        (f.code, f.seat, f.expected, f.actual)
        for f in result.findings
        if f.severity.value == "error"
    ]


def _single(result: FileAudit) -> Finding:
    """The one error finding of a tampered log (its other findings, if any, are not
    errors)."""
    errors = [f for f in result.findings if f.severity.value == "error"]
    assert len(errors) == 1, [f.message for f in errors]
    return errors[0]


def _first_plain_win(c: Els) -> int:
    return _nth(
        c,
        "AGARI",
        0,
        lambda e: (
            e.get("yaku") is not None
            and "52" not in e.get("yaku", "").split(",")[::2]
            and int(_ints(e, "ten")[2]) == 0
        ),
    )


def test_the_untampered_logs_are_clean() -> None:
    for name in (EXACT_GAME, DOUBLE_RON, PAO_GAME, NAGASHI_GAME, KYUUSHU_GAME):
        assert error_codes(tamper(name, lambda c: None)) == []


def test_changed_fu() -> None:
    fu: list[int] = []
    seat: list[int] = []

    def edit(c: Els) -> None:
        agari = c[_first_plain_win(c)]
        ten = _ints(agari, "ten")
        fu.append(ten[0])
        seat.append(int(agari.get("who", "")))
        _set(agari, "ten", [ten[0] + 10, *ten[1:]])

    result = tamper(EXACT_GAME, edit)
    found = _single(result)
    assert (found.code, found.seat, found.expected, found.actual) == (
        "fu-mismatch", seat[0], fu[0], fu[0] + 10,
    )  # fmt: skip
    assert "recomputed" in found.message and "base 20" in found.message


def test_changed_han() -> None:
    han: list[int] = []

    def edit(c: Els) -> None:
        agari = c[_first_plain_win(c)]
        yaku = _ints(agari, "yaku")
        han.append(sum(yaku[1::2]))
        yaku[1] += 1
        _set(agari, "yaku", yaku)

    found = _single(tamper(EXACT_GAME, edit))
    assert (found.code, found.expected, found.actual) == ("han-mismatch", han[0], han[0] + 1)


def test_changed_yaku_id() -> None:
    def edit(c: Els) -> None:
        agari = c[_first_plain_win(c)]
        yaku = _ints(agari, "yaku")
        yaku[0] = 24 if yaku[0] != 24 else 25  # ittsu (or sanshoku) instead
        _set(agari, "yaku", yaku)

    assert _errors(tamper(EXACT_GAME, edit)) == [(
        "yaku-mismatch", 3,
        ["aka dora 1", "pinfu 1", "riichi 1", "tanyao 1", "ura dora 0"],
        ["aka dora 1", "ittsu 1", "pinfu 1", "tanyao 1", "ura dora 0"],
    )]  # fmt: skip


def test_added_yaku() -> None:
    def edit(c: Els) -> None:
        agari = c[_first_plain_win(c)]
        _set(agari, "yaku", [*_ints(agari, "yaku"), 9, 1])  # iipeikou 1

    result = tamper(EXACT_GAME, edit)
    recomputed = ["aka dora 1", "pinfu 1", "riichi 1", "tanyao 1", "ura dora 0"]
    assert _errors(result) == [
        ("yaku-mismatch", 3, recomputed, sorted([*recomputed, "iipeikou 1"])),
    ]
    assert "iipeikou 1" in result.findings[0].message


def test_changed_points() -> None:
    points: list[int] = []

    def edit(c: Els) -> None:
        agari = c[_first_plain_win(c)]
        ten = _ints(agari, "ten")
        points.append(ten[1])
        _set(agari, "ten", [ten[0], ten[1] + 100, ten[2]])

    found = _single(tamper(EXACT_GAME, edit))
    assert (found.code, found.expected, found.actual) == (
        "points-mismatch", points[0], points[0] + 100,
    )  # fmt: skip


def test_one_seat_delta() -> None:
    seen: list[tuple[int, int]] = []

    def edit(c: Els) -> None:
        last = next(k for k in range(len(c)) if c[k].get("owari"))
        finals = [int(x) for x in c[last].get("owari", "").split(",")[0::2]]
        top = max(range(4), key=lambda s: (finals[s], -s))
        seen.append((top, _ints(c[last], "sc")[2 * top + 1] * 100))
        change = [0, 0, 0, 0]
        change[top] = 1  # 100 points more for the top seat only
        _change_delta(c, last, change)

    found = _single(tamper(EXACT_GAME, edit))
    top, delta = seen[0]
    assert (found.code, found.seat, found.expected, found.actual) == (
        "payment-mismatch", top, delta, delta + 100,
    )  # fmt: skip


def test_honba_in_ba() -> None:
    def edit(c: Els) -> None:
        agari = c[_first_plain_win(c)]
        ba = _ints(agari, "ba")
        _set(agari, "ba", [ba[0] + 1, ba[1]])

    result = tamper(EXACT_GAME, edit)
    assert _errors(result) == [("score-chain-mismatch", None, [0, 2], [1, 2])]
    assert "honba" in result.findings[0].message


def test_double_ron_second_winner_takes_honba() -> None:
    def edit(c: Els) -> None:
        first = _nth(c, "AGARI", 0, lambda e: e.get("ba") == "4,2")
        second = c[first + 1]
        assert second.tag == "AGARI" and second.get("ba") == "4,0"
        change = [0, 0, 0, 0]
        change[int(second.get("who", "0"))] += 12
        change[int(second.get("fromWho", "0"))] -= 12
        _change_delta(c, first + 1, change)

    result = tamper(DOUBLE_RON, edit)
    # The second winner and the discarder, each 1,200 off: the second winner takes no honba.
    assert _errors(result) == [
        ("payment-mismatch", 2, 5200, 6400),
        ("payment-mismatch", 3, -5200, -6400),
    ]


def test_pao_payer_changed() -> None:
    def edit(c: Els) -> None:
        k = _nth(c, "AGARI", 0, lambda e: e.get("paoWho") is not None)
        who = int(c[k].get("who", "0"))
        c[k].set(
            "paoWho", str(next(s for s in range(4) if s not in (who, int(c[k].get("paoWho", "0")))))
        )

    assert _errors(tamper(PAO_GAME, edit)) == [("pao-mismatch", 2, 0, 1)]


def test_noten_payment_changed() -> None:
    def edit(c: Els) -> None:
        k = _nth(
            c,
            "RYUUKYOKU",
            0,
            lambda e: e.get("type") is None and any(d != 0 for d in _ints(e, "sc")[1::2]),
        )
        deltas = _ints(c[k], "sc")[1::2]
        payer = deltas.index(min(deltas))
        taker = deltas.index(max(deltas))
        change = [0, 0, 0, 0]
        change[payer] -= 5
        change[taker] += 5
        _change_delta(c, k, change)

    result = tamper(EXACT_GAME, edit)
    assert _errors(result) == [
        ("payment-mismatch", 0, -1000, -1500),
        ("payment-mismatch", 2, 3000, 3500),
    ]
    assert "exhaustive draw" in result.findings[0].message


def test_nagashi_payment_changed() -> None:
    def edit(c: Els) -> None:
        k = _nth(c, "RYUUKYOKU", 0, lambda e: e.get("type") == "nm")
        deltas = _ints(c[k], "sc")[1::2]
        winner = deltas.index(max(deltas))
        payer = next(s for s in range(4) if deltas[s] < 0)
        change = [0, 0, 0, 0]
        change[winner] += 10
        change[payer] -= 10
        _change_delta(c, k, change)

    result = tamper(NAGASHI_GAME, edit)
    assert _errors(result) == [
        ("payment-mismatch", 0, -4000, -5000),
        ("payment-mismatch", 3, 12000, 13000),
    ]
    assert "nagashi mangan" in result.findings[0].message


def _without_nagashi(edit: Callable[[Els], None] = lambda c: None) -> FileAudit:
    """The nagashi mangan game, after ``edit``, audited under rules without nagashi."""
    children = elements(corpus_file(NAGASHI_GAME))
    edit(children)
    log = parse_tenhou_xml(rebuild(children), NAGASHI_GAME)
    return audit_log(log, replace(resolve_rules(log, "auto"), nagashi_mangan=False))


def test_a_nagashi_mangan_the_rules_do_not_have() -> None:
    # As an abortive draw the rules do not have: one draw-mismatch, its payments
    # judged as the nagashi mangan the log records.
    found = _single(_without_nagashi())
    assert found.code == "draw-mismatch" and found.seat is None
    assert found.message.endswith(
        "the log ends the hand in a nagashi mangan, which these rules do not have"
    )

    # A payment of it that is wrong as well follows from that finding.
    def edit(c: Els) -> None:
        k = _nth(c, "RYUUKYOKU", 0, lambda e: e.get("type") == "nm")
        deltas = _ints(c[k], "sc")[1::2]
        winner = deltas.index(max(deltas))
        payer = next(s for s in range(4) if deltas[s] < 0)
        change = [0, 0, 0, 0]
        change[winner] += 10
        change[payer] -= 10
        _change_delta(c, k, change)

    root, rest = _one_cause(_without_nagashi(edit))
    assert root.code == "draw-mismatch" and "nagashi mangan" in root.message
    assert [f.code for f in rest] == ["payment-mismatch", "payment-mismatch"]


def test_owari_score_changed() -> None:
    def edit(c: Els) -> None:
        end = next(e for e in c if e.get("owari"))
        parts = end.get("owari", "").split(",")
        parts[0] = str(int(parts[0]) + 1)
        end.set("owari", ",".join(parts))

    result = tamper(EXACT_GAME, edit)
    assert _errors(result) == [("final-score-mismatch", 0, 14800, 14900)]


def test_init_score_changed() -> None:
    def edit(c: Els) -> None:
        init = c[_nth(c, "INIT", 3)]
        ten = _ints(init, "ten")
        _set(init, "ten", [ten[0] + 10, *ten[1:]])

    result = tamper(EXACT_GAME, edit)
    assert _errors(result) == [(
        "score-chain-mismatch", None,
        [15300, 28000, 32700, 24000], [16300, 28000, 32700, 24000],
    )]  # fmt: skip


def test_first_init_score_changed() -> None:
    # The first hand's scores were never compared with the rules' starting points:
    # the blame fell on the first later claim ("after seat 1's riichi stick the log
    # shows ..."), which was right.
    def edit(c: Els) -> None:
        init = c[_nth(c, "INIT", 0)]
        ten = _ints(init, "ten")
        _set(init, "ten", [ten[0], ten[1], ten[2] + 10, ten[3]])

    found = _single(tamper(EXACT_GAME, edit))
    assert (found.code, found.round, found.expected, found.actual) == (
        "score-chain-mismatch", "E1-0", [25000] * 4, [25000, 25000, 26000, 25000],
    )  # fmt: skip
    assert "the rules start every player at 25000" in found.message


def test_ura_indicator_dropped() -> None:
    def edit(c: Els) -> None:
        k = _nth(c, "AGARI", 0, lambda e: e.get("doraHaiUra") is not None)
        c[k].attrib.pop("doraHaiUra")

    assert _errors(tamper(EXACT_GAME, edit)) == [("ura-indicator-mismatch", 3, 1, 0)]


def test_kyuushu_with_eight_kinds() -> None:
    def edit(c: Els) -> None:
        k = _nth(c, "RYUUKYOKU", 0, lambda e: e.get("type") == "yao9")
        start = max(i for i in range(k) if c[i].tag == "INIT")
        declarer = next(s for s in range(4) if c[k].get(f"hai{s}"))
        init = c[start]
        hand = _ints(init, f"hai{declarer}")
        drawn = [int(e.tag[1:]) for e in c[start:k] if e.tag[0] == "TUVW"[declarer]]
        tiles = hand + drawn
        kinds: dict[int, list[int]] = {}
        for t in tiles:
            if t // 4 >= 27 or t // 4 % 9 in (0, 8):
                kinds.setdefault(t // 4, []).append(t)
        assert len(kinds) == 9, "pick a kyuushu with exactly nine kinds"
        single = next(ids[0] for ids in kinds.values() if len(ids) == 1 and ids[0] in hand)
        # Swap it with a middle tile of another seat that has not let go of it.
        gone = {int(e.tag[1:]) for e in c[start:k] if e.tag[0] in "DEFG" and e.tag[1:].isdigit()}
        other = (declarer + 1) % 4
        theirs = _ints(init, f"hai{other}")
        middle = next(
            t for t in theirs if t // 4 < 27 and t // 4 % 9 not in (0, 8) and t not in gone
        )
        _set(init, f"hai{declarer}", [middle if t == single else t for t in hand])
        _set(init, f"hai{other}", [single if t == middle else t for t in theirs])
        # The declarer shows the fourteen tiles it holds (tenhou-format.md §1.11).
        shown = _ints(c[k], f"hai{declarer}")
        _set(c[k], f"hai{declarer}", sorted(middle if t == single else t for t in shown))

    result = tamper(KYUUSHU_GAME, edit)
    _only(result, "draw-mismatch", wall=True)
    draw = next(f for f in result.findings if f.code == "draw-mismatch")
    assert (draw.seat, draw.expected, draw.actual) == (1, 9, 8)
    assert any("8 kinds" in f.message for f in result.findings)


def test_a_tile_dealt_twice_is_an_inconsistent_hand_not_an_unreadable_file() -> None:
    # Seat 0's first starting tile becomes seat 1's first tile as well, in the third hand.
    def edit(c: Els) -> None:
        init = c[_nth(c, "INIT", 2)]
        dealt = _ints(init, "hai0")
        _set(init, "hai0", [_ints(init, "hai1")[0], *dealt[1:]])

    result = tamper(EXACT_GAME, edit)
    assert result.error is None
    # The hand cannot be replayed (and its rebuilt wall deals that seat another tile);
    # the rest of the game is audited as before.
    _only(result, "inconsistent-log", wall=True)
    (broken,) = [f for f in result.findings if f.code == "inconsistent-log"]
    third = next(f for f in result.findings if f.code == "wall-mismatch").round
    assert broken.round == third
    assert "at element" in broken.message and "<INIT>: tile id" in broken.message
    assert broken.message.endswith("comes into play twice")


# -- the game's end ----------------------------------------------------------------------
BUST_GAME = "2022060100gm-00a9-0000-210acdc3.xml"  # seat 0 ends on -6100 after S1-0
AGARI_YAME_GAME = "2022060100gm-00a9-0000-6db179be.xml"  # S4-0: the dealer, sole top, stops
WEST_GAME = "2011020416gm-00a9-0000-025480d4.xml"  # nobody at 30000 after S4: W1 is played


def _shift_from_start(c: Els, hundreds: list[int]) -> None:
    """Move every score of the game, the first hand's included, by ``hundreds``."""
    _shift_after(c, _nth(c, "INIT", 0) - 1, hundreds)


def _game_end_findings(result: FileAudit) -> list[str]:
    return [f.message for f in result.findings if f.code == "game-end-mismatch"]


def test_real_games_that_end_by_busting_after_south_4_and_in_west_are_clean() -> None:
    for name in (BUST_GAME, AGARI_YAME_GAME, WEST_GAME, EXACT_GAME):
        result = tamper(name, lambda c: None)
        assert error_codes(result) == [], name
        checks = dict(result.checks)
        assert checks["game_lengths_checked"] == 1
        assert checks["game_continuations_checked"] == result.rounds - 1


def test_a_game_that_plays_on_after_a_player_busts() -> None:
    # KYUUSHU_GAME with seat 0 5500 lower and seat 2 (the top) 5500 higher throughout:
    # seat 0 is on 0 after S3-0 (that plays on) and on -1000 after S3-1, yet S4-2 is
    # dealt. Every number follows from the one before, so this is the only finding
    # but the first hand's scores, which Tenhou's rules do not deal.
    result = tamper(KYUUSHU_GAME, lambda c: _shift_from_start(c, [-55, 0, 55, 0]))
    assert error_codes(result) == ["score-chain-mismatch", "game-end-mismatch"]
    assert [f.round for f in result.findings if f.code == "score-chain-mismatch"] == ["E1-0"]
    (found,) = [f for f in result.findings if f.code == "game-end-mismatch"]
    assert found.round == "S4-2"
    assert found.message == (
        "the game ends after S3-1 (seat 0 has -1000 points (busting)), "
        "but the log plays on into S4-2"
    )


def test_a_score_of_exactly_zero_plays_on_unless_the_rules_bust_it() -> None:
    from dataclasses import replace

    from analyzer.checks.audit import audit_log
    from mjaudit.rules import preset
    from parsers.tenhou_xml import parse_tenhou_xml
    from tests.conftest import corpus_file, elements, rebuild

    # EXACT_GAME with seat 0 7600 lower (and seat 1, the top, higher): 0 after E4-0.
    c = elements(corpus_file(EXACT_GAME))
    _shift_from_start(c, [-76, 76, 0, 0])
    log = parse_tenhou_xml(rebuild(c), EXACT_GAME)
    tenhou = preset("tenhou")
    # (The first hand's scores are not the rules' 25000 each: that, and only that.)
    assert error_codes(audit_log(log, tenhou)) == ["score-chain-mismatch"]
    at_zero = audit_log(log, replace(tenhou, tobi_at_zero=True))
    assert error_codes(at_zero) == ["score-chain-mismatch", "game-end-mismatch"]
    assert _game_end_findings(at_zero) == [
        "the game ends after E4-0 (seat 0 has 0 points (busting)), but the log plays on into S1-0"
    ]


def test_a_result_recorded_after_south_3_is_too_early() -> None:
    def edit(c: Els) -> None:
        results = [k for k, e in enumerate(c) if e.tag in ("AGARI", "RYUUKYOKU")]
        owari = c[results[-1]].get("owari", "")
        k = max(
            k
            for k in results
            if _ints(c[max(i for i in range(k) if c[i].tag == "INIT")], "seed")[0] == 6
        )
        c[k].set("owari", owari)
        del c[k + 1 :]

    result = tamper(EXACT_GAME, edit)
    messages = _game_end_findings(result)
    assert len(messages) == 1
    assert "the game goes on: the last hand is S4, and no player is below 0" in messages[0]
    assert "game-incomplete" not in error_codes(result)


def _one_cause(result: FileAudit) -> tuple[Finding, list[Finding]]:
    """The one error finding of a tampered log that follows from no other, and the
    errors that name a cause (each naming that one, or one that names it)."""
    errors = [f for f in result.findings if f.severity.value == "error"]
    for k, f in enumerate(result.findings):
        assert f.cause is None or f.cause < k, (k, f.code, f.cause)  # an earlier one
    roots = [f for f in errors if f.cause is None]
    assert len(roots) == 1, [(f.code, f.message, f.cause) for f in errors]
    return roots[0], [f for f in errors if f.cause is not None]


INDICATOR_GAME = "2022060102gm-00a9-0000-bbe9088c.xml"  # E4-0: a haneman with dora 3
KAN_DORA_GAME = "2018010702gm-00a9-0000-5dd4f9b4.xml"  # S3-0: a win after a kan dora
URA_GAME = "2022060108gm-00a9-0000-c73e4c22.xml"  # S2-0: a mangan with ura 0


def test_a_win_showing_another_copy_of_its_indicator() -> None:
    # The same tile's other copy in doraHai: "shows dora indicators 3s, but the
    # indicators in force are 3s", and the wall's finding beside it, unlinked.
    def edit(c: Els) -> None:
        k = _nth(c, "AGARI", 0, lambda e: e.get("doraHai") is not None)
        ids = _ints(c[k], "doraHai")
        _set(c[k], "doraHai", [ids[0] ^ 1, *ids[1:]])  # 4k..4k+3 are one tile's copies

    root, rest = _one_cause(tamper(EXACT_GAME, edit))
    assert root.code == "dora-indicator-mismatch"
    assert "#" in root.message  # the copies are told apart by their ids
    assert [f.code for f in rest] == ["wall-mismatch"]


def test_a_win_showing_an_ura_indicator_the_wall_does_not_hold() -> None:
    # The win was scored with the ura it shows, and its han, points, limit and each
    # payment were errors of their own beside the wall's.
    def edit(c: Els) -> None:
        k = _nth(c, "AGARI", 0, lambda e: e.get("doraHaiUra") == "113")
        c[k].set("doraHaiUra", "121")

    root, rest = _one_cause(tamper(URA_GAME, edit))
    assert root.code == "wall-mismatch" and "doraHaiUra" in root.message
    assert {f.code for f in rest} == {
        "han-mismatch", "points-mismatch", "limit-mismatch", "payment-mismatch",
    }  # fmt: skip


def test_a_hand_dealt_with_another_indicator() -> None:
    # The INIT's indicator is not the wall's: the win shows the right one, and was
    # scored with the wrong one in force; nine errors, none naming the first.
    def edit(c: Els) -> None:
        k = _nth(c, "INIT", 0, lambda e: e.get("seed") == "3,0,0,4,4,55")
        c[k].set("seed", "3,0,0,4,4,63")

    root, rest = _one_cause(tamper(INDICATOR_GAME, edit))
    assert root.code == "wall-mismatch" and root.round == "E4-0"
    assert {f.code for f in rest} >= {"dora-indicator-mismatch", "han-mismatch"}
    assert all(f.round == "E4-0" for f in rest)


def test_a_kan_dora_indicator_the_wall_does_not_hold() -> None:
    def edit(c: Els) -> None:
        k = _nth(c, "DORA", 0, lambda e: e.get("hai") == "43")
        c[k].set("hai", "51")

    root, rest = _one_cause(tamper(KAN_DORA_GAME, edit))
    assert root.code == "wall-mismatch" and "kan dora indicator" in root.message
    assert {f.code for f in rest} == {"dora-indicator-mismatch", "yaku-mismatch"}


def _seed(old: str, new: str) -> Callable[[Els], None]:
    def edit(c: Els) -> None:
        k = _nth(c, "INIT", 0, lambda e: e.get("seed") == old)
        c[k].set("seed", new)

    return edit


def test_a_hand_started_with_another_honba() -> None:
    # E3-0 dealt as E3-1: the win was paid with the INIT's honba (four errors beside
    # the start's), and the next hand "should be E3-2".
    game = "2022060400gm-0001-0000-d6c5c8e7.xml"
    root, rest = _one_cause(tamper(game, _seed("2,0,0,3,2,129", "2,1,0,3,2,129")))
    assert root.code == "score-chain-mismatch" and root.round == "E3-1"
    assert "should be E3-0" in root.message
    assert sorted(f.code for f in rest) == [
        "payment-mismatch", "payment-mismatch", "score-chain-mismatch",
    ]  # fmt: skip


def test_a_hand_started_with_another_round() -> None:
    # E3-0 dealt as E4-0: the next hand (E3-1) was a second chain break, and the game
    # "ends after E4-0" a game-end error of its own.
    game = "2014051204gm-0041-0000-c9ebd8d8.xml"
    root, rest = _one_cause(tamper(game, _seed("2,0,0,4,5,14", "3,0,0,4,5,14")))
    assert root.code == "score-chain-mismatch" and "should be E3-0" in root.message
    assert [f.code for f in rest] == ["game-end-mismatch"]


def test_a_ron_off_a_seat_that_did_not_discard() -> None:
    # The hand is one inconsistent-log; the next hand's chain break, which follows
    # from the hand that could not be settled, named no cause.
    def edit(c: Els) -> None:
        k = _nth(c, "AGARI", 1)
        assert (c[k].get("who"), c[k].get("fromWho")) == ("1", "2")
        c[k].set("fromWho", "3")

    root, rest = _one_cause(tamper("2014051511gm-0041-0000-a29f5b7b.xml", edit))
    assert root.code == "inconsistent-log" and root.round == "E1-1"
    assert [(f.code, f.round) for f in rest] == [("score-chain-mismatch", "E2-0")]


def test_a_hand_dealt_by_another_seat_than_its_round_says() -> None:
    # INIT oya changed: the hand was not replayed ("draws out of turn") and the wall
    # (dealt from the dealer) a finding of its own; neither named the dealer.
    def edit(c: Els) -> None:
        k = _nth(c, "INIT", 2)
        c[k].set("oya", str((int(c[k].get("oya", "0")) + 1) % 4))

    result = tamper(EXACT_GAME, edit)
    found = _single(result)
    assert found.code == "inconsistent-log" and found.round == "E3-0"
    assert "with seat 3 as dealer, but seat 2 deals it" in found.message
    assert (found.expected, found.actual) == (2, 3)
    assert dict(result.checks)["rounds_replayed"] == result.rounds  # the hand is replayed
