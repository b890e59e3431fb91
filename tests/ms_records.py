"""Mahjong Soul records of the corpus, for the tests: where they are, read and edited.

The records are in ../shared/corpus/mahjongsoul (SOURCES.md): decoded
GameDetailRecords (``raw-gdr``) and the older ``{meta, records}`` form
(``raw-records``). A test that needs one skips, visibly, where the corpus is absent.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import CORPUS

MS = CORPUS / "mahjongsoul"
GDR_4P = "raw-gdr/mahjongsoul_paifu_230921-0a39a19b-4820-4b40-9fda-dd5481d023e4.txt"
GDR_3P = (
    "raw-gdr/sanma_cpu_emoji_mahjongsoul_paifu_231215-4940479a-5f4b-43bb-a2a2-de1402258f39.json"
)


def ms_path(name: str) -> Path:
    """A record of the corpus by its path below ../shared/corpus/mahjongsoul."""
    path = MS / name
    if not path.exists():
        pytest.skip(f"corpus not available: {path} (CI has ../shared beside the repo)")
    return path


def raw_files() -> list[Path]:
    """The 30 raw records: GameDetailRecords first, then the older form."""
    if not MS.is_dir():
        pytest.skip(f"corpus not available: {MS}")
    return sorted((MS / "raw-gdr").iterdir()) + sorted((MS / "raw-records").iterdir())


def ms_doc(name: str) -> Any:
    """A record's JSON document, to edit in memory."""
    return json.loads(ms_path(name).read_text(encoding="utf-8-sig"))


def ms_records(doc: Any) -> list[tuple[str, dict[str, Any]]]:
    """(name, data) of every record, whichever layout, for editing in place."""
    if "records" in doc:
        return [(r["name"].removeprefix(".lq."), r["data"]) for r in doc["records"]]
    return [
        (a["result"]["name"].removeprefix(".lq."), a["result"]["data"])
        for a in doc["data"]["data"]["actions"]
        if a.get("type") == 1
    ]
