"""The step-through board: a round's start and one small change per event.

A :class:`BoardRecorder` follows the audit's replay (it is a ``ReplayObserver``).
For each round it writes down the board at the deal (:class:`BoardState`) and,
for every later event, a *step*: a short string of operations that turn the board
before the event into the board after it. The page's script (templates/report.js)
replays the steps; :meth:`BoardState.apply` is the same replay in Python, which
gives the board shown without script (the round's last step) and the tests.

Every operation names its seat and tiles, so a later view from one seat can hide
what that seat cannot see (the other hands, their draws) from the same data. Notes
are attached to steps: ``RoundBoard.events`` maps each step to its event's index
in the log, and the page's round data carries ``notes`` as ``[step, kind, text]``
(reports/views.py puts each finding there; a per-turn note keyed by event index
goes to the same list), which the board shows at that step and the keys n/p visit.

Tile tokens (also read by templates/report.js): a tile is ``5m``, ``0p`` (a red
five), ``7z``; a pond tile may carry flags ``t`` (tsumogiri), ``r`` (riichi tile,
turned), ``c`` (called away); a meld carries ``^`` after a called (turned) tile
and ``b`` after a tile shown face down (the ends of a concealed kan, or a dora
indicator the rules owe and the log has not turned). Groups are tokens one after
another: ``2s5s``, never the short ``25s`` (one token per tile).

A step is its active seat (``0``..``3``, or ``-``) followed by operations joined
by spaces; ``S`` is a seat digit, ``T`` tokens:

====================  =====================================================
``dST``               seat S draws tile T (shown apart); the wall gets one less
``xST``               seat S discards T (with its flags): the drawn tile joins
                      the hand, T leaves it and goes to the pond
``cS``                seat S's last discard is called away
``hST``               seat S's concealed hand is T (no drawn tile apart)
``MST,T``             seat S's melds, comma-separated (none: empty)
``DT``                the dora indicators shown
``lN`` / ``kN``       tiles left in the live wall / riichi sticks on the table
``sSN``               seat S's score is N
``RS1`` / ``RS0``     seat S is / is not in riichi (declared or accepted)
``wST``               seat S's waits (none: empty)
``fSC``               seat S's furiten cause (none: empty)
====================  =====================================================
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from markupsafe import Markup

from analyzer.engine.replay import RoundState, counts34
from analyzer.hands.hand import waits
from mjaudit.events import (
    DeclareMeld,
    Discard,
    DoraReveal,
    DrawReason,
    DrawTile,
    Event,
    RiichiAccepted,
    RiichiDeclared,
    RoundDraw,
    Win,
)
from mjaudit.melds import Meld, MeldKind
from mjaudit.tiles import Tile, to_mpsz
from reports.i18n import gettext as _
from reports.i18n import wind_name
from reports.tiles_svg import group_html

__all__ = [
    "BoardRecorder",
    "BoardState",
    "BoardView",
    "RoundBoard",
    "SeatBoard",
    "SeatState",
    "board_view",
    "dora_of",
    "dora_shown",
    "draw_reason",
    "meld_tokens",
    "split_tokens",
    "tile_group",
    "tokens",
    "wind_of",
]


def wind_of(seat: int, dealer: int, players: int) -> str:
    """The seat's wind in a hand dealt by ``dealer``, named in the pages' language."""
    return wind_name((seat - dealer) % players)


@dataclass(frozen=True, slots=True)
class SeatState:
    """What the furiten display needs for one seat at one step."""

    waits: str  # tokens ("2s5s"), "" when not tenpai
    furiten: str | None  # the cause when furiten, "" when not, None when unknown


SeatStates = Callable[[int, int, RoundState], tuple[SeatState, ...] | None]
_CALLS = (MeldKind.CHI, MeldKind.PON, MeldKind.DAIMINKAN)


# Tiles are interned values: their tokens and sort keys are looked up, not rebuilt
# at each of a game's two thousand steps.
_ALL = (*(Tile(k) for k in range(34)), Tile("0m"), Tile("0p"), Tile("0s"))
_NAME: dict[Tile, str] = {t: str(t) for t in _ALL}
_KEY: dict[str, tuple[int, bool]] = {str(t): (t.kind, not t.red) for t in _ALL}


def tokens(tiles: Sequence[Tile]) -> str:
    """Tiles as tokens, one per tile, in the order given: ``2s5s``."""
    return "".join([_NAME[t] for t in tiles])


def split_tokens(text: str) -> list[str]:
    """``"1m0p5sb"`` -> ``["1m", "0p", "5sb"]``: each tile with its flags."""
    out: list[str] = []
    for ch in text:
        if ch.isdigit() or not out:
            out.append(ch)
        else:
            out[-1] += ch
    return out


def _sorted_tokens(hand: Sequence[Tile]) -> str:
    return tokens(sorted(hand, key=lambda t: (t.kind, not t.red)))


def meld_tokens(meld: Meld, seat: int) -> str:
    """A meld as tokens; the called tile is turned and placed toward its source
    (left player: first; opposite: middle; right player: last)."""
    tiles = list(meld.tiles)
    if meld.kind is MeldKind.ANKAN:
        return "".join(f"{t}{'b' if k in (0, 3) else ''}" for k, t in enumerate(tiles))
    if meld.kind is MeldKind.KITA or meld.called is None or meld.from_seat is None:
        return "".join(str(t) for t in tiles)
    rest = list(tiles)
    rest.remove(meld.called)
    extra = ""
    if meld.kind is MeldKind.KAKAN and meld.added is not None and meld.added in rest:
        rest.remove(meld.added)
        extra = f"{meld.added}^"
    rest.sort(key=lambda t: (t.kind, not t.red))
    relative = (meld.from_seat - seat) % 4
    at = {3: 0, 2: 1, 1: len(rest)}.get(relative, 0)
    out = [str(t) for t in rest]
    out.insert(at, f"{meld.called}^{extra}")
    return "".join(out)


def dora_shown(state: RoundState) -> str:
    """The dora indicators face up on the table: those in force (a face-down tile
    where the rules owe one the log has not turned), then those the log has turned
    that the rules have not placed yet (just turned, or turned early). A kan's
    indicator thus shows at the step the log turns it."""
    clock = state.clock
    shown = "".join([_NAME[t] if t is not None else "1zb" for t in clock.dora])
    if clock.early or clock.gap:
        shown += "".join([_NAME[r.indicator] for r in (*clock.early, *clock.gap)])
    return shown


def draw_reason(reason: DrawReason) -> str:
    """A draw's kind by name: ``kyuushu`` (``DrawReason``'s value), ``九種九牌``."""
    return {
        DrawReason.EXHAUSTIVE: _("exhaustive"),
        DrawReason.NAGASHI_MANGAN: _("nagashi-mangan"),
        DrawReason.KYUUSHU: _("kyuushu"),
        DrawReason.SUUFON_RENDA: _("suufon-renda"),
        DrawReason.SUUCHA_RIICHI: _("suucha-riichi"),
        DrawReason.SUUKAIKAN: _("suukaikan"),
        DrawReason.SANCHAHOU: _("sanchahou"),
        DrawReason.PENALTY: _("penalty"),
    }[reason]


def dora_of(indicators: str, players: int) -> str:
    """The dora the indicator tokens make, as tokens (``3p7z`` -> ``4p5z``; ``1m`` ->
    ``9m`` with three players); a face-down indicator (``1zb``) makes none known."""
    return tokens([Tile(t).dora(players) for t in split_tokens(indicators) if not t.endswith("b")])


def _meld_kind(kind: MeldKind) -> str:
    """A call by name: ``pon``, ``ポン``."""
    return {
        MeldKind.CHI: _("chi"),
        MeldKind.PON: _("pon"),
        MeldKind.DAIMINKAN: _("daiminkan"),
        MeldKind.KAKAN: _("kakan"),
        MeldKind.ANKAN: _("ankan"),
        MeldKind.KITA: _("kita"),
    }[kind]


def _caption(ev: Event, who: Sequence[str]) -> str:
    """What happened at a step; ``who[s]`` is seat s's wind in the hand and name."""
    match ev:
        case DrawTile():
            return _("{seat} draws {tile}").format(seat=who[ev.seat], tile=_NAME[ev.tile])
        case Discard():
            text = (
                _("{seat} discards {tile} (tsumogiri)")
                if ev.tsumogiri
                else _("{seat} discards {tile}")
            )
            return text.format(seat=who[ev.seat], tile=_NAME[ev.tile])
        case DeclareMeld():
            return _("{seat} calls {kind} {tiles}").format(
                seat=who[ev.seat], kind=_meld_kind(ev.meld.kind), tiles=to_mpsz(ev.meld.tiles)
            )
        case DoraReveal():
            return _("new dora indicator {tile}").format(tile=ev.indicator)
        case RiichiDeclared():
            return _("{seat} declares riichi").format(seat=who[ev.seat])
        case RiichiAccepted():
            return _("{seat}'s riichi stick is paid").format(seat=who[ev.seat])
        case Win():
            if ev.tsumo:
                return _("{winner} wins by tsumo").format(winner=who[ev.seat])
            return _("{seat} wins by ron on {loser}").format(
                seat=who[ev.seat], loser=who[ev.from_seat]
            )
        case RoundDraw():
            if ev.reason is DrawReason.PENALTY:
                return _("the server ends the hand with a penalty")
            return _("draw: {reason}").format(reason=draw_reason(ev.reason))
        case _:
            return type(ev).__name__


