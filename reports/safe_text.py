"""Text that UTF-8 output can hold, whatever a log or a file name put in it.

Python keeps a file name's undecodable bytes as lone surrogates (U+DC80..U+DCFF),
and a JSON log may spell any lone surrogate as an escape (``"\\ud800"``). Neither can
be written as UTF-8: every output shows them instead, as text (:func:`printable`:
``\\xff`` for a file name's byte, as Python shows it) or as a JSON escape
(:func:`json_safe`, which reads back as the same string).
"""

from __future__ import annotations

import re

__all__ = [
    "ESCAPE",
    "bidi_shown",
    "escape_unencodable",
    "json_safe",
    "one_line",
    "printable",
    "shown",
    "xml_attr",
    "xml_text",
]

_SURROGATE = re.compile("[\ud800-\udfff]")
# Unicode's bidirectional embeddings, overrides and isolates (and their ends).
_BIDI = re.compile("[\u202a-\u202e\u2066-\u2069]")


def shown(m: re.Match[str]) -> str:
    """A character XML or UTF-8 cannot hold, shown as Python would: ``\\x01``, ``\\xe9``."""
    c = ord(m[0])
    if 0xDC80 <= c <= 0xDCFF:  # an undecodable byte of a file name
        return f"\\x{c - 0xDC00:02x}"
    return f"\\x{c:02x}" if c < 0x100 else f"\\u{c:04x}"


def bidi_shown(text: str) -> str:
    """``text`` with its bidirectional embedding, override and isolate controls shown
    (``\\u202e``). In a page, a name's right-to-left override would show the rest of
    its line reversed: the seats and points after the name in a result, say."""
    return _BIDI.sub(shown, text)


def one_line(text: str) -> str:
    """``text`` on one line: each line break (of any kind) a space. A file name or a
    log's text may hold one, which would otherwise start a line of its own in a
    line-by-line output (a forged finding, to a reader that greps it)."""
    return " ".join(text.splitlines())


def printable(text: str) -> str:
    """``text`` with lone surrogates (undecodable bytes of a file name) written as
    ``\\xNN``, so it can be printed as UTF-8."""
    return text if text.isascii() else _SURROGATE.sub(shown, text)


def _escaped(m: re.Match[str]) -> str:
    return f"\\u{ord(m[0]):04x}"


def json_safe(text: str) -> str:
    """JSON text (as ``json.dumps(..., ensure_ascii=False)`` writes it) with each lone
    surrogate written as its escape, ``\\udcff``: valid UTF-8 that reads back as the
    same value (a surrogate can only stand inside a string)."""
    return text if text.isascii() else _SURROGATE.sub(_escaped, text)


#: The name of the codec error handler :func:`escape_unencodable` (registered by the
#: command line for an output stream whose encoding cannot hold every character).
ESCAPE = "mjaudit-escape"


def escape_unencodable(exc: UnicodeError) -> tuple[str, int]:
    """A codec error handler: each character the output's encoding cannot hold is
    written as a JSON escape, ``\\u3055``, a character beyond U+FFFF as its two
    (``\\ud83d\\ude00``). Inside a JSON string it reads back as the same character;
    in text it shows which character stood there."""
    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    out = []
    for c in exc.object[exc.start : exc.end]:
        n = ord(c)
        if n > 0xFFFF:
            n -= 0x10000
            out.append(f"\\u{0xD800 + (n >> 10):04x}\\u{0xDC00 + (n & 0x3FF):04x}")
        else:
            out.append(f"\\u{n:04x}")
    return "".join(out), exc.end


# -- XML (the JUnit outputs of audit and cases check) ------------------------------

# What xml.sax.saxutils.escape and quoteattr replace, written out: importing saxutils
# pulls in urllib.request and http.client, a large share of the start-up time.
_TEXT = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;"})
_ATTR = str.maketrans(
    {"&": "&amp;", "<": "&lt;", ">": "&gt;", "\n": "&#10;", "\r": "&#13;", "\t": "&#9;"}
)


# What XML 1.0 cannot hold at all, not even as a character reference: control
# characters other than tab, newline and return, lone surrogates (a file name's
# undecodable bytes, kept by Python as U+DC80..U+DCFF) and U+FFFE, U+FFFF.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _xml_chars(data: str) -> str:
    return _NOT_XML.sub(shown, data)


def xml_text(data: str) -> str:
    """``&``, ``<`` and ``>`` as entities, as ``xml.sax.saxutils.escape`` does; what
    XML cannot hold at all is written out as ``\\x01``."""
    return _xml_chars(data).translate(_TEXT)


def xml_attr(data: str) -> str:
    """A quoted attribute value, as ``xml.sax.saxutils.quoteattr`` makes it (with what
    XML cannot hold written out as ``\\x01``)."""
    data = _xml_chars(data).translate(_ATTR)
    if '"' in data:
        if "'" in data:
            data = data.replace('"', "&quot;")
        else:
            return f"'{data}'"
    return f'"{data}"'
