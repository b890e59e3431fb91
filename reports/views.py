"""View models of the game page: plain frozen dataclasses, built from :class:`GameFacts`.

Templates only read these; every number is formatted and every tile group is
drawn here. Strings are left unescaped (the template escapes them); only tile
groups and charts are ``Markup``.
"""

from __future__ import annotations

import json
import re
from bisect import bisect_right
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path

from markupsafe import Markup

from analyzer.checks.audit_wins import settled_liable, tenhou_yaku
from analyzer.engine.replay import counts34
from analyzer.engine.state import RoundReplay, WinRecord
from analyzer.hands.hand import waits
from analyzer.review.efficiency import DiscardOption, EfficiencyNote
from mjaudit.events import DrawReason, Limit, PlayerInfo, WinClaims
from mjaudit.findings import Finding, Severity
from mjaudit.tiles import Tile
from mjaudit.yaku import BONUS_YAKU, Yaku
from reports.charts import SEAT_COLOURS, Marker, line_chart
from reports.i18n import gettext as _
from reports.i18n import rank_name, round_title, yaku_name
from reports.tiles_svg import group_html
from reports.views_board import (
    BoardView,
    board_view,
    draw_reason,
    meld_tokens,
    tile_group,
    wind_of,
)
from reports.views_facts import GameFacts, ScoredWin

__all__ = [
    "Badge",
    "CompareRow",
    "DrawView",
    "FindingRow",
    "GameView",
    "PlayerLine",
    "RoundRow",
    "RoundView",
    "WinView",
    "build_game_view",
    "fu_reason",
    "name_seats",
    "script_json",
]

SCORE_CODES = frozenset(
    {
        "yaku-mismatch",
        "han-mismatch",
        "fu-mismatch",
        "points-mismatch",
        "limit-mismatch",
        "payment-mismatch",
        "pao-mismatch",
        "no-yaku-win",
        "not-a-winning-hand",
    }
)
FURITEN_CODES = frozenset(
    {
        "ron-while-furiten",
        "riichi-while-furiten",
        "discard-into-furiten",
        "missed-ron",
        "missed-tsumo",
    }
)


@dataclass(frozen=True, slots=True)
class PlayerLine:
    seat: int
    wind: str
    name: str
    colour: str
    final_score: str
    place: int | None
    result: str
    # The rank and rating the log records for the player ("雀豪3", "四段 R1820"), or "".
    rank: str = ""


@dataclass(frozen=True, slots=True)
class Badge:
    text: str
    level: str  # ok | error | warning | info
    title: str


@dataclass(frozen=True, slots=True)
class FindingRow:
    severity: str
    code: str
    message: str
    where: str
    href: str
    # Where in the file, as the text, JSON and JUnit outputs say it.
    source: str = ""


@dataclass(frozen=True, slots=True)
class RoundRow:
    label: str
    href: str
    start_scores: tuple[str, ...]
    results: tuple[str, ...]
    deltas: tuple[str, ...]
    ok: bool | None


@dataclass(frozen=True, slots=True)
class CompareRow:
    item: str
    recorded: str
    recomputed: str
    differs: bool


@dataclass(frozen=True, slots=True)
class WinView:
    heading: str
    hand: Markup
    win_tile: Markup
    melds: tuple[Markup, ...]
    value: str
    yaku: tuple[tuple[str, str], ...]
    fu_parts: tuple[tuple[str, str], ...]
    fu_total: str
    payments: tuple[tuple[str, str], ...]
    compare: tuple[CompareRow, ...]
    error: str | None
    href: str
    # The player liable for the hand (pao) the payments were settled with, or "".
    liable: str = ""


@dataclass(frozen=True, slots=True)
class DrawView:
    heading: str
    hands: tuple[tuple[str, Markup, Markup], ...]
    payments: tuple[tuple[str, str], ...]


@dataclass(frozen=True, slots=True)
class RoundView:
    no: int
    label: str
    anchor: str
    title: str
    dora: Markup
    ura: Markup | None
    wins: tuple[WinView, ...]
    draw: DrawView | None
    findings: tuple[FindingRow, ...]
    board: BoardView | None
    data: Markup
    moves: tuple[str, ...]
    complete: bool