@dataclass(slots=True)
class BoardState:
    """What the board shows at one step (mutable: steps are applied to it).

    Hands, melds and ponds are token lists; ``furiten`` is None where unknown.
    """

    hands: list[list[str]]
    drawn: list[str]
    melds: list[list[str]]
    ponds: list[list[str]]
    dora: str
    left: int
    scores: list[int]
    sticks: int
    riichi: list[int]
    waits: list[str]
    furiten: list[str | None]
    active: int = -1

    @property
    def players(self) -> int:
        return len(self.hands)

    def start_data(self) -> dict[str, object]:
        """The deal as the page's script reads it (the round's ``start``)."""
        return {
            "h": ["".join(h) for h in self.hands],
            "d": self.dora,
            "l": self.left,
            "s": list(self.scores),
            "k": self.sticks,
            "r": list(self.riichi),
            "w": list(self.waits),
            "f": list(self.furiten),
        }

    def copy(self) -> BoardState:
        return BoardState(
            [list(h) for h in self.hands],
            list(self.drawn),
            [list(m) for m in self.melds],
            [list(p) for p in self.ponds],
            self.dora,
            self.left,
            list(self.scores),
            self.sticks,
            list(self.riichi),
            list(self.waits),
            list(self.furiten),
            self.active,
        )

    def apply(self, step: str) -> None:
        """Apply one step (see the module's table); templates/report.js does the same."""
        self.active = -1 if step[0] == "-" else int(step[0])
        for op in step[1:].split(" "):
            if op:
                self.apply_op(op)

    def apply_op(self, op: str) -> None:
        """Apply one operation of a step."""
        code, rest = op[0], op[1:]
        match code:
            case "D":
                self.dora = rest
                return
            case "l":
                self.left = int(rest)
                return
            case "k":
                self.sticks = int(rest)
                return
        s, arg = int(rest[0]), rest[1:]
        match code:
            case "d":
                self.drawn[s] = arg
                self.left -= 1
            case "x":
                hand = self.hands[s]
                if self.drawn[s]:
                    hand.append(self.drawn[s])
                    self.drawn[s] = ""
                hand.remove(arg[:2])
                hand.sort(key=_KEY.__getitem__)  # by kind, a red five first
                self.ponds[s].append(arg)
            case "c":
                self.ponds[s][-1] += "c"
            case "h":
                self.hands[s] = split_tokens(arg)
                self.drawn[s] = ""
            case "M":
                self.melds[s] = arg.split(",") if arg else []
            case "s":
                self.scores[s] = int(arg)
            case "R":
                self.riichi[s] = int(arg)
            case "w":
                self.waits[s] = arg
            case "f":
                self.furiten[s] = arg
            case _:
                raise ValueError(f"unknown board operation {op!r}")


