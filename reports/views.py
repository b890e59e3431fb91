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
from mjaudit.events import DrawReason, Limit, PlayerInfo, WinClaims
from mjaudit.findings import Finding, Severity
from mjaudit.tiles import Tile, to_mpsz
from mjaudit.yaku import BONUS_YAKU, Yaku
from reports.charts import SEAT_COLOURS, Marker, line_chart
from reports.i18n import gettext as _
from reports.i18n import round_title, yaku_name
from reports.tiles_svg import group_html
from reports.views_board import (
    BoardView,
    board_view,
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
            href, where = f"#r{r}s{k}", f"{rounds[r].label} step {k}"
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
    out = [
        Badge(
            f"{score_errors} mismatch{'es' if score_errors != 1 else ''} in {wins} "
            f"win{'s' if wins != 1 else ''}",
            "error" if score_errors else "ok",
            "Wins re-scored: yaku, han, fu, points, limit and every seat's payment",
        )
    ]
    if facts.furiten_known:
        furiten = sum(1 for f in errors if f.code in FURITEN_CODES)
        notes = sum(
            1 for f in facts.findings if f.code in FURITEN_CODES and f.severity is Severity.INFO
        )
        out.append(
            Badge(
                f"{furiten} furiten error{'s' if furiten != 1 else ''}",
                "error" if furiten else "ok",
                "Wins that furiten forbade (ron-while-furiten)",
            )
        )
        if notes:
            out.append(
                Badge(
                    f"{notes} furiten note{'s' if notes != 1 else ''}",
                    "info",
                    "Missed wins, riichi while furiten, discards into furiten",
                )
            )
    else:
        out.append(
            Badge("furiten not checked", "warning", "analyzer.review.furiten is not installed")
        )
    other = len(errors) - score_errors - sum(1 for f in errors if f.code in FURITEN_CODES)
    if other:
        out.append(
            Badge(
                f"{other} other error{'s' if other != 1 else ''}",
                "error",
                "Dora, score chain, final scores, calls, riichi or a log that cannot be replayed",
            )
        )
    warnings = sum(1 for f in facts.findings if f.severity is Severity.WARNING)
    if warnings:
        out.append(
            Badge(
                f"{warnings} warning{'s' if warnings != 1 else ''}",
                "warning",
                "Rules read from the log or assumed",
            )
        )
    return tuple(out)


def _players(facts: GameFacts) -> tuple[PlayerLine, ...]:
    places = facts.placements()
    first = facts.log.start.first_dealer
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
        return f"{info.dan}{points}"
    parts = [info.dan] if info.dan else []
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
        head = f"Tsumo: {winner}"
    else:
        head = f"Ron: {winner} ← {_who(rec.from_seat, dealer, facts)}"
    value = f" {fu} fu {han} han" if han and fu and not claims.yakuman else ""
    # The row shows the log's payments: the liable player the log names, else the
    # one the audit found.
    liable = claims.pao_seat if claims.pao_recorded and claims.pao_seat is not None else w.pao
    pao = f" · pao: {_who(liable, dealer, facts)}" if liable is not None else ""
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
            results.append(_draw_heading(rnd, facts))
        if not rnd.complete:
            results.append("replay stopped: the log contradicts itself")
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


def _draw_heading(rnd: RoundReplay, facts: GameFacts) -> str:
    assert rnd.draw is not None
    ev = rnd.draw.event
    reason = ev.reason
    dealer = rnd.start.dealer
    if reason is DrawReason.PENALTY:
        # A server's penalty for an invalid move (mjai.app): no draw of the rules.
        paid = ev.claims.deltas
        if paid is None:
            return "Penalty (the server ended the hand)"
        payer = min(range(facts.players), key=lambda s: paid[s])
        return f"Penalty: {_who(payer, dealer, facts)} pays a mangan chombo"
    if reason.abortive:
        return f"Abortive draw ({reason.value})"
    tenpai = ev.claims.tenpai
    names = ", ".join(_who(s, dealer, facts) for s in tenpai or ()) or "nobody"
    if reason.value == "nagashi-mangan":
        # The hands shown below are the tenpai ones, not the nagashi pond's.
        return f"Draw: nagashi mangan; tenpai {names}" if tenpai else "Draw: nagashi mangan"
    if tenpai is None:
        return "Draw"
    return f"Draw: tenpai {names}"


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
        row("points", claims.points, None)
        return tuple(rows)
    ctx = w.record.context
    if result.yakuman:
        want_list = sorted(yaku_name(y.yaku) for y in result.yaku if y.yakuman)
        have = sorted(yaku_name(y) for y in claims.yakuman) if claims.yakuman is not None else None
    else:
        want = tenhou_yaku(result, ctx.riichi or ctx.double_riichi)
        want_list = sorted(_yaku_text(y, h) for (y, h) in want.elements())
        have = sorted(_yaku_text(y, h) for y, h in claims.yaku) if claims.yaku is not None else None
    row("yaku", ", ".join(have) if have is not None else None, ", ".join(want_list))
    if not result.yakuman:
        row("han", claims.han, result.han)
        row("fu", claims.fu, result.fu)
    row("points", claims.points, result.total)
    limit = w.limit if w.limit is not None else result.limit
    row(
        "limit",
        _limit(claims.limit) if claims.limit is not None else None,
        _limit(limit),
    )
    if w.deltas is not None:
        for s in range(players):
            row(
                f"{wind_of(s, dealer, players)} {names[s]}" if names else f"seat {s}",
                _signed(claims.deltas[s]) if claims.deltas is not None else None,
                _signed(w.deltas[s]),
            )
    return tuple(rows)


def _limit(limit: Limit) -> str:
    return "—" if limit is Limit.NONE else limit.name.lower()


def _win_view(
    w: ScoredWin, rnd: RoundReplay, r: int, facts: GameFacts, steps: dict[int, tuple[int, int]]
) -> WinView:
    rec = w.record
    dealer = rnd.start.dealer
    how = "tsumo" if rec.tsumo else f"ron from {_who(rec.from_seat, dealer, facts)}"
    hand, win_tile, melds = _hand_groups(rec)
    result = w.result
    players = facts.players
    step = steps.get(rec.event_index)
    href = f"#r{r}s{step[1]}" if step else f"#r{r}"
    if result is None:
        return WinView(
            heading=f"{_who(rec.seat, dealer, facts)} wins by {how}",
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
        value = f"yakuman ×{result.yakuman} = {result.total}"
    else:
        value = f"{result.fu} fu {result.han} han = {result.total}"
        if result.limit is not Limit.NONE:
            value += f" ({result.limit.name.lower()})"
    yaku = [(yaku_name(y.yaku), _("yakuman") if y.yakuman else str(y.han)) for y in result.yaku]
    bonus = ((Yaku.DORA, result.dora), (Yaku.AKA_DORA, result.aka), (Yaku.URA_DORA, result.ura))
    for label, n in ((yaku_name(y), n) for y, n in bonus):
        if n:
            yaku.append((label, str(n)))
    if result.kita:
        yaku.append(("kita", str(result.kita)))
    raw = sum(p.fu for p in result.fu_parts)
    deltas = w.deltas or (0,) * 4
    # The audit settled the hand with the liable player it found, else the log's
    # (none under rules without liability).
    liable = settled_liable(w.pao, rec.event.claims.pao_seat, facts.rules)
    return WinView(
        heading=f"{_who(rec.seat, dealer, facts)} wins by {how}",
        hand=hand,
        win_tile=win_tile,
        melds=melds,
        value=value,
        yaku=tuple(yaku),
        fu_parts=tuple((p.reason, str(p.fu)) for p in result.fu_parts),
        fu_total=f"{raw} → {result.fu}" if raw != result.fu else str(result.fu),
        payments=tuple((_who(s, dealer, facts), _signed(deltas[s])) for s in range(players)),
        compare=_compare(w, players, facts.names, dealer),
        error=None,
        href=href,
        liable=_who(liable, dealer, facts) if liable is not None else "",
    )


def _draw_view(rnd: RoundReplay, facts: GameFacts) -> DrawView:
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
    return DrawView(_draw_heading(rnd, facts), tuple(hands), payments)


def _ura(rnd: RoundReplay) -> Markup | None:
    for rec in rnd.wins:
        ura = rec.event.claims.ura_indicators
        if ura:
            return group_html(ura, to_mpsz(ura, sort=False))
    return None


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
                dora=group_html(dora, to_mpsz(dora, sort=False)),
                ura=_ura(rnd),
                wins=tuple(_win_view(w, rnd, k, facts, steps) for w in facts.wins[k]),
                draw=_draw_view(rnd, facts) if rnd.draw is not None else None,
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
        best = ", ".join(str(o) for o in turn.turn.best) or "-"
        shanten = _shanten(turn.shanten)
        out.append([
            steps[at][1], "turn",
            f"{name}: {shanten}, {turn.live_remaining} {left}; {best_word} {best}",
        ])  # fmt: skip
        if turn.discard_index is None or turn.discard_index not in steps:
            continue
        at_discard = steps[turn.discard_index][1]
        if turn.kept is not None:
            out.append([at_discard, "turn", f"{name} {keeps} {turn.kept}"])
        if turn.note is not None:
            out.append([at_discard, "efficiency", f"{name}: {turn.note.text}"])
    return out


def _shanten(n: int) -> str:
    if n < 0:
        return _("a complete hand")
    word = _("shanten")
    return _("tenpai") if n == 0 else f"{n}-{word}"


def _round_title(rnd: RoundReplay) -> str:
    start = rnd.start
    return round_title(start.round_index, start.honba, start.riichi_sticks)


def _score_chart(facts: GameFacts) -> Markup:
    players = facts.players
    rounds = facts.game.rounds
    labels = [rnd.label for rnd in rounds] + ["end"]
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
            what = f"{rnd.label}: {facts.names[rec.seat]} wins {pts if pts is not None else ''}"
            markers.append(Marker(rec.seat, x, series[rec.seat][x], "win", what.strip()))
            if not rec.tsumo:
                markers.append(
                    Marker(
                        rec.from_seat,
                        x,
                        series[rec.from_seat][x],
                        "deal-in",
                        f"{rnd.label}: {facts.names[rec.from_seat]} deals in",
                    )
                )
        for s in sorted(set(rnd.riichi_seats)):
            y = (series[s][k] + series[s][x]) / 2
            markers.append(Marker(s, k + 0.5, y, "riichi", f"{rnd.label}: {facts.names[s]} riichi"))
    return line_chart(
        "score-chart",
        labels[: len(series[0])] if series[0] else labels,
        [(facts.names[s], series[s]) for s in range(players)],
        markers,
        ylabel="points",
    )
