"""The audit: replay a log, recompute what can be recomputed, report every difference.

``audit_path`` is the unit of work for one input file. It never raises for a
problem with the input: an unreadable file becomes a :class:`FileAudit` with
``error`` set, so a batch always runs to the end.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass, field, replace
from itertools import compress, repeat
from operator import is_
from typing import cast

from analyzer.checks.audit_common import warning
from analyzer.checks.audit_draws import check_draw, shown_hands_checked
from analyzer.checks.audit_flow import (
    check_game_end,
    check_results,
    check_riichi_order,
    rules_are_the_logs,
)
from analyzer.checks.audit_hands import HandAudit, hand_audits
from analyzer.checks.audit_scores import ChainState, Link, check_chain
from analyzer.checks.audit_wall import check_wall
from analyzer.checks.audit_wins import WinCheck, check_win_tiles, check_wins, tenhou_yaku
from analyzer.engine.replay import ReplayObserver, replay, seats_away
from analyzer.engine.round_state import RIICHI_LOCKED
from analyzer.engine.state import GameReplay, RoundReplay
from analyzer.hands.final import (
    FinalDiff,
    FinalResult,
    check_final,
    csrule_undecoded,
    final_result,
    game_date,
)
from analyzer.review.furiten import FuritenTracker
from mjaudit.errors import LogFormatError
from mjaudit.events import (
    DeclareMeld,
    DoraReveal,
    DrawReason,
    GameLog,
    RoundDraw,
    RoundStart,
    Win,
)
from mjaudit.findings import Finding, Severity
from mjaudit.melds import MeldKind
from mjaudit.rules import RulesError, Ruleset, override, preset_of, rules_for
from mjaudit.yaku import Yaku
from parsers import load

__all__ = ["AUDIT_VERSION", "FileAudit", "audit_log", "audit_path", "resolve_rules"]

# The version of the audit's verdicts and of the store's tables: a store re-audits
# every input under a new version. 2: Mahjong Soul records and rules, findings'
# ``source`` (a column of the store's findings table). 3: the findings table keeps each
# finding's number in its game (``finding``) and its ``cause``. 4: the checks and the
# causes of 2026-12-05 (docs/architecture.md), and a hand's ``delta`` null where the
# log records none (it was 0). 6: rule settings applied to games of other rules
# (kan ura, the top's result, a one-hand game's length) and their causes; the later
# checks and causes of 2026-12-05, hands that cannot be ordered or end in a server's
# penalty (``hands.result`` "penalty").
AUDIT_VERSION = "6"


@dataclass(frozen=True, slots=True)
class FileAudit:
    """The audit of one file: what it holds, what was checked and what was found."""

    path: str
    format: str | None = None
    game_id: str | None = None
    rules: str | None = None
    rounds: int = 0
    wins: int = 0
    draws: int = 0
    error: str | None = None
    findings: tuple[Finding, ...] = ()
    checks: tuple[tuple[str, int], ...] = ()
    replay: GameReplay | None = field(default=None, compare=False)
    furiten: FuritenTracker | None = field(default=None, compare=False)
    # With ``keep_replay``: what the checks derived for each win, by round, for the
    # outputs that show it (the report); empty otherwise.
    derived_wins: tuple[tuple[WinCheck, ...], ...] = field(default=(), compare=False)
    # With ``keep_replay``: the final scores and results the game end was judged
    # against (what it should end with, for a game whose log records no end).
    derived_final: FinalResult | None = field(default=None, compare=False)
    # With ``keep_replay``: by round, the seats its draw is about as the checks found
    # them (the nagashi mangan seats, the kyuushu kyuuhai declarer; empty otherwise).
    derived_draws: tuple[tuple[int, ...], ...] = field(default=(), compare=False)
    # One record per hand: the log's claims beside what the checks derived (the
    # store's hands table reads them).
    hands: tuple[HandAudit, ...] = field(default=(), compare=False)


def resolve_rules(log: GameLog, spec: str) -> Ruleset:
    """The ruleset for one log: ``auto`` reads the log; special lobbies are adapted.

    A ruleset for another number of players than the log's is a :class:`RulesError`.
    """
    rules = rules_for(log.start.rules_hint, spec)
    players = log.start.rules_hint.players
    if rules.players != players:
        raise RulesError(
            f"{log.path}: the rules {rules.name} are for {rules.players} players, "
            f"but this is a {players}-player game"
        )
    if spec == "auto" and log.start.rules_hint.special_lobby:
        rules = _adapt_special_lobby(log, rules)
    return rules


def _adapt_special_lobby(log: GameLog, rules: Ruleset) -> Ruleset:
    """Read from the log itself what a special lobby's rules do not say.

    Tenhou's special lobbies (chip, gold, ratio, custom-rule) carry no rules text
    for these, and the corpus shows they differ from the ranked lobbies:
    - kan dora: the first open kan that is not robbed shows whether its indicator is
      turned at once or at the kanner's discard (a 2019 chip game turns it at once);
    - kiriage: the first 4-han 30-fu or 3-han 60-fu hand shows whether it is rounded
      up to mangan (chip and ratio games round it up);
    - honba: the first ron with honba shows what one honba is worth (a ratio game
      pays 1500 a honba).
    Each is checked against every later hand, and named in a ``rules-assumed``
    warning, so the first occurrence is the only one taken on trust.
    """
    notes = list(rules.assumed)
    changes: dict[str, object] = {}
    undecoded = custom_rule_undecoded(log)
    if undecoded is not None:
        notes.append(
            f"custom rule not decoded (csrule {undecoded}): Tenhou's rules of play "
            "assumed; the order of hands (dealer repeats, honba) is not judged"
        )
    events = log.events
    for k, ev in enumerate(events[:-1]):
        if "open_kan_dora_timing" in changes:
            break
        if (
            isinstance(ev, DeclareMeld)
            and ev.meld.kind in (MeldKind.DAIMINKAN, MeldKind.KAKAN)
            and not isinstance(events[k + 1], Win)
        ):
            timing = "immediate" if isinstance(events[k + 1], DoraReveal) else "after-discard"
            changes["open_kan_dora_timing"] = timing
            notes.append(f"open-kan dora timing read from the log: {timing}")
    wins = [ev for ev in events if isinstance(ev, Win)]
    for ev in wins:
        c = ev.claims
        if c.yaku is not None and (c.han, c.fu) in ((4, 30), (3, 60)):
            # A 1920 base rounded up shows as 8000 (12000 for a dealer), whatever
            # the limit code says (Tenhou writes 0 for it).
            changes["kiriage"] = c.points in (8000, 12000)
            notes.append(
                f"kiriage mangan read from the log: {'on' if changes['kiriage'] else 'off'}"
            )
            break
    for ev in wins:
        c = ev.claims
        if (
            ev.tsumo
            or not c.honba
            or c.deltas is None
            or c.points is None
            or c.pao_seat is not None
        ):
            continue
        per = (-c.deltas[ev.from_seat] - c.points) // c.honba
        if per > 0 and per != rules.honba_ron:
            changes["honba_ron"] = per
            changes["honba_tsumo_each"] = per // (rules.players - 1)
            notes.append(f"honba value read from the log: {per} a honba on a ron")
        break
    return replace(override(rules, changes), assumed=tuple(notes))


def audit_path(
    path: str, rules_spec: str = "auto", keep_replay: bool = False, review: bool = True
) -> FileAudit:
    """Parse, replay and audit one file; input problems become ``error``."""
    try:
        log = load(path)
    except LogFormatError as exc:
        return FileAudit(path, error=str(exc))
    try:
        rules = resolve_rules(log, rules_spec)
    except RulesError as exc:
        return FileAudit(path, log.format, log.start.game_id, error=str(exc))
    return audit_log(log, rules, keep_replay=keep_replay, review=review)


def audit_log(
    log: GameLog,
    rules: Ruleset,
    keep_replay: bool = False,
    review: bool = True,
    tracker: FuritenTracker | None = None,
    observers: Sequence[ReplayObserver] = (),
    hand_records: bool = True,
) -> FileAudit:
    """Replay and audit one game. ``review`` adds play notes (missed wins and the like);
    furiten errors are checked either way.

    The game is replayed once. A caller that shows the game (the report) passes its
    own ``observers``, which watch that one replay after the furiten ``tracker`` (its
    own, when it reads the tracker as the replay goes), and ``keep_replay`` to get
    the replay, the tracker and what the checks derived for each win back.
    ``hand_records`` False leaves ``FileAudit.hands`` empty, for a caller that reads
    only the findings and counts (a batch without a store).
    """
    if tracker is None:
        tracker = FuritenTracker(rules, log.path, review)
    tracker.away = seats_away(log.events)
    game = replay(log, rules, observers=[tracker, *observers])
    findings: list[Finding] = []
    checks: Counter[str] = Counter()
    for note in rules.assumed:
        findings.append(
            Finding("rules-assumed", Severity.WARNING, note, log.path, None, None, None)
        )
    assumed_type = log.start.rules_hint.assumed_type
    if assumed_type is not None:
        findings.append(
            Finding("lobby-type-missing", Severity.WARNING, assumed_type, log.path, None, 0, None)
        )
    wins, draws = count_results(log)
    players = rules.players
    settled: dict[int, tuple[int, ...]] = {}
    # Wins settled without knowing their ura han: their other settlements.
    unsure: dict[int, tuple[tuple[int, ...], ...]] = {}
    # The first finding about each result (by event index), and which findings
    # follow from an earlier one: turned into ``cause`` indexes once sorted.
    causes: dict[int, Finding] = {}
    links: list[Link] = []
    derived: list[tuple[WinCheck, ...]] = []
    draw_seats: list[tuple[int, ...]] = []
    for rnd in game.rounds:
        findings.extend(rnd.findings)
        checked_wins: list[WinCheck] = []
        derived.append(())
        draw_seats.append(())
        if not rnd.complete:
            continue
        found, checked = check_win_tiles(rnd, log.events, log.path)
        findings.extend(found)
        checks["win_tiles_checked"] += checked
        found, scored, compared = check_wins(
            rnd,
            rules,
            log.path,
            players,
            settled,
            ura_recorded=log.format != "mjai",
            derived=checked_wins,
            unsure=unsure,
            yakuman_fu=log.format == "tenhou-xml",
        )
        derived[-1] = tuple(checked_wins)
        findings.extend(found)
        findings.extend(_unread_yaku(rnd, log.path))
        _first_by_event(found, causes)
        links.extend(_payments_follow_first(found))
        links.extend(_values_follow_han(found))
        links.extend(_payments_follow_value(found))
        links.extend(_payments_follow_pao(found))
        checks["wins_scored"] += scored
        checks["deltas_compared"] += compared
        if rnd.draw is not None:
            seats: list[int] = []
            found, compared = check_draw(
                rnd,
                rnd.draw,
                rules,
                log.path,
                players,
                settled,
                # Tenhou JSON shows no hands: its tenpai set is read off the payments.
                tenpai_by_hands=log.format != "tenhou-json",
                seats=seats,
            )
            draw_seats[-1] = tuple(seats)
            findings.extend(found)
            _first_by_event(found, causes)
            links.extend(_payments_follow_first(found))
            links.extend(_payments_follow_tenpai(found))
            # A server's penalty is no draw of the rules: counted as what it is.
            penalty = rnd.draw.event.reason is DrawReason.PENALTY
            checks["penalties_checked" if penalty else "draws_checked"] += 1
            checks["tenpai_hands_checked"] += shown_hands_checked(rnd.draw)
            checks["deltas_compared"] += compared
        if rnd.complete:
            checks["rounds_replayed"] += 1
            checks["dora_indicators_checked"] += sum(
                1 for w in rnd.wins if w.event.claims.dora_indicators is not None
            )
    findings.extend(game.findings)
    findings.extend(_unfinished(log, game))
    findings.extend(tracker.findings)
    for key in ("rons_checked", "tsumo_wins_checked"):
        checks[key] += tracker.counts[key]
    walls, walled = check_wall(log, game)
    findings.extend(walls)
    links.extend(_indicators_follow_kan_dora(game, findings, derived))
    links.extend(_walls_follow_draws(walls, findings))
    links.extend(_follow_indicators(walls, findings, log, game))
    links.extend(_values_follow_dealer(game, findings))
    links.extend(_replay_follows_wall(game, walls, findings))
    links.extend(_wall_follows_broken_meld(game, log, walls))
    # A call that cannot be made as recorded (inconsistent-log) is not judged again
    # for being a call the rules forbid.
    links.extend(_same_event(findings, ("inconsistent-log",), ("illegal-call",)))
    links.extend(_hand_follows_riichi_change(game, findings))
    checks["wall_checked_rounds"] += walled
    found, checked = check_results(log, game)
    findings.extend(found)
    checks["results_checked"] += checked
    found, checked = check_riichi_order(log, game)
    findings.extend(found)
    checks["riichi_order_checked"] += checked
    at_results: dict[int, list[Finding]] = {}
    label_breaks: dict[int, Finding] = {}
    for f in findings:
        if f.event is not None and f.code == "payment-mismatch":
            at_results.setdefault(f.event, []).append(f)
    chain, state, compared = check_chain(
        game,
        log.path,
        settled,
        causes,
        links,
        _start_points(log, rules),
        at_results,
        label_breaks,
        whole_game=_whole_game(log),
        unsure=unsure,
    )
    findings.extend(chain)
    checks["chain_values_compared"] += compared
    found, checked, continued = check_game_end(log, game, state, rules)
    findings.extend(found)
    links.extend(_ends_follow_first_end(found))
    links.extend(_ends_follow_labels(found, game, label_breaks))
    links.extend(_play_follows_label(findings, game, log, label_breaks))
    checks["game_lengths_checked"] += checked
    checks["game_continuations_checked"] += continued
    final: FinalResult | None = None
    if game.end is not None and state is not None:
        # Final scores recorded after a hand that does not end the game follow from that.
        early = next((f for f in found if f.event == game.end_index), None)
        ends, final = _check_end(game, state, log, links, early)
        findings.extend(ends)
        checks["game_ends_checked"] += 1
    if game.end is not None and game.end.claims.unread is not None:
        message = f"the game's final scores and results are not checked: {game.end.claims.unread}"
        last = game.rounds[-1].label if game.rounds else None
        findings.append(
            Finding("unchecked", Severity.WARNING, message, log.path, last, game.end_index, None)
        )
    if keep_replay and final is None and state is not None and game.end is not None:
        # A game whose recorded end gives no numbers: what it ends with, for the
        # report. A log that stops before its end (cut short, an excerpt) has no
        # final result: no place, no uma (docs/findings.md, game-incomplete).
        start = log.start
        final = final_result(
            state.scores, state.riichi_sticks, start.first_dealer, players, rules,
            start.rules_hint, start.game_id,
        )  # fmt: skip
    if custom_rule_undecoded(log) is not None:
        findings = _order_not_judged(findings)
    # A finding that others follow from comes before them at its event: ``cause`` is
    # the index of an earlier finding (docs/findings.md).
    depth = _cause_depths(links)
    findings.sort(
        key=lambda f: (
            -f.severity.rank,
            f.event if f.event is not None else -1,
            depth.get(id(f), 0),
        )
    )
    return FileAudit(
        path=log.path,
        format=log.format,
        game_id=log.start.game_id,
        rules=rules.name,
        rounds=len(game.rounds),
        wins=wins,
        draws=draws,
        findings=_located(_with_causes(findings, links), log),
        checks=tuple(sorted(checks.items())),
        replay=game if keep_replay else None,
        furiten=tracker if keep_replay else None,
        derived_wins=tuple(derived) if keep_replay else (),
        derived_final=final if keep_replay else None,
        derived_draws=tuple(draw_seats) if keep_replay else (),
        hands=hand_audits(game, log.events, settled, derived) if hand_records else (),
    )


def _unread_yaku(rnd: RoundReplay, path: str) -> list[Finding]:
    """An ``unchecked`` warning for each win whose yaku the log lists in a form that
    cannot be read (an mjai name the reader does not know): its yaku are not compared,
    its other claims are."""
    out = []
    for w in rnd.wins:
        unread = w.event.claims.yaku_unread
        if unread is not None:
            message = (
                f"seat {w.seat}'s win lists {unread}, which mjaudit does not understand: "
                "this win's yaku are not compared (its han, fu, points and payments are)"
            )
            out.append(warning(rnd, path, "unchecked", message, w.event_index, w.seat))
    return out


def _located(findings: tuple[Finding, ...], log: GameLog) -> tuple[Finding, ...]:
    """The findings with ``source``: where in the file each one points."""
    if not findings:
        return findings
    events = log.events
    game = events[0].pos.where if events else None
    out = []
    for f in findings:
        if f.source is None:
            at = f.event
            where = events[at].pos.where if at is not None and 0 <= at < len(events) else game
            f = replace(f, source=where)
        out.append(f)
    return tuple(out)


def _first_by_event(found: list[Finding], causes: dict[int, Finding]) -> None:
    """Keep the first error finding about each result event as that result's cause."""
    for f in found:
        if f.event is not None and f.severity is Severity.ERROR:
            causes.setdefault(f.event, f)


