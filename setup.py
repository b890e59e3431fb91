"""An optional compiled build of the per-event hot modules (mypyc).

``pip install -e ".[dev]"`` installs pure Python, as pyproject.toml alone would.
``MJAUDIT_COMPILE=1 pip install -e ".[dev]"`` compiles the modules in ``COMPILED``
with mypyc (it ships with mypy): the same sources, type-checked strictly, turned
into C extension modules that Python loads in place of the ``.py`` files. Where
that cannot be done (no mypy to compile with, a type error, no C compiler, a
compiler that fails) the install goes on as pure Python and says so in one
warning line on stderr (``pip install -v`` shows it; ``mjaudit --version`` says
which build is running).
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from typing import Any

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

# The modules every event of every hand goes through. Left out on purpose: modules
# whose globals the tests replace (analyzer/checks/audit.py's ``replay``), and the
# core value modules (mjaudit/) whose classes ``mjaudit.frozen.quick_init`` builds by
# swapping ``__class__``, which a compiled class cannot do.
COMPILED = [
    "analyzer/engine/round_state.py",
    "analyzer/engine/replay.py",
    "analyzer/engine/kan_dora.py",
    "analyzer/engine/wall.py",
    "analyzer/review/furiten.py",
    "analyzer/hands/hand.py",
    "analyzer/hands/readings.py",
    "analyzer/hands/fu.py",
    "analyzer/hands/scoring.py",
    "analyzer/hands/points.py",
    "analyzer/hands/yaku_shapes.py",
    "analyzer/hands/yaku_situational.py",
    "analyzer/hands/yaku_yakuman.py",
    "parsers/tenhou_xml.py",
    # score --batch: reading a case and writing its answer (analyzer/checks/cases.py,
    # the export, stays out: it names the audit's classes only for the type checker).
    "analyzer/checks/case_scoring.py",
    "analyzer/checks/case_results.py",
    "mjaudit/tile_set.py",
]
# The shared library that holds them all (``mjaudit_compiled__mypyc.*.so``).
GROUP = "mjaudit_compiled"
PACKAGES = ("mjaudit", "parsers", "analyzer", "reports")
# What mypyc type-checks against, when pip builds in an isolated environment.
BUILD_NEEDS = ["mypy>=1.8", "lxml>=4.9", "lxml-stubs>=0.5"]

ROOT = Path(__file__).resolve().parent


def _wanted() -> bool:
    return os.environ.get("MJAUDIT_COMPILE", "").strip().lower() not in ("", "0", "no", "false")


def _warn(why: str) -> None:
    # A failed compiler command is quoted whole (every flag): its name is enough.
    why = re.sub(r"Command '\['([^']*)'[^]]*\]'", r"command '\1 ...'", why).rstrip(".")
    print(
        f"warning: mjaudit: the compiled build was not made ({why}); installing pure Python",
        file=sys.stderr,
        flush=True,
    )


def _building() -> bool:
    """Whether this run of setup.py builds code (not only metadata or requirements)."""
    return any(
        cmd in sys.argv
        for cmd in ("build", "build_ext", "bdist_wheel", "editable_wheel", "develop", "install")
    )


def _stale_extensions() -> list[Path]:
    """Extension modules an earlier compiled build left beside the sources.

    The project has no native code of its own: every one of them is such a leftover.
    """
    found = list(ROOT.glob(f"{GROUP}__mypyc.*"))
    for package in PACKAGES:
        found += (ROOT / package).rglob("*.so")
        found += (ROOT / package).rglob("*.pyd")
    return found


def _mypyc_extensions() -> list[Extension]:
    """mypyc's extension modules for ``COMPILED``, or none (with a warning)."""
    try:
        from mypyc.build import mypycify
    except ImportError as exc:
        _warn(f"mypyc cannot be imported: {exc}")
        return []
    try:
        extensions: list[Extension] = mypycify(COMPILED, group_name=GROUP, opt_level="3")
    except SystemExit as exc:  # how mypyc stops on a type error, or a message
        _warn(f"mypyc failed: {exc.code if isinstance(exc.code, str) else 'see the errors above'}")
        return []
    except Exception as exc:
        _warn(f"mypyc failed: {type(exc).__name__}: {exc}")
        return []
    return extensions


class OptionalBuildExt(build_ext):
    """build_ext that gives up as a whole, with one warning, when compiling fails.

    All or nothing: the modules share one library, so a half-built set must not be
    installed either.
    """

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:
            _warn(f"compiling failed: {type(exc).__name__}: {exc}")
            for path in self.get_outputs():
                Path(path).unlink(missing_ok=True)
            self.extensions = []

    def get_outputs(self) -> list[str]:
        return list(super().get_outputs()) if self.extensions else []


def _options() -> dict[str, Any]:
    if _building():
        # Whatever comes next, extension modules an earlier compiled build left beside
        # the sources must go: Python would load them in place of the sources.
        for path in _stale_extensions():
            path.unlink()
    if not _wanted():
        return {}
    if not _building():
        # Asked for the build requirements (pip's isolated build environment).
        return {"setup_requires": BUILD_NEEDS}
    return {"ext_modules": _mypyc_extensions(), "cmdclass": {"build_ext": OptionalBuildExt}}


setup(**_options())
