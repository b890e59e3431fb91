"""``mjaudit score``: the contract of ARCHITECTURE.md §5, text and JSON."""

from __future__ import annotations

import json
from typing import Any

import pytest

from reports.cli import main


def _json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, Any]]:
    code = main(["score", *argv, "--format", "json"])
    return code, json.loads(capsys.readouterr().out)


def test_the_architecture_example(capsys: pytest.CaptureFixture[str]) -> None:
    code, doc = _json(
        capsys, "234m567p22345678s", "--win", "8s", "--ron", "--riichi", "--dora", "1m"
    )
    assert code == 0
    assert (doc["han"], doc["fu"], doc["total"], doc["dora"]) == (4, 30, 7700, 1)
    assert doc["payments"] == {"discarder": 7700}
    assert [y["name"] for y in doc["yaku"]] == ["riichi", "pinfu", "tanyao"]
    parts = doc["fu_parts"]
    assert isinstance(parts, list) and sum(p["fu"] for p in parts) == 30
    assert set(doc) == {
        "han",
        "fu",
        "yakuman",
        "limit",
        "yaku",
        "dora",
        "aka",
        "ura",
        "kita",
        "fu_parts",
        "total",
        "payments",
        "received",
    }
    assert doc["received"] == 7700  # no honba, no sticks


def test_dealer_tsumo_and_non_dealer_tsumo(capsys: pytest.CaptureFixture[str]) -> None:
    # menzen tsumo, pinfu, tanyao: 3 han 20 fu.
    _, dealer = _json(capsys, "234m567p22345678s", "--win", "8s", "--tsumo", "--seat-wind", "E")
    assert dealer["payments"] == {"non_dealer": 1300} and dealer["total"] == 3900
    _, child = _json(capsys, "234m567p22345678s", "--win", "8s", "--tsumo")
    assert child["payments"] == {"dealer": 1300, "non_dealer": 700} and child["total"] == 2700


def test_melds_and_kans(capsys: pytest.CaptureFixture[str]) -> None:
    code, doc = _json(
        capsys,
        "22m",
        "--win",
        "2m",
        "--ron",
        "--meld",
        "pon:777p",
        "--meld",
        "chi:234s",
        "--meld",
        "kakan:5555z",
        "--meld",
        "ankan:1111z",
    )
    assert code == 0 and doc["fu"] == 80 and doc["han"] == 2


def test_not_a_win_exits_1_with_an_error_document(capsys: pytest.CaptureFixture[str]) -> None:
    code, doc = _json(capsys, "123m456p789s13577z", "--win", "7z", "--ron")
    assert code == 1 and doc["error"] == "not-a-winning-hand"
    # (A hand of the wrong size is bad usage, exit 2: tests/test_malformed.py.)
    code, doc = _json(capsys, "234m567p22345s", "--win", "5s", "--ron", "--meld", "chi:123p")
    assert code == 1 and doc["error"] in ("not-a-winning-hand", "no-yaku-win")


def test_no_yaku(capsys: pytest.CaptureFixture[str]) -> None:
    code, doc = _json(capsys, "123m456p123s55s", "--win", "5s", "--ron", "--meld", "chi:789p")
    assert code == 1 and doc["error"] == "no-yaku-win"


def test_bad_usage_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "234m567p22345678s", "--win", "9s", "--ron"]) == 2
    assert main(["score", "23x", "--win", "2m", "--ron"]) == 2
    assert main(["score", "234m567p22345678s", "--win", "8s", "--ron", "--meld", "pon:123m"]) == 2


