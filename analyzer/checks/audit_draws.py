"""Checks of drawn hands: the draw type against the state, tenpai, and payments.

Tenhou's draw types (tenhou-format.md §1.11, rules-matrix §E): an exhaustive draw
needs an empty live wall; kyuushu kyuuhai nine different terminals and honours in
the declarer's first, uninterrupted turn; suufon renda four identical wind discards
as the first four discards with no call; suucha riichi four riichi; suukaikan four
kans by more than one player; sanchahou three players able to win on one discard.
"""

from __future__ import annotations

from collections.abc import Sequence

from analyzer.checks.audit_common import error, warning
from analyzer.engine.state import DrawRecord, RoundReplay
from analyzer.hands.hand import is_complete, waits
from analyzer.hands.points import nagashi_payments, noten_payments
from mjaudit.events import DrawReason
from mjaudit.findings import Finding, JsonValue
from mjaudit.rules import Ruleset
from mjaudit.tiles import Tile, to_mpsz

__all__ = ["check_draw", "is_tenpai", "penalty_deltas", "shown_hands_checked"]


def _counts(hand: Sequence[Tile]) -> list[int]:
    counts = [0] * 34
    for t in hand:
        counts[t.kind] += 1
    return counts


def is_tenpai(concealed: Sequence[Tile], melds_tiles: Sequence[Tile] = ()) -> bool:
    """Tenpai for a drawn hand: some wait that is not all four in the player's own tiles.

    Tenhou counts a formal (keishiki) tenpai, but not a wait whose four copies the
    player holds themself (rules-matrix §E noten row).
    """
    if len(concealed) % 3 != 1:
        return False  # mid-turn (a drawn tile not yet discarded): check_draw says so
    counts = _counts(concealed)
    own = _counts(melds_tiles)
    return any(counts[k] + own[k] < 4 for k in waits(counts))


def _declared(tenpai: list[int], claimed: list[int], riichi: Sequence[bool]) -> list[int]:
    """The tenpai seats where a tenpai hand may be declared noten (WRC 2015 §5.7.2;
    seed 004): the log's set stands if every seat in it is tenpai and every tenpai seat
    in riichi is in it; else the hands' own set, for the finding to name."""
    if set(claimed) <= set(tenpai) and all(s in claimed for s in tenpai if riichi[s]):
        return claimed
    return tenpai


def _yaochu_kinds(hand: Sequence[Tile]) -> int:
    return len({t.kind for t in hand if t.is_yaochu})


