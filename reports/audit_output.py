"""Audit results as text, JSON (schema ``mjaudit.audit/1``) and JUnit XML."""

from __future__ import annotations

import codecs
import json
import tempfile
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import IO

from analyzer.checks.audit import FileAudit
from mjaudit.findings import FAIL_RANKS, Finding, JsonValue
from reports.safe_text import json_safe, one_line, printable, xml_attr, xml_text

__all__ = [
    "AuditOutput",
    "printable",
    "render_json",
    "render_junit",
    "render_text",
    "totals",
]


# Entries of the output (a line of text, a JSON entry, a JUnit case) are kept as the
# text they will be written as: in memory up to this size at a time, then moved to a
# temporary file, so that a run's memory does not follow the size of its output.
_SPILL_AT = 1 << 18


class _Entries:
    """Output entries as text, in order, to be written joined by ``sep``.

    Where no temporary file can be made or written (no writable temporary folder, a
    full disk), what the file did not take stays in memory, as all of it did before
    there was a file: the output is the same either way.
    """

    def __init__(self, sep: str) -> None:
        self.sep = sep
        self.count = 0
        self._held: list[str] = []  # what is not in the file yet
        self._size = 0
        self._file: IO[bytes] | None = None
        self._spill = True  # False once the file failed: the rest stays in memory

    def add(self, text: str) -> None:
        if self.count:
            text = self.sep + text
        self.count += 1
        self._held.append(text)
        self._size += len(text)
        if self._size >= _SPILL_AT and self._spill:
            self._move()

    def _move(self) -> None:
        """Move what is held to the file; where that fails, keep it, and the rest."""
        data = "".join(self._held).encode("utf-8", "surrogatepass")
        try:
            if self._file is None:
                self._file = tempfile.TemporaryFile()  # noqa: SIM115 (open until exit)
        except OSError:
            self._spill = False
            return
        end = self._file.seek(0, 2)  # the file holds whole entries up to here
        try:
            self._file.write(data)
            self._file.flush()
        except OSError:
            self._spill = False
            self._cut(end)
            return
        self._held = []
        self._size = 0

    def _cut(self, end: int) -> None:
        """Drop what a failed write left after byte ``end``; if even that fails, take
        the file's good part back into memory and do without the file."""
        assert self._file is not None
        try:
            self._file.seek(end)
            self._file.truncate()
        except OSError:
            self._file.seek(0)
            good = self._file.read(end)
            self._file.close()
            self._file = None
            self._held.insert(0, good.decode("utf-8", "surrogatepass"))

    def write_to(self, write: Callable[[str], None]) -> None:
        if self._file is not None:
            self._file.seek(0)
            decode = codecs.getincrementaldecoder("utf-8")("surrogatepass").decode
            while chunk := self._file.read(1 << 16):
                write(decode(chunk))
            write(decode(b"", True))
        if self._held:
            write("".join(self._held))


def _nested(value: JsonValue, depth: int) -> str:
    """``value`` as ``json.dumps(..., indent=1)`` writes it ``depth`` levels down in a
    document (its first line where the value starts). A lone surrogate (an undecodable
    byte of a file name) would make the text invalid UTF-8: it is written as its JSON
    escape, \\udcNN, which reads back as the same string; control characters are
    escaped by json itself."""
    text = json_safe(json.dumps(value, ensure_ascii=False, indent=1))
    return text.replace("\n", "\n" + " " * depth)


def _write_list(entries: _Entries, write: Callable[[str], None]) -> None:
    """A list one level down, its entries two levels down, as json.dumps writes it."""
    if not entries.count:
        write("[]")
        return
    write("[\n")
    entries.write_to(write)
    write("\n ]")