def test_text_output(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "234m567p22345678s", "--win", "8s", "--ron", "--riichi"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("3 han 30 fu: 3900 points, ron 3900") and "pinfu" in out


def test_honba_and_sticks_are_paid(capsys: pytest.CaptureFixture[str]) -> None:
    # Ron: 2000 + 2 honba x 300 from the discarder, + 1 stick to the winner.
    _, doc = _json(
        capsys, "234m567p22345678s", "--win", "8s", "--ron", "--honba", "2", "--sticks", "1"
    )
    assert doc["total"] == 2000  # the hand's value, without honba and sticks
    assert doc["payments"] == {"discarder": 2600} and doc["received"] == 3600
    # Tsumo: 100 a honba from each payer.
    _, doc = _json(capsys, "234m567p22345678s", "--win", "8s", "--tsumo", "--honba", "1")
    assert doc["payments"] == {"dealer": 1400, "non_dealer": 800} and doc["received"] == 3000
    _, doc = _json(
        capsys,
        "234m567p22345678s",
        "--win",
        "8s",
        "--tsumo",
        "--seat-wind",
        "E",
        "--honba",
        "3",
        "--sticks",
        "2",
    )
    assert doc["payments"] == {"non_dealer": 1600} and doc["received"] == 6800


def test_honba_and_sticks_in_the_text(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["score", "234m567p22345678s", "--win", "8s", "--ron", "--honba", "1", "--sticks", "2"]
    assert main(argv) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "2 han 30 fu: 2000 points, ron 2000"
    assert out[1] == "with 1 honba, 2 sticks: ron 2300, the winner receives 4300"


def test_three_player_preset_scores_as_sanma(capsys: pytest.CaptureFixture[str]) -> None:
    # Tsumo-son: a non-dealer's tsumo collects from two payers only; honba 100 from each.
    _, doc = _json(
        capsys,
        "234p567p22345678s",
        "--win",
        "8s",
        "--tsumo",
        "--rules",
        "tenhou-sanma",
        "--honba",
        "2",
    )
    assert doc["payments"] == {"dealer": 1500, "non_dealer": 900} and doc["received"] == 2400
    _, doc = _json(
        capsys,
        "234p567p22345678s",
        "--win",
        "8s",
        "--tsumo",
        "--rules",
        "worldatplay-sanma",
        "--honba",
        "2",
    )
    assert doc["payments"] == {"dealer": 1500, "non_dealer": 900}


def test_renhou_flag_follows_the_rules(capsys: pytest.CaptureFixture[str]) -> None:
    hand = ["234m567p22345678s", "--win", "8s", "--ron", "--renhou"]
    _, doc = _json(capsys, *hand, "--rules", "ema")
    assert (doc["total"], doc["limit"], doc["yaku"]) == (
        8000,
        "mangan",
        [{"name": "renhou", "han": 5}],
    )
    _, doc = _json(capsys, *hand)  # Tenhou: no renhou
    assert doc["total"] == 2000
    _, doc = _json(capsys, *hand, "--rules", "wrc")  # cumulative: 7 han
    assert doc["total"] == 12000


def test_indicators_the_rules_cannot_have_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    hand = ["score", "234m567p22345678s", "--win", "8s", "--ron", "--riichi"]
    # JPML: no kan dora, no ura dora (seed 000).
    assert main([*hand, "--rules", "jpml", "--dora", "1m", "--dora", "1s"]) == 2
    assert "no kan dora" in capsys.readouterr().err
    assert main([*hand, "--rules", "jpml", "--ura", "1m"]) == 2
    assert "no ura dora" in capsys.readouterr().err
    assert main([*hand, "--rules", "jpml", "--dora", "1m"]) == 0
    # WRC: no red fives.
    assert main(["score", "234m067p22345678s", "--win", "8s", "--ron", "--rules", "wrc"]) == 2
    assert "red" in capsys.readouterr().err
    # Tenhou has them all.
    assert main([*hand, "--dora", "1m", "--dora", "1s", "--ura", "2p"]) == 0


def test_readme_score_examples(capsys: pytest.CaptureFixture[str]) -> None:
    """Every ``mjaudit score`` line of the README runs, and prints the ``# `` lines
    written under it."""
    import shlex

    from tests.conftest import REPO

    lines = (REPO / "README.md").read_text(encoding="utf-8").splitlines()
    ran = 0
    for k, line in enumerate(lines):
        if not line.startswith("mjaudit score "):
            continue
        assert main(shlex.split(line)[1:]) == 0, line
        out = capsys.readouterr().out.splitlines()
        shown = []
        for follow in lines[k + 1 :]:
            if not follow.startswith("# "):
                break
            shown.append(follow[2:])
        assert out[: len(shown)] == shown, line
        ran += 1
    assert ran >= 3


def test_score_with_the_league_presets(capsys: pytest.CaptureFixture[str]) -> None:
    hand = ["234m567p22345678s", "--win", "8s", "--ron", "--riichi", "--honba", "2"]
    # RMU: ura dora, kiriage (as wrc), 300 a honba: 4 han 30 fu, 8000 + 600.
    code, doc = _json(capsys, *hand, "--ura", "1m", "--rules", "rmu")
    assert code == 0
    assert (doc["han"], doc["fu"], doc["total"], doc["payments"]) == (
        4,
        30,
        8000,
        {"discarder": 8600},
    )
    # mu: no counters are paid, and --ura is refused (no ura dora).
    code, doc = _json(capsys, *hand, "--rules", "mu")
    assert code == 0
    assert (doc["han"], doc["total"], doc["payments"]) == (3, 3900, {"discarder": 3900})
    assert main(["score", *hand, "--ura", "1m", "--rules", "mu"]) == 2
    assert "the rules mu have no ura dora" in capsys.readouterr().err
    # saikouisen: a four-player preset (no --players needed), 300 a honba.
    code, doc = _json(capsys, *hand, "--ura", "1m", "--rules", "saikouisen")
    assert (code, doc["total"], doc["payments"]) == (0, 8000, {"discarder": 8600})


_HAITEI = "--haitei is a tsumo on the wall's last tile (a ron on the last discard is --houtei)"
_HOUTEI = "--houtei is a ron on the last discard (a tsumo on the last tile is --haitei)"
_TENHOU = "--tenhou is the dealer's tsumo on the first draw"
_CHIIHOU = "--chiihou is a non-dealer's tsumo on the first draw"


@pytest.mark.parametrize(
    ("flags", "said"),
    [
        (["--ron", "--rinshan"], "--rinshan is a win on a kan's replacement tile: a tsumo"),
        (["--ron", "--haitei"], _HAITEI),
        (["--tsumo", "--houtei"], _HOUTEI),
        (["--tsumo", "--chankan"], "--chankan is a ron on a tile added to a kan"),
        (["--ron", "--tenhou", "--seat-wind", "E"], _TENHOU),
        (["--tsumo", "--tenhou"], _TENHOU),
        (["--ron", "--chiihou"], _CHIIHOU),
        (["--tsumo", "--chiihou", "--seat-wind", "E"], _CHIIHOU),
        (["--tsumo", "--renhou"], "--renhou is a non-dealer's ron before their first draw"),
        (["--ron", "--ippatsu"], "--ippatsu needs --riichi or --double-riichi"),
    ],
)
def test_a_situation_that_cannot_be_is_refused(
    flags: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # These were scored as if the flag had not been given, without a word.
    code = main(["score", "234m567p22345678s", "--win", "8s", *flags])
    assert code == 2
    assert capsys.readouterr().err.strip() == f"mjaudit: {said}"


_DORA = ["--dora", "1m", "--dora", "2m", "--dora", "3m", "--dora", "4p", "--dora", "5p"]


@pytest.mark.parametrize(
    ("flags", "said"),
    [
        ([*_DORA, "--dora", "6p"], "6 --dora indicators: at most 5 (the first and one per kan)"),
        (["--dora", "1m", "--ura", "2m"], "--ura needs --riichi or --double-riichi"),
        (["--riichi", "--dora", "1m", "--ura", "2m", "--ura", "3m"],
         "2 --ura indicators for 1 --dora: one lies under each dora indicator"),
    ],
)  # fmt: skip
def test_indicators_that_cannot_be_are_refused(
    flags: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # Six indicators gave a baiman without a kan; ura without riichi were dropped.
    assert main(["score", "234m567p22345678s", "--win", "8s", "--ron", *flags]) == 2
    assert capsys.readouterr().err.strip() == f"mjaudit: {said}"


@pytest.mark.parametrize(
    ("flags", "said"),
    [
        (["--ron", "--riichi"], "--riichi needs a closed hand (a chi, pon or open kan opens it)"),
        (["--ron", "--double-riichi"],
         "--double-riichi needs a closed hand (a chi, pon or open kan opens it)"),
        (["--tsumo", "--chiihou"], "--chiihou is a win on the first draw: the winner has no melds"),
    ],
)  # fmt: skip
def test_riichi_or_a_first_draw_win_with_a_call_is_refused(
    flags: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # A riichi with a chi was scored with its han, and a chiihou with one as a yakuman.
    hand = ["234m567p22s678s", "--meld", "chi:345s", "--win", "8s"]
    assert main(["score", *hand, *flags]) == 2
    assert capsys.readouterr().err.strip() == f"mjaudit: {said}"
    # A concealed kan keeps the hand closed.
    closed = ["234m567p22s678s", "--meld", "ankan:9999m", "--win", "8s", "--ron", "--riichi"]
    assert main(["score", *closed]) == 0


_TSUMO_HAND = ["111m234p567p22345s", "--win", "5s", "--tsumo"]


@pytest.mark.parametrize(
    ("flags", "said"),
    [
        # Paid as if the North seat were the dealer: "dealer": -4000 in the payments.
        (["--rules", "tenhou-sanma", "--seat-wind", "N"],
         "--seat-wind N: a three-player game has no North seat"),
        # Scored with a kita han in a four-player game.
        (["--meld", "kita:4z"], "--meld kita: a North is set aside in three-player games only"),
        # Rinshan's han with no kan to draw a replacement tile for.
        (["--rinshan"], "--rinshan is a win on a kan's replacement tile: the hand has no kan"),
        (["--rinshan", "--meld", "kita:4z", "--rules", "worldatplay-sanma"],
         "--rinshan: the hand has no kan, and the rules worldatplay-sanma do not count "
         "the tile drawn for a kita as rinshan"),
        (["--chiihou", "--riichi"],
         "--chiihou is a win before the winner's first discard: no riichi was declared"),
    ],
)  # fmt: skip
def test_a_situation_the_table_cannot_have_is_refused(
    flags: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["score", *_TSUMO_HAND, *flags]) == 2
    assert capsys.readouterr().err.strip() == f"mjaudit: {said}"


@pytest.mark.parametrize(
    ("flags", "said"),
    [
        # A sanbaiman of riichi, ippatsu and renhou for a ron before any discard.
        (["--renhou", "--riichi", "--ippatsu", "--rules", "wrc"],
         "--renhou is a win before the winner's first discard: no riichi was declared"),
        (["--renhou", "--double-riichi", "--rules", "wrc"],
         "--renhou is a win before the winner's first discard: no riichi was declared"),
        (["--houtei", "--chankan"],
         "--chankan robs a tile added to a kan, --houtei wins on the last discard: not both"),
    ],
)  # fmt: skip
def test_a_ron_the_table_cannot_have_is_refused(
    flags: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["score", "234m567p22345678s", "--win", "8s", "--ron", *flags]) == 2
    assert capsys.readouterr().err.strip() == f"mjaudit: {said}"


def test_rinshan_with_a_kan_or_a_kita_the_rules_count(capsys: pytest.CaptureFixture[str]) -> None:
    kan = ["234m567p22s678s", "--meld", "ankan:9999m", "--win", "8s", "--tsumo", "--rinshan"]
    code, doc = _json(capsys, *kan)
    assert code == 0 and {"name": "rinshan", "han": 1} in doc["yaku"]
    # Tenhou's sanma: the tile drawn for a kita wins as rinshan (kita_rinshan).
    kita = [*_TSUMO_HAND, "--rinshan", "--meld", "kita:4z", "--rules", "tenhou-sanma"]
    code, doc = _json(capsys, *kita)
    assert code == 0 and {"name": "rinshan", "han": 1} in doc["yaku"]
    assert doc["kita"] == 1