def check_draw(
    rnd: RoundReplay,
    rec: DrawRecord,
    rules: Ruleset,
    path: str,
    players: int,
    settled: dict[int, tuple[int, ...]] | None = None,
    tenpai_by_hands: bool = True,
    seats: list[int] | None = None,
) -> tuple[list[Finding], int]:
    """Findings for one drawn hand, and the number of seat deltas compared.

    ``seats``, when given, receives the seats the draw is about as found here: those
    whose ponds make the nagashi mangan, the kyuushu kyuuhai declarer (none for
    another draw, or when the log shows no hand to find the declarer by).

    ``tenpai_by_hands``: the format says who is tenpai by the hands it shows (Tenhou
    XML), so a wrong set is a ``tenpai-hand-mismatch``; False where the set is read
    from the payments (Tenhou JSON), so it is a ``draw-mismatch`` even when no hand
    is shown.
    """
    out: list[Finding] = []
    ev = rec.event
    claims = ev.claims
    idx = rec.event_index
    reason = ev.reason

    def bad(
        message: str, seat: int | None = None, expected: JsonValue = None, actual: JsonValue = None
    ) -> None:
        out.append(error(rnd, path, "draw-mismatch", message, idx, seat, expected, actual))

    if reason is DrawReason.PENALTY:
        return _check_penalty(rnd, rec, path, players, settled)
    # Every hand the log shows is a claim about that hand: the tenpai hands of an
    # exhaustive draw or nagashi mangan, the declarer's fourteen tiles at kyuushu
    # kyuuhai, every hand at four riichi, the three winners' hands at a triple ron
    # (tenhou-format.md §1.10, §1.11).
    shown_ids = dict(claims.hand_ids)
    for s, hand in claims.hands:
        out.extend(_shown_hand(rnd, rec, s, hand, path, shown_ids.get(s)))
    expected = [0] * 4
    # A draw the rules do not have is the one finding: what it pays is judged as the
    # log records it (the payments of that kind), so they are no second finding.
    unknown_nagashi = reason is DrawReason.NAGASHI_MANGAN and not rules.nagashi_mangan
    if reason.abortive and reason.value not in rules.abortive_draws:
        bad(f"the log ends the hand in a {reason.value} draw, which these rules do not have")
    elif unknown_nagashi:
        bad("the log ends the hand in a nagashi mangan, which these rules do not have")
    elif reason is DrawReason.SANCHAHOU and rules.triple_ron != "abortive":
        how = "by head-bump" if rules.triple_ron == "atamahane" else "by scoring each win"
        bad(f"the log ends the hand in a triple-ron draw; these rules settle it {how}")
    if reason in (DrawReason.EXHAUSTIVE, DrawReason.NAGASHI_MANGAN):
        if rec.live_remaining != 0:
            bad(
                f"exhaustive draw with {rec.live_remaining} tiles still in the live wall",
                expected=0,
                actual=rec.live_remaining,
            )
        for s in range(players):
            if len(rec.concealed[s]) % 3 != 1:
                bad(
                    f"exhaustive draw while seat {s} holds {len(rec.concealed[s])} tiles: "
                    "its turn is not over (a drawn tile not discarded)",
                    s,
                )
        tenpai = [
            s
            for s in range(players)
            if is_tenpai(rec.concealed[s], [t for m in rec.melds[s] for t in m.tiles])
        ]
        if claims.tenpai is not None and rules.noten_declaration:
            tenpai = _declared(tenpai, sorted(claims.tenpai), rec.riichi)
        seats_shown = [s for s, _ in claims.hands]
        if claims.tenpai is not None and sorted(claims.tenpai) != tenpai:
            # Tenhou XML says who is tenpai by showing their hands and nothing else
            # (each of the corpus's 465 exhaustive draws, nagashi mangan included,
            # shows exactly the tenpai seats' hands): a wrong set is a wrong set of
            # hands shown.
            by_hands = tenpai_by_hands and sorted(seats_shown) == sorted(claims.tenpai)
            code = "tenpai-hand-mismatch" if by_hands else "draw-mismatch"
            what = "shows the hands of" if by_hands else "shows"
            out.append(
                error(
                    rnd,
                    path,
                    code,
                    f"the log {what} seats {sorted(claims.tenpai)} tenpai, the hands make "
                    f"seats {tenpai} tenpai",
                    idx,
                    None,
                    tenpai,
                    sorted(claims.tenpai),
                )
            )
        for s in range(players):
            if rec.riichi[s] and s not in tenpai:
                bad(f"seat {s} declared riichi but is not tenpai at the draw", s)
        nagashi = [s for s in range(players) if _is_nagashi(rec, s, rules)]
        if reason is DrawReason.NAGASHI_MANGAN:
            if not nagashi and not unknown_nagashi:
                bad("nagashi mangan, but no player's pond is all terminals and honours, uncalled")
            expected = list(nagashi_payments(nagashi, rec.dealer, players, rules))
            if seats is not None:
                seats.extend(nagashi)
        else:
            if nagashi and rules.nagashi_mangan:
                bad(
                    f"seat {nagashi[0]} has a nagashi mangan pond, but the log records a plain "
                    "exhaustive draw",
                    nagashi[0],
                )
            expected = list(noten_payments(tenpai, players, rules))
    elif reason is DrawReason.KYUUSHU:
        # The declarer is the seat whose turn it is (fourteen tiles in hand); a hand
        # the log shows as another seat's is that shown hand's finding (above).
        declarers = [
            s for s, _ in claims.hands if s < len(rec.concealed) and len(rec.concealed[s]) % 3 == 2
        ]
        if claims.hands and not declarers:
            declarers = [s for s in range(players) if len(rec.concealed[s]) % 3 == 2][:1]
        if seats is not None:
            seats.extend(declarers)
        for s in declarers:
            hand = rec.concealed[s]
            kinds = _yaochu_kinds(hand)
            if kinds < 9:
                bad(
                    f"kyuushu kyuuhai declared by seat {s} with {kinds} kinds of terminals "
                    f"and honours ({to_mpsz(hand)}); nine are needed",
                    s,
                    9,
                    kinds,
                )
            if rec.calls_made or rec.first_discards[s] is not None:
                bad(f"kyuushu kyuuhai declared by seat {s} after their first turn", s)
    elif reason is DrawReason.SUUFON_RENDA:
        first = rec.first_discards[:players]
        same = (
            all(t is not None and t.is_wind for t in first)
            and len({t.kind for t in first if t is not None}) == 1
        )
        if not same or rec.calls_made or any(len(p) != 1 for p in rec.ponds[:players]):
            shown = " ".join(str(t) if t else "-" for t in first)
            bad(f"four winds draw, but the first discards are {shown}", None, None, shown)
    elif reason is DrawReason.SUUCHA_RIICHI:
        n = sum(rec.riichi)
        if n != players:
            bad(f"four-riichi draw with {n} riichi declared", None, players, n)
    elif reason is DrawReason.SUUKAIKAN:
        kans = sum(rec.kans_by_seat)
        kanners = sum(1 for k in rec.kans_by_seat if k)
        if kans != 4 or kanners < 2:
            bad(
                f"four-kan draw with {kans} kans by {kanners} players (four kans by more than "
                "one player are needed)",
                None,
                4,
                kans,
            )
    elif reason is DrawReason.SANCHAHOU:
        # Read from the replayed hands, so a format that does not name the three
        # claimants (Tenhou JSON's 三家和了) is checked all the same.
        last = _last_discard(rec)
        winners = []
        if last is not None:
            tile, discarder = last
            winners = [
                s
                for s in range(players)
                if s != discarder and is_complete(_counts((*rec.concealed[s], tile)))
            ]
        if len(winners) != 3:
            bad(
                f"triple-ron draw, but {len(winners)} players can win on the last discard",
                None,
                3,
                len(winners),
            )
        elif claims.hands and sorted(s for s, _ in claims.hands) != winners:
            # Tenhou XML shows the three winners' hands (tenhou-format.md §1.10).
            seats_shown = sorted(s for s, _ in claims.hands)
            out.append(
                error(
                    rnd,
                    path,
                    "tenpai-hand-mismatch",
                    f"the log shows the hands of seats {seats_shown} at a triple ron, the "
                    f"winners are seats {winners}",
                    idx,
                    None,
                    winners,
                    seats_shown,
                )
            )
    compared = 0
    if settled is not None:
        settled[idx] = tuple(expected)
    if claims.deltas is not None:
        for s in range(4):
            compared += 1
            if claims.deltas[s] != expected[s]:
                out.append(
                    error(
                        rnd,
                        path,
                        "payment-mismatch",
                        f"{_draw_name(reason)}: seat {s} {_signed(claims.deltas[s])} in the log, "
                        f"recomputed {_signed(expected[s])}",
                        idx,
                        s,
                        expected[s],
                        claims.deltas[s],
                    )
                )
    return out, compared