def _same_event(
    found: Sequence[Finding], causes: Collection[str], followers: Collection[str]
) -> list[Link]:
    """At each event, the findings of a code in ``followers`` follow the first error
    there of a code in ``causes`` (the codes may be the same: the others follow the
    first)."""
    first: dict[int, Finding] = {}
    for f in found:
        if f.code in causes and f.event is not None and f.severity is Severity.ERROR:
            first.setdefault(f.event, f)
    if not first:
        return []
    return [
        (f, first[f.event])
        for f in found
        if f.code in followers and f.event in first and f is not first[f.event]
    ]


# The yaku a win's dora and ura indicators make.
_INDICATOR_YAKU = frozenset({Yaku.DORA, Yaku.URA_DORA})


def _indicators_follow_kan_dora(
    game: GameReplay, findings: list[Finding], derived: Sequence[tuple[WinCheck, ...]]
) -> list[Link]:
    """Kan indicators the rules turn otherwise than the log (no kan dora, no kan ura,
    another timing), one root finding in their hand: the hand's other ``dora-timing``
    findings follow its first; the indicators a later win shows follow that (where
    the first indicator agrees); the ura it shows follow those (where it shows one
    under each dora indicator it shows); and a win whose yaku differ only in dora
    and ura dora follows the indicators it shows."""
    at: dict[int, list[Finding]] = {}
    for f in findings:
        if f.event is not None and f.severity is Severity.ERROR:
            at.setdefault(f.event, []).append(f)
    if not at:
        return []
    out: list[Link] = []
    for k, rnd in enumerate(game.rounds):
        timing = next(
            (
                f
                for f in rnd.findings
                if f.code == "dora-timing" and f.event is not None and f.severity is Severity.ERROR
            ),
            None,
        )
        if timing is not None:
            # The hand's other kans displaced by the same rule.
            out.extend(
                (f, timing) for f in rnd.findings if f.code == "dora-timing" and f is not timing
            )
        checks = {c.record.event_index: c for c in derived[k]} if k < len(derived) else {}
        for win in rnd.wins:
            here = at.get(win.event_index, [])
            shown = next((f for f in here if f.code == "dora-indicator-mismatch"), None)
            ura = next((f for f in here if f.code == "ura-indicator-mismatch"), None)
            if (
                shown is not None
                and timing is not None
                and timing.event is not None
                and timing.event <= win.event_index
                and isinstance(shown.expected, list)
                and isinstance(shown.actual, list)
                and shown.expected[:1] == shown.actual[:1]
            ):
                out.append((shown, timing))
            claims = win.event.claims
            if (
                ura is not None
                and shown is not None
                and claims.dora_indicators is not None
                and ura.actual == len(claims.dora_indicators)
            ):
                out.append((ura, shown))
            cause = shown or ura
            check = checks.get(win.event_index)
            if cause is None or check is None or check.result is None or claims.yaku is None:
                continue
            ctx = check.record.context
            want = tenhou_yaku(check.result, ctx.riichi or ctx.double_riichi)
            have = Counter(claims.yaku)
            differ = {y for y, _ in (have - want) + (want - have)}
            if differ and differ <= _INDICATOR_YAKU:
                out.extend((f, cause) for f in here if f.code in ("yaku-mismatch", "han-mismatch"))
    return out