class AuditOutput:
    """An audit run's output in one format, built one file at a time.

    It keeps what the format will write (a text line per finding, a JSON entry per file
    and per finding, a JUnit case per game) and running totals, never the audits: a run
    over many games holds its output, not the games' results. Text given an ``echo``
    holds nothing: each game's lines are passed on as the game comes.
    """

    def __init__(
        self,
        fmt: str = "text",
        echo: Callable[[str], None] | None = None,
        fail_on: str = "error",
    ) -> None:
        if fmt not in ("text", "json", "junit"):
            raise ValueError(f"unknown output format {fmt!r}")
        if fail_on not in FAIL_RANKS:
            raise ValueError(f"unknown --fail-on {fail_on!r}")
        self.fmt = fmt
        # JUnit: a game fails on the findings that fail the run (--fail-on), so the
        # report and the exit code agree.
        self.fail_on = fail_on
        self.case_names: set[str] = set()
        # Text only: where each game's lines go as soon as they are made (the command
        # line's standard output), so that a run keeps no text at all; the summary line
        # waits for the end. JSON and JUnit open with totals and counts: their entries
        # wait for the end, as text (see _Entries).
        self.echo = echo if fmt == "text" else None
        self.files = self.games = self.rounds = self.wins = self.draws = 0
        self.by_severity: Counter[str] = Counter({"error": 0, "warning": 0, "info": 0})
        self.checks: Counter[str] = Counter()
        self.worst = -1  # the highest severity rank found, -1 for none
        self.failures = 0  # JUnit: games with error findings
        # Text lines (without an echo) or JUnit cases; JSON file entries and findings.
        self.parts = _Entries("\n")
        self.file_docs = _Entries(",\n")
        self.finding_docs = _Entries(",\n")

    @property
    def unreadable(self) -> int:
        return self.files - self.games

    def add(self, r: FileAudit) -> None:
        self.files += 1
        if r.error is None:
            self.games += 1
            self.rounds += r.rounds
            self.wins += r.wins
            self.draws += r.draws
        for f in r.findings:
            self.by_severity[f.severity.value] += 1
            self.worst = max(self.worst, f.severity.rank)
        self.checks.update(dict(r.checks))
        if self.fmt == "text":
            self._text(r)
        elif self.fmt == "json":
            entry: dict[str, JsonValue] = {
                "path": r.path,
                "format": r.format,
                "game_id": r.game_id,
                "rules": r.rules,
                "rounds": r.rounds,
                "wins": r.wins,
                "error": r.error,
            }
            self.file_docs.add("  " + _nested(entry, 2))
            for f in r.findings:
                self.finding_docs.add("  " + _nested(f.to_json(), 2))
        else:
            self.parts.add(self._junit_case(r))

    def totals(self) -> dict[str, JsonValue]:
        return {
            "files": self.files,
            "games": self.games,
            "rounds": self.rounds,
            "wins": self.wins,
            "draws": self.draws,
            "unreadable": self.unreadable,
            "findings": dict(self.by_severity),
            "checks": dict(sorted(self.checks.items())),
        }

    def render(self, run: dict[str, JsonValue] | None = None) -> str:
        """The whole output; ``run`` (a ``--store`` run's own counts) goes into JSON."""
        pieces: list[str] = []
        self.write(pieces.append, run)
        return "".join(pieces)

    def write(self, write: Callable[[str], None], run: dict[str, JsonValue] | None = None) -> None:
        """What :meth:`render` returns, in pieces to ``write`` (the command line writes
        it so, never holding the whole of a large output)."""
        if self.fmt == "json":
            # As json.dumps(document, ensure_ascii=False, indent=1) writes it.
            write(
                '{\n "schema": "mjaudit.audit/1",\n "totals": '
                + _nested(self.totals(), 1)
                + ',\n "files": '
            )
            _write_list(self.file_docs, write)
            write(',\n "findings": ')
            _write_list(self.finding_docs, write)
            if run is not None:
                write(',\n "run": ' + _nested(run, 1))
            write("\n}")
            return
        if self.fmt == "junit":
            write(
                '<?xml version="1.0" encoding="UTF-8"?>\n'
                f'<testsuite name="mjaudit" tests="{self.files}" failures="{self.failures}" '
                f'errors="{self.unreadable}">\n'
            )
            self.parts.write_to(write)
            write("\n</testsuite>")
            return
        found = self.by_severity
        summary = (
            f"{self.games} games, {self.rounds} rounds, {self.wins} wins, {self.draws} draws, "
            f"{self.unreadable} unreadable: {found['error']} errors, "
            f"{found['warning']} warnings, {found['info']} notes"
        )
        self.parts.write_to(write)
        write(("\n" if self.parts.count else "") + summary)

    def _text(self, r: FileAudit) -> None:
        """Grouped by game, errors first."""
        if r.error is not None:
            # Input errors name the input themselves; others get the name in front.
            where = "" if r.error.startswith(r.path) else f"{r.path}: "
            lines = [f"unreadable: {where}{r.error}"]
        elif not r.findings:
            return
        else:
            lines = [f"{r.path} ({r.game_id}, rules {r.rules}):"]
            lines.extend(_finding_line(f, r.findings) for f in r.findings)
        # One line each, whatever a file name or a log's text holds: a line break in
        # either would start a line of its own (a forged finding, to a reader that
        # greps the output).
        text = "\n".join(map(one_line, lines))
        (self.parts.add if self.echo is None else self.echo)(printable(text))

    def _junit_case(self, r: FileAudit) -> str:
        """One test case per game; the findings at or above ``fail_on`` (error by
        default), or an unreadable file, fail it. Each case has a name of its own: a
        game met twice (the same game in two formats) is named by its file too."""
        plain = r.game_id or r.path
        name = plain if plain not in self.case_names else f"{plain} ({r.path})"
        self.case_names.add(name)
        head = (
            f'  <testcase classname="mjaudit.audit" name={xml_attr(name)} file={xml_attr(r.path)}>'
        )
        if r.error is not None:
            return f"{head}\n    <error message={xml_attr(r.error)}/>\n  </testcase>"
        floor = FAIL_RANKS[self.fail_on]
        bad = [f for f in r.findings if f.severity.rank >= floor]
        body = ""
        if bad:
            self.failures += 1
            text = "\n".join(
                f"{f.severity.value} {f.round or '-'} {f.code}: {f.message}{_at(f)}"
                if f.severity.value != "error"
                else f"{f.round or '-'} {f.code}: {f.message}{_at(f)}"
                for f in bad
            )
            what = (
                "error findings"
                if self.fail_on == "error"
                else f"findings at or above {self.fail_on}"
            )
            body = (
                f"\n    <failure message={xml_attr(f'{len(bad)} {what}')}"
                f' type="mjaudit">{xml_text(text)}</failure>'
            )
        notes = [f for f in r.findings if f.severity.rank < floor]
        if notes:
            out = "\n".join(f"{f.severity.value} {f.code}: {f.message}{_at(f)}" for f in notes)
            body += f"\n    <system-out>{xml_text(out)}</system-out>"
        return f"{head}{body}\n  </testcase>" if body else f"{head}</testcase>"


def _output(fmt: str, results: Iterable[FileAudit]) -> AuditOutput:
    out = AuditOutput(fmt)
    for r in results:
        out.add(r)
    return out


def totals(results: Iterable[FileAudit]) -> dict[str, JsonValue]:
    return _output("text", results).totals()


def render_json(results: Iterable[FileAudit], run: dict[str, JsonValue] | None = None) -> str:
    """The audit document; ``run`` (a ``--store`` run's own counts) is added as is."""
    return _output("json", results).render(run)


def render_text(results: Iterable[FileAudit]) -> str:
    """Grouped by game, errors first, then a one-line summary."""
    return _output("text", results).render()


def render_junit(results: Iterable[FileAudit], fail_on: str = "error") -> str:
    """One test case per game; findings at or above ``fail_on`` (or an unreadable
    file) fail it."""
    out = AuditOutput("junit", fail_on=fail_on)
    for r in results:
        out.add(r)
    return out.render()


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
