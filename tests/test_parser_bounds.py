"""The bounds every reader puts on a log's header and counters, the same in each format.

A log with a header and no hand, a negative honba or riichi stick count, a round
index past N4 and a second game's header are refused with one clear line naming
the file, the place and what was wrong, whichever format the log is in. The logs
are the project's clean sample game, converted at run time and edited, and one
Mahjong Soul record of the corpus.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from lxml import etree

from mjaudit.errors import LogFormatError
from mjaudit.events import GameLog, GameStart, Presence, RoundStart
from parsers import load, load_bytes
from parsers.convert import convert_log
from tests.conftest import SAMPLES
from tests.ms_records import GDR_4P, ms_doc, ms_records

CLEAN = SAMPLES / "clean_game.xml"
# The sample's header: <GO/> is element 1, <UN/> 2, <TAIKYOKU/> 3, the first INIT 4.
GO = '<GO type="1" lobby="0"/>'
TAIKYOKU = '<TAIKYOKU oya="0"/>'


def _xml_text() -> str:
    return CLEAN.read_text(encoding="utf-8")


def _xml(edit: Callable[[str], str]) -> bytes:
    text = _xml_text()
    changed = edit(text)
    assert changed != text, "the edit must change the sample"
    return changed.encode("utf-8")


def _header_un(text: str) -> str:
    start = text.index("<UN ")
    return text[start : text.index("/>", start) + 2]


def _refused(data: bytes, name: str) -> LogFormatError:
    with pytest.raises(LogFormatError) as info:
        load_bytes(data, name)
    error = info.value
    assert error.path == name and "\n" not in str(error)
    return error


def _converted(to: str) -> str:
    return convert_log(load(str(CLEAN)), to).decode("utf-8")


# -- a header and no hand --------------------------------------------------------------


def _mjai_without_hands() -> bytes:
    lines = _converted("mjai").splitlines()
    return "\n".join([lines[0], lines[-1]]).encode()


def _json_without_hands() -> bytes:
    doc = json.loads(_converted("tenhou-json"))
    doc["log"] = []
    return json.dumps(doc).encode()


def _ms_without_hands() -> bytes:
    doc = ms_doc(GDR_4P)
    actions = doc["data"]["data"]["actions"]
    doc["data"]["data"]["actions"] = [a for a in actions if a.get("type") != 1]
    return json.dumps(doc).encode()


@pytest.mark.parametrize(
    ("make", "name", "position", "message"),
    [
        pytest.param(
            lambda: _xml(lambda t: t[: t.index("<INIT")] + "</mjloggm>"),
            "cut.xml",
            "element 3",
            "no hand in this file (no INIT)",
            id="tenhou-xml",
        ),
        pytest.param(
            _mjai_without_hands,
            "cut.jsonl",
            "line 2",
            "no hand in this file (no start_kyoku)",
            id="mjai",
        ),
        pytest.param(
            _json_without_hands,
            "cut.json",
            "top level",
            "expected a non-empty 'log' list of kyoku",
            id="tenhou-json",
        ),
        pytest.param(
            _ms_without_hands,
            "cut-ms.json",
            "top level",
            "no RecordNewRound: not a game record",
            id="mahjongsoul",
        ),
    ],
)
def test_a_header_without_a_hand_is_refused_in_every_format(
    make: Callable[[], bytes], name: str, position: str, message: str
) -> None:
    error = _refused(make(), name)
    assert (error.position, error.message) == (position, message)


def test_an_empty_mjlog_is_refused_as_having_no_hand() -> None:
    error = _refused(b'<mjloggm ver="2.3"></mjloggm>', "empty.xml")
    assert (error.position, error.message) == ("element 0", "no hand in this file (no INIT)")


# -- negative counters -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        pytest.param(
            '"honba":0',
            '"honba":-1',
            "start_kyoku: 'honba' -1: the honba cannot be negative",
            id="honba",
        ),
        pytest.param(
            '"kyotaku":0',
            '"kyotaku":-2',
            "start_kyoku: 'kyotaku' -2: the riichi sticks cannot be negative",
            id="kyotaku",
        ),
    ],
)
def test_mjai_refuses_a_negative_count(old: str, new: str, message: str) -> None:
    text = _converted("mjai")
    assert old in text.splitlines()[1]
    error = _refused(text.replace(old, new, 1).encode(), "negative.jsonl")
    assert (error.position, error.message) == ("line 2", message)


def _first_new_round(doc: Any) -> dict[str, Any]:
    return next(data for name, data in ms_records(doc) if name == "RecordNewRound")


@pytest.mark.parametrize(
    ("key", "message"),
    [
        pytest.param("ben", "'ben' is -1: the honba cannot be negative", id="ben"),
        pytest.param(
            "liqibang", "'liqibang' is -1: the riichi sticks cannot be negative", id="liqibang"
        ),
    ],
)
def test_mahjongsoul_refuses_a_negative_count(key: str, message: str) -> None:
    doc = ms_doc(GDR_4P)
    _first_new_round(doc)[key] = -1
    error = _refused(json.dumps(doc).encode(), "negative-ms.json")
    assert error.position.endswith("<RecordNewRound>")
    assert error.message == message


def test_the_tenhou_readers_refuse_negative_counts_as_before() -> None:
    xml = _xml(lambda t: t.replace('seed="0,0,0,2,3,1"', 'seed="0,-1,0,2,3,1"', 1))
    assert _refused(xml, "negative.xml").message.endswith(
        "INIT seed: the round, honba and riichi sticks cannot be negative"
    )
    doc = json.loads(_converted("tenhou-json"))
    doc["log"][0][0] = [0, 0, -1]
    error = _refused(json.dumps(doc).encode(), "negative.json")
    assert (error.position, error.message) == (
        "round 1",
        "entry 0 [0, 0, -1] has a negative number",
    )


# -- the round index -------------------------------------------------------------------


@pytest.mark.parametrize("kyoku", [16, 4000, 999_999_999_999_999])
def test_tenhou_json_refuses_a_round_index_past_n4(kyoku: int) -> None:
    doc = json.loads(_converted("tenhou-json"))
    doc["log"][0][0][0] = kyoku
    error = _refused(json.dumps(doc).encode(), "round.json")
    assert error.position == "round 1"
    assert error.message == f"entry 0 [{kyoku}, 0, 0]: kyoku {kyoku} is outside 0..15 (E1 to N4)"


def test_tenhou_json_still_reads_the_north_round() -> None:
    doc = json.loads(_converted("tenhou-json"))
    doc["log"] = doc["log"][:1]
    doc["log"][0][0][0] = 12  # N1, with seat 0 the dealer as in the sample's E1
    log = load_bytes(json.dumps(doc).encode(), "n1.json")
    assert next(e for e in log.events if isinstance(e, RoundStart)).round_index == 12


def test_tenhou_xml_refuses_a_round_index_past_n4() -> None:
    xml = _xml(lambda t: t.replace('seed="0,0,0,2,3,1"', 'seed="16,0,0,2,3,1"', 1))
    error = _refused(xml, "round.xml")
    assert error.position == "element 4"
    assert error.message.startswith('<INIT seed="16,0,0,2,3,1" ')
    assert error.message.endswith(": INIT seed: round 16 is outside 0..15 (E1 to N4)")


# -- one game, one header ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("edit", "position", "message"),
    [
        pytest.param(
            lambda t: t.replace(GO, GO + '<GO type="9" lobby="0"/>', 1),
            "element 2",
            '<GO type="9" lobby="0"/>: a second <GO> (a game\'s header has one): one game per file',
            id="second-go",
        ),
        pytest.param(
            lambda t: t.replace(TAIKYOKU, TAIKYOKU + '<TAIKYOKU oya="1"/>', 1),
            "element 4",
            '<TAIKYOKU oya="1"/>: a second <TAIKYOKU> (a game\'s header has one): '
            "one game per file",
            id="second-taikyoku",
        ),
        pytest.param(
            lambda t: t.replace(GO, '<SHUFFLE seed="a"/><SHUFFLE seed="b"/>' + GO, 1),
            "element 2",
            '<SHUFFLE seed="b"/>: a second <SHUFFLE> (a game\'s header has one): one game per file',
            id="second-shuffle",
        ),
        pytest.param(
            lambda t: t.replace(TAIKYOKU, TAIKYOKU + '<UN n0="%41" n1="%42" n2="%43" n3="%44"/>'),
            "element 4",
            '<UN n0="%41" n1="%42" n2="%43" n3="%44"/>: a second <UN> (a game\'s header has '
            "one): one game per file",
            id="second-un-with-four-names",
        ),
        pytest.param(
            lambda t: t.replace(GO, "", 1).replace(TAIKYOKU, TAIKYOKU + GO, 1),
            "element 3",
            f"{GO}: <GO> after the game began (<TAIKYOKU> at element 2): the header comes first",
            id="go-after-taikyoku",
        ),
    ],
)
def test_a_second_header_element_is_refused(
    edit: Callable[[str], str], position: str, message: str
) -> None:
    error = _refused(_xml(edit), "header.xml")
    assert (error.position, error.message) == (position, message)


def test_a_second_players_list_mid_game_is_refused() -> None:
    def edit(text: str) -> str:
        return text.replace("<T6/>", "<T6/>" + _header_un(text), 1)

    error = _refused(_xml(edit), "un.xml")
    assert error.position == "element 6"  # after <T6/>, the first hand's first draw
    assert error.message.startswith("<UN n0=")
    assert error.message.endswith(
        ": a second game starts here (<UN> after the hands): one game per file"
    )


def test_a_second_game_in_one_mjlog_is_refused() -> None:
    text = _xml_text()
    body = text[text.index(GO) : text.index("</mjloggm>")]
    first_game = len(etree.fromstring(text.encode()))  # the children of <mjloggm>
    error = _refused(_xml(lambda t: t.replace("</mjloggm>", body + "</mjloggm>")), "two-games.xml")
    assert error.position == f"element {first_game + 1}"
    assert error.message == (
        f"{GO}: a second game starts here (<GO> after the hands): one game per file"
    )


def _presence(log: GameLog) -> list[tuple[int, bool]]:
    return [(e.seat, e.connected) for e in log.events if isinstance(e, Presence)]


def test_a_reconnect_is_still_read_anywhere() -> None:
    # tenhou-format.md §1.4: a later UN names only the seat that came back, after its BYE.
    back = '<BYE who="1"/><UN n1="%42"/>'
    data = _xml(lambda t: t.replace(TAIKYOKU, TAIKYOKU + back, 1).replace("<T6/>", "<T6/>" + back))
    log = load_bytes(data, "reconnect.xml")
    assert _presence(log) == [(1, False), (1, True), (1, False), (1, True)]
    start = log.events[0]
    assert isinstance(start, GameStart)
    assert [p.name for p in start.players] == ["Aoi", "Ben", "さくら", "Dmitri"]


def test_tenhou_json_names_the_indicator_list_that_is_wrong() -> None:
    # A wrong ura indicator was named as "dora indicators: 48 is not a tile number".
    doc = json.loads(_converted("tenhou-json"))
    doc["log"][0][3] = [48]
    exc = _refused(json.dumps(doc).encode(), "game.json")
    assert "E1-0: ura indicators (entry 3): " in str(exc), exc
    doc["log"][0][3] = []
    doc["log"][0][2] = [48]
    exc = _refused(json.dumps(doc).encode(), "game.json")
    assert "E1-0: dora indicators (entry 2): " in str(exc), exc