def _walls_follow_draws(walls: list[Finding], findings: list[Finding]) -> list[Link]:
    """A wall finding at a draw the replay already found wrong (an exhaustive draw
    with tiles left in the live wall) follows from that draw finding."""
    if not walls:
        return []
    return _same_event(findings, ("draw-mismatch",), ("wall-mismatch",))


# What a win makes of its dora and ura indicators: the indicators it shows, and the
# value it is scored at.
_MADE_OF_INDICATORS = frozenset(
    {
        "dora-indicator-mismatch",
        "ura-indicator-mismatch",
        "han-mismatch",
        "yaku-mismatch",
        "points-mismatch",
        "limit-mismatch",
        "payment-mismatch",
    }
)
_SHOWN_INDICATORS = frozenset({"dora-indicator-mismatch", "ura-indicator-mismatch"})


# The presets each platform plays (``--rules auto`` starts from one of them).
_PLATFORM_PRESETS = {
    "tenhou": ("tenhou", "tenhou-sanma"),
    "mahjongsoul": ("mahjongsoul", "mahjongsoul-sanma"),
}


def _start_points(log: GameLog, rules: Ruleset) -> int | None:
    """The points every player starts the game with, where they are known to be the
    log's: under rules known to be the log's (analyzer.checks.audit_flow.rules_are_the_logs)
    that are not another body's preset (a Tenhou game audited under ``--rules wrc``
    asks how it scores under WRC's rules, not whether it started as a WRC game does),
    or as a Mahjong Soul room states them itself (``init_point``, whatever else of its
    rules is assumed). A rules file is the user's word for the game's rules, whatever
    its name. What the rules are decides, never what they are called. None: not
    judged."""
    hint = log.start.rules_hint
    stated = dict(hint.stated_rules).get("init_point", "")
    if stated.isdigit() and int(stated) > 0:
        return int(stated)
    platform = hint.platform or ("tenhou" if hint.source.startswith("tenhou") else None)
    if platform is None:
        return None
    other = preset_of(rules)
    if other is not None and other not in _PLATFORM_PRESETS.get(platform, ()):
        return None
    return rules.start_points if rules_are_the_logs(hint, rules) else None


