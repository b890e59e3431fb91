"""Tampered real logs: each edit of the kan dora must give exactly the expected finding."""

from __future__ import annotations

from lxml import etree

from tests.conftest import error_codes, tamper

KAKAN_GAME = "2010112714gm-00a9-0000-d497e395.xml"  # element 426 kakan, 427 T, 428 DORA, 429 D
CHANKAN_GAME = "2018010702gm-00a9-0000-5dd4f9b4.xml"  # element 125 kakan, 126 AGARI (chankan)
ANKAN_GAME = "2014050315gm-0041-0000-7ddece8e.xml"


def _at(children: list[etree._Element], element: int) -> etree._Element:
    return children[element - 1]  # SourcePos counts elements from 1


def test_untouched_logs_are_clean() -> None:
    for name in (KAKAN_GAME, CHANKAN_GAME):
        assert error_codes(tamper(name, lambda c: None)) == []


def test_dora_moved_one_event_later() -> None:
    def edit(c: list[etree._Element]) -> None:
        assert _at(c, 428).tag == "DORA" and _at(c, 429).tag[0] in "DEFG"
        c[427], c[428] = c[428], c[427]

    result = tamper(KAKAN_GAME, edit)
    assert error_codes(result) == ["dora-timing"]
    (f,) = result.findings
    assert "was due before element 428 <E89/>" in f.message and f.round is not None


def test_dora_moved_one_event_earlier() -> None:
    def edit(c: list[etree._Element]) -> None:
        c[426], c[427] = c[427], c[426]  # DORA before the rinshan draw

    assert error_codes(tamper(KAKAN_GAME, edit)) == ["dora-timing"]


def test_dora_dropped() -> None:
    def edit(c: list[etree._Element]) -> None:
        assert _at(c, 428).tag == "DORA"
        del c[427]

    result = tamper(KAKAN_GAME, edit)
    # The wall rebuilt from the seed also misses the indicator.
    assert sorted(error_codes(result)) == ["dora-timing", "wall-mismatch"]
    assert any("never turns it" in f.message for f in result.findings)


def test_win_shows_a_changed_indicator() -> None:
    def edit(c: list[etree._Element]) -> None:
        agari = next(e for e in c if e.tag == "AGARI")
        shown = [int(x) for x in agari.get("doraHai", "").split(",")]
        spare = (shown[0] + 4) % 136  # the next kind: a different indicator
        agari.set("doraHai", ",".join(map(str, [spare, *shown[1:]])))

    result = tamper(KAKAN_GAME, edit)
    assert sorted(error_codes(result)) == ["dora-indicator-mismatch", "wall-mismatch"]


def test_chankan_gets_an_indicator() -> None:
    def edit(c: list[etree._Element]) -> None:
        assert _at(c, 125).tag == "N" and _at(c, 126).tag == "AGARI"
        start = max(k for k in range(125) if c[k].tag == "INIT")
        used: set[int] = set()
        end = next((k for k in range(126, len(c)) if c[k].tag == "INIT"), len(c))
        for e in c[start:end]:
            for key in ("hai0", "hai1", "hai2", "hai3", "hai", "doraHai"):
                used.update(int(x) for x in (e.get(key) or "").split(",") if x)
            if e.tag[0] in "TUVWDEFG" and e.tag[1:].isdigit():
                used.add(int(e.tag[1:]))
        spare = next(i for i in range(136) if i not in used)
        c.insert(125, etree.Element("DORA", hai=str(spare)))

    result = tamper(CHANKAN_GAME, edit)
    assert sorted(error_codes(result)) == ["dora-timing", "wall-mismatch"]
    assert any("no indicator is due" in f.message for f in result.findings)


def test_riichi_winner_loses_an_ura_indicator() -> None:
    def edit(c: list[etree._Element]) -> None:
        agari = next(e for e in c if e.tag == "AGARI" and e.get("doraHaiUra"))
        del agari.attrib["doraHaiUra"]

    assert error_codes(tamper(KAKAN_GAME, edit)) == ["ura-indicator-mismatch"]
