"""The mjlog read from its bytes (parsers.tenhou_xml._read_plain) against lxml's reading.

A document in the plain form Tenhou writes is read without lxml; every other one,
and every plain one with a problem, is left to lxml. Whatever the input, the two
must agree: the same GameLog (events, positions), or the same error, which only
lxml words.
"""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from mjaudit.errors import LogFormatError
from mjaudit.events import GameLog
from parsers.tenhou_xml import _read_lxml, _read_plain, parse_tenhou_xml
from tests.conftest import SAMPLES, TENHOU_XML
from tests.fuzzing import mutate

Outcome = GameLog | str


def _xml(path: Path) -> bytes:
    data = path.read_bytes()
    return gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data


def _by_lxml(data: bytes) -> Outcome:
    try:
        return _read_lxml(data, "x.xml")
    except LogFormatError as exc:
        return str(exc)


def _by_parse(data: bytes) -> Outcome:
    try:
        return parse_tenhou_xml(data, "x.xml")
    except LogFormatError as exc:
        return str(exc)


def _same(a: Outcome, b: Outcome) -> bool:
    if isinstance(a, GameLog) and isinstance(b, GameLog):
        return a == b and [e.pos for e in a.events] == [e.pos for e in b.events]
    return a == b


def _sources() -> list[Path]:
    found = sorted(SAMPLES.glob("*.xml"))
    if TENHOU_XML.is_dir():
        found += sorted(p for p in TENHOU_XML.iterdir() if p.suffix == ".xml")
    return found


def test_every_corpus_log_is_read_from_its_bytes_as_lxml_reads_it() -> None:
    sources = _sources()
    if not TENHOU_XML.is_dir():
        pytest.skip(f"corpus not available at {TENHOU_XML}")
    for path in sources:
        data = _xml(path)
        plain = _read_plain(data, str(path))
        # Every corpus log is plain, the pretty-printed ones included.
        assert plain is not None, path
        assert _same(plain, _read_lxml(data, str(path))), path


def test_mutated_logs_are_read_the_same_or_left_to_lxml() -> None:
    sources = _sources()[:40]
    checked = plain = 0
    for seed in range(1500):
        source = sources[seed % len(sources)]
        _, data = mutate(_xml(source), "tenhou-xml", seed)
        expected = _by_lxml(data)
        assert _same(_by_parse(data), expected), (source.name, seed)
        checked += 1
        if data.isascii() and _read_plain(data, "x.xml") is not None:
            plain += 1
            assert isinstance(expected, GameLog), (source.name, seed)
    # Both ways are exercised: most mutations keep the plain form, many break it.
    assert 0.2 * checked < plain < checked


_GAME = (
    b'<mjloggm ver="2.3"><GO type="169" lobby="0"/>'
    b'<UN n0="%41" n1="%42" n2="%43" n3="%44" dan="0,0,0,0" rate="1500.00,1500.00,1500.00,'
    b'1500.00" sx="M,M,M,M"/><TAIKYOKU oya="0"/>'
    b'<INIT seed="0,0,0,2,3,5" ten="250,250,250,250" oya="0" '
    b'hai0="0,1,2,3,4,5,6,7,8,9,10,11,12" hai1="13,14,15,16,17,18,19,20,21,22,23,24,25" '
    b'hai2="26,27,28,29,30,31,32,33,34,35,36,37,38" '
    b'hai3="39,40,41,42,43,44,45,46,47,48,49,50,51"/>'
    b"<T52/><D52/><U53/><E53/><V54/><F54/><W55/><G55/>"
    b'<RYUUKYOKU ba="0,0" sc="250,0,250,0,250,0,250,0" owari="250,0.0,250,0.0,250,0.0,250,0.0"/>'
    b"</mjloggm>"
)