def _whole_game(log: GameLog) -> bool:
    """Whether the log records a game from its first hand (which is East 1 with no
    honba and no sticks): an mjlog, a Mahjong Soul record and the Tenhou server
    converter's JSON (its ``lobby``) that opens in East 1; not the log viewer's
    Tenhou JSON export, an excerpt of one or a few hands, nor mjai, which may hold
    one (an excerpt written as mjai starts where it starts)."""
    if log.format in ("tenhou-xml", "mahjongsoul"):
        return True
    # The server converter's JSON (its lobby) when it opens in East 1: its honba and
    # sticks are judged; a made-up "whole game" of a later hand alone is not one.
    first = next((e for e in log.events if isinstance(e, RoundStart)), None)
    return (
        log.format == "tenhou-json"
        and "lobby" in dict(log.start.rules_hint.extras)
        and first is not None
        and first.round_index == 0
    )


def _follow_indicators(
    walls: list[Finding], findings: list[Finding], log: GameLog, game: GameReplay
) -> list[Link]:
    """One wrong indicator, one finding: where the wall (rebuilt from the seed) shows
    an indicator wrong, what the wins of that hand made of it follows from that.

    - A hand's first indicator (at its INIT) or a kan's (at its DORA) that is not the
      wall's: the later wins of the hand show other indicators than those in force,
      and are scored with the wrong one. Those findings follow the wall finding.
    - The indicators a win shows (doraHai, doraHaiUra) that are not the wall's: if
      the replay already found them other than those in force, the wall finding and
      the win's value follow that one; else the value the win is scored at (with the
      ura it shows) follows the wall finding.
    """
    if not walls:
        return []
    events = log.events
    by_event: dict[int, list[Finding]] = {}
    for f in findings:
        if f.event is not None and f.severity is Severity.ERROR and f.code in _MADE_OF_INDICATORS:
            by_event.setdefault(f.event, []).append(f)
    out: list[Link] = []
    for w in walls:
        at = w.event
        if at is None or not 0 <= at < len(events):
            continue
        ev = events[at]
        k = game.round_index_at(at)
        if k is None or at > game.rounds[k].last_event:
            continue
        rnd = game.rounds[k]
        if isinstance(ev, Win):
            here = by_event.get(at, [])
            shown = next((f for f in here if f.code in _SHOWN_INDICATORS), None)
            cause = shown if shown is not None else w
            if shown is not None:
                out.append((w, shown))
            out.extend((f, cause) for f in here if f is not cause)
            continue
        start = rnd.start
        start_indicator = (
            at == rnd.first_event
            and w.seat is None
            and w.actual is not None
            # by its id (an mjlog) or its tile (a Mahjong Soul record's paishan)
            and w.actual in (start.dora_indicator_id, str(start.dora_indicator))
        )
        if not (start_indicator or isinstance(ev, DoraReveal)):
            continue
        for win in rnd.wins:
            if win.event_index > at:
                out.extend((f, w) for f in by_event.get(win.event_index, []))
    return out