@dataclass(frozen=True, slots=True)
class GameView:
    title: str
    source: str
    game_id: str
    format: str
    rules: str
    players: tuple[PlayerLine, ...]
    badges: tuple[Badge, ...]
    findings: tuple[FindingRow, ...]
    chart: Markup
    seat_names: tuple[str, ...]
    rounds_table: tuple[RoundRow, ...]
    rounds: tuple[RoundView, ...]
    furiten_known: bool
    index_href: str | None
    # The room or lobby as the log names it ("Jade Room South (玉の間南)"), or "".
    room: str = ""


def script_json(value: object) -> Markup:
    """JSON safe inside ``<script type="application/json">``: ``<``, ``>`` and ``&``
    are written as escapes, so no text in it (a player name) can close the tag."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return Markup(text)


def _signed(n: int) -> str:
    return f"{n:+d}" if n else "0"


def _result_text(value: float) -> str:
    return f"{value:+.1f}"


def _yaku_text(yaku: Yaku, han: int) -> str:
    return f"{yaku_name(yaku)} {han}" if yaku in BONUS_YAKU else yaku_name(yaku)


def _claimed_yaku(claims: WinClaims) -> list[str] | None:
    if claims.yakuman:
        return [yaku_name(y) for y in claims.yakuman]
    if claims.yaku is None:
        return None
    return [_yaku_text(y, h) for y, h in claims.yaku if not (y in BONUS_YAKU and h == 0)]


def _event_steps(facts: GameFacts) -> dict[int, tuple[int, int]]:
    where: dict[int, tuple[int, int]] = {}
    for r, board in enumerate(facts.boards):
        for k, index in enumerate(board.events):
            where[index] = (r, k)
    return where


_SEAT = re.compile(r"\bseat (\d)\b")
_SEATS = re.compile(r"\bseats \[([\d, ]*)\]")


def name_seats(text: str, names: Sequence[str], players: int) -> str:
    """A finding's message with the player's name beside each seat it names:
    ``seat 2`` -> ``Chie (seat 2)``, ``seats [0, 2]`` -> ``seats [0, 2] (Aoi, Chie)``."""

    def one(m: re.Match[str]) -> str:
        s = int(m.group(1))
        # A seat without a name is already called "seat N".
        return f"{names[s]} (seat {s})" if s < players and names[s] != m.group(0) else m.group(0)

    def many(m: re.Match[str]) -> str:
        seats = [int(x) for x in re.findall(r"\d", m.group(1))]
        if not seats or any(s >= players for s in seats):
            return m.group(0)
        return f"{m.group(0)} ({', '.join(names[s] for s in seats)})"

    return _SEAT.sub(one, _SEATS.sub(many, text))


def _finding_rows(
    findings: Sequence[Finding],
    facts: GameFacts,
    steps: dict[int, tuple[int, int]],
    round_of: _RoundOf,
) -> tuple[FindingRow, ...]:
    rounds = facts.game.rounds
    by_label: dict[str, int] = {}
    for k, rnd in enumerate(rounds):
        by_label.setdefault(rnd.label, k)
    out = []
    for f in findings:
        href, where = "#summary", "game"
        if f.event is not None and f.event in steps:
            r, k = steps[f.event]
            href, where = (
                f"#r{r}s{k}",
                _("{round} step {step}").format(round=rounds[r].label, step=k),
            )
        elif f.event is not None:
            found = round_of(f.event)
            if found is not None:
                href, where = f"#r{found}", rounds[found].label
        elif f.round is not None:
            found = by_label.get(f.round)
            if found is not None:
                href, where = f"#r{found}", f.round
        message = name_seats(f.message, facts.names, facts.players)
        out.append(FindingRow(f.severity.value, f.code, message, where, href, f.source or ""))
    return tuple(out)


def _round_of(rounds: Sequence[RoundReplay], event: int) -> int | None:
    for k, rnd in enumerate(rounds):
        if rnd.first_event <= event <= (rnd.last_event if rnd.last_event >= 0 else event):
            return k
    return None


class _RoundOf:
    """:func:`_round_of` for one game's rounds, by bisection where the rounds follow
    one another (each ends before the next begins, as a replay records them): a game
    of many hands and findings costs hands + findings, not hands times findings."""

    def __init__(self, rounds: Sequence[RoundReplay]) -> None:
        self.rounds = rounds
        self.firsts = [rnd.first_event for rnd in rounds]
        self.apart = all(
            0 <= a.first_event <= a.last_event < b.first_event for a, b in pairwise(rounds)
        )
        self.known: dict[int, int | None] = {}

    def __call__(self, event: int) -> int | None:
        if not self.apart:
            if event not in self.known:
                self.known[event] = _round_of(self.rounds, event)
            return self.known[event]
        k = bisect_right(self.firsts, event) - 1
        if k < 0:
            return None
        last = self.rounds[k].last_event
        return k if event <= (last if last >= 0 else event) else None


def _badges(facts: GameFacts) -> tuple[Badge, ...]:
    errors = [f for f in facts.findings if f.severity is Severity.ERROR]
    wins = sum(len(w) for w in facts.wins)
    score_errors = sum(1 for f in errors if f.code in SCORE_CODES)
    mismatches = {
        (True, True): _("{n} mismatch in {wins} win"),
        (False, True): _("{n} mismatches in {wins} win"),
        (True, False): _("{n} mismatch in {wins} wins"),
        (False, False): _("{n} mismatches in {wins} wins"),
    }[score_errors == 1, wins == 1]
    out = [
        Badge(
            mismatches.format(n=score_errors, wins=wins),
            "error" if score_errors else "ok",
            _("Wins re-scored: yaku, han, fu, points, limit and every seat's payment"),
        )
    ]
    if facts.furiten_known:
        furiten = sum(1 for f in errors if f.code in FURITEN_CODES)
        notes = sum(
            1 for f in facts.findings if f.code in FURITEN_CODES and f.severity is Severity.INFO
        )
        out.append(
            Badge(
                (_("{n} furiten error") if furiten == 1 else _("{n} furiten errors")).format(
                    n=furiten
                ),
                "error" if furiten else "ok",
                _("Wins that furiten forbade (ron-while-furiten)"),
            )
        )
        if notes:
            out.append(
                Badge(
                    (_("{n} furiten note") if notes == 1 else _("{n} furiten notes")).format(
                        n=notes
                    ),
                    "info",
                    _("Missed wins, riichi while furiten, discards into furiten"),
                )
            )
    else:
        out.append(
            Badge(
                _("furiten not checked"),
                "warning",
                _("analyzer.review.furiten is not installed"),
            )
        )
    why_other = _("Dora, score chain, final scores, calls, riichi or a log that cannot be replayed")
    other = len(errors) - score_errors - sum(1 for f in errors if f.code in FURITEN_CODES)
    if other:
        out.append(
            Badge(
                (_("{n} other error") if other == 1 else _("{n} other errors")).format(n=other),
                "error",
                why_other,
            )
        )
    warnings = sum(1 for f in facts.findings if f.severity is Severity.WARNING)
    if warnings:
        out.append(
            Badge(
                (_("{n} warning") if warnings == 1 else _("{n} warnings")).format(n=warnings),
                "warning",
                _("Rules read from the log or assumed"),
            )
        )
    return tuple(out)


def _players(facts: GameFacts) -> tuple[PlayerLine, ...]:
    places = facts.placements()
    # "Start wind": the seat's wind in the first hand the log records, as the first
    # round below names it; the game's first dealer where the log records no hand. An
    # excerpt that starts at South 4, or an mjai log whose first hand seat 3 deals,
    # starts with another dealer than ``GameStart.first_dealer`` (0 there).
    rounds = facts.game.rounds
    first = rounds[0].start.dealer if rounds else facts.log.start.first_dealer
    info = facts.log.start.players
    platform = facts.log.start.rules_hint.platform
    out = []
    for s in range(facts.players):
        out.append(
            PlayerLine(
                seat=s,
                wind=wind_of(s, first, facts.players),
                name=facts.names[s],
                colour=SEAT_COLOURS[s],
                final_score=str(facts.final_scores[s]) if facts.final_scores is not None else "?",
                place=places[s] if places is not None else None,
                result=_result_text(facts.results[s]) if facts.results is not None else "",
                rank=_rank_text(info[s], platform) if s < len(info) else "",
            )
        )
    return tuple(out)


def _rank_text(info: PlayerInfo, platform: str | None = None) -> str:
    """The rank and rating as the log records them: ``雀豪3``, ``四段 R1820``.

    Mahjong Soul's number is the rank's points, not a rating: ``Master 3 · 1026 pt``,
    and only beside a rank (an AI seat, which has none, shows nothing; a converter
    writes 0 for it).
    """
    if platform == "mahjongsoul":
        if not info.dan:
            return ""
        points = f" · {info.rate:g} pt" if info.rate is not None else ""
        return f"{rank_name(info.dan)}{points}"
    parts = [rank_name(info.dan)] if info.dan else []
    if info.rate is not None:
        parts.append(f"R{info.rate:g}")
    return " ".join(parts)


def _who(seat: int, dealer: int, facts: GameFacts) -> str:
    return f"{wind_of(seat, dealer, facts.players)} {facts.names[seat]}"


def _win_line(w: ScoredWin, dealer: int, facts: GameFacts) -> str:
    rec = w.record
    claims = rec.event.claims
    points = claims.points if claims.points is not None else (w.result.total if w.result else 0)
    yaku = _claimed_yaku(claims)
    if yaku is None and w.result is not None:
        yaku = [yaku_name(y.yaku) for y in w.result.yaku]
    han = claims.han if claims.han is not None else (w.result.han if w.result else None)
    fu = claims.fu if claims.fu is not None else (w.result.fu if w.result else None)
    winner = _who(rec.seat, dealer, facts)
    if rec.tsumo:
        head = _("Tsumo: {winner}").format(winner=winner)
    else:
        head = _("Ron: {winner} ← {loser}").format(
            winner=winner, loser=_who(rec.from_seat, dealer, facts)
        )
    value = (
        _(" {fu} fu {han} han").format(fu=fu, han=han) if han and fu and not claims.yakuman else ""
    )
    # The row shows the log's payments: the liable player the log names, else the
    # one the audit found.
    liable = claims.pao_seat if claims.pao_recorded and claims.pao_seat is not None else w.pao
    pao = (
        _(" · pao: {liable}").format(liable=_who(liable, dealer, facts))
        if liable is not None
        else ""
    )
    return f"{head} {points} ({', '.join(yaku or [])}){value}{pao}"


def _deltas_of(rnd: RoundReplay, wins: Sequence[ScoredWin], players: int) -> list[int] | None:
    total = [0] * 4
    known = False
    for w in wins:
        d = w.record.event.claims.deltas or w.deltas
        if d is not None:
            known = True
            for s in range(4):
                total[s] += d[s]
    if rnd.draw is not None:
        d = rnd.draw.event.claims.deltas
        if d is not None:
            known = True
            for s in range(4):
                total[s] += d[s]
    return total[:players] if known else None


def _round_rows(facts: GameFacts, errors_by_round: Counter[int]) -> tuple[RoundRow, ...]:
    out = []
    players = facts.players
    for k, rnd in enumerate(facts.game.rounds):
        dealer = rnd.start.dealer
        results = [_win_line(w, dealer, facts) for w in facts.wins[k]]
        if rnd.draw is not None:
            results.append(_draw_heading(rnd, facts, _draw_seats(facts, k)))
        if not rnd.complete:
            results.append(_("replay stopped: the log contradicts itself"))
        deltas = _deltas_of(rnd, facts.wins[k], players)
        out.append(
            RoundRow(
                label=rnd.label,
                href=f"#r{k}",
                start_scores=tuple(str(x) for x in rnd.start.scores[:players]),
                results=tuple(results),
                deltas=tuple(_signed(d) for d in deltas) if deltas else ("",) * players,
                ok=errors_by_round[k] == 0,
            )
        )
    return tuple(out)


def _draw_seats(facts: GameFacts, k: int) -> tuple[int, ...]:
    """The seats round ``k``'s draw is about, as the audit found them (its record)."""
    seats = facts.audit.derived_draws
    return seats[k] if k < len(seats) else ()