@pytest.mark.parametrize(
    ("old", "new", "plain"),
    [
        (b"", b"", True),
        (b"<T52/>", b"<T52/>\n  ", True),  # pretty-printed: still plain
        (b'<GO type="169" lobby="0"/>', b'<GO type="169"  lobby="0" />', True),
        (b'n0="%41"', b'n0="%41&amp;"', False),  # an entity
        (b'n0="%41"', b'n0="%41&#65;"', False),  # a character reference
        (b'n0="%41"', b'n0="%4\t1"', False),  # a tab in a value: a space to XML
        (b'n0="%41"', b'n0="%4\n1"', False),  # a line feed in a value: a space to XML
        (b'n0="%41"', b'n0="%4\r1"', False),
        (b'n0="%41"', b'n0="%41" n0="%42"', False),  # an attribute twice
        (b'n0="%41"', b"n0='%41'", False),  # single quotes
        (b'n0="%41"', b'n0 = "%41"', False),  # spaces around "="
        (b'n0="%41"', b'n0="a>b"', True),  # ">" may stand in a value
        (b'n0="%41"', b'n0="\xc3\xa9"', False),  # not ASCII: lxml's to read
        (b'n0="%41"', b'n0="%41"n5="x"', False),  # no space between attributes
        (b"<T52/>", b"<!-- <T99/> --><T52/>", False),  # a comment
        (b"<T52/>", b"<?pi <T99/> ?><T52/>", False),  # a processing instruction
        (b"<T52/>", b"<T52/><![CDATA[<T99/>]]>", False),
        (b"<T52/>", b"<T52></T52>", False),  # not self-closing
        (b"<T52/>", b"<T52/>text", False),  # text between elements
        (b"<T52/>", b'<T52 x="1"/>', True),  # attributes on a draw: ignored, as by lxml
        (b"<T52/>", b"<T052/>", True),  # another spelling of the same draw
        (b"<T52/>", b"<T136/>", True),  # a tile id out of range: an error, lxml's words
        (b"<T52/>", b"<Q52/>", True),  # an unknown tag: an error, lxml's words
        (b"<T52/>", b"<INIT><T52/></INIT>", False),  # nested
        (b"<T52/>", b"<a:T52/>", False),  # a namespace prefix
        (b'<mjloggm ver="2.3">', b'<mjloggm ver="2.3" xmlns="urn:x">', False),  # a namespace
        (b"<T52/>", b'<T52 xmlns="urn:x"/>', False),  # a draw in a namespace: no draw
        (b'<GO type="169"', b'<GO xmlns="" type="169"', False),  # a declaration, no attribute
        (b"</mjloggm>", b"", False),  # cut short
        (b"</mjloggm>", b"</mjloggm>\n", True),
        (b"</mjloggm>", b"</mjloggm><T1/>", False),  # content after the root
        (b"</mjloggm>", b"</mjloggm><!-- x -->", False),
        (b"<mjloggm", b"\xef\xbb\xbf<mjloggm", False),  # a byte-order mark
        (b"<mjloggm", b"\n<mjloggm", False),
        (b"<mjloggm", b'<?xml version="1.0"?><mjloggm', False),
        (b"<mjloggm", b"<!DOCTYPE mjloggm><mjloggm", False),
        (b'<mjloggm ver="2.3">', b"<mjloggx>", False),  # another root
        (b'<mjloggm ver="2.3">', b'<mjloggm ver="2.3"/>', False),  # an empty root
        (b"<TAIKYOKU", b"<T52/><TAIKYOKU", True),  # a draw before the hands: an error
        (b"<T52/>", b"<T52/>\x01", False),  # a control character
        (b'<RYUUKYOKU ba="0,0"', b'<RYUUKYOKU ba="0,0" ' + b"x" * 70000 + b'="1"', False),
    ],
)
def test_an_edited_log_is_read_as_lxml_reads_it(old: bytes, new: bytes, plain: bool) -> None:
    assert old in _GAME
    data = _GAME.replace(old, new, 1)
    expected = _by_lxml(data)
    assert _same(_by_parse(data), expected)
    read = _read_plain(data, "x.xml") if data.isascii() else None
    # Where the plain reading takes the document, it gives lxml's events; an error
    # of a plain document is lxml's to word (the plain reading leaves it).
    assert (read is not None) == (plain and isinstance(expected, GameLog))
