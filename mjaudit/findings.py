"""Findings: problems with the *game* (not the input), with stable codes.

Every code is documented in docs/findings.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum

from mjaudit.frozen import quick_init

__all__ = ["ERROR_CODES", "FAIL_RANKS", "INFO_CODES", "WARNING_CODES", "Finding", "Severity"]


class Severity(Enum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"

    @property
    def rank(self) -> int:
        return {"error": 2, "warning": 1, "info": 0}[self.value]


ERROR_CODES = frozenset(
    {
        "dora-indicator-mismatch",
        "dora-timing",
        "ura-indicator-mismatch",
        "yaku-mismatch",
        "han-mismatch",
        "fu-mismatch",
        "points-mismatch",
        "limit-mismatch",
        "payment-mismatch",
        "pao-mismatch",
        "draw-mismatch",
        "score-chain-mismatch",
        "final-score-mismatch",
        "wall-mismatch",
        "no-yaku-win",
        "not-a-winning-hand",
        "ron-while-furiten",
        "illegal-call",
        "illegal-riichi",
        "inconsistent-log",
        "game-incomplete",
        "game-end-mismatch",
        "round-without-result",
        "win-tile-mismatch",
        "tenpai-hand-mismatch",
    }
)
WARNING_CODES = frozenset({"rules-assumed", "unchecked", "lobby-type-missing", "server-penalty"})

# ``--fail-on``: the lowest Severity.rank that fails a run (the exit code 1 and, in
# JUnit, a failed case); "never": none.
FAIL_RANKS = {"error": 2, "warning": 1, "never": 3}
INFO_CODES = frozenset(
    {"missed-ron", "missed-tsumo", "riichi-while-furiten", "discard-into-furiten"}
)

JsonValue = str | int | float | bool | None | Sequence["JsonValue"] | Mapping[str, "JsonValue"]


@quick_init
@dataclass(frozen=True, slots=True)
class Finding:
    """One problem found in a log: a stable code, where it is, expected against actual.

    ``cause`` is set on a finding that follows from an earlier one (a chain break
    that a wrong payment explains): the index, in the same file's findings, of the
    finding that explains it. ``None``: the finding stands on its own.

    ``source`` is where in the file the finding points, in the file's own terms:
    ``element 412 <AGARI>`` (Tenhou XML), ``line 17`` (mjai), the kyoku and entry
    (Tenhou JSON), ``action 17 <RecordHule>`` (Mahjong Soul). The audit sets it from
    the event the finding is about (``event`` is that event's index in the parsed
    list), or from the game's first event for a finding about the whole game.
    """

    code: str
    severity: Severity
    message: str
    path: str = ""
    round: str | None = None
    event: int | None = None
    seat: int | None = None
    expected: JsonValue = None
    actual: JsonValue = None
    cause: int | None = None
    source: str | None = None

    def to_json(self) -> dict[str, JsonValue]:
        out: dict[str, JsonValue] = {
            "code": self.code,
            "severity": self.severity.value,
            "path": self.path,
            "round": self.round,
            "event": self.event,
            "source": self.source,
            "seat": self.seat,
            "message": self.message,
            "expected": self.expected,
            "actual": self.actual,
        }
        if self.cause is not None:
            out["cause"] = self.cause
        return out
