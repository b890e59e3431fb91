"""Audit results as text, JSON (schema ``mjaudit.audit/1``) and JUnit XML."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Sequence

from analyzer.checks.audit import FileAudit
from mjaudit.findings import Finding, JsonValue

__all__ = ["printable", "render_json", "render_junit", "render_text", "totals"]

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
# What UTF-8 output cannot hold: lone surrogates.
_SURROGATE = re.compile("[\ud800-\udfff]")


def _shown(m: re.Match[str]) -> str:
    """A character XML or UTF-8 cannot hold, shown as Python would: ``\\x01``, ``\\xe9``."""
    c = ord(m[0])
    if 0xDC80 <= c <= 0xDCFF:  # an undecodable byte of a file name
        return f"\\x{c - 0xDC00:02x}"
    return f"\\x{c:02x}" if c < 0x100 else f"\\u{c:04x}"


def printable(text: str) -> str:
    """``text`` with lone surrogates (undecodable bytes of a file name) written as
    ``\\xNN``, so it can be printed as UTF-8."""
    return _SURROGATE.sub(_shown, text)


def _xml_chars(data: str) -> str:
    return _NOT_XML.sub(_shown, data)


def _escape(data: str) -> str:
    """``&``, ``<`` and ``>`` as entities, as ``xml.sax.saxutils.escape`` does; what
    XML cannot hold at all is written out as ``\\x01``."""
    return _xml_chars(data).translate(_TEXT)


def _quoteattr(data: str) -> str:
    """A quoted attribute value, as ``xml.sax.saxutils.quoteattr`` makes it (with what
    XML cannot hold written out as ``\\x01``)."""
    data = _xml_chars(data).translate(_ATTR)
    if '"' in data:
        if "'" in data:
            data = data.replace('"', "&quot;")
        else:
            return f"'{data}'"
    return f'"{data}"'


def totals(results: Sequence[FileAudit]) -> dict[str, JsonValue]:
    by_severity: Counter[str] = Counter({"error": 0, "warning": 0, "info": 0})
    checks: Counter[str] = Counter()
    for r in results:
        for f in r.findings:
            by_severity[f.severity.value] += 1
        checks.update(dict(r.checks))
    readable = [r for r in results if r.error is None]
    return {
        "files": len(results),
        "games": len(readable),
        "rounds": sum(r.rounds for r in readable),
        "wins": sum(r.wins for r in readable),
        "draws": sum(r.draws for r in readable),
        "unreadable": len(results) - len(readable),
        "findings": dict(by_severity),
        "checks": dict(sorted(checks.items())),
    }


def render_json(results: Sequence[FileAudit], run: dict[str, JsonValue] | None = None) -> str:
    """The audit document; ``run`` (a ``--store`` run's own counts) is added as is."""
    doc: dict[str, JsonValue] = {
        "schema": "mjaudit.audit/1",
        "totals": totals(results),
        "files": [
            {
                "path": r.path,
                "format": r.format,
                "game_id": r.game_id,
                "rules": r.rules,
                "rounds": r.rounds,
                "wins": r.wins,
                "error": r.error,
            }
            for r in results
        ],
        "findings": [f.to_json() for r in results for f in r.findings],
    }
    if run is not None:
        doc["run"] = run
    # Control characters are escaped by json itself. A lone surrogate (an undecodable
    # byte of a file name) would make the text invalid UTF-8: it is written as its
    # JSON escape, \udcNN, which reads back as the same string.
    text = json.dumps(doc, ensure_ascii=False, indent=1)
    return _SURROGATE.sub(lambda m: f"\\u{ord(m[0]):04x}", text)


def _finding_line(f: Finding, found: Sequence[Finding] = ()) -> str:
    seat = f" seat {f.seat}" if f.seat is not None else ""
    return f"  {f.severity.value:<7} {f.code}{seat}: {f.message}{_follows(f, found)}{_at(f)}"


def _at(f: Finding) -> str:
    """`` [element 412 <AGARI>]``: where in the file, as every output shows it."""
    return f" [{f.source}]" if f.source else ""


def _follows(f: Finding, found: Sequence[Finding]) -> str:
    """`` (follows from ...)`` for a finding that an earlier one of its file explains."""
    if f.cause is None or not 0 <= f.cause < len(found):
        return ""
    cause = found[f.cause]
    where = f" at {cause.round}" if cause.round else ""
    seat = f" seat {cause.seat}" if cause.seat is not None else ""
    return f" (follows from {cause.code}{where}{seat})"


def render_text(results: Sequence[FileAudit]) -> str:
    """Grouped by game, errors first, then a one-line summary."""
    lines: list[str] = []
    for r in results:
        if r.error is not None:
            # Input errors name the input themselves; others get the name in front.
            where = "" if r.error.startswith(r.path) else f"{r.path}: "
            lines.append(f"unreadable: {where}{r.error}")
            continue
        if not r.findings:
            continue
        lines.append(f"{r.path} ({r.game_id}, rules {r.rules}):")
        for f in r.findings:
            lines.append(_finding_line(f, r.findings))
    t = totals(results)
    found = t["findings"]
    assert isinstance(found, dict)
    lines.append(
        f"{t['games']} games, {t['rounds']} rounds, {t['wins']} wins, {t['draws']} draws, "
        f"{t['unreadable']} unreadable: {found['error']} errors, {found['warning']} warnings, "
        f"{found['info']} notes"
    )
    return printable("\n".join(lines))


def render_junit(results: Sequence[FileAudit]) -> str:
    """One test case per game; error findings (or an unreadable file) fail it."""
    cases: list[str] = []
    failures = errors = 0
    for r in results:
        name = _quoteattr(r.game_id or r.path)
        head = f'  <testcase classname="mjaudit.audit" name={name} file={_quoteattr(r.path)}>'
        if r.error is not None:
            errors += 1
            cases.append(f"{head}\n    <error message={_quoteattr(r.error)}/>\n  </testcase>")
            continue
        bad = [f for f in r.findings if f.severity.value == "error"]
        body = ""
        if bad:
            failures += 1
            text = "\n".join(f"{f.round or '-'} {f.code}: {f.message}{_at(f)}" for f in bad)
            body = (
                f"\n    <failure message={_quoteattr(f'{len(bad)} error findings')}"
                f' type="mjaudit">{_escape(text)}</failure>'
            )
        notes = [f for f in r.findings if f.severity.value != "error"]
        if notes:
            out = "\n".join(f"{f.severity.value} {f.code}: {f.message}{_at(f)}" for f in notes)
            body += f"\n    <system-out>{_escape(out)}</system-out>"
        cases.append(f"{head}{body}\n  </testcase>" if body else f"{head}</testcase>")
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<testsuite name="mjaudit" tests="{len(results)}" failures="{failures}" '
        f'errors="{errors}">\n' + "\n".join(cases) + "\n</testsuite>"
    )
