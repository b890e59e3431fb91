"""What the audit checks share: building error findings for a round."""

from __future__ import annotations

from analyzer.engine.state import RoundReplay
from mjaudit.findings import Finding, JsonValue, Severity

__all__ = ["error"]


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
    return Finding(
        code,
        Severity.ERROR,
        f"{rnd.label}: {message}",
        path,
        rnd.label,
        event,
        seat,
        expected,
        actual,
    )