def _draw_heading(rnd: RoundReplay, facts: GameFacts, about: Sequence[int] = ()) -> str:
    """A draw's heading; ``about`` are the nagashi mangan's or the kyuushu declarer's
    seats as the audit found them (:func:`_draw_seats`), named in it."""
    assert rnd.draw is not None
    ev = rnd.draw.event
    reason = ev.reason
    dealer = rnd.start.dealer
    if reason is DrawReason.PENALTY:
        # A server's penalty for an invalid move (mjai.app): no draw of the rules.
        paid = ev.claims.deltas
        if paid is None:
            return _("Penalty (the server ended the hand)")
        payer = min(range(facts.players), key=lambda s: paid[s])
        return _("Penalty: {seat} pays a mangan chombo").format(seat=_who(payer, dealer, facts))
    named = ", ".join(_who(s, dealer, facts) for s in about)
    if reason is DrawReason.KYUUSHU and named:
        return _("Abortive draw ({reason}) declared by {seat}").format(
            reason=draw_reason(reason), seat=named
        )
    if reason.abortive:
        return _("Abortive draw ({reason})").format(reason=draw_reason(reason))
    tenpai = ev.claims.tenpai
    names = ", ".join(_who(s, dealer, facts) for s in tenpai or ())
    if reason is DrawReason.NAGASHI_MANGAN and named:
        # The hands shown below are the tenpai ones, not the nagashi pond's.
        if not tenpai:
            return _("Draw: nagashi mangan for {nagashi}").format(nagashi=named)
        return _("Draw: nagashi mangan for {nagashi}; tenpai {seats}").format(
            nagashi=named, seats=names
        )
    if reason is DrawReason.NAGASHI_MANGAN:
        if not tenpai:
            return _("Draw: nagashi mangan")
        return _("Draw: nagashi mangan; tenpai {seats}").format(seats=names)
    if tenpai is None:
        return _("Draw")
    if not names:
        return _("Draw: tenpai nobody")
    return _("Draw: tenpai {seats}").format(seats=names)


