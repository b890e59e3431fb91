"""The examples in the modules' docstrings run, and give what they say."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

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


@pytest.mark.parametrize("name", _modules())
def test_module_examples(name: str) -> None:
    try:
        module = importlib.import_module(name)
    except ImportError as exc:  # an optional dependency (dask) that is not installed
        pytest.skip(f"{name}: {exc}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_some_modules_have_examples() -> None:
    attempted = sum(
        doctest.testmod(importlib.import_module(n), report=False).attempted
        for n in (
            "mjaudit.tiles",
            "analyzer.hands.hand",
            "analyzer.hands.scoring",
            "analyzer.engine.wall",
        )
    )
    assert attempted >= 4
