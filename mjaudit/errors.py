"""Exceptions for problems with the *input*; problems with the game are findings."""

from __future__ import annotations

import errno
from typing import NamedTuple

__all__ = [
    "WRITE_ERRNOS",
    "LogFormatError",
    "MjauditError",
    "ReplayError",
    "SourcePos",
    "did_you_mean",
]

#: The errors of a write that found no room, or a device that failed: a full disk, a
#: quota, a file grown too large, an I/O error (the command line's and the store's
#: word for "cannot write").
WRITE_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO})


class SourcePos(NamedTuple):
    """Where an event came from: the file, the element (or line) index, the raw tag.

    A named tuple rather than a dataclass: one is made for every event of every
    log, and a tuple is several times cheaper to build.
    """

    path: str
    number: int
    tag: str = ""
    unit: str = "element"

    @property
    def where(self) -> str:
        """``element 412 <E52/>``: the position inside the file."""
        tag = self.tag
        if tag and not tag.startswith(("<", "{", "line")):
            tag = f"<{tag}/>" if tag[1:].isdigit() else f"<{tag}>"
        return f"{self.unit} {self.number} {tag}".rstrip()

    def __str__(self) -> str:
        return f"{self.path} ({self.where})"


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


def did_you_mean(name: str, known: list[str], n: int = 3) -> str:
    """`` (did you mean a, b?)``: the names of ``known`` nearest to a mistyped ``name``
    (difflib's), for the end of an error message; ``""`` when none is near."""
    import difflib  # only for a message

    near = difflib.get_close_matches(name, known, n=n)
    return f" (did you mean {', '.join(near)}?)" if near else ""
