"""``mjaudit`` with the sources of the modules a compiled build compiled.

    python benchmarks/run_pure.py audit -j 1 logs/

runs the command line as ``python -m mjaudit`` would, except that each module
loaded from an extension module (``mjaudit.compiled_modules()``) is loaded from its
``.py`` file instead: the pure-Python build, from the same checkout, to time
against the compiled one (``bench_audit.py --pure``).
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

from mjaudit import compiled_modules

COMPILED = frozenset(compiled_modules())


class SourcesFirst:
    """A finder ahead of the usual ones that gives each compiled module its source."""

    @staticmethod
    def find_spec(
        name: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if name not in COMPILED:
            return None
        for folder in path or ():
            source = Path(folder) / (name.rpartition(".")[2] + ".py")
            if source.is_file():
                return importlib.util.spec_from_file_location(name, source)
        return None


if __name__ == "__main__":
    sys.meta_path.insert(0, SourcesFirst)
    from reports.cli import main

    sys.exit(main())
