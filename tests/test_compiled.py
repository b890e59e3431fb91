"""The compiled build (setup.py, ``MJAUDIT_COMPILE=1``): what it compiles is what
runs, it audits exactly as the pure sources do, and a compile that fails installs
pure Python with one warning."""

from __future__ import annotations

import ast
import importlib
import os
import shutil
import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

import mjaudit
from tests.conftest import CORPUS, REPO, SAMPLES

COMPILED = mjaudit.compiled_modules()
needs_compiled = pytest.mark.skipif(
    not COMPILED,
    reason="pure Python build: install with MJAUDIT_COMPILE=1 (README) to test the compiled one",
)


def _setup_list() -> list[str]:
    """setup.py's ``COMPILED``, as module names."""
    tree = ast.parse((REPO / "setup.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "COMPILED" for t in node.targets
        ):
            paths = ast.literal_eval(node.value)
            return [p.removesuffix(".py").replace("/", ".") for p in paths]
    raise AssertionError("setup.py has no COMPILED list")


def test_build_info_names_the_build() -> None:
    expected = f"compiled (mypyc): {len(COMPILED)} modules" if COMPILED else "pure Python"
    assert mjaudit.build_info() == expected
    out = subprocess.run(
        [sys.executable, "-m", "mjaudit", "--version"],
        capture_output=True,
        text=True,
        check=True,
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    ).stdout
    assert out.splitlines() == [f"mjaudit, version {mjaudit.__version__}", expected]


@needs_compiled
def test_the_listed_modules_are_the_compiled_ones_and_are_loaded() -> None:
    assert sorted(_setup_list()) == list(COMPILED)
    for name in COMPILED:
        module = importlib.import_module(name)
        assert module.__file__ is not None
        assert module.__file__.endswith(tuple(EXTENSION_SUFFIXES)), name


# Runs the command line with the compiled modules' sources instead of their
# extension modules: a finder ahead of the usual ones gives each of them its .py.
_PURE_MAIN = """
import importlib.util, sys
from pathlib import Path

COMPILED = set(sys.argv[1].split(","))


class SourcesFirst:
    @staticmethod
    def find_spec(name, path=None, target=None):
        if name not in COMPILED:
            return None
        for folder in path or ():
            source = Path(folder) / (name.rpartition(".")[2] + ".py")
            if source.is_file():
                return importlib.util.spec_from_file_location(name, source)
        return None


sys.meta_path.insert(0, SourcesFirst)
from reports.cli import main

sys.argv[1:2] = []
code = main()
loaded = [sys.modules[n].__file__ for n in sorted(COMPILED) if n in sys.modules]
assert loaded and all(f.endswith(".py") for f in loaded), loaded
sys.exit(code)
"""


def _inputs() -> list[str]:
    """A few games of each format (the sample logs where the corpus is absent)."""
    picked: list[Path] = []
    for sub, pattern, n in (
        ("tenhou-xml", "*.xml", 6),
        ("tenhou-json", "*.json", 2),
        ("mjai", "*.json*", 2),
        ("mahjongsoul", "*.txt", 2),
    ):
        picked += sorted((CORPUS / sub).rglob(pattern))[:n] if (CORPUS / sub).is_dir() else []
    picked += sorted(SAMPLES.glob("*.xml"))
    return [str(p) for p in picked]


@needs_compiled
def test_the_compiled_audit_is_the_pure_audit() -> None:
    args = ["audit", "--format", "json", "-j", "1", "--fail-on", "never", *_inputs()]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    compiled = subprocess.run(
        [sys.executable, "-m", "mjaudit", *args], capture_output=True, cwd=REPO, env=env
    )
    pure = subprocess.run(
        [sys.executable, "-c", _PURE_MAIN, ",".join(COMPILED), *args],
        capture_output=True,
        cwd=REPO,
        env=env,
    )
    assert pure.returncode == compiled.returncode == 0, pure.stderr.decode()
    assert b'"findings"' in compiled.stdout
    assert compiled.stdout == pure.stdout


def test_a_compile_that_fails_leaves_pure_python_and_one_warning(tmp_path: Path) -> None:
    pytest.importorskip("mypyc", reason="mypyc ships with mypy, a dev dependency")
    copy = tmp_path / "mjaudit"
    shutil.copytree(
        REPO,
        copy,
        ignore=shutil.ignore_patterns(
            ".git", "build", "tests", "*.so", "*.pyd", "__pycache__", ".*_cache", "*.egg-info"
        ),
    )
    env = {**os.environ, "MJAUDIT_COMPILE": "1", "CC": "false", "PYTHONPATH": str(copy)}
    build = subprocess.run(
        [sys.executable, "setup.py", "build_ext", "--inplace"],
        capture_output=True,
        text=True,
        cwd=copy,
        env=env,
    )
    assert build.returncode == 0, build.stderr
    warnings = [line for line in build.stderr.splitlines() if line.startswith("warning: mjaudit")]
    assert len(warnings) == 1, build.stderr
    assert "compiling failed" in warnings[0] and "installing pure Python" in warnings[0]
    assert not [p for p in copy.rglob("*") if p.name.endswith((".so", ".pyd"))]
    info = subprocess.run(
        [sys.executable, "-c", "import mjaudit; print(mjaudit.build_info())"],
        capture_output=True,
        text=True,
        check=True,
        cwd=copy,
        env=env,
    )
    assert info.stdout.strip() == "pure Python"
