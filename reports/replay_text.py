"""A readable, turn-by-turn text view of one hand (``mjaudit replay``)."""

from __future__ import annotations

from typing import assert_never

from analyzer.checks.audit import audit_log
from analyzer.engine.replay import RoundState
from mjaudit.events import (
    DeclareMeld,
    Discard,
    DoraReveal,
    DrawReason,
    DrawTile,
    Event,
    GameEnd,
    GameLog,
    GameStart,
    Presence,
    RiichiAccepted,
    RiichiDeclared,
    RoundDraw,
    RoundStart,
    Win,
    seat_name,
)
from mjaudit.rules import Ruleset
from mjaudit.tiles import to_mpsz
from reports.i18n import yaku_name
from reports.safe_text import one_line

__all__ = ["find_round", "render_round", "round_text"]

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


class _RoundText:
    """Writes one round's lines as the replay walks it (a :class:`ReplayObserver`)."""

    def __init__(self, log: GameLog, rules: Ruleset, round_no: int, seat: int | None) -> None:
        # A name on one line, whatever the log holds (a line break would start a
        # line of its own in the replay).
        players = log.start.players
        self.names = [one_line(seat_name(players, i)) for i in range(len(players))]
        self.rules = rules
        self.round_no = round_no
        self.seat = seat
        self.lines: list[str] = []
        self._seen = -1
        self._on = False

    def start_round(self, state: RoundState) -> None:
        self._seen += 1
        self._on = self._seen == self.round_no
        if self._on:
            self.step(state.record.first_event, state.start, state)

    def end_round(self, state: RoundState) -> None:
        if self._on and not state.record.complete:
            broken = [f for f in state.record.findings if f.code == "inconsistent-log"]
            self.lines.append(f"replay stopped: {broken[0].message if broken else 'broken log'}")
        self._on = False

    def step(self, index: int, ev: Event, state: RoundState) -> None:
        if not self._on:
            return
        names, rules, seat, lines = self.names, self.rules, self.seat, self.lines
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
                    if seat is not None and s != seat:
                        continue  # a seat's view: the others' hands are not in it
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
                line = f"{index:5} {who} calls {ev.meld}"
                if seat is None or ev.seat == seat:
                    line += f"   hand {_hand(state, ev.seat)}"
                lines.append(line)
            case RiichiDeclared():
                lines.append(f"{index:5} {who} declares riichi")
            case RiichiAccepted():
                lines.append(f"{index:5} {who} riichi accepted (stick paid)")
            case DoraReveal():
                lines.append(f"{index:5} new dora indicator {ev.indicator}")
            case Win():
                c = ev.claims
                how = "tsumo" if ev.tsumo else f"ron from {names[ev.from_seat]}"
                # What the log records of the win's value, each part only where it
                # records it (Tenhou JSON gives no fu for a limit hand; akochan's mjai
                # no points): never a "None".
                value = " ".join(
                    f"{n}{unit}"
                    for n, unit in ((c.fu, " fu"), (c.han, " han"), (c.points, ""))
                    if n is not None
                )
                lines.append(f"{index:5} {who} wins by {how}: {value or 'no value recorded'}")
                named = [f"{yaku_name(y)} {n}" for y, n in c.yaku or () if n]  # (ura dora 0)
                named += [f"{yaku_name(y)} (yakuman)" for y in c.yakuman or ()]
                if named:
                    lines.append(f"        yaku {', '.join(named)}")
                if c.hand is not None:
                    lines.append(f"        hand {to_mpsz(c.hand)} on {c.win_tile}")
                if c.deltas is not None:
                    lines.append(f"        deltas {_deltas(c.deltas, rules.players)}")
            case RoundDraw():
                penalty = ev.reason is DrawReason.PENALTY
                lines.append(f"{index:5} " + ("penalty" if penalty else f"draw: {ev.reason.value}"))
                if ev.claims.deltas is not None:
                    lines.append(f"        deltas {_deltas(ev.claims.deltas, rules.players)}")
            case GameStart() | GameEnd() | Presence():
                pass
            case _:
                assert_never(ev)


def round_text(log: GameLog, rules: Ruleset, round_no: int, seat: int | None = None) -> _RoundText:
    """An observer to pass to ``audit_log``; its ``lines`` are round ``round_no``."""
    return _RoundText(log, rules, round_no, seat)


def render_round(log: GameLog, rules: Ruleset, round_no: int, seat: int | None = None) -> str:
    """Round ``round_no`` turn by turn, walked by the replay engine's one loop."""
    view = round_text(log, rules, round_no, seat)
    audit_log(log, rules, review=False, observers=[view])
    return "\n".join(view.lines)