_HAN_FU = ("yaku-mismatch", "han-mismatch", "fu-mismatch")
_VALUE = frozenset({"points-mismatch", "limit-mismatch", "payment-mismatch"})


def _values_follow_han(found: list[Finding]) -> list[Link]:
    """A win recomputed with other yaku, han or fu than the log's: the value, the
    limit and the payments it is then recomputed at follow from that (a dora
    indicator of a format with no wall to judge it by, say, changes all of them)."""
    return _same_event(found, _HAN_FU, _VALUE)


def _payments_follow_value(found: list[Finding]) -> list[Link]:
    """A win recomputed with the log's yaku, han and fu but at another value (a rule
    on the value alone: kiriage, a limit, yakuman that do not add up): the other value
    findings and the payments follow its first value finding, one root for the win."""
    priced = {
        f.event
        for f in found
        if f.code in _HAN_FU and f.event is not None and f.severity is Severity.ERROR
    }
    unpriced = [f for f in found if f.event not in priced]
    return _same_event(unpriced, ("points-mismatch", "limit-mismatch"), _VALUE)


def _payments_follow_pao(found: list[Finding]) -> list[Link]:
    """A win whose liable seat (pao) the log names otherwise than the calls make it:
    its payments, settled with the log's liable seat where the calls make none, follow
    from that."""
    return _same_event(found, ("pao-mismatch",), ("payment-mismatch",))


