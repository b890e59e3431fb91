"""What the audit checks share: building error and warning findings for a round."""

from __future__ import annotations

from analyzer.engine.state import RoundReplay
from mjaudit.findings import Finding, JsonValue, Severity

__all__ = ["error", "warning"]


def error(
    rnd: RoundReplay,
    path: str,
    code: str,
    message: str,
    event: int,
    seat: int | None = None,
    expected: JsonValue = None,
    actual: JsonValue = None,
) -> Finding:
    """An error finding for a round, its message prefixed with the round label."""
    return _finding(Severity.ERROR, rnd, path, code, message, event, seat, expected, actual)


def warning(
    rnd: RoundReplay, path: str, code: str, message: str, event: int, seat: int | None = None
) -> Finding:
    """A warning finding for a round, its message prefixed with the round label."""
    return _finding(Severity.WARNING, rnd, path, code, message, event, seat, None, None)


def _finding(
    severity: Severity,
    rnd: RoundReplay,
    path: str,
    code: str,
    message: str,
    event: int,
    seat: int | None,
    expected: JsonValue,
    actual: JsonValue,
) -> Finding:
    return Finding(
        code,
        severity,
        f"{rnd.label}: {message}",
        path,
        rnd.label,
        event,
        seat,
        expected,
        actual,
    )