def penalty_deltas(payer: int, dealer: int, players: int) -> list[int]:
    """A mangan chombo paid by ``payer``, as mjai.app charges a bot's invalid move
    (mjai-format.md §6.2): the dealer pays 4000 to each other seat; anyone else pays
    4000 to the dealer and 2000 to each other seat (8000 in all, with four players)."""
    out = [0] * 4
    for s in range(players):
        if s != payer:
            paid = 4000 if payer == dealer or s == dealer else 2000
            out[s] += paid
            out[payer] -= paid
    return out


def _check_penalty(
    rnd: RoundReplay,
    rec: DrawRecord,
    path: str,
    players: int,
    settled: dict[int, tuple[int, ...]] | None,
) -> tuple[list[Finding], int]:
    """A hand the server ended to penalise an invalid move: one ``server-penalty``
    warning naming the seat that pays, and its deltas against the chombo that seat
    owes (one ``payment-mismatch`` if they are not). Nothing of the hand is judged as
    a draw of the rules: no draw type, no tenpai, no noten payments."""
    idx = rec.event_index
    deltas = rec.event.claims.deltas
    if deltas is None:
        message = (
            "the server ended the hand with a penalty (mjai.app's error draw); the log "
            "does not say who paid it, so its payment is not checked"
        )
        return [warning(rnd, path, "server-penalty", message, idx, None)], 0
    paid = list(deltas[:players])
    payer = min(range(players), key=lambda s: paid[s])
    if paid[payer] >= 0:
        message = (
            "the server ended the hand with a penalty (mjai.app's error draw), but no "
            f"seat pays it: the log's deltas are {paid}"
        )
        return [
            warning(rnd, path, "server-penalty", message, idx, None),
            error(
                rnd,
                path,
                "payment-mismatch",
                f"penalty: no seat pays a mangan chombo in the log's deltas {paid}",
                idx,
                None,
                None,
                paid,
            ),
        ], players
    expected = penalty_deltas(payer, rec.dealer, players)
    if settled is not None:
        settled[idx] = tuple(expected)
    dealer = " (the dealer)" if payer == rec.dealer else ""
    out = [
        warning(
            rnd,
            path,
            "server-penalty",
            f"the server penalised seat {payer}{dealer} for an invalid move (mjai.app's "
            f"error draw: a mangan chombo, {_signed(paid[payer])}); the hand ends there "
            "and is not judged as a draw, and the next hand is taken as the log starts it",
            idx,
            payer,
        )
    ]
    if paid != expected[:players]:
        out.append(
            error(
                rnd,
                path,
                "payment-mismatch",
                f"penalty: the log's deltas are {paid}, a mangan chombo paid by seat "
                f"{payer} is {expected[:players]} (seat {payer} {_signed(expected[payer])})",
                idx,
                payer,
                expected[:players],
                paid,
            )
        )
    return out, players