class _RoundRecording:
    """One round as it is recorded: its deal, its steps and the board so far."""

    __slots__ = ("board", "captions", "events", "start", "steps")

    def __init__(self, start: BoardState, index: int, caption: str) -> None:
        self.start = start.copy()
        self.board = start
        self.steps: list[str] = []
        self.captions = [caption]
        self.events = [index]


@dataclass(frozen=True, slots=True)
class RoundBoard:
    """A round's board: the deal, one step per event, and the board after the last.

    ``events[k]`` is the index in the log of step ``k``'s event (step 0: the
    round's start) and ``captions[k]`` says what happened at it.
    """

    start: BoardState
    steps: tuple[str, ...]
    captions: tuple[str, ...]
    events: tuple[int, ...]
    final: BoardState = field(compare=False)

    def data(self) -> dict[str, object]:
        """The round as the page's script reads it: the deal, the steps, and ``o``,
        the dora each indicator token of the round makes (the script shows them
        beside the indicators; ``mjaudit.tiles.Tile.dora``, never a table of its own)."""
        shown = [self.start.dora] + [
            op[1:] for step in self.steps for op in step[1:].split(" ") if op.startswith("D")
        ]
        players = self.start.players
        made = {t: dora_of(t, players) for tokens in shown for t in split_tokens(tokens)}
        return {
            "start": self.start.start_data(),
            "steps": list(self.steps),
            "o": {t: d for t, d in made.items() if d},
        }


