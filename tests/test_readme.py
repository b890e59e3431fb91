"""The README's Python tour is run as a doctest, from the repository root."""

from __future__ import annotations

import doctest
import os

from tests.conftest import REPO


def test_readme_examples() -> None:
    old = os.getcwd()
    os.chdir(REPO)
    try:
        result = doctest.testfile(str(REPO / "README.md"), module_relative=False)
    finally:
        os.chdir(old)
    assert result.attempted > 0 and result.failed == 0
