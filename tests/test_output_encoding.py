"""Output to a stream that cannot hold every character (a Windows program's output
redirected to a file is in the system's code page, cp1252 say): names in Japanese or
with an emoji are written as ``\\uXXXX`` escapes, never a traceback. In JSON the
escapes are JSON's own, so the document reads back with the very same names."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SAMPLE = REPO / "sample_logs" / "clean_game.xml"
GRIN = "\U0001f600"


@pytest.fixture()
def log(tmp_path: Path) -> Path:
    # A player named with a Japanese word and one with an emoji (outside the BMP).
    xml = SAMPLE.read_text(encoding="utf-8")
    assert 'n1="%42%65%6E"' in xml and "%E3%81%95" in xml
    path = tmp_path / "game.xml"
    path.write_text(xml.replace('n1="%42%65%6E"', 'n1="%F0%9F%98%80"'), encoding="utf-8")
    return path


def _run(encoding: str, *args: str) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "PYTHONIOENCODING": encoding}
    return subprocess.run(
        [sys.executable, "-m", "mjaudit", *args], capture_output=True, env=env, cwd=REPO
    )


@pytest.mark.parametrize("encoding", ["cp1252", "cp932", "latin-1"])
def test_text_output_in_a_narrow_code_page(log: Path, encoding: str) -> None:
    done = _run(encoding, "replay", str(log))
    assert done.returncode == 0, done.stderr.decode(encoding, "replace")
    assert b"Traceback" not in done.stderr
    text = done.stdout.decode(encoding)
    assert "\\ud83d\\ude00" in text  # the emoji, as a JSON-style escape
    if encoding != "cp932":
        assert "\\u3055\\u304f\\u3089" in text  # さくら
    else:
        assert "さくら" in text  # the code page holds it


def test_json_output_reads_back_with_the_same_names(log: Path) -> None:
    named = log.with_name(f"さくら{GRIN}.xml")
    log.rename(named)
    wide = _run("utf-8", "audit", "--format", "json", str(named))
    narrow = _run("cp1252", "audit", "--format", "json", str(named))
    assert narrow.returncode == wide.returncode == 0, narrow.stderr
    assert narrow.stdout.isascii()
    doc = json.loads(narrow.stdout.decode("cp1252"))
    assert doc == json.loads(wide.stdout)
    assert doc["files"][0]["path"] == str(named)