class BoardRecorder:
    """Records every round's board as the replay goes (a ``ReplayObserver``).

    ``seat_states`` gives the waits and furiten of each seat at a step (from the
    furiten tracker when it is available; it should return the same object while
    nothing changed); without it waits are computed here and furiten is unknown.
    """

    def __init__(self, names: Sequence[str], seat_states: SeatStates | None = None) -> None:
        self.names = tuple(names)
        self.seat_states = seat_states
        self._done: list[RoundBoard] = []
        self._now: _RoundRecording | None = None
        self._states: tuple[SeatState, ...] | None = None
        self._waits_cache: dict[str, str] = {}
        self._round = -1
        self._who: tuple[str, ...] = ()

    @property
    def rounds(self) -> tuple[RoundBoard, ...]:
        self._finish()
        return tuple(self._done)

    def start_round(self, state: RoundState) -> None:
        self._finish()
        self._round += 1
        players = state.players
        seats = range(players)
        start = state.start
        dealer = start.dealer
        board = BoardState(
            hands=[split_tokens(_sorted_tokens(state.hands[s])) for s in seats],
            drawn=[""] * players,
            melds=[[] for _ in seats],
            ponds=[[] for _ in seats],
            dora=dora_shown(state),
            left=state.live_remaining,
            scores=list(state.scores[:players]),
            sticks=state.sticks,
            riichi=[0] * players,
            waits=[""] * players,
            furiten=[None] * players,
        )
        states = self._seat_states(state.event_index, state)
        if states is not None:
            board.waits = [x.waits for x in states]
            board.furiten = [x.furiten for x in states]
        else:
            board.waits = [self._waits(state.hands[s], state.nsets[s]) for s in seats]
        self._states = states
        self._who = tuple(
            f"{wind_of(s, dealer, players)} {self.names[s]}" for s in range(len(self.names))
        )
        caption = _("{round}: dealer {seat}").format(round=start.label, seat=self._who[dealer])
        self._now = _RoundRecording(board, state.event_index, caption)

    def step(self, index: int, event: Event, state: RoundState) -> None:
        now = self._now
        assert now is not None
        board = now.board
        ops: list[str] = []
        kind = type(event)
        if kind is DrawTile:
            assert isinstance(event, DrawTile)
            ops.append(f"d{event.seat}{_NAME[event.tile]}")
            active = event.seat
        elif kind is Discard:
            assert isinstance(event, Discard)
            flags = ("t" if event.tsumogiri else "") + (
                "r" if index in state.riichi_discards else ""
            )
            ops.append(f"x{event.seat}{_NAME[event.tile]}{flags}")
            active = event.seat
        elif kind is DeclareMeld:
            assert isinstance(event, DeclareMeld)
            seat, meld = event.seat, event.meld
            if meld.kind in _CALLS and meld.from_seat is not None:
                ops.append(f"c{meld.from_seat}")
            ops.append(f"h{seat}{_sorted_tokens(state.hands[seat])}")
            ops.append(f"M{seat}" + ",".join(meld_tokens(m, seat) for m in state.melds[seat]))
            active = seat
        else:
            seat_of = getattr(event, "seat", None)
            active = seat_of if isinstance(seat_of, int) else -1
        for op in ops:
            board.apply_op(op)
        ops.extend(self._changes(board, index, state, kind is DrawTile))
        step = ("-" if active < 0 else str(active)) + " ".join(ops)
        board.active = active
        now.steps.append(step)
        now.captions.append(_caption(event, self._who))
        now.events.append(index)

    def end_round(self, state: RoundState) -> None:
        self._finish()

    def _finish(self) -> None:
        now = self._now
        if now is None:
            return
        self._now = None
        self._done.append(
            RoundBoard(
                now.start, tuple(now.steps), tuple(now.captions), tuple(now.events), now.board
            )
        )

    def _changes(self, board: BoardState, index: int, state: RoundState, draw: bool) -> list[str]:
        """Operations for what changed beside the event's own tiles: the scalar fields
        (cheap to compare every step), and waits and furiten when they changed."""
        ops: list[str] = []
        players = len(board.hands)
        dora = dora_shown(state)
        if dora != board.dora:
            board.dora = dora
            ops.append(f"D{dora}")
        if not draw:
            if state.sticks != board.sticks:
                board.sticks = state.sticks
                ops.append(f"k{state.sticks}")
            scores = state.scores
            for s in range(players):
                if scores[s] != board.scores[s]:
                    board.scores[s] = scores[s]
                    ops.append(f"s{s}{scores[s]}")
                r = 1 if state.riichi[s] or state.declaring == s else 0
                if r != board.riichi[s]:
                    board.riichi[s] = r
                    ops.append(f"R{s}{r}")
        if state.live_remaining != board.left:
            board.left = state.live_remaining
            ops.append(f"l{state.live_remaining}")
        states = self._seat_states(index, state)
        if states is None:
            if not draw:
                for s in range(players):
                    w = self._waits(state.hands[s], state.nsets[s])
                    if w != board.waits[s]:
                        board.waits[s] = w
                        ops.append(f"w{s}{w}")
        elif states is not self._states:
            self._states = states
            for s in range(players):
                w, f = states[s].waits, states[s].furiten
                if w != board.waits[s]:
                    board.waits[s] = w
                    ops.append(f"w{s}{w}")
                if f is not None and f != board.furiten[s]:
                    board.furiten[s] = f
                    ops.append(f"f{s}{f}")
        return ops

    def _seat_states(self, index: int, state: RoundState) -> tuple[SeatState, ...] | None:
        if self.seat_states is None:
            return None
        return self.seat_states(self._round, index, state)

    def _waits(self, hand: Sequence[Tile], nsets: int) -> str:
        if len(hand) + 3 * nsets != 13:
            return ""
        key = _sorted_tokens(hand)
        found = self._waits_cache.get(key)
        if found is None:
            found = tokens([Tile(k) for k in sorted(waits(counts34(list(hand))))])
            self._waits_cache[key] = found
        return found