def _hand_groups(rec: WinRecord) -> tuple[Markup, Markup, tuple[Markup, ...]]:
    rest = list(rec.concealed)
    rest.remove(rec.win_tile)
    rest.sort(key=lambda t: (t.kind, not t.red))
    melds = tuple(_meld_group(meld_tokens(m, rec.seat)) for m in rec.melds)
    return group_html(rest), group_html([rec.win_tile]), melds


def _meld_group(tokens: str) -> Markup:
    return tile_group(tokens, "meld")


def _compare(
    w: ScoredWin, players: int, names: Sequence[str] | None = None, dealer: int = 0
) -> tuple[CompareRow, ...]:
    """Recorded against recomputed, one row per item; a seat's row names its player
    (``South Ben``) when ``names`` are given."""
    claims = w.record.event.claims
    result = w.result
    rows: list[CompareRow] = []

    def row(item: str, recorded: object, recomputed: object) -> None:
        rec_text = "—" if recorded is None else str(recorded)
        new_text = "—" if recomputed is None else str(recomputed)
        rows.append(
            CompareRow(item, rec_text, new_text, recorded is not None and rec_text != new_text)
        )

    if result is None:
        row(_("points"), claims.points, None)
        return tuple(rows)
    ctx = w.record.context
    if result.yakuman:
        want_list = sorted(yaku_name(y.yaku) for y in result.yaku if y.yakuman)
        have = sorted(yaku_name(y) for y in claims.yakuman) if claims.yakuman is not None else None
    else:
        want = tenhou_yaku(result, ctx.riichi or ctx.double_riichi)
        want_list = sorted(_yaku_text(y, h) for (y, h) in want.elements())
        have = sorted(_yaku_text(y, h) for y, h in claims.yaku) if claims.yaku is not None else None
    row(_("yaku"), ", ".join(have) if have is not None else None, ", ".join(want_list))
    if not result.yakuman:
        row(_("han"), claims.han, result.han)
        row(_("fu"), claims.fu, result.fu)
    row(_("points"), claims.points, result.total)
    limit = w.limit if w.limit is not None else result.limit
    row(
        _("limit"),
        _limit(claims.limit) if claims.limit is not None else None,
        _limit(limit),
    )
    if w.deltas is not None:
        for s in range(players):
            row(
                f"{wind_of(s, dealer, players)} {names[s]}"
                if names
                else _("seat {seat}").format(seat=s),
                _signed(claims.deltas[s]) if claims.deltas is not None else None,
                _signed(w.deltas[s]),
            )
    return tuple(rows)


