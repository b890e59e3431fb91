"""mjaudit: audit and review recorded Riichi Mahjong games."""

from mjaudit.errors import LogFormatError, MjauditError, ReplayError, SourcePos
from mjaudit.findings import Finding, Severity
from mjaudit.melds import Meld, MeldKind
from mjaudit.rules import PRESETS, Ruleset, load_rules, preset
from mjaudit.tiles import Tile, tiles, to_mpsz

__version__ = "0.1.0"

__all__ = [
    "PRESETS",
    "Finding",
    "LogFormatError",
    "Meld",
    "MeldKind",
    "MjauditError",
    "ReplayError",
    "Ruleset",
    "Severity",
    "SourcePos",
    "Tile",
    "__version__",
    "load_rules",
    "preset",
    "tiles",
    "to_mpsz",
]
