"""A readable, turn-by-turn text view of one hand (``mjaudit replay``)."""

from __future__ import annotations

from analyzer.engine.replay import RoundState, round_steps
from mjaudit.errors import ReplayError
from mjaudit.events import (
    DeclareMeld,
    Discard,
    DoraReveal,
    DrawTile,
    GameLog,
    RiichiAccepted,
    RiichiDeclared,
    RoundDraw,
    RoundStart,
    Win,
)
from mjaudit.rules import Ruleset
from mjaudit.tiles import to_mpsz

__all__ = ["find_round", "render_round"]

WINDS = "ESWN"


def find_round(log: GameLog, label: str | None) -> int:
    """The 0-based round number whose label (``E2-1``) matches; the first if None."""
    starts = [e for e in log.events if isinstance(e, RoundStart)]
    if label is None:
        return 0
    for k, ev in enumerate(starts):
        if ev.label.upper() == label.upper():
            return k
    known = " ".join(e.label for e in starts)
    raise KeyError(f"no round {label} in {log.path} (rounds: {known})")


def _deltas(deltas: tuple[int, ...], players: int) -> str:
    return " ".join(f"{d:+d}" for d in deltas[:players])


def _hand(state: RoundState, seat: int) -> str:
    text = to_mpsz(state.hands[seat])
    melds = " ".join(str(m) for m in state.melds[seat])
    return f"{text} {melds}".rstrip()


def render_round(log: GameLog, rules: Ruleset, round_no: int, seat: int | None = None) -> str:
    names = [p.name or f"seat {i}" for i, p in enumerate(log.start.players)]
    lines: list[str] = []
    try:
        for index, ev, state in round_steps(log, rules, round_no):
            who = ""
            if hasattr(ev, "seat"):
                s = ev.seat
                who = f"{WINDS[(s - state.start.dealer) % rules.players]} {names[s]}"
            match ev:
                case RoundStart():
                    lines.append(
                        f"{ev.label}  dealer {names[ev.dealer]}  sticks {ev.riichi_sticks}  "
                        f"dora indicator {ev.dora_indicator}"
                    )
                    lines.append("scores " + " ".join(str(x) for x in ev.scores[: rules.players]))
                    for s in range(rules.players):
                        wind = WINDS[(s - ev.dealer) % rules.players]
                        lines.append(f"  {wind} {names[s]}: {to_mpsz(ev.hands[s])}")
                case DrawTile():
                    if seat is None or ev.seat == seat:
                        lines.append(f"{index:5} {who} draws {ev.tile}")
                case Discard():
                    mark = " (tsumogiri)" if ev.tsumogiri else ""
                    line = f"{index:5} {who} discards {ev.tile}{mark}"
                    if seat is None or ev.seat == seat:
                        line += f"   hand {_hand(state, ev.seat)}"
                    lines.append(line)
                case DeclareMeld():
                    lines.append(f"{index:5} {who} calls {ev.meld}   hand {_hand(state, ev.seat)}")
                case RiichiDeclared():
                    lines.append(f"{index:5} {who} declares riichi")
                case RiichiAccepted():
                    lines.append(f"{index:5} {who} riichi accepted (stick paid)")
                case DoraReveal():
                    lines.append(f"{index:5} new dora indicator {ev.indicator}")
                case Win():
                    c = ev.claims
                    how = "tsumo" if ev.tsumo else f"ron from {names[ev.from_seat]}"
                    value = f"{c.fu} fu {c.han} han {c.points}" if c.han else f"{c.points}"
                    lines.append(f"{index:5} {who} wins by {how}: {value}")
                    if c.hand is not None:
                        lines.append(f"        hand {to_mpsz(c.hand)} on {c.win_tile}")
                    if c.deltas is not None:
                        lines.append(f"        deltas {_deltas(c.deltas, rules.players)}")
                case RoundDraw():
                    lines.append(f"{index:5} draw: {ev.reason.value}")
                    if ev.claims.deltas is not None:
                        lines.append(
                            "        deltas "
                            + " ".join(str(d) for d in ev.claims.deltas[: rules.players])
                        )
                case _:
                    pass
    except ReplayError as exc:
        lines.append(f"replay stopped: {exc}")
    return "\n".join(lines)