def _shown_hand(
    rnd: RoundReplay,
    rec: DrawRecord,
    seat: int,
    hand: Sequence[Tile],
    path: str,
    shown_ids: Sequence[int] | None = None,
) -> list[Finding]:
    """A hand the log shows at a draw against the replayed concealed hand: the tiles,
    and the physical ids where the log has them all (another copy of the same tile is
    a different tile)."""
    if seat >= len(rec.concealed):
        return []
    replayed = rec.concealed[seat]
    what = (
        "tenpai hand"
        if rec.event.reason in (DrawReason.EXHAUSTIVE, DrawReason.NAGASHI_MANGAN)
        else "hand"
    )
    if sorted(map(hash, hand)) != sorted(map(hash, replayed)):
        message = (
            f"the log shows seat {seat}'s {what} as {to_mpsz(hand)}, the replay has "
            f"{to_mpsz(replayed)}"
        )
        expected: JsonValue = to_mpsz(replayed)
        actual: JsonValue = to_mpsz(hand)
    else:
        ids = rec.concealed_ids
        held = list(ids[seat]) if ids is not None and shown_ids is not None else None
        if held is None or shown_ids is None or sorted(shown_ids) == held:
            return []
        message = (
            f"the log shows seat {seat}'s {what} {to_mpsz(hand)} with tile ids "
            f"{sorted(shown_ids)}, the replay has ids {held}"
        )
        expected, actual = held, sorted(shown_ids)
    return [
        error(rnd, path, "tenpai-hand-mismatch", message, rec.event_index, seat, expected, actual)
    ]


def shown_hands_checked(rec: DrawRecord) -> int:
    """How many hands :func:`check_draw` compared with the replay at this draw."""
    return len(rec.event.claims.hands)


def _draw_name(reason: DrawReason) -> str:
    return {
        DrawReason.EXHAUSTIVE: "exhaustive draw",
        DrawReason.NAGASHI_MANGAN: "nagashi mangan",
    }.get(reason, f"{reason.value} draw")


def _signed(points: int) -> str:
    return f"{points:+d}"


def _last_discard(rec: DrawRecord) -> tuple[Tile, int] | None:
    """The last tile discarded in the hand, and by which seat."""
    best: tuple[int, Tile, int] | None = None
    for seat, pond in enumerate(rec.ponds):
        if pond and (best is None or pond[-1].event_index > best[0]):
            best = (pond[-1].event_index, pond[-1].tile, seat)
    return (best[1], best[2]) if best else None


def _is_nagashi(rec: DrawRecord, seat: int, rules: Ruleset) -> bool:
    """Every discard a terminal or honour, none called away (Tenhou: own calls allowed)."""
    pond = rec.ponds[seat]
    if not pond or any(p.called or not p.tile.is_yaochu for p in pond):
        return False
    return rules.nagashi_open_calls_allowed or not any(m.is_open for m in rec.melds[seat])
