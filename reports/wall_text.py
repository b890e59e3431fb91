"""The rebuilt wall of one hand as text (``mjaudit replay PATH --round E2-1 --wall``).

Positions are yama indices as in ../shared/reference/tenhou-wall.md §1.6: the deal
and the live draws take from the top (``yama[N-1]`` down), indicators and rinshan
tiles from the bottom.
"""

from __future__ import annotations

from collections.abc import Sequence

from analyzer.checks.audit_wall import RoundWall, round_walls
from analyzer.engine.state import GameReplay
from analyzer.engine.wall import Wall, WallSeedError
from mjaudit.events import GameLog
from mjaudit.tiles import Tile
from reports.wall_text_ms import render_ms_round_wall

__all__ = ["render_round_wall", "render_wall"]

WINDS = "ESWN"
_ROW = 10


def _tile(tile_id: int, aka: bool) -> str:
    return str(Tile(tile_id // 4, aka and tile_id in (16, 52, 88)))


def _dead_marks(wall: Wall, revealed: int | None) -> dict[int, list[str]]:
    marks: dict[int, list[str]] = {}
    for k in range(5):
        turned = "" if revealed is None else (" (turned)" if k < revealed else " (not turned)")
        name = "dora indicator 1 (INIT)" if k == 0 else f"kan dora indicator {k}"
        marks.setdefault(wall.dora_position(k), []).append(f"{name}{turned}")
        marks.setdefault(wall.ura_position(k), []).append(f"ura indicator {k + 1}")
    for r, position in enumerate(wall.layout.rinshan):
        marks.setdefault(position, []).append(f"rinshan {r + 1}")
    return marks


def render_wall(
    wall: Wall,
    *,
    aka: bool = True,
    label: str = "",
    names: Sequence[str] = (),
    trace: RoundWall | None = None,
) -> str:
    """The live order, the starting hands and the dead wall with every position named.

    With ``trace`` (from :func:`analyzer.checks.audit_wall.round_walls`) the text also says
    how far the log used the wall and what the next live draw would have been.
    """
    players = wall.players
    lines = [
        f"{label + ' ' if label else ''}wall: {wall.format.value}, {players} players, "
        f"{wall.size} tiles, dealer seat {wall.dealer}, dice {wall.dice[0] + 1}+{wall.dice[1] + 1}"
    ]
    lines.append(f"starting hands (dealt 4-4-4-1 from yama[{wall.size - 1}] down):")
    for turn in range(players):
        seat = (wall.dealer + turn) % players
        who = names[seat] if seat < len(names) and names[seat] else f"seat {seat}"
        hand = " ".join(_tile(i, aka) for i in wall.hand(seat))
        lines.append(f"  {WINDS[turn]} {who}: {hand}")
    rinshan = trace.rinshan_drawn if trace is not None else 0
    count = wall.live_count(rinshan)
    lines.append(
        f"live wall: {count} draws, yama[{wall.first_live}] down to yama[{14 + rinshan}]"
        + (f" (after {rinshan} rinshan draws)" if rinshan else "")
    )
    for start in range(0, count, _ROW):
        stop = min(start + _ROW, count)
        row = " ".join(f"{_tile(wall.live_tile(n), aka):>2}" for n in range(start, stop))
        lines.append(f"  {start + 1:>3}-{stop:<3} yama[{wall.live_position(start):>3}]  {row}")
    if trace is not None:
        nxt = trace.next_live
        after = (
            "the live wall is used up"
            if nxt is None
            else f"next live draw would be {_tile(nxt, aka)} "
            f"(yama[{wall.live_position(trace.live_drawn)}])"
        )
        lines.append(
            f"  the log drew {trace.live_drawn} live, {trace.rinshan_drawn} rinshan; {after}"
        )
        ura = " ".join(_tile(i, aka) for i in trace.ura_indicators)
        lines.append(f"  ura indicators under the turned indicators: {ura}")
        if trace.mismatch is not None:
            lines.append(f"  MISMATCH: {trace.mismatch.message}")
    marks = _dead_marks(wall, trace.revealed if trace is not None else None)
    last = max(13, *marks)
    lines.append(f"dead wall: yama[0..{last}]")
    for position in range(last + 1):
        what = ", ".join(marks.get(position, []))
        # After r rinshan draws the dead wall has taken yama[14..13+r] from the live one.
        live = " (live at the end)" if position >= 14 + rinshan else ""
        lines.append(f"  yama[{position:>2}] {_tile(wall.yama[position], aka):>2}  {what}{live}")
    return "\n".join(lines)


def render_round_wall(log: GameLog, game: GameReplay, round_no: int) -> str:
    """The wall of hand ``round_no`` (0-based, log order) traced through the log's
    replay ``game`` (the caller's: a view replays nothing itself).

    A log without a Tenhou seed gets one line saying so, never an error. A Mahjong
    Soul record's hand shows the wall the record commits to
    (:mod:`reports.wall_text_ms`).
    """
    if log.format == "mahjongsoul":
        return render_ms_round_wall(log, game, round_no)
    try:
        walls = round_walls(log, game)
    except WallSeedError as exc:
        return f"no wall for {log.path}: the seed cannot be read: {exc}"
    if not walls:
        return f"no wall for {log.path}: the log carries no Tenhou seed"
    rw = walls[round_no]
    names = [p.name for p in log.start.players]
    aka = log.start.rules_hint.aka is not False
    return render_wall(rw.wall, aka=aka, label=rw.label, names=names, trace=rw)
