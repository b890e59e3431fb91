"""A case line's rules decoded once per file (reports.cases._decode_case).

``score --batch`` does not decode again a rules object whose text it met on an earlier
line: it must give every line the same document, or the same error, as decoding the
line whole does, whatever the line holds where the rules were met before.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator

import pytest

import reports.cases as cases_module
from reports.cases import _decode, _decode_case

RULES = {"name": "tenhou", "players": 4, "aka": True, "pao_yakuman": ["daisangen"]}
RULES_TEXT = json.dumps(RULES)
OTHER = {**RULES, "aka": False}


def _line(**fields: object) -> str:
    doc: dict[str, object] = {"schema": "mjaudit.cases/1", "id": "g/E1-0/0", "rules": RULES}
    doc.update(fields)
    return json.dumps(doc)


@pytest.fixture(autouse=True)
def _no_rules_met() -> Iterator[None]:
    cases_module._RULES_MET.clear()
    yield
    cases_module._RULES_MET.clear()


def _outcome(decode: Callable[[str], object], text: str) -> tuple[object, ...]:
    try:
        return ("value", decode(text))
    except (ValueError, RecursionError) as exc:
        return ("error", type(exc).__name__, str(exc))


def _same_as_whole(text: str) -> tuple[object, ...]:
    """What _decode_case gives for ``text`` after a line with RULES, checked against
    _decode."""
    _decode_case(_line())
    assert cases_module._RULES_MET, "the first line's rules are kept"
    got = _outcome(_decode_case, text)
    assert got == _outcome(_decode, text)
    return got


def test_a_rules_object_met_before_is_the_same_value_and_not_decoded_again() -> None:
    first = _decode_case(_line(id="a"))
    second = _decode_case(_line(id="b"))
    assert isinstance(first, dict) and isinstance(second, dict)
    assert second == json.loads(_line(id="b"))
    assert second["rules"] is first["rules"]  # the value kept, not decoded again
    assert len(cases_module._RULES_MET) == 1


def test_lines_with_other_rules_are_decoded_whole_and_kept_too() -> None:
    _decode_case(_line())
    doc = _decode_case(_line(rules=OTHER))
    assert doc == json.loads(_line(rules=OTHER))
    assert len(cases_module._RULES_MET) == 2
    assert _decode_case(_line()) == json.loads(_line())


@pytest.mark.parametrize(
    "text",
    [
        # The same rules text first met elsewhere than the top level.
        _line(source={"rules": RULES}, rules=OTHER),
        _line(source={"rules": RULES}),
        # Twice at the top level: the last one counts.
        '{"rules": ' + RULES_TEXT + ', "rules": 3}',
        '{"rules": 3, "rules": ' + RULES_TEXT + "}",
        # The text inside a string: no value there.
        _line(id='"rules": ' + RULES_TEXT),
        # Not a top-level object.
        '[{"rules": ' + RULES_TEXT + "}]",
        '{"a": {"rules": ' + RULES_TEXT + "}}",
        # Other spacing, and the value written more tightly.
        '{"rules" :\t' + RULES_TEXT + "}",
        '{"rules":' + json.dumps(RULES, separators=(",", ":")) + "}",
    ],
)
def test_a_line_gives_the_document_decoding_it_whole_gives(text: str) -> None:
    assert _same_as_whole(text)[0] == "value"


@pytest.mark.parametrize(
    "text",
    [
        # The stand-in's own word elsewhere is still an error, named as in the line.
        _line(hand=float("nan")),
        '{"rules": ' + RULES_TEXT + ', "x": NaN}',
        '{"rules": ' + RULES_TEXT + ', "x": Infinity}',
        # The rules text followed by what is not JSON, or cut short after it.
        '{"rules": ' + RULES_TEXT + "}}",
        '{"rules": ' + RULES_TEXT,
        '{"rules": ' + RULES_TEXT + ", }",
        '{"rules": ' + RULES_TEXT + "5}",
        '{"rules": ' + RULES_TEXT + ' "x": 1}',
        # The rules text where no value may stand.
        '{"rules": ' + RULES_TEXT + ": 1}",
        '"rules": ' + RULES_TEXT,
        '{"x": 1 "rules": ' + RULES_TEXT + "}",
    ],
)
def test_a_bad_line_gives_the_error_decoding_it_whole_gives(text: str) -> None:
    assert _same_as_whole(text)[0] == "error"


def test_at_most_a_few_rules_objects_are_kept() -> None:
    for aka in range(20):
        _decode_case(_line(rules={**RULES, "aka": aka}))
    assert len(cases_module._RULES_MET) == cases_module._RULES_KEPT


def test_each_thread_counts_its_own_stand_ins() -> None:
    """Lines read in two threads at once: each still gets its own document or error
    (the stand-ins of a line are counted per thread)."""
    _decode_case(_line())
    good = [_line(id=str(k)) for k in range(200)]
    bad = ['{"rules": ' + RULES_TEXT + f', "x{k}": NaN}}' for k in range(200)]
    results: dict[str, list[tuple[object, ...]]] = {}

    def read(name: str, lines: list[str]) -> None:
        results[name] = [_outcome(_decode_case, text) for text in lines]

    threads = [threading.Thread(target=read, args=a) for a in (("good", good), ("bad", bad))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results["good"] == [_outcome(_decode, text) for text in good]
    assert results["bad"] == [_outcome(_decode, text) for text in bad]
    assert all(r[0] == "error" for r in results["bad"])
