"""The board's steps replay to what the audit's replay holds, at every step of the corpus.

The report carries each round as its deal and one small step per event
(reports/views_board.py); tests/board_oracle.py snapshots the audit's own replay
after every event. Replayed in Python (the same operations the page's script
applies; tests/test_report_browser.py checks the script against the same
snapshots), the steps must give those snapshots: every wait of a tenpai hand, each
kan's dora indicator from the step the log turns it, the tiles, scores and sticks.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from mjaudit.events import DeclareMeld, DoraReveal, GameLog, RoundStart
from mjaudit.melds import MeldKind
from parsers import load
from reports.views_board import BoardState, split_tokens, tile_group
from tests.board_oracle import Snapshot, replayed, watch
from tests.conftest import SAMPLES, corpus_logs


def _load(path: Path) -> GameLog | None:
    try:
        return load(str(path))
    except Exception:  # not a log (the corpus's notes), or a log no format reads
        return None


def _compare(log: GameLog) -> tuple[int, int]:
    """Every step of every round; returns (steps compared, tenpai states with 2+ waits)."""
    watched = watch(log)
    assert len(watched.boards) == len(watched.snapshots)
    steps = multi = 0
    for board, snaps, label in zip(watched.boards, watched.snapshots, watched.labels, strict=True):
        got = replayed(board)
        assert len(got) == len(snaps) == len(board.captions) == len(board.events)
        for k, (have, want) in enumerate(zip(got, snaps, strict=True)):
            if label in watched.dora_timing_rounds:
                # The log turned an indicator off its time: the board shows the rules'
                # slots (face down where one is owed), not simply the log's order.
                have, want = dict(have, dora=""), dict(want, dora="")
            assert have == want, f"{log.path} {label} step {k} ({board.captions[k]})"
            steps += 1
            multi += sum(1 for w in want["waits"] if len(split_tokens(w)) > 1)
        # The board shown without script is the last step's.
        assert replayed(board)[-1] == got[-1]
    return steps, multi


def test_sample_boards_replay_to_the_audits_states() -> None:
    for path in sorted(SAMPLES.glob("*.xml")):
        steps, _ = _compare(load(str(path)))
        assert steps > 100


@pytest.mark.corpus
def test_corpus_boards_replay_to_the_audits_states() -> None:
    games = steps = multi = 0
    xml = 0
    for path in corpus_logs():
        if path.suffix == ".xml":
            # Every format's every game, but one Tenhou XML game in three: the
            # snapshots cost more than the audit itself.
            xml += 1
            if xml % 3 != 1:
                continue
        log = _load(path)
        if log is None:
            continue
        s, m = _compare(log)
        games += 1
        steps += s
        multi += m
    print(f"{games} games, {steps} steps, {multi} tenpai seats with 2+ waits")
    assert games > 200
    assert steps > 150_000
    assert multi > 50_000  # tenpai seats waiting on two or more tiles, each shown whole


def _kan_reveals(log: GameLog) -> list[tuple[int, int, MeldKind]]:
    """(round number, event index, kind of the kan) of every indicator the log turns."""
    out: list[tuple[int, int, MeldKind]] = []
    round_no = -1
    last_kan: MeldKind | None = None
    for index, ev in enumerate(log.events):
        if isinstance(ev, RoundStart):
            round_no += 1
            last_kan = None
        elif isinstance(ev, DeclareMeld) and ev.meld.kind in (
            MeldKind.ANKAN,
            MeldKind.DAIMINKAN,
            MeldKind.KAKAN,
        ):
            last_kan = ev.meld.kind
        elif isinstance(ev, DoraReveal) and last_kan is not None:
            out.append((round_no, index, last_kan))
    return out


def _dora_at(board_steps: list[Snapshot], k: int) -> list[str]:
    return split_tokens(str(board_steps[k]["dora"]))


@pytest.mark.corpus
def test_the_dora_row_gains_each_kans_indicator_at_the_step_the_log_turns_it() -> None:
    seen: set[tuple[int, MeldKind]] = set()
    checked = 0
    for path in corpus_logs():
        log = _load(path)
        if log is None:
            continue
        reveals = _kan_reveals(log)
        if not reveals:
            continue
        watched = watch(log)
        for round_no, index, kind in reveals:
            if watched.labels[round_no] in watched.dora_timing_rounds:
                continue
            board = watched.boards[round_no]
            k = board.events.index(index)
            steps = replayed(board)
            reveal = log.events[index]
            assert isinstance(reveal, DoraReveal)
            indicator = str(reveal.indicator)
            before, at = _dora_at(steps, k - 1), _dora_at(steps, k)
            assert at == [*before, indicator], (path.name, board.captions[k])
            assert board.captions[k] == f"new dora indicator {indicator}"
            seen.add((watched.players, kind))
            checked += 1
    kinds = (MeldKind.ANKAN, MeldKind.DAIMINKAN, MeldKind.KAKAN)
    assert {(p, k) for p in (3, 4) for k in kinds} <= seen, seen
    assert checked > 100


def test_waits_are_one_tile_each() -> None:
    board = BoardState([["1m"]], [""], [[]], [[]], "1z", 0, [0], 0, [0], ["2s5s"], [""])
    assert split_tokens(board.waits[0]) == ["2s", "5s"]
    html = str(tile_group(board.waits[0], "hand"))
    assert html.count('<use href="#t2s"/>') == 1 and html.count('<use href="#t5s"/>') == 1
    assert 'aria-label="25s"' in html


def test_a_step_carries_a_change_not_the_board() -> None:
    # A draw or a discard is one short operation (plus waits or furiten when they
    # change); only a call rewrites the caller's hand and melds.
    for path in sorted(SAMPLES.glob("*.xml")):
        for board in watch(load(str(path))).boards:
            assert len(board.steps) == len(board.captions) - 1
            for step in board.steps:
                ops = step[1:].split(" ") if len(step) > 1 else []
                if not any(op.startswith("h") for op in ops):
                    assert len(step) <= 40, (path.name, step)
                assert all(op[0] in "dxchMDlksRwf" for op in ops), step
