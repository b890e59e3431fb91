"""A Mahjong Soul hand's wall as text (``mjaudit replay RECORD --round E1-0 --wall``).

Positions are indexes into the record's ``paishan`` (0 = its first pair), as in
:mod:`analyzer.checks.audit_wall_ms`: the deal and the live draws take from the front,
replacement tiles and indicators lie at the end.
"""

from __future__ import annotations

from collections.abc import Sequence

from analyzer.checks.audit_wall_ms import MsRoundWall, MsWall, ms_round_walls
from analyzer.engine.state import GameReplay
from mjaudit.events import GameLog

__all__ = ["render_ms_round_wall", "render_ms_wall"]

WINDS = "ESWN"
_ROW = 10


def _hash_line(trace: MsRoundWall) -> str:
    if trace.hash_stated is None:
        return "hash: the record states none"
    if trace.hash_ok:
        return f"hash: {trace.hash_algorithm} {trace.hash_stated} matches the paishan"
    return (
        f"hash: MISMATCH: committed {trace.hash_algorithm} {trace.hash_stated}, "
        f"the paishan hashes to {trace.hash_computed}"
    )


def _dead_marks(wall: MsWall, trace: MsRoundWall) -> dict[int, list[str]]:
    marks: dict[int, list[str]] = {}
    for k in range(5):
        turned = " (turned)" if k < trace.revealed else " (not turned)"
        name = "dora indicator 1" if k == 0 else f"kan dora indicator {k}"
        marks.setdefault(wall.dora_position(k), []).append(f"{name}{turned}")
        marks.setdefault(wall.ura_position(k), []).append(f"ura indicator {k + 1}")
    for r in range(wall.max_replacements):
        drawn = " (drawn)" if r < trace.replaced else ""
        marks.setdefault(wall.replacement_position(r), []).append(f"replacement {r + 1}{drawn}")
    return marks


def render_ms_wall(trace: MsRoundWall, *, names: Sequence[str] = ()) -> str:
    """The hash verdict, the deal, the live wall and the dead wall with every position named."""
    wall = trace.wall
    head = f"{trace.label} wall: Mahjong Soul"
    if wall is None:
        lines = [f"{head}, the record's wall cannot be used", _hash_line(trace)]
        if trace.mismatch is not None:
            lines.append(f"MISMATCH: {trace.mismatch.message}")
        return "\n".join(lines)
    layout = "the whole wall" if wall.full else "the wall after the deal"
    lines = [
        f"{head}, {wall.players} players, {wall.size} tiles ({layout}), dealer seat {wall.dealer}",
        _hash_line(trace),
    ]
    if wall.full:
        lines.append(
            "starting hands (from paishan[0]: 4 tiles a seat three times from the dealer, "
            "then 1 each, then the dealer's 14th):"
        )
        for turn in range(wall.players):
            seat = (wall.dealer + turn) % wall.players
            who = names[seat] if seat < len(names) and names[seat] else f"seat {seat}"
            hand = " ".join(str(t) for t in wall.hand(seat))
            lines.append(f"  {WINDS[turn]} {who}: {hand}")
    else:
        lines.append("starting hands: dealt before this wall (the tile set check counts them)")
    count = wall.live_count(trace.replaced)
    first = wall.first_live
    lines.append(
        f"live wall: {count} draws, paishan[{first}] to paishan[{first + count - 1}]"
        + (f" (after {trace.replaced} replacement draws)" if trace.replaced else "")
    )
    for start in range(0, count, _ROW):
        stop = min(start + _ROW, count)
        row = " ".join(f"{wall.tiles[first + n]!s:>2}" for n in range(start, stop))
        lines.append(f"  {start + 1:>3}-{stop:<3} paishan[{first + start:>3}]  {row}")
    left = trace.live_left
    after = (
        "the live wall is used up"
        if left <= 0
        else f"next live draw would be {wall.tiles[first + trace.live_drawn]} "
        f"(paishan[{first + trace.live_drawn}])"
    )
    lines.append(
        f"  the record drew {trace.live_drawn} live, {trace.replaced} replacement; {after}"
    )
    ura = " ".join(str(t) for t in wall.ura_indicators(trace.revealed))
    lines.append(f"  ura indicators under the turned indicators: {ura}")
    if trace.mismatch is not None:
        lines.append(f"  MISMATCH: {trace.mismatch.message}")
    marks = _dead_marks(wall, trace)
    dead = wall.size - 14
    low = min(dead, *marks)
    lines.append(f"dead wall: paishan[{low}..{wall.size - 1}]")
    for position in range(low, wall.size):
        what = ", ".join(marks.get(position, []))
        live = " (live at the start)" if position < dead else ""
        lines.append(f"  paishan[{position:>3}] {wall.tiles[position]!s:>2}  {what}{live}".rstrip())
    return "\n".join(lines)


def render_ms_round_wall(log: GameLog, game: GameReplay, round_no: int) -> str:
    """The wall of hand ``round_no`` (0-based, record order) traced through the
    record's replay ``game``."""
    trace = next((w for w in ms_round_walls(log, game) if w.round_index == round_no), None)
    if trace is None:
        return f"no wall for {log.path}: hand {round_no + 1} carries no paishan"
    return render_ms_wall(trace, names=[p.name for p in log.start.players])