def _replay_follows_wall(
    game: GameReplay, walls: list[Finding], findings: list[Finding]
) -> list[Link]:
    """A hand whose tiles are not its wall's (a tile drawn or dealt otherwise): the
    replay's later failure in that hand (a discard of a tile not held, say) follows
    from the wall's finding."""
    first: dict[int, Finding] = {}  # each hand's first wall finding
    for w in walls:
        k = None if w.event is None else game.round_index_at(w.event)
        if k is not None and w.event is not None and w.event <= game.rounds[k].last_event:
            first.setdefault(k, w)
    out: list[Link] = []
    for k, wall in first.items():
        assert wall.event is not None
        out.extend(
            (f, wall)
            for f in game.rounds[k].findings
            if f.code == "inconsistent-log" and f.event is not None and f.event >= wall.event
        )
    return out


_REPLACEMENT_MELDS = frozenset({MeldKind.ANKAN, MeldKind.DAIMINKAN, MeldKind.KAKAN, MeldKind.KITA})


def _wall_follows_broken_meld(game: GameReplay, log: GameLog, walls: list[Finding]) -> list[Link]:
    """A kan or kita the replay could not make (a caller who does not hold the tiles,
    an ``N`` naming another seat): its caller's next draw is a replacement tile
    (tenhou-wall.md §1.7), so the wall, walked with the same caller, differs later in
    that hand; those wall findings follow from the replay's."""
    out: list[Link] = []
    for rnd in game.rounds:
        broken = next((f for f in rnd.findings if f.code == "inconsistent-log"), None)
        if broken is None or broken.event is None:
            continue
        ev = log.events[broken.event]
        if not isinstance(ev, DeclareMeld) or ev.meld.kind not in _REPLACEMENT_MELDS:
            continue
        out.extend(
            (w, broken)
            for w in walls
            if w.event is not None and broken.event < w.event <= rnd.last_event
        )
    return out


# What the log shows of a hand after it changed it: the winning hand, the tenpai at
# the draw, the win itself.
_HAND_SHOWN = frozenset(
    {
        "inconsistent-log",
        "tenpai-hand-mismatch",
        "draw-mismatch",
        "not-a-winning-hand",
        "no-yaku-win",
        "win-tile-mismatch",
    }
)


def _hand_follows_riichi_change(game: GameReplay, findings: list[Finding]) -> list[Link]:
    """A riichi hand the log changes (a discard from the hand, a call, an okuri-kan:
    RoundState's RIICHI_LOCKED findings): what the log shows of that seat's hand later
    in the hand (its winning hand, its tenpai at the draw) follows from it."""
    changed: dict[int, Finding] = {}  # each hand's first change
    for f in findings:
        if f.event is not None and f.seat is not None and f.message.endswith(RIICHI_LOCKED):
            k = game.round_index_at(f.event)
            if k is not None:
                changed.setdefault(k, f)
    if not changed:
        return []
    out: list[Link] = []
    for f in findings:
        if f.code not in _HAND_SHOWN or f.event is None:
            continue
        k = game.round_index_at(f.event)
        cause = changed.get(k) if k is not None else None
        if (
            cause is not None
            and cause.event is not None
            and f.event > cause.event
            and f.seat in (None, cause.seat)
        ):
            out.append((f, cause))
    return out


def _values_follow_dealer(game: GameReplay, findings: list[Finding]) -> list[Link]:
    """A hand the log deals with another dealer than its round's (replayed with the
    round's, engine.replay._dealer_of): its results valued for that dealer follow from
    it, where the log valued them for its own."""
    out: list[Link] = []
    for rnd in game.rounds:
        if not rnd.complete:
            continue
        dealer = next(
            (
                f
                for f in rnd.findings
                if f.code == "inconsistent-log" and f.event == rnd.first_event
            ),
            None,
        )
        if dealer is None:
            continue
        results = {w.event_index for w in rnd.wins}
        if rnd.draw is not None:
            results.add(rnd.draw.event_index)
        out.extend(
            (f, dealer)
            for f in findings
            if f.event in results and f.code in _MADE_OF_INDICATORS and f.cause is None
        )
    return out


def _ends_follow_first_end(found: list[Finding]) -> list[Link]:
    """A game the log plays on past the end the rules give it (an East game that
    Tenhou extends into South, under rules with no extension): how the log then ends
    it is judged from a game that was already over, and follows from that."""
    ends = [
        f
        for f in found
        if f.code == "game-end-mismatch" and f.event is not None and f.severity is Severity.ERROR
    ]
    if len(ends) < 2:
        return []
    first = min(ends, key=lambda f: f.event if f.event is not None else -1)
    assert first.event is not None
    return [
        (f, first) for f in ends if f is not first and f.event is not None and f.event > first.event
    ]