def _limit(limit: Limit) -> str:
    """A limit band by name: ``mangan``, ``満貫``."""
    if limit is Limit.NONE:
        return "—"
    if limit is Limit.YAKUMAN:
        return _("yakuman")
    return {
        Limit.MANGAN: _("mangan"),
        Limit.HANEMAN: _("haneman"),
        Limit.BAIMAN: _("baiman"),
        Limit.SANBAIMAN: _("sanbaiman"),
    }[limit]


_SET_PART = re.compile(r"(closed|open) (triplet|kan) (\S+)")


def fu_reason(reason: str) -> str:
    """A fu part's reason as ``analyzer.hands.fu`` gives it (``closed ron``, ``open
    triplet 7p``) in the pages' language; one the catalogue does not know shows as is."""
    m = _SET_PART.fullmatch(reason)
    if m is None:
        return {
            "base": _("base"),
            "closed ron": _("closed ron"),
            "tsumo": _("tsumo"),
            "chiitoitsu": _("chiitoitsu"),
            "pinfu tsumo": _("pinfu tsumo"),
            "open pinfu shape": _("open pinfu shape"),
            "kanchan wait": _("kanchan wait"),
            "penchan wait": _("penchan wait"),
            "tanki wait": _("tanki wait"),
            "pair of dragon": _("pair of dragon"),
            "pair of double wind": _("pair of double wind"),
            "pair of seat wind": _("pair of seat wind"),
            "pair of round wind": _("pair of round wind"),
            "rounding up": _("rounding up"),
        }.get(reason, reason)
    state, what, tile = m.groups()
    text = {
        ("closed", "triplet"): _("closed triplet {tile}"),
        ("open", "triplet"): _("open triplet {tile}"),
        ("closed", "kan"): _("closed kan {tile}"),
        ("open", "kan"): _("open kan {tile}"),
    }[state, what]
    return text.format(tile=tile)


