"""Exceptions for problems with the *input*; problems with the game are findings."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["LogFormatError", "MjauditError", "ReplayError", "SourcePos"]


@dataclass(frozen=True, slots=True)
class SourcePos:
    """Where an event came from: the file, the element (or line) index, the raw tag."""

    path: str
    index: int
    tag: str = ""
    unit: str = "element"

    def __str__(self) -> str:
        where = f"{self.path} ({self.unit} {self.index})"
        return f"{where} {self.tag}" if self.tag else where


class MjauditError(Exception):
    """Base class of every error mjaudit raises on purpose."""


class LogFormatError(MjauditError):
    """The file is not a readable log of the format it claims to be."""

    def __init__(self, path: str, position: str, message: str) -> None:
        self.path = path
        self.position = position
        self.message = message
        super().__init__(f"{path} ({position}): {message}" if position else f"{path}: {message}")


class ReplayError(MjauditError):
    """The events contradict the rules of play (a tile that is not there, say)."""

    def __init__(self, message: str, pos: SourcePos | None = None) -> None:
        self.message = message
        self.pos = pos
        super().__init__(f"{pos}: {message}" if pos else message)