def _ends_follow_labels(
    found: list[Finding], game: GameReplay, label_breaks: dict[int, Finding]
) -> list[Link]:
    """A game end judged wrong where the hand it is judged after (or at) started with
    another round, honba or sticks than the chain's follows from that start: the end
    was judged with the start's wrong number."""
    if not label_breaks:
        return []
    out: list[Link] = []
    for f in found:
        k = None if f.event is None else game.round_index_at(f.event)
        if f.code != "game-end-mismatch" or k is None:
            continue
        for rnd in game.rounds[max(k - 1, 0) : k + 1]:
            if rnd.first_event in label_breaks:
                out.append((f, label_breaks[rnd.first_event]))
                break
    return out


def _play_follows_label(
    findings: list[Finding], game: GameReplay, log: GameLog, label_breaks: dict[int, Finding]
) -> list[Link]:
    """A Tenhou JSON hand whose round number the chain disputes with one of another
    dealer: its reader put the play in order from that dealer's turn (a kyoku's lists
    say nothing of who played first), so a play it could not order, or one the replay
    then cannot follow, follows from that number."""
    if log.format != "tenhou-json":
        return []
    out: list[Link] = []
    for k, rnd in enumerate(game.rounds):
        label = label_breaks.get(rnd.first_event)
        start = log.events[rnd.first_event]
        if (
            label is None
            or not isinstance(start, RoundStart)
            or not isinstance(label.expected, list)
            or not isinstance(label.expected[0], int)
            or label.expected[0] % 4 == start.round_index % 4
        ):
            continue
        out.extend(
            (f, label)
            for f in findings
            if f.code == "inconsistent-log"
            and f.event is not None
            and game.round_index_at(f.event) == k
        )
    return out


def _payments_follow_first(found: list[Finding]) -> list[Link]:
    """One settlement, one root: a result paid otherwise than recomputed (a honba, a
    noten pool of other rules) shows in several seats' payments; the others follow the
    first. A finding the payments follow (the value, the tenpai set, the liable seat)
    is linked after this, and is then their cause instead."""
    return _same_event(found, ("payment-mismatch",), ("payment-mismatch",))


def _payments_follow_tenpai(found: list[Finding]) -> list[Link]:
    """At a draw whose tenpai set is wrong, the payments that follow from that set."""
    tenpai = next(
        (
            f
            for f in found
            if f.seat is None and f.code in ("draw-mismatch", "tenpai-hand-mismatch")
        ),
        None,
    )
    if tenpai is None:
        return []
    return [(f, tenpai) for f in found if f.code == "payment-mismatch"]


def _cause_depths(links: list[Link]) -> dict[int, int]:
    """How many causes stand before each finding that follows another (by id; the
    last link of a finding is the one kept, as in :func:`_with_causes`)."""
    cause_of = {id(f): c for f, c in links}
    depth: dict[int, int] = {}
    for key in cause_of:
        n, seen, at = 0, {key}, cause_of[key]
        while True:
            n += 1
            nxt = cause_of.get(id(at))
            if nxt is None or id(at) in seen:
                break
            seen.add(id(at))
            at = nxt
        depth[key] = n
    return depth


def _with_causes(findings: list[Finding], links: list[Link]) -> tuple[Finding, ...]:
    """The sorted findings, each that follows from another naming it by its index."""
    if not links:
        return tuple(findings)
    where = {id(f): k for k, f in enumerate(findings)}
    out = list(findings)
    for follower, cause in links:
        k, c = where.get(id(follower)), where.get(id(cause))
        if k is not None and c is not None and k != c:
            out[k] = replace(out[k], cause=c)
    return tuple(out)