def _win_view(
    w: ScoredWin, rnd: RoundReplay, r: int, facts: GameFacts, steps: dict[int, tuple[int, int]]
) -> WinView:
    rec = w.record
    dealer = rnd.start.dealer
    winner = _who(rec.seat, dealer, facts)
    heading = (
        _("{winner} wins by tsumo").format(winner=winner)
        if rec.tsumo
        else _("{winner} wins by ron from {loser}").format(
            winner=winner, loser=_who(rec.from_seat, dealer, facts)
        )
    )
    hand, win_tile, melds = _hand_groups(rec)
    result = w.result
    players = facts.players
    step = steps.get(rec.event_index)
    href = f"#r{r}s{step[1]}" if step else f"#r{r}"
    if result is None:
        return WinView(
            heading=heading,
            hand=hand,
            win_tile=win_tile,
            melds=melds,
            value="",
            yaku=(),
            fu_parts=(),
            fu_total="",
            payments=(),
            compare=_compare(w, players, facts.names, dealer),
            error=w.error,
            href=href,
        )
    if result.yakuman:
        value = _("yakuman ×{n} = {total}").format(n=result.yakuman, total=result.total)
    else:
        value = _("{fu} fu {han} han = {total}").format(
            fu=result.fu, han=result.han, total=result.total
        )
        if result.limit is not Limit.NONE:
            value += f" ({_limit(result.limit)})"
    yaku = [(yaku_name(y.yaku), _("yakuman") if y.yakuman else str(y.han)) for y in result.yaku]
    bonus = ((Yaku.DORA, result.dora), (Yaku.AKA_DORA, result.aka), (Yaku.URA_DORA, result.ura))
    for label, n in ((yaku_name(y), n) for y, n in bonus):
        if n:
            yaku.append((label, str(n)))
    if result.kita:
        yaku.append((_("kita"), str(result.kita)))
    raw = sum(p.fu for p in result.fu_parts)
    deltas = w.deltas or (0,) * 4
    # The audit settled the hand with the liable player it found, else the log's
    # (none under rules without liability).
    liable = settled_liable(w.pao, rec.event.claims.pao_seat, facts.rules)
    return WinView(
        heading=heading,
        hand=hand,
        win_tile=win_tile,
        melds=melds,
        value=value,
        yaku=tuple(yaku),
        fu_parts=tuple((fu_reason(p.reason), str(p.fu)) for p in result.fu_parts),
        fu_total=f"{raw} → {result.fu}" if raw != result.fu else str(result.fu),
        payments=tuple((_who(s, dealer, facts), _signed(deltas[s])) for s in range(players)),
        compare=_compare(w, players, facts.names, dealer),
        error=None,
        href=href,
        liable=_who(liable, dealer, facts) if liable is not None else "",
    )


