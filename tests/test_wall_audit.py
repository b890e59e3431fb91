"""The wall check on real logs: the corpus passes, and every kind of edit is caught."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable

import pytest
from lxml import etree

from analyzer.audit import resolve_rules
from analyzer.audit_wall import RoundWall, check_wall, game_seed_format, round_walls
from analyzer.replay import replay
from analyzer.wall import SeedFormat
from mjaudit.events import GameLog, RoundStart
from mjaudit.findings import Finding, Severity
from parsers.tenhou_xml import parse_tenhou_xml
from tests.conftest import TENHOU_XML, corpus_file, elements, rebuild

BASE64_4P = "2010030412gm-00e1-0000-4a275c59.xml"  # 6 hands, an ura, an exhaustive draw
BASE64_3P = "2014091101gm-00b9-0000-5ca6b487.xml"  # sanma with kita and a kan dora
PER_INIT_4P = "2008092000gm-0009-0000-10db094d.xml"
HEX_4P = "2009072917gm-0061-0000-85a7478c.xml"
OLD_SANMA = "2009060321gm-00b9-0000-75b25bcf.xml"

Children = list[etree._Element]


def _load(data: bytes, name: str) -> GameLog:
    return parse_tenhou_xml(data, name)


def wall_check(data: bytes, name: str = "tampered.xml") -> tuple[list[Finding], int]:
    log = _load(data, name)
    return check_wall(log, replay(log, resolve_rules(log, "auto")))


def tampered(name: str, edit: Callable[[Children], None]) -> tuple[list[Finding], int]:
    children = elements(corpus_file(name))
    edit(children)
    return wall_check(rebuild(children), name)


def _is_draw(el: etree._Element) -> bool:
    tag = str(el.tag)
    return tag[0] in "TUVW" and tag[1:].isdigit()


def _hands(children: Children) -> list[tuple[int, int]]:
    """(INIT index, index of the hand's last element) for each hand."""
    starts = [i for i, el in enumerate(children) if el.tag == "INIT"]
    ends = [i for i, el in enumerate(children) if el.tag in ("AGARI", "RYUUKYOKU")]
    out = []
    for s in starts:
        out.append((s, max(e for e in ends if e > s and all(not s < x <= e for x in starts))))
    return out


def _only(found: list[Finding]) -> Finding:
    assert len(found) == 1, [f.message for f in found]
    assert found[0].code == "wall-mismatch"
    assert found[0].severity is Severity.ERROR
    return found[0]


# -- the corpus ------------------------------------------------------------------


@pytest.mark.corpus
def test_every_seeded_round_of_the_corpus_matches_its_wall() -> None:
    if not TENHOU_XML.exists():
        pytest.skip(f"corpus not available: {TENHOU_XML} (CI has ../shared beside the repo)")
    checked: Counter[str] = Counter()
    inits = 0
    errors: list[str] = []
    seconds = 0.0
    files = sorted(TENHOU_XML.glob("*.xml"))
    for path in files:
        log = _load(path.read_bytes(), str(path))
        game = replay(log, resolve_rules(log, "auto"))
        fmt = game_seed_format(log)
        started = time.perf_counter()
        found, rounds = check_wall(log, game)
        seconds += time.perf_counter() - started
        errors += [f"{path.name}: {f.message}" for f in found]
        if fmt is not None:
            checked[fmt.value] += rounds
            inits += sum(1 for ev in log.events if isinstance(ev, RoundStart))
    print(f"wall check: {dict(checked)}; {1000 * seconds / len(files):.2f} ms a game")
    assert errors == []
    assert sum(checked.values()) == inits > 3000
    assert set(checked) == {fmt.value for fmt in SeedFormat}


def test_the_old_sanma_hand_matches_with_the_dice_after_the_shuffle() -> None:
    found, rounds = wall_check(corpus_file(OLD_SANMA).read_bytes())
    assert (found, rounds) == ([], 1)


@pytest.mark.parametrize("name", [BASE64_4P, BASE64_3P, PER_INIT_4P, HEX_4P])
def test_untouched_logs_pass(name: str) -> None:
    found, rounds = wall_check(corpus_file(name).read_bytes(), name)
    assert found == []
    assert rounds > 0


# -- tampered logs ---------------------------------------------------------------


def test_two_draws_swapped() -> None:
    def edit(children: Children) -> None:
        a, b = [el for el in children if _is_draw(el)][4:6]
        ta, tb = str(a.tag), str(b.tag)
        a.tag, b.tag = ta[0] + tb[1:], tb[0] + ta[1:]

    finding = _only(tampered(BASE64_4P, edit)[0])
    # North called before the fifth draw (log 7m #25, the wall's next tile is 3p #46).
    assert finding.message == "E1-0: draw 5 by North: log 7m #25, wall 3p #46 (yama[79])"
    assert (finding.seat, finding.round, finding.expected, finding.actual) == (3, "E1-0", 46, 25)


def test_the_init_dora_indicator_changed() -> None:
    def edit(children: Children) -> None:
        init = [el for el in children if el.tag == "INIT"][2]
        seed = init.get("seed", "").split(",")
        seed[5] = str((int(seed[5]) + 1) % 136)
        init.set("seed", ",".join(seed))

    finding = _only(tampered(BASE64_4P, edit)[0])
    assert "dora indicator: log " in finding.message
    assert "(yama[5])" in finding.message


def test_a_whole_hand_deleted_fails_every_later_hand() -> None:
    removed: list[int] = []

    def edit(children: Children) -> None:
        start, end = _hands(children)[1]
        removed.append(len(_hands(children)))
        del children[start : end + 1]

    found, rounds = tampered(BASE64_4P, edit)
    assert rounds == removed[0] - 1
    assert len(found) == rounds - 1  # every hand after the first
    assert all(f.code == "wall-mismatch" for f in found)


def test_a_hand_deleted_from_a_per_init_log_leaves_the_others_intact() -> None:
    # 2008-09 logs reseed every hand (wall §4.5), so only the hand itself is gone.
    def edit(children: Children) -> None:
        start, end = _hands(children)[1]
        del children[start : end + 1]

    assert tampered(PER_INIT_4P, edit)[0] == []


@pytest.mark.parametrize("name", [BASE64_4P, HEX_4P, PER_INIT_4P])
def test_one_die_changed(name: str) -> None:
    def edit(children: Children) -> None:
        init = next(el for el in children if el.tag == "INIT")
        seed = init.get("seed", "").split(",")
        seed[4] = str((int(seed[4]) + 1) % 6)
        init.set("seed", ",".join(seed))

    finding = _only(tampered(name, edit)[0])
    assert finding.message.startswith("E1-0: dice: log ")


def test_an_ura_indicator_changed() -> None:
    def edit(children: Children) -> None:
        agari = next(el for el in children if el.get("doraHaiUra"))
        ura = agari.get("doraHaiUra", "").split(",")
        ura[0] = str((int(ura[0]) + 4) % 136)
        agari.set("doraHaiUra", ",".join(ura))

    finding = _only(tampered(BASE64_4P, edit)[0])
    assert "doraHaiUra" in finding.message


def test_a_dora_hai_changed() -> None:
    def edit(children: Children) -> None:
        agari = next(el for el in children if el.tag == "AGARI")
        dora = agari.get("doraHai", "").split(",")
        dora[0] = str((int(dora[0]) + 4) % 136)
        agari.set("doraHai", ",".join(dora))

    assert "doraHai " in _only(tampered(BASE64_4P, edit)[0]).message


def test_a_starting_hand_changed() -> None:
    def edit(children: Children) -> None:
        init = next(el for el in children if el.tag == "INIT")
        hai = init.get("hai2", "").split(",")
        hai[0], hai[5] = hai[5], hai[0]
        init.set("hai2", ",".join(hai))

    finding = _only(tampered(BASE64_4P, edit)[0])
    assert "starting hand of West (seat 2), tile 1" in finding.message


def test_a_kan_dora_indicator_changed() -> None:
    def edit(children: Children) -> None:
        dora = next(el for el in children if el.tag == "DORA")
        dora.set("hai", str((int(dora.get("hai", "0")) + 4) % 136))

    assert "kan dora indicator 1: log " in _only(tampered(BASE64_3P, edit)[0]).message


def test_a_rinshan_draw_changed_after_a_kita() -> None:
    def edit(children: Children) -> None:
        k = next(i for i, el in enumerate(children) if el.tag == "N")
        draw = next(el for el in children[k:] if _is_draw(el))
        tag = str(draw.tag)
        draw.tag = tag[0] + str((int(tag[1:]) + 4) % 136)

    assert "rinshan draw 1 by" in _only(tampered(BASE64_3P, edit)[0]).message


def test_an_exhaustive_draw_one_draw_short() -> None:
    def edit(children: Children) -> None:
        end = next(i for i, el in enumerate(children) if el.tag == "RYUUKYOKU")
        last = max(i for i in range(end) if _is_draw(children[i]))
        del children[last : last + 2]  # the draw and its discard

    finding = _only(tampered(BASE64_4P, edit)[0])
    assert "exhaustive draw after 69 live draws, the wall holds 70" in finding.message


# -- logs that are not checked -------------------------------------------------------


@pytest.mark.parametrize("seed", ["", "0.7652313"], ids=["empty-mjx", "float-bot-battle"])
def test_simulator_seeds_are_not_checked(seed: str) -> None:
    def edit(children: Children) -> None:
        children[0].set("seed", seed)

    assert tampered(BASE64_4P, edit) == ([], 0)


def test_a_per_init_log_without_shuffles_is_not_checked() -> None:
    def edit(children: Children) -> None:
        for el in children:
            if el.tag == "INIT":
                del el.attrib["shuffle"]

    assert tampered(PER_INIT_4P, edit) == ([], 0)


def test_a_mangled_seed_is_one_finding() -> None:
    def edit(children: Children) -> None:
        children[0].set("seed", children[0].get("seed", "")[:-4])

    found, rounds = tampered(BASE64_4P, edit)
    assert rounds == 0
    assert "cannot be read" in _only(found).message


# -- the wall as data ----------------------------------------------------------------


def test_round_walls_give_ura_for_every_hand_and_the_next_tile() -> None:
    log = _load(corpus_file(BASE64_4P).read_bytes(), BASE64_4P)
    walls: list[RoundWall] = round_walls(log, replay(log, resolve_rules(log, "auto")))
    assert len(walls) == 6
    for rw in walls:
        assert rw.mismatch is None
        assert len(rw.ura_indicators) == rw.revealed >= 1
        assert rw.ura_indicators[0] == rw.wall.yama[4]
    drawn = next(rw for rw in walls if rw.live_left == 0)
    assert drawn.next_live is None
    other = next(rw for rw in walls if rw.live_left > 0)
    assert other.next_live == other.wall.live_tile(other.live_drawn)