def _check_end(
    game: GameReplay,
    state: ChainState,
    log: GameLog,
    links: list[Link],
    early: Finding | None = None,
) -> tuple[list[Finding], FinalResult]:
    """The final scores and result points against the game-end rules (analyzer.hands.final),
    and the final result they were judged against.

    The final scores are compared with the chain after the last hand; where they
    differ because the last hand's result had a finding, that finding is named as
    the cause. The result points are then judged against whichever final scores
    explain them (the chain's, or the log's own), so one wrong number in the last
    hand does not make every seat's result wrong as well.
    """
    assert game.end is not None
    start = log.start
    hint = start.rules_hint
    claims = game.end.claims

    def judge(scores: list[int], sticks: int) -> tuple[FinalResult, tuple[FinalDiff, ...]]:
        return check_final(
            claims,
            scores,
            sticks,
            start.first_dealer,
            game.players,
            game.rules,
            hint,
            start.game_id,
        )

    result, diffs = judge(state.scores, state.riichi_sticks)
    # The chain went on from a wrong score the log showed, or the last hand's
    # recorded deltas differ from the recomputed ones (each its own finding): the
    # final scores may follow the chain's other reading, or the recomputed settlement
    # (a converter's wrong delta with Mahjong Soul's own final scores), instead.
    # A last hand settled without knowing a win's ura han: the final scores may
    # follow one of its other settlements.
    unsure = [[a + b for a, b in zip(state.scores, off, strict=False)] for off in state.maybe]
    for other_scores in (state.alt, state.recomputed, *unsure):
        if other_scores is None or not any(d.field == "final" for d in diffs):
            continue
        other, other_diffs = judge(other_scores, state.riichi_sticks)
        if not any(d.field == "final" for d in other_diffs):
            result, diffs = other, other_diffs
    # The last hand's start broke the chain (its own finding), which went on from the
    # log's riichi sticks: the sticks left for the top player (tenhou-format.md §1.10)
    # may follow the chain's own count instead.
    for sticks in sorted({label[2] for label in state.labels} - {state.riichi_sticks}):
        if not any(d.field == "final" for d in diffs):
            break
        other, other_diffs = judge(state.scores, sticks)
        if not any(d.field == "final" for d in other_diffs):
            result, diffs = other, other_diffs
    if any(d.field == "final" for d in diffs) and claims.final_scores is not None:
        _, own = judge(list(claims.final_scores), 0)
        finals = [d for d in diffs if d.field == "final"]
        results = [d for d in own if d.field == "result"]
        if len(results) < len(diffs) - len(finals):
            diffs = (*finals, *results)
    lobby = dict(hint.extras).get("lobby", "0")
    # Private and special lobbies may set their own uma; where the log does not say
    # which, a difference in the result points is a warning, not a verdict.
    # A log without its lobby type (lobby-type-missing) leaves the uma unknown too.
    # A Mahjong Soul game (its own record, or converter JSON whose lobby key is 0) is
    # not a Tenhou ranked lobby: where its results are assumed (a friendly room's
    # elided uma: results_assumed), a difference is a warning.
    ranked_lobby = hint.source.startswith("tenhou") and hint.platform is None and lobby in ("0", "")
    trusted = hint.assumed_type is None and (
        not result.assumed or (ranked_lobby and not hint.special_lobby)
    )
    out: list[Finding] = []
    if not diffs and result.assumed and claims.results is not None and _undated_json(log):
        # tenhou.net/6 without a log id in ``ref`` or a ``lobby``: the rounding era is
        # the one the results fit, which is an assumption, not a verdict.
        out.append(
            Finding(
                "rules-assumed",
                Severity.WARNING,
                f"game end: the file names no date or lobby; the results fit {result.rule}",
                log.path,
                None,
                game.end_index,
                None,
            )
        )
    for d in diffs:
        what = "final score" if d.field == "final" else "result"
        message = (
            f"game end: seat {d.seat}'s {what} is {d.claimed} in the log, "
            f"recomputed {d.expected} ({result.rule})"
        )
        if d.field == "final" or trusted:
            found = Finding(
                "final-score-mismatch",
                Severity.ERROR,
                message,
                log.path,
                None,
                game.end_index,
                d.seat,
                d.expected,
                d.claimed,
            )
            cause = state.cause or early
            if cause is not None and (d.field == "final" or early is not None):
                links.append((found, cause))
            out.append(found)
        else:
            out.append(
                Finding(
                    "rules-assumed",
                    Severity.WARNING,
                    f"{message}; this lobby's uma is not known, so the result "
                    "points are not judged",
                    log.path,
                    None,
                    game.end_index,
                    d.seat,
                    d.expected,
                    d.claimed,
                )
            )
    return out, result


def custom_rule_undecoded(log: GameLog) -> str | None:
    """What the log's custom-rule string (Tenhou csrule) sets that is not decoded."""
    csrule = dict(log.start.rules_hint.extras).get("csrule")
    return None if csrule is None else csrule_undecoded(csrule)


def _order_not_judged(findings: list[Finding]) -> list[Finding]:
    """Under a custom rule that is not decoded, the hand that should come next (a
    dealer repeat, the honba) is not known: those chain findings become warnings."""
    return [
        replace(f, severity=Severity.WARNING, message=f"{f.message} (custom rule not decoded)")
        if f.code == "game-end-mismatch"
        or (f.code == "score-chain-mismatch" and "the hand after the last one" in f.message)
        else f
        for f in findings
    ]


def _undated_json(log: GameLog) -> bool:
    """A Tenhou JSON game whose file says neither when nor in which lobby it was played.

    Only a Tenhou game has a rounding era to guess; a Mahjong Soul game's results
    formula is its preset's, whatever the date.
    """
    hint = log.start.rules_hint
    return (
        hint.source == "tenhou-json"
        and hint.platform is None
        and "lobby" not in dict(hint.extras)
        and game_date(log.start.game_id) is None
    )


def _unfinished(log: GameLog, game: GameReplay) -> list[Finding]:
    """The faults the log itself reports (an mjai server's error line that stopped the
    game); a log that simply stops is analyzer.checks.audit_flow.check_game_end's."""
    out: list[Finding] = []
    last = game.rounds[-1] if game.rounds else None
    for pos, message in log.errors:
        out.append(
            Finding(
                "game-incomplete",
                Severity.ERROR,
                f"{pos.where}: {message}",
                log.path,
                last.label if last else None,
                # At the last event the log holds (the line that stopped the game is
                # none): the hand it cut short, where the reports look for it.
                last.last_event if last is not None and last.last_event >= 0 else None,
                None,
            )
        )
    return out


def count_results(log: GameLog) -> tuple[int, int]:
    """Wins and draws as the log records them (for totals when a replay broke). A
    server's penalty (``DrawReason.PENALTY``) ends a hand, but is neither."""
    # One pass over the events, in C, counts each class; isinstance is then asked once
    # per class rather than twice per event.
    events = log.events
    wins = draws = 0
    for kind, n in Counter(map(type, events)).items():
        if issubclass(kind, Win):
            wins += n
        if issubclass(kind, RoundDraw):
            draws += n
    if draws:
        # The draws picked out in C too: a few events a hand, each read in Python.
        picked = compress(events, map(is_, map(type, events), repeat(RoundDraw)))
        found = cast("Iterator[RoundDraw]", picked)
        draws -= sum(1 for ev in found if ev.reason is DrawReason.PENALTY)
    return wins, draws
