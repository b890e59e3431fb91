"""The examples in the modules' docstrings run, and give what they say."""

from __future__ import annotations

import doctest
import importlib
import importlib.util
import pkgutil
from pathlib import Path
from types import ModuleType

import pytest

PACKAGES = ("mjaudit", "parsers", "analyzer", "reports")


def _modules() -> list[str]:
    names = []
    for package in PACKAGES:
        pkg = importlib.import_module(package)
        for info in pkgutil.walk_packages(pkg.__path__, f"{package}."):
            if not info.name.endswith("__main__"):  # runs the command line when imported
                names.append(info.name)
    return sorted(names)


def _with_examples(name: str) -> ModuleType:
    """The module, or for one the compiled build loads (setup.py), a copy run from its
    source: mypyc keeps no docstrings."""
    module = importlib.import_module(name)
    path = Path(module.__file__ or "")
    if path.suffix == ".py":
        return module
    spec = importlib.util.spec_from_file_location(
        name, path.parent / f"{path.name.split('.')[0]}.py"
    )
    assert spec is not None and spec.loader is not None
    source = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(source)
    return source


@pytest.mark.parametrize("name", _modules())
def test_module_examples(name: str) -> None:
    try:
        module = _with_examples(name)
    except ImportError as exc:  # an optional dependency (dask) that is not installed
        pytest.skip(f"{name}: {exc}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_some_modules_have_examples() -> None:
    attempted = sum(
        doctest.testmod(_with_examples(n), report=False).attempted
        for n in (
            "mjaudit.tiles",
            "analyzer.hands.hand",
            "analyzer.hands.scoring",
            "analyzer.engine.wall",
        )
    )
    assert attempted >= 4