def _draw_view(rnd: RoundReplay, facts: GameFacts, k: int) -> DrawView:
    assert rnd.draw is not None
    rec = rnd.draw
    dealer = rnd.start.dealer
    tenpai = rec.event.claims.tenpai or ()

    hands = []
    for s in tenpai:
        concealed = sorted(rec.concealed[s], key=lambda t: (t.kind, not t.red))
        w = waits(counts34(concealed)) if len(concealed) % 3 == 1 else frozenset()
        hand = group_html(concealed)
        if rec.melds[s]:
            hand = Markup(
                hand + Markup(" ").join(_meld_group(meld_tokens(m, s)) for m in rec.melds[s])
            )
        hands.append((_who(s, dealer, facts), hand, group_html([Tile(k) for k in sorted(w)])))
    deltas = rec.event.claims.deltas
    payments = (
        tuple((_who(s, dealer, facts), _signed(deltas[s])) for s in range(facts.players))
        if deltas is not None
        else ()
    )
    return DrawView(_draw_heading(rnd, facts, _draw_seats(facts, k)), tuple(hands), payments)


def _ura(rnd: RoundReplay, players: int) -> Markup | None:
    for rec in rnd.wins:
        ura = rec.event.claims.ura_indicators
        if ura:
            return _indicated(ura, players)
    return None


def _indicated(indicators: Sequence[Tile], players: int) -> Markup:
    """Each indicator beside the tile it makes dora (``3p → 4p``; in three-player
    games ``1m → 9m``), as ``mjaudit.tiles.Tile.dora`` gives it."""
    return Markup(" ").join(
        Markup('<span class="indicated">{} → {}</span>').format(
            group_html([t]), group_html([t.dora(players)])
        )
        for t in indicators
    )


def build_game_view(facts: GameFacts, index_href: str | None = None) -> GameView:
    steps = _event_steps(facts)
    log = facts.log
    players = facts.players
    round_of = _RoundOf(facts.game.rounds)
    findings = _finding_rows(facts.findings, facts, steps, round_of)
    errors_by_round: Counter[int] = Counter()
    own_by_round: dict[int, list[tuple[Finding, FindingRow]]] = {}
    for f, row in zip(facts.findings, findings, strict=True):
        r = round_of(f.event) if f.event is not None else None
        if r is None:
            continue
        own_by_round.setdefault(r, []).append((f, row))
        if f.severity is Severity.ERROR:
            errors_by_round[r] += 1
    rounds = []
    for k, rnd in enumerate(facts.game.rounds):
        rb = facts.boards[k] if k < len(facts.boards) else None
        steps_count = len(rb.captions) if rb is not None else 0
        board = (
            board_view(
                rb.final,
                rb.captions[-1],
                steps_count - 1,
                steps_count,
                facts.names,
                rnd.start.dealer,
                facts.seat,
            )
            if rb is not None
            else None
        )
        own = tuple(own_by_round.get(k, ()))
        # A finding about a step is a note on the board at that step (else at the deal);
        # so is each own turn of the seat the game is reviewed from.
        notes: list[list[object]] = sorted(
            [
                *(
                    [
                        steps[f.event][1] if f.event in steps else 0,
                        row.severity,
                        f"{row.code}: {row.message}",
                    ]
                    for f, row in own
                ),
                *_turn_notes(facts, k, steps),
            ],
            key=lambda n: int(str(n[0])),
        )
        dora = [t for t in rnd.dora_indicators if t is not None]
        rounds.append(
            RoundView(
                no=k,
                label=rnd.label,
                anchor=f"r{k}",
                title=_round_title(rnd),
                dora=_indicated(dora, players),
                ura=_ura(rnd, players),
                wins=tuple(_win_view(w, rnd, k, facts, steps) for w in facts.wins[k]),
                draw=_draw_view(rnd, facts, k) if rnd.draw is not None else None,
                findings=tuple(row for _, row in own),
                board=board,
                data=script_json(
                    {**rb.data(), "names": list(facts.names[:players]), "notes": notes}
                )
                if rb is not None
                else Markup(""),
                moves=rb.captions if rb is not None else (),
                complete=rnd.complete,
            )
        )
    return GameView(
        title=f"{Path(log.path).name}: " + ", ".join(facts.names[:players]),
        source=Path(log.path).name,
        game_id=log.start.game_id,
        format=log.format,
        rules=facts.rules.name,
        players=_players(facts),
        badges=_badges(facts),
        findings=findings,
        chart=_score_chart(facts),
        seat_names=facts.names[:players],
        rounds_table=_round_rows(facts, errors_by_round),
        rounds=tuple(rounds),
        furiten_known=facts.furiten_known,
        index_href=index_href,
        room=log.start.rules_hint.description,
    )


