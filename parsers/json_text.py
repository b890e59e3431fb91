"""Reading JSON text from a log, with the limits a hostile file needs.

``json.loads`` alone lets three things escape as exceptions that are not a
:class:`json.JSONDecodeError`: nesting deeper than the interpreter's recursion
limit (RecursionError), an integer of more than 4,300 digits (ValueError), and
NaN or Infinity, which are not JSON at all. :func:`load_json` turns each into a
:class:`BadJson` with the line and column where it can tell them, and refuses
integers of more than 15 digits, which no log holds and which would overflow the
formatting of a score later. :func:`short` quotes any value read from a log for an
error message, cut to a few elements and characters whatever its size or depth.
"""

from __future__ import annotations

import json
import math
import reprlib
from typing import Any

__all__ = ["MAX_DIGITS", "BadJson", "JsonReader", "json_reader", "load_json", "load_lines", "short"]

MAX_DIGITS = 15


class BadJson(ValueError):
    """Text that is not JSON a log may hold; ``line`` and ``column`` from 1 when known."""

    def __init__(self, message: str, line: int | None = None, column: int | None = None) -> None:
        self.message = message
        self.line = line
        self.column = column
        super().__init__(message)

    @property
    def where(self) -> str:
        """``line 3, column 7`` (or less, as far as it is known)."""
        if self.line is None:
            return ""
        return f"line {self.line}" + (f", column {self.column}" if self.column else "")


class _Refused(Exception):
    def __init__(self, message: str) -> None:
        self.message = message


def _int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise _Refused(f"a number of {len(text.lstrip('-'))} digits (at most {MAX_DIGITS})")
    return int(text)


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _Refused(f"the number {text[:20]} is out of range")
    return value


def _constant(name: str) -> float:
    raise _Refused(f"{name} is not a JSON number")


# One decoder for every call: json.loads with hooks builds a new one each time, which
# costs as much as decoding a short mjai line.
_DECODER = json.JSONDecoder(parse_int=_int, parse_float=_float, parse_constant=_constant)
# The same without the call per integer, for text with no run of more than
# MAX_DIGITS digits (looked for once, in the whole text a file's lines come from):
# there no integer can be too long. Floats and NaN/Infinity are still refused by
# their hooks, which cost nothing where there are none.
_NATIVE_INTS = json.JSONDecoder(parse_float=_float, parse_constant=_constant)
_ALL_ZERO = bytes.maketrans(b"123456789", b"000000000")
_LONG_RUN = b"0" * (MAX_DIGITS + 1)


def _long_number(whole: str | bytes) -> bool:
    """Whether ``whole`` has a run of more than MAX_DIGITS digits (every digit made a
    0, then one search: far quicker than a regular expression over a whole file)."""
    data = whole if isinstance(whole, bytes) else whole.encode("utf-8", "surrogatepass")
    return _LONG_RUN in data.translate(_ALL_ZERO)


def load_json(text: str) -> Any:
    """Parse JSON ``text``; anything that is not a log's JSON is a :class:`BadJson`."""
    return json_reader(text)(text)


def json_reader(whole: str | bytes) -> JsonReader:
    """:func:`load_json` for ``whole`` and any part of it (the lines of a file);
    ``whole`` may be the file's bytes. Its ``lines`` reads many lines at once
    (:func:`_load_lines`), with the decoder chosen for ``whole`` once."""
    return JsonReader(_DECODER if _long_number(whole) else _NATIVE_INTS)


class JsonReader:
    """Reads JSON text with one decoder: a value (call it), or many lines at once."""

    __slots__ = ("decoder",)

    def __init__(self, decoder: json.JSONDecoder) -> None:
        self.decoder = decoder

    def __call__(self, text: str) -> Any:
        return _load(self.decoder, text)

    def lines(self, lines: list[str]) -> list[Any] | None:
        return _load_lines(self.decoder, lines)


def load_lines(whole: str | bytes, lines: list[str]) -> list[Any] | None:
    """:meth:`JsonReader.lines` of ``lines``, the lines of ``whole``."""
    return json_reader(whole).lines(lines)


def _load_lines(decoder: json.JSONDecoder, lines: list[str]) -> list[Any] | None:
    """The values of ``lines`` (each one JSON value, blank lines left out), decoded in
    one pass as one array: what decoding each line costs is mostly the call. None
    where that does not give one value a line (a bad line, a line of two values): the
    caller then reads line by line, for the line's own message."""
    text = [line for line in lines if line.strip()]
    try:
        values = decoder.decode("[" + ",".join(text) + "]")
    except (ValueError, _Refused, RecursionError):
        return None
    return values if isinstance(values, list) and len(values) == len(text) else None


def _load(decoder: json.JSONDecoder, text: str) -> Any:
    # The decoder's scanner straight away, for text that is one value from its first
    # character to its last (an mjai line); anything else, or any problem, goes the
    # whole way again for decode's own message.
    try:
        value, end = decoder.scan_once(text, 0)  # type: ignore[attr-defined]
        if end == len(text):
            return value
    except (StopIteration, ValueError, _Refused, RecursionError):
        pass
    try:
        return decoder.decode(text)
    except json.JSONDecodeError as exc:
        raise BadJson(exc.msg, exc.lineno, exc.colno) from None
    except _Refused as exc:
        raise BadJson(exc.message) from None
    except RecursionError:
        raise BadJson("arrays or objects nested too deeply") from None


_REPR = reprlib.Repr()
_REPR.maxlevel = 3
_REPR.maxlist = _REPR.maxtuple = _REPR.maxdict = 8
_REPR.maxstring = _REPR.maxother = 40
_REPR.maxlong = 20


def short(value: object) -> str:
    """``value`` for an error message: a bounded repr, one line."""
    return _REPR.repr(value)
