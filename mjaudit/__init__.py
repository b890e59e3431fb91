"""mjaudit: audit and review recorded Riichi Mahjong games."""

from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

from mjaudit.errors import LogFormatError, MjauditError, ReplayError, SourcePos
from mjaudit.findings import Finding, Severity
from mjaudit.melds import Meld, MeldKind
from mjaudit.rules import PRESETS, Ruleset, load_rules, preset
from mjaudit.tiles import Tile, tiles, to_mpsz

__version__ = "0.1.0"


def compiled_modules() -> tuple[str, ...]:
    """The project's modules this interpreter loads from a compiled build (setup.py).

    An extension module beside a module's source is what Python imports in its place,
    so these are the files found, not a list kept elsewhere; () for pure Python.
    """
    root = Path(__file__).resolve().parent.parent
    found = []
    for package in ("mjaudit", "parsers", "analyzer", "reports"):
        for path in (root / package).rglob("*.*"):
            suffix = next((s for s in EXTENSION_SUFFIXES if path.name.endswith(s)), None)
            if suffix is not None:
                module = path.relative_to(root).with_name(path.name[: -len(suffix)])
                found.append(".".join(module.parts))
    return tuple(sorted(found))


def build_info() -> str:
    """Which build runs: ``compiled (mypyc): 17 modules`` or ``pure Python``."""
    compiled = compiled_modules()
    return f"compiled (mypyc): {len(compiled)} modules" if compiled else "pure Python"


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
    "build_info",
    "compiled_modules",
    "load_rules",
    "preset",
    "tiles",
    "to_mpsz",
]