def _turn_notes(
    facts: GameFacts, round_no: int, steps: Mapping[int, tuple[int, int]]
) -> list[list[object]]:
    """The reviewed seat's turns in round ``round_no`` as board notes: at the draw (or
    call) that begins a turn, its shanten, the wall and the discards that do best
    (kind ``turn``); at its discard, what the discard kept, and the efficiency note
    when another discard did better (kind ``efficiency``, which the keys visit)."""
    out: list[list[object]] = []
    if facts.seat is None:
        return out
    name = facts.names[facts.seat]
    left, best_word, keeps = _("tiles left in the wall"), _("best discard"), _("keeps")
    for (r, at), turn in facts.turns.items():
        if r != round_no or at not in steps:
            continue
        best = ", ".join(_option(o) for o in turn.turn.best) or "-"
        shanten = _shanten(turn.shanten)
        out.append([
            steps[at][1], "turn",
            f"{name}: {shanten}, {turn.live_remaining} {left}; {best_word} {best}",
        ])  # fmt: skip
        if turn.discard_index is None or turn.discard_index not in steps:
            continue
        at_discard = steps[turn.discard_index][1]
        if turn.kept is not None:
            out.append([at_discard, "turn", f"{name} {keeps} {_option(turn.kept)}"])
        if turn.note is not None:
            out.append([at_discard, "efficiency", f"{name}: {_note(turn.note)}"])
    return out


def _option(o: DiscardOption) -> str:
    """A discard and what it leaves: ``1z: 4-shanten, 1m 2m 6z: 73`` (its ukeire)."""
    return f"{Tile(o.kind)}: {_shanten(o.shanten)}, {o.ukeire}"


def _note(note: EfficiencyNote) -> str:
    """An efficiency note (``EfficiencyNote``'s facts) in the pages' language."""
    kept = _("discarding {tile} leaves {shanten} with {ukeire} tiles that improve it")
    better = (
        _("{better} leaves {best} with {best_ukeire}")
        if len(note.better) == 1
        else _("{better} leave {best} with {best_ukeire}")
    )
    return "; ".join((
        kept.format(tile=Tile(note.discarded), shanten=_shanten(note.shanten), ukeire=note.ukeire),
        better.format(
            better=_(" or ").join(str(Tile(k)) for k in note.better),
            best=_shanten(note.better_shanten),
            best_ukeire=note.better_ukeire,
        ),
    ))  # fmt: skip


def _shanten(n: int) -> str:
    if n < 0:
        return _("a complete hand")
    return _("tenpai") if n == 0 else _("{n}-shanten").format(n=n)


def _round_title(rnd: RoundReplay) -> str:
    start = rnd.start
    return round_title(start.round_index, start.honba, start.riichi_sticks)


def _score_chart(facts: GameFacts) -> Markup:
    players = facts.players
    rounds = facts.game.rounds
    labels = [rnd.label for rnd in rounds] + [_("end")]
    series: list[list[float]] = [[] for _ in range(players)]
    for rnd in rounds:
        for s in range(players):
            series[s].append(rnd.start.scores[s])
    if facts.final_scores is not None:
        for s in range(players):
            series[s].append(facts.final_scores[s])
    markers: list[Marker] = []
    for k, rnd in enumerate(rounds):
        x = k + 1
        if x >= len(series[0]):
            continue
        for w in facts.wins[k]:
            rec = w.record
            pts = rec.event.claims.points
            what = _("{round}: {name} wins {points}").format(
                round=rnd.label, name=facts.names[rec.seat], points=pts if pts is not None else ""
            )
            markers.append(Marker(rec.seat, x, series[rec.seat][x], "win", what.strip()))
            if not rec.tsumo:
                markers.append(
                    Marker(
                        rec.from_seat,
                        x,
                        series[rec.from_seat][x],
                        "deal-in",
                        _("{round}: {name} deals in").format(
                            round=rnd.label, name=facts.names[rec.from_seat]
                        ),
                    )
                )
        for s in sorted(set(rnd.riichi_seats)):
            y = (series[s][k] + series[s][x]) / 2
            what = _("{round}: {name} riichi").format(round=rnd.label, name=facts.names[s])
            markers.append(Marker(s, k + 0.5, y, "riichi", what))
    return line_chart(
        "score-chart",
        labels[: len(series[0])] if series[0] else labels,
        [(facts.names[s], series[s]) for s in range(players)],
        markers,
        ylabel=_("points"),
        label=_("score-chart"),
    )
