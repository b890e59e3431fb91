"""The sample logs are what sample_logs/build_samples.py writes, and audit as designed."""

from __future__ import annotations

import importlib.util
import json
from collections.abc import Callable
from pathlib import Path

import pytest

from mjaudit.errors import SourcePos
from mjaudit.events import Discard, DrawTile, Event, GameLog, RoundStart, with_pos
from parsers.tenhou_xml import parse_tenhou_xml
from parsers.tenhou_xml_writer import write_tenhou_xml
from reports.cli import main
from tests.builders import GameBuilder

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "sample_logs"
CLEAN = ("clean_game.xml", "kans.xml")
BROKEN = "broken_dora.xml"


def _load_script() -> tuple[Callable[[], dict[str, bytes]], dict[str, Callable[[], GameLog]]]:
    spec = importlib.util.spec_from_file_location("build_samples", SAMPLES / "build_samples.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    render: Callable[[], dict[str, bytes]] = module.render
    makers: dict[str, Callable[[], GameLog]] = module.SAMPLES
    return render, makers


RENDER, MAKERS = _load_script()


def _without_pos(events: tuple[Event, ...]) -> list[Event]:
    nowhere = SourcePos("", 0)
    return [with_pos(ev, nowhere) for ev in events]


def test_committed_files_match_the_script() -> None:
    for name, data in RENDER().items():
        committed = (SAMPLES / name).read_bytes()
        assert committed == data, (
            f"sample_logs/{name} is stale: run python sample_logs/build_samples.py"
        )


@pytest.mark.parametrize("name", [*CLEAN, BROKEN])
def test_built_games_survive_the_writer(name: str) -> None:
    log = MAKERS[name]()
    again = parse_tenhou_xml(write_tenhou_xml(log), log.path)
    assert _without_pos(again.events) == _without_pos(log.events)


def _audit_json(capsys: pytest.CaptureFixture[str], *names: str) -> tuple[int, dict[str, object]]:
    code = main(["audit", "--format", "json", *(str(SAMPLES / n) for n in names)])
    out = capsys.readouterr().out
    report: dict[str, object] = json.loads(out)
    return code, report


def test_clean_samples_audit_clean(capsys: pytest.CaptureFixture[str]) -> None:
    code, report = _audit_json(capsys, *CLEAN)
    errors = [f for f in report["findings"] if f["severity"] == "error"]  # type: ignore[attr-defined]
    assert errors == []
    assert code == 0


def test_broken_dora_sample_reports_dora_timing(capsys: pytest.CaptureFixture[str]) -> None:
    code, report = _audit_json(capsys, BROKEN)
    codes = [f["code"] for f in report["findings"] if f["severity"] == "error"]  # type: ignore[attr-defined]
    assert codes == ["dora-timing"]
    assert code == 1


def test_builder_gives_unique_ids_and_red_fives() -> None:
    b = GameBuilder()
    b.start_round(
        ["0m55m123p456s1122z", "123m456p789s1122z", "123m456p789s3344z", "123m456p789s3344z"],
        dora="5m",
    )
    b.turn(0, "0p")
    log = b.build()
    start = log.events[1]
    assert isinstance(start, RoundStart) and start.hand_ids is not None
    assert start.hand_ids[0][:3] == (16, 17, 18)  # red 5m is copy 0, plain fives 1..
    assert start.dora_indicator_id == 19
    ids = [i for h in start.hand_ids for i in h] + [19]
    assert len(set(ids)) == len(ids) == 53
    draw, discard = log.events[2], log.events[3]
    assert isinstance(draw, DrawTile) and draw.tile_id == 52
    assert isinstance(discard, Discard) and discard.tsumogiri
    with pytest.raises(ValueError, match="no copy of 5m left"):
        b.draw(1, "5m")