@dataclass(frozen=True, slots=True)
class SeatBoard:
    seat: int
    wind: str
    name: str
    score: int
    riichi: bool
    active: bool
    hand: Markup
    drawn: Markup
    melds: tuple[Markup, ...]
    pond: Markup
    waits: Markup
    furiten: str | None
    me: bool = False  # the seat the board is seen from


@dataclass(frozen=True, slots=True)
class BoardView:
    """The board at one step, drawn on the server (what the page shows without script)."""

    caption: str
    step: int
    steps: int
    dora: Markup
    left: int
    sticks: int
    seats: tuple[SeatBoard, ...]
    # The dora the indicators shown make, beside them.
    dora_of: Markup


def tile_group(text: str, kind: str) -> Markup:
    """Tokens (with flags) as a tile group; ``kind`` is ``hand``, ``meld`` or ``pond``
    (a pond and a meld keep their order in the group's mpsz text)."""
    tiles: list[Tile | None] = []
    css: list[str] = []
    shown: list[Tile] = []
    for token in split_tokens(text):
        t = Tile(token[:2])
        flags = token[2:]
        tiles.append(None if "b" in flags else t)
        classes = []
        if "t" in flags:
            classes.append("tsumogiri")
        if "r" in flags or "^" in flags:
            classes.append("side")
        if "c" in flags:
            classes.append("called")
        css.append(" ".join(classes))
        if "b" not in flags or kind == "meld":
            shown.append(t)
    mpsz = to_mpsz(shown, sort=kind == "hand")
    return group_html(tiles, mpsz, css) if tiles else Markup("")


def board_view(
    board: BoardState,
    caption: str,
    step: int,
    steps: int,
    names: Sequence[str],
    dealer: int,
    first: int | None = None,
) -> BoardView:
    """The static board of one step; ``first``: the seat it is seen from, shown first."""
    players = board.players
    seats = []
    order = range(players) if first is None else [(first + k) % players for k in range(players)]
    for s in order:
        seats.append(
            SeatBoard(
                seat=s,
                wind=wind_of(s, dealer, players),
                name=names[s],
                score=board.scores[s],
                riichi=bool(board.riichi[s]),
                active=board.active == s,
                hand=tile_group("".join(board.hands[s]), "hand"),
                drawn=tile_group(board.drawn[s], "hand"),
                melds=tuple(tile_group(m, "meld") for m in board.melds[s]),
                pond=tile_group("".join(board.ponds[s]), "pond"),
                waits=tile_group(board.waits[s], "hand"),
                furiten=board.furiten[s],
                me=first == s,
            )
        )
    return BoardView(
        caption=caption,
        step=step,
        steps=steps,
        dora=tile_group(board.dora, "pond"),
        left=board.left,
        sticks=board.sticks,
        seats=tuple(seats),
        dora_of=tile_group(dora_of(board.dora, players), "pond"),
    )
