"""The ``mjaudit`` command line: a thin veneer over the library.

Exit codes: 0 = no finding at or above ``--fail-on``; 1 = such findings;
2 = bad usage, or an input that could not be read at all (the other inputs are
still processed and reported).
"""

from __future__ import annotations

import codecs
import datetime
import decimal
import gc
import io
import json
import math
import os
import sqlite3
import sys
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, NoReturn

import click

from mjaudit.errors import WRITE_ERRNOS, MjauditError
from mjaudit.findings import FAIL_RANKS
from reports.safe_text import ESCAPE, escape_unencodable, one_line, printable

if TYPE_CHECKING:
    from analyzer.checks.audit import FileAudit
    from analyzer.runs.batch import RunSummary
    from mjaudit.hands import WinContext
    from mjaudit.melds import Meld
    from mjaudit.rules import Ruleset

__all__ = ["main"]

EXIT_OK, EXIT_FINDINGS, EXIT_BAD_INPUT = 0, 1, 2
#: A run cut short by Ctrl-C (SIGINT): 128 + 2, as shells report it.
EXIT_INTERRUPTED = 130
#: A command whose reader went away before it was done (``| head``): 128 + SIGPIPE.
EXIT_PIPE_CLOSED = 141
_INTERRUPTED = "mjaudit: interrupted; what was written above is incomplete"

_UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}


def parse_size(text: str) -> int:
    """``64M``, ``1G``, ``512KiB``, ``1048576``: a size in bytes (units are powers of 1024)."""
    import re

    m = re.fullmatch(r"\s*(\d+)\s*([KMGT]?)(?:I?B)?\s*", text.upper())
    if m is None or (not m[2] and text.strip().upper().endswith("IB")):
        raise ValueError(f"not a size: {text!r} (such as 64M, 1G or a number of bytes)")
    n = int(m[1]) * _UNITS[m[2]]
    if n < 1:
        raise ValueError(f"a size must be at least 1 byte, not {text!r}")
    return n


class _Size(click.ParamType[int]):
    name = "SIZE"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        if isinstance(value, int):
            return value
        try:
            return parse_size(str(value))
        except ValueError as exc:
            self.fail(str(exc), param, ctx)


def _fail_on_option(f: Callable[..., None]) -> Callable[..., None]:
    """``--fail-on``, as ``audit`` and ``report`` share it (see :func:`_findings_exit`)."""
    return click.option(
        "--fail-on",
        type=click.Choice(["error", "warning", "never"]),
        default="error",
        show_default=True,
        help="Lowest severity of a finding that makes the exit code 1.",
    )(f)


def _findings_exit(worst: int, fail_on: str) -> int:
    """The exit code of readable inputs whose worst finding has severity rank ``worst``
    (-1: none): 1 at or above ``--fail-on``, else 0."""
    floor = FAIL_RANKS[fail_on]
    return EXIT_FINDINGS if worst >= floor else EXIT_OK


# score --batch's pool: more cases than reports.cases.CHUNK * POOL_THRESHOLD (a test
# keeps the two in step; the CLI does not import the scorer to say it).
_POOL_CASES = 2048


def _capped_jobs(ctx: click.Context, param: click.Parameter, value: int) -> int:
    """At most four workers per CPU: more only compete for the same CPUs, and a
    typed-in -j 100000 would fork that many processes before the first log."""
    from analyzer.runs.pool import available_cpus

    cpus = available_cpus()
    most = 4 * cpus
    if value > most:
        click.echo(
            f"mjaudit: -j {value}: more workers than this machine can use "
            f"({cpus} CPU{'s' if cpus != 1 else ''}); {most} workers",
            err=True,
        )
        return most
    return value


def _seconds(ctx: click.Context, param: click.Parameter, value: float | None) -> float | None:
    """A number of seconds: not NaN nor infinite (a range check lets both through)."""
    if value is not None and not math.isfinite(value):
        raise click.BadParameter(f"{value} is not a number of seconds")
    return value


def _jobs_option(when: str) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """``-j/--jobs``, as ``audit`` and ``report`` share it; ``when`` a pool pays."""
    return click.option(
        "-j",
        "--jobs",
        type=click.IntRange(min=0),
        default=0,
        callback=_capped_jobs,
        show_default=True,
        help=f"Worker processes; 0: one per CPU when there are {when}, else none (all in "
        "this process).",
    )


def _max_input_option(f: Callable[..., None]) -> Callable[..., None]:
    return click.option(
        "--max-input-size",
        type=_Size(),
        default="64M",  # parsers.sources.DEFAULT_MAX_INPUT
        show_default=True,
        help="Refuse an input larger than this once decompressed (64M, 1G, bytes).",
    )(f)


class _InputError(click.ClickException):
    """Bad input given on the command line: one line ``mjaudit: ...``, exit 2."""

    exit_code = EXIT_BAD_INPUT

    def show(self, file: Any = None) -> None:
        click.echo(f"mjaudit: {self.format_message()}", err=True)


def _show_version(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    if not value or ctx.resilient_parsing:
        return
    from mjaudit import __version__, build_info

    click.echo(f"{ctx.find_root().info_name}, version {__version__}\n{build_info()}")
    ctx.exit()


class _Commands(click.Group):
    """The command group; a command whose reader goes away (``| head``) ends with the
    shell's code for that, not click's 1, which is this tool's code for findings."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except BrokenPipeError:
            _drop_stdout()
            sys.exit(EXIT_PIPE_CLOSED)


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--version",
    is_flag=True,
    expose_value=False,
    is_eager=True,
    callback=_show_version,
    help="Show the version and the build (compiled or pure Python), and exit.",
)
def cli() -> None:
    """Audit and review recorded Riichi Mahjong games.

    mjaudit replays every hand of a Tenhou (XML or JSON), mjai or Mahjong Soul
    log through its own rules engine, recomputes dora, yaku, fu and payments,
    and reports every place where the log and the rules disagree.
    """


def _audit_files(
    paths: Iterable[str],
    rules: str,
    jobs: int,
    scale: dict[str, Any],
    review: bool,
    each: Callable[[FileAudit], None],
) -> RunSummary:
    """Audit through analyzer.runs.batch, handing each audit to ``each`` as it comes, in
    input order (none is kept). With --store, the inputs the store already held are
    skipped and their stored audits are handed on after the new ones."""
    from analyzer.runs.batch import BatchOptions, RunSummary, Shard, audit_many
    from analyzer.runs.store_catalog import StoreError
    from parsers.containers import Selection, file_ids

    # Only --executor dask can raise DaskUnavailable; other runs need not import it.
    unavailable: tuple[type[Exception], ...] = ()
    if scale["executor"] == "dask":
        from analyzer.runs.dask_exec import DaskUnavailable

        unavailable = (DaskUnavailable,)

    try:
        players = int(scale["players"]) if scale["players"] else None
        select = Selection(players, scale["length"])
        shard = Shard.parse(scale["shard"]) if scale["shard"] else None
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    opts = BatchOptions(
        rules=rules, selection=select, time_limit=scale["time_limit"],
        max_input_size=scale["max_input_size"], review=review,
    )  # fmt: skip
    summary = RunSummary()
    known: list[str] = []  # inputs whose content the store held under another name
    try:
        for o in audit_many(
            paths, opts, jobs=jobs, batch_size=scale["batch"], shard=shard, store=scale["store"],
            executor=scale["executor"], scheduler=scale["scheduler"], progress=scale["progress"],
            summary=summary, lock_wait=scale["lock_wait"],
            leave_out=file_ids(streams=(sys.stdout, sys.stderr)),
        ):  # fmt: skip
            if o.audit is not None:
                each(o.audit)
            elif o.status == "known" and o.record.key is not None:
                known.append(o.record.key)
        if scale["store"] is not None and (summary.skipped_keys or known):
            from analyzer.runs.store_read import stored_audits

            # What a run without the store would print, these inputs included: a
            # known content's audit too (it was left out, and its exit code with it).
            for stored in stored_audits(scale["store"], [*summary.skipped_keys, *known]):
                each(stored)
    except unavailable as exc:
        raise click.UsageError(str(exc)) from None
    except StoreError as exc:  # a store that is locked, damaged or not a store
        click.echo(f"mjaudit: {exc}", err=True)
        sys.exit(EXIT_BAD_INPUT)
    return summary


_LOCK_WAIT = click.option(
    "--lock-wait", type=click.FloatRange(min=0), default=600.0, show_default=True,
    callback=_seconds,
    metavar="SECONDS", help="How long to wait for another writer's lock on the store.",
)  # fmt: skip


def _scale_options(f: Callable[..., None]) -> Callable[..., None]:
    """The options for many inputs: workers, batches, store, shard, cluster, selection."""
    options = [
        click.option("--batch", type=click.IntRange(min=1), default=16, show_default=True,
                     help="Inputs per worker task."),
        click.option("--time-limit", type=click.FloatRange(min=0.01), default=None,
                     callback=_seconds, metavar="SECONDS",
                     help="Give up on one log after this long."),
        click.option("--store", type=click.Path(file_okay=False), default=None,
                     help="Results store folder: record results, skip what it holds."),
        _LOCK_WAIT,
        click.option("--shard", default=None, metavar="K/N",
                     help="Audit only shard K (from 0) of N, for job arrays."),
        click.option("--executor", type=click.Choice(["process", "dask"]),
                     default="process", show_default=True),
        click.option("--scheduler", default=None, metavar="ADDRESS|FILE|local",
                     help="Dask scheduler address or scheduler file (default: local)."),
        click.option("--progress/--no-progress", default=None,
                     help="Progress on stderr (default: when it is a terminal)."),
        click.option("--players", type=click.Choice(["3", "4"]), default=None,
                     help="Only 3- or 4-player games."),
        click.option("--length", type=click.Choice(["hanchan", "tonpu"]), default=None,
                     help="Only hanchan or only east-only games."),
    ]  # fmt: skip
    for option in reversed(options):
        f = option(f)
    return f


@cli.command()
@click.argument("paths", nargs=-1, required=True)
@click.option(
    "--rules",
    "rules",
    default="auto",
    show_default=True,
    help="auto (from the log), a preset name, or a TOML file.",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json", "junit"]),
    default="text",
    show_default=True,
)
@_fail_on_option
@_jobs_option("inputs for more than one --batch")
@click.option("--no-review", is_flag=True, help="Leave out review notes (play advice).")
@_scale_options
@_max_input_option
def audit(
    paths: tuple[str, ...],
    rules: str,
    fmt: str,
    fail_on: str,
    jobs: int,
    no_review: bool,
    **scale: Any,
) -> None:
    """Replay and re-check every game in PATHS: files, folders (recursive), - for
    stdin, .zip and .tar.gz archives, phoenix-logs and houou-logs databases.

    Example: mjaudit audit --format json games/

    Example: mjaudit audit -j 4 --store results/ --players 4 db/2019.db
    """
    from reports.audit_output import AuditOutput

    _check_rules_option(rules)
    echo = _Echo()
    out = AuditOutput(fmt, echo, fail_on)

    def each(r: FileAudit) -> None:
        # Each audit goes into the output as it comes; none is kept.
        if no_review:
            r = _without_review(r)
        if r.error is not None:
            _complain(r.error)
        out.add(r)

    summary = _audit_files(paths, rules, jobs, scale, not no_review, each)
    # With --store: the same output and verdict as a run without the store, the inputs
    # it skipped included (their stored audits). What the run itself did follows: "run"
    # in the JSON, a last line of the text, a line on stderr with JUnit.
    stored = scale["store"] is not None
    # The output is written in pieces, never held whole (a large JSON or JUnit output
    # waits for the end in a temporary file, not in memory).
    out.write(echo.piece, run=summary.to_json() if stored and fmt == "json" else None)
    echo("")
    if stored and fmt == "text":
        echo(summary.text())
    elif stored and fmt == "junit":
        click.echo(summary.text(), err=True)
    sys.exit(EXIT_BAD_INPUT if out.unreadable else _findings_exit(out.worst, fail_on))


class _Echo:
    """Text to standard output as it comes. Once the reader has gone (``| head``) the
    rest is dropped, not an error: the run goes on to its end and its exit code."""

    def __init__(self) -> None:
        self.gone = False

    def __call__(self, text: str, nl: bool = True) -> None:
        if self.gone:
            return
        try:
            click.echo(text, nl=nl)
        except BrokenPipeError:
            self.gone = True
            # What is still buffered would fail again when the interpreter exits.
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            os.close(devnull)

    def piece(self, text: str) -> None:
        """A piece of a longer output, with no line end of its own."""
        self(text, nl=False)

    write = piece  # as a text stream: score --batch and cases export write here

    def fileno(self) -> int:
        """Standard output's: what the command writes, left out of what it reads."""
        return sys.stdout.fileno()


def _without_review(r: FileAudit) -> FileAudit:
    from dataclasses import replace

    return replace(r, findings=tuple(f for f in r.findings if f.severity.value != "info"))


_WINDS = click.Choice(["E", "S", "W", "N"], case_sensitive=False)


@cli.command("score")
@click.argument("hand", required=False)
@click.option("--win", "win_tile", default=None, help="The winning tile, e.g. 8s.")
@click.option("--ron/--tsumo", "ron", default=None, help="How the hand was won.")
@click.option(
    "--meld",
    "melds",
    multiple=True,
    metavar="KIND:TILES",
    help="A call or concealed kan: chi:234m pon:777p daiminkan:5555z kakan:2222p "
    "ankan:1111s kita:4z. Repeat for each.",
)
@click.option("--riichi", is_flag=True)
@click.option("--double-riichi", is_flag=True)
@click.option("--ippatsu", is_flag=True)
@click.option("--rinshan", is_flag=True)
@click.option("--chankan", is_flag=True)
@click.option("--haitei", is_flag=True)
@click.option("--houtei", is_flag=True)
@click.option("--tenhou", "tenhou_", is_flag=True)
@click.option("--chiihou", is_flag=True)
@click.option(
    "--renhou",
    is_flag=True,
    help="A non-dealer's ron before their first draw (its value: the rules' renhou).",
)
@click.option("--seat-wind", type=_WINDS, default="S", show_default=True, metavar="[E|S|W|N]")
@click.option("--round-wind", type=_WINDS, default="E", show_default=True, metavar="[E|S|W|N]")
@click.option("--dora", multiple=True, metavar="IND", help="A dora indicator; repeat.")
@click.option("--ura", multiple=True, metavar="IND", help="An ura indicator; repeat.")
@click.option(
    "--honba", type=click.IntRange(min=0, max=1000), default=0, help="Honba paid to the winner."
)
@click.option(
    "--sticks",
    type=click.IntRange(min=0, max=1000),
    default=0,
    help="Riichi sticks on the table, 1000 each to the winner.",
)
@click.option(
    "--players",
    type=click.Choice(["3", "4"]),
    default=None,
    help="3 or 4 (default: as the rules say; 4 without --rules).",
)
@click.option(
    "--rules",
    "rules",
    default=None,
    help="A preset or TOML file (default: tenhou, or tenhou-sanma with --players 3).",
)
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True
)
@click.option(
    "--batch",
    "batch",
    default=None,
    metavar="CASES",
    help="Score every case of a cases file (- for stdin), one answer line each "
    "(docs/cases.md); the hand, situation and rules come from each case, so no other "
    "option but -j is taken with it.",
)
@_jobs_option(f"more than {_POOL_CASES:,} cases (with --batch)")
def score_command(
    hand: str | None,
    win_tile: str | None,
    ron: bool | None,
    melds: tuple[str, ...],
    riichi: bool,
    double_riichi: bool,
    ippatsu: bool,
    rinshan: bool,
    chankan: bool,
    haitei: bool,
    houtei: bool,
    tenhou_: bool,
    chiihou: bool,
    renhou: bool,
    seat_wind: str,
    round_wind: str,
    dora: tuple[str, ...],
    ura: tuple[str, ...],
    honba: int,
    sticks: int,
    players: str | None,
    rules: str | None,
    fmt: str,
    batch: str | None,
    jobs: int,
) -> None:
    """Score one winning hand. HAND is the concealed part including the winning tile.

    Example: mjaudit score 234m567p22345678s --win 8s --ron --riichi --dora 1m

    Example: mjaudit score --batch cases.jsonl > answers.jsonl
    """
    if batch is not None:
        _score_batch(batch, _given(click.get_current_context(), _BATCH_USES), jobs)
    if hand is None:
        raise click.UsageError("Missing argument 'HAND'.")
    if win_tile is None:
        raise click.UsageError("Missing option '--win'.")
    if ron is None:
        raise click.UsageError("Missing option '--ron' / '--tsumo'.")
    from analyzer.hands.points import win_receipts
    from analyzer.hands.scoring import NotAWin
    from analyzer.hands.scoring import score as score_hand
    from mjaudit.hands import WinContext, check_tile_set
    from mjaudit.melds import parse_meld
    from mjaudit.rules import load_rules
    from mjaudit.tiles import Tile, tiles
    from reports.score_output import render_score_error, render_score_json, render_score_text

    try:
        if rules is None:
            rules = "tenhou-sanma" if players == "3" else "tenhou"
        ruleset = load_rules(rules)
        if players is not None and int(players) != ruleset.players:
            raise ValueError(
                f"--players {players}, but the rules {ruleset.name} are for "
                f"{ruleset.players} players"
            )
        concealed = tiles(hand)
        win = Tile(win_tile)
        called = tuple(parse_meld(m) for m in melds)
        ctx = WinContext(
            tsumo=not ron,
            riichi=riichi,
            double_riichi=double_riichi,
            ippatsu=ippatsu,
            rinshan=rinshan,
            chankan=chankan,
            haitei=haitei,
            houtei=houtei,
            tenhou=tenhou_,
            chiihou=chiihou,
            renhou=renhou,
            seat_wind="ESWN".index(seat_wind.upper()),
            round_wind="ESWN".index(round_wind.upper()),
            dora_indicators=tuple(Tile(t) for t in dora),
            ura_indicators=tuple(Tile(t) for t in ura),
            honba=honba,
            riichi_sticks=sticks,
            kita=sum(1 for m in called if m.kind.value == "kita"),
            players=ruleset.players,
        )
        if win not in concealed:
            raise ValueError(f"the winning tile {win} is not in the hand {hand}")
        _check_situation(ctx, called, ruleset)
        _check_indicators_allowed(ctx, ruleset)
        indicators = (*ctx.dora_indicators, *ctx.ura_indicators)
        check_tile_set(concealed, called, indicators, ctx.players, ruleset.aka)
    except (ValueError, MjauditError) as exc:
        raise _InputError(str(exc)) from None
    try:
        result = score_hand(concealed, win, called, ctx, ruleset)
    except NotAWin as exc:
        click.echo(render_score_error(exc.code, exc.message, fmt == "json"))
        sys.exit(EXIT_FINDINGS)
    paid, received = win_receipts(result, ctx, ruleset)
    if fmt == "json":
        click.echo(render_score_json(result, paid, received))
    else:
        counters = ", ".join(
            f"{n} {word}{'s' if word == 'stick' and n > 1 else ''}"
            for n, word in ((honba, "honba"), (sticks, "stick"))
            if n
        )
        click.echo(render_score_text(result, paid, received, counters))


def _check_situation(ctx: WinContext, melds: Sequence[Meld], rules: Ruleset) -> None:
    """Refuse flags that cannot go together, or with the hand's melds and the number
    of players: the scorer, which trusts a replay's flags, would score as if such a
    flag had not been given (or count a riichi of an open hand)."""
    from mjaudit.melds import MeldKind

    opened = any(m.is_open for m in melds)
    for flag, given in (("--riichi", ctx.riichi), ("--double-riichi", ctx.double_riichi)):
        if given and opened:
            raise ValueError(f"{flag} needs a closed hand (a chi, pon or open kan opens it)")
    kitas = [m for m in melds if m.kind is MeldKind.KITA]
    if ctx.players == 3 and ctx.seat_wind == 3:
        # East, South and West play (rules-matrix §E); a North seat was paid as if
        # it were the dealer's.
        raise ValueError("--seat-wind N: a three-player game has no North seat")
    if kitas and ctx.players == 4:
        raise ValueError("--meld kita: a North is set aside in three-player games only")
    if not rules.chi_allowed and any(m.kind is MeldKind.CHI for m in melds):
        # No three-player preset has chi (docs/rules.md, chi_allowed).
        raise ValueError(f"--meld chi: the rules {rules.name} have no chi")
    called = [m for m in melds if m.kind is not MeldKind.KITA]
    first = (("--tenhou", ctx.tenhou), ("--chiihou", ctx.chiihou), ("--renhou", ctx.renhou))
    for flag, given in first:
        # A kita too: it breaks the first go-around (rules-matrix §D), and the winner's
        # own came before its win.
        if given and melds:
            raise ValueError(f"{flag} is a win on the first draw: the winner has no melds")
        if given and (ctx.riichi or ctx.double_riichi):
            raise ValueError(
                f"{flag} is a win before the winner's first discard: no riichi was declared"
            )
    if ctx.rinshan and ctx.tsumo and not any(m.kind.is_kan for m in called):
        if not kitas:
            raise ValueError("--rinshan is a win on a kan's replacement tile: the hand has no kan")
        if not rules.kita_rinshan:
            raise ValueError(
                f"--rinshan: the hand has no kan, and the rules {rules.name} do not count "
                "the tile drawn for a kita as rinshan"
            )
    dealer = ctx.seat_wind == 0
    wrong = (
        (ctx.rinshan and not ctx.tsumo, "--rinshan is a win on a kan's replacement tile: a tsumo"),
        (ctx.haitei and not ctx.tsumo,
         "--haitei is a tsumo on the wall's last tile (a ron on the last discard is --houtei)"),
        # The scorer drops haitei on a rinshan win (Tenhou, rules-matrix §D).
        (ctx.haitei and ctx.rinshan,
         "--haitei with --rinshan: a win on a replacement tile is never haitei"),
        (ctx.houtei and ctx.tsumo,
         "--houtei is a ron on the last discard (a tsumo on the last tile is --haitei)"),
        (ctx.chankan and ctx.tsumo, "--chankan is a ron on a tile added to a kan"),
        (ctx.chankan and ctx.houtei,
         "--chankan robs a tile added to a kan, --houtei wins on the last discard: not both"),
        (ctx.tenhou and not (ctx.tsumo and dealer),
         "--tenhou is the dealer's tsumo on the first draw"),
        (ctx.chiihou and not (ctx.tsumo and not dealer),
         "--chiihou is a non-dealer's tsumo on the first draw"),
        (ctx.renhou and not (not ctx.tsumo and not dealer),
         "--renhou is a non-dealer's ron before their first draw"),
        (ctx.ippatsu and not (ctx.riichi or ctx.double_riichi),
         "--ippatsu needs --riichi or --double-riichi"),
        # A kan (ankan included) or a kita breaks ippatsu (rules-matrix §D).
        (ctx.ippatsu and ctx.rinshan,
         "--ippatsu with --rinshan: the winner's kan or kita before the replacement tile "
         "ended its ippatsu"),
    )  # fmt: skip
    for bad, why in wrong:
        if bad:
            raise ValueError(why)


def _check_indicators_allowed(ctx: WinContext, rules: Ruleset) -> None:
    """Refuse indicators no table turns (a sixth, an ura for no riichi or under no
    dora indicator) and those the rules never turn: a second (kan) dora, an ura."""
    dora, ura = len(ctx.dora_indicators), len(ctx.ura_indicators)
    if dora > 5:
        raise ValueError(f"{dora} --dora indicators: at most 5 (the first and one per kan)")
    if ura and not (ctx.riichi or ctx.double_riichi):
        raise ValueError("--ura needs --riichi or --double-riichi")
    if ura > max(dora, 1):
        raise ValueError(
            f"{ura} --ura indicators for {dora} --dora: one lies under each dora indicator"
        )
    if len(ctx.dora_indicators) > 1 and not rules.kan_dora:
        raise ValueError(
            f"{len(ctx.dora_indicators)} --dora indicators, but the rules {rules.name} "
            "have no kan dora (one indicator only)"
        )
    if ctx.ura_indicators and not rules.ura_dora:
        raise ValueError(f"--ura given, but the rules {rules.name} have no ura dora")
    if len(ctx.ura_indicators) > 1 and not rules.kan_ura:
        raise ValueError(
            f"{len(ctx.ura_indicators)} --ura indicators, but the rules {rules.name} "
            "have no kan ura (one indicator only)"
        )


@cli.command("replay")
@click.argument("path")
@click.option("--round", "round_label", default=None, help="Round label such as E2-1.")
@click.option(
    "--seat",
    type=click.IntRange(0, 3),
    default=None,
    help="Show this seat's hand after each of its turns.",
)
@click.option("--rules", "rules", default="auto", show_default=True)
@click.option(
    "--wall",
    is_flag=True,
    help="Print the hand's wall: rebuilt from a Tenhou seed, or a Mahjong Soul record's own.",
)
@_max_input_option
def replay_command(
    path: str,
    round_label: str | None,
    seat: int | None,
    rules: str,
    wall: bool,
    max_input_size: int,
) -> None:
    """Print one hand of a game turn by turn, or its wall. PATH is one log (a file,
    - for stdin, or an archive or database that holds one).

    Example: mjaudit replay sample_logs/kans.xml --round E1-0 --seat 0
    """
    from analyzer.checks.audit import audit_log, resolve_rules
    from parsers.containers import failure, load_single
    from reports.replay_text import find_round, round_text

    step = "reading"
    try:
        log = load_single(path, max_input_size)
        step = "replaying"
        ruleset = resolve_rules(log, rules)
        round_no = find_round(log, round_label)
        if seat is not None and seat >= ruleset.players:
            # As report says: the seat's hand would be left out without a word.
            raise MjauditError(f"{log.path}: --seat {seat}: a {ruleset.players}-player game")
    except MjauditError as exc:
        _fail(str(exc))
    except KeyError as exc:
        _fail(str(exc.args[0]))
    except Exception as exc:
        _fail(failure(path, step, exc))
    try:
        # One replay, the audit's: the turn-by-turn text watches it, the wall reads it.
        view = round_text(log, ruleset, round_no, seat)
        audit = audit_log(log, ruleset, keep_replay=True, review=False, observers=[view])
        if wall:
            from reports.wall_text import render_round_wall

            assert audit.replay is not None  # keep_replay
            text = render_round_wall(log, audit.replay, round_no)
        else:
            text = "\n".join(view.lines)
    except Exception as exc:
        _fail(failure(log.path, "replaying", exc))
    click.echo(printable(text))


def _check_rules_option(rules: str) -> None:
    """A ``--rules`` that names neither a preset nor a file is one usage line, before
    any input is read (not one line per input)."""
    from mjaudit.rules import load_rules

    if rules != "auto":
        try:
            load_rules(rules)
        except MjauditError as exc:
            raise _InputError(f"--rules: {exc}") from None


def _fail(message: str) -> NoReturn:
    """One line on stderr, exit 2: an input that could not be used."""
    _complain(message)
    sys.exit(EXIT_BAD_INPUT)


def _complain(message: str) -> None:
    """``mjaudit: <message>`` on stderr, on one line whatever the message holds, a file
    name's undecodable byte shown as on stdout (``\\xff``, not ``\\udcff``)."""
    click.echo("mjaudit: " + printable(one_line(message)), err=True)


_STORE = click.option(
    "--store", required=True, type=click.Path(file_okay=False), help="Results store folder."
)


@cli.command()
@_STORE
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text")
def stats(store: str, fmt: str) -> None:
    """What a results store holds: inputs, games, hands and findings by code.

    Example: mjaudit stats --store results/
    """
    from analyzer.runs.store import StoreError, stats_text
    from analyzer.runs.store import stats as store_stats

    try:
        doc = store_stats(store)
    except (OSError, sqlite3.Error, StoreError) as exc:
        click.echo(f"mjaudit: {exc}", err=True)
        sys.exit(EXIT_BAD_INPUT)
    click.echo(json.dumps(doc, indent=1) if fmt == "json" else stats_text(doc))


def _json_value(value: object) -> Any:
    """A value DuckDB returned, as JSON can hold it: a decimal as a number, a date or
    time in ISO 8601, an interval in seconds, a UUID as text, a blob in hex, a
    non-finite double as null (JSON has no Infinity or NaN); lists and structs item by
    item."""
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, decimal.Decimal):
        return _json_value(float(value))
    if isinstance(value, datetime.date | datetime.time):
        return value.isoformat()
    if isinstance(value, datetime.timedelta):
        return value.total_seconds()
    if isinstance(value, bytes | bytearray | memoryview):
        return bytes(value).hex()
    if isinstance(value, list | tuple):
        return [_json_value(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _json_value(v) for k, v in value.items()}
    return str(value)  # a UUID, and whatever else a newer DuckDB may hand back


@cli.command()
@_STORE
@click.argument("sql")
@click.option("--format", "fmt", type=click.Choice(["tsv", "csv", "json"]), default="tsv")
def query(store: str, sql: str, fmt: str) -> None:
    """Run read-only SQL over a store's tables: inputs, games, hands, findings.

    Example: mjaudit query --store results/ "SELECT code, count(*) FROM findings GROUP BY 1"
    """
    import csv

    from analyzer.runs.store import StoreError
    from analyzer.runs.store import query as store_query

    try:
        columns, rows = store_query(store, sql)
        out = sys.stdout
        if fmt == "json":
            for row in rows:
                doc = {c: _json_value(v) for c, v in zip(columns, row, strict=True)}
                out.write(json.dumps(doc, allow_nan=False) + "\n")
            return
        writer = csv.writer(out, delimiter="\t" if fmt == "tsv" else ",", lineterminator="\n")
        writer.writerow(columns)
        # A blob in hex, as the JSON lines give it (Python's b'\x00' is no value a
        # spreadsheet or another program reads back).
        writer.writerows(
            [bytes(v).hex() if isinstance(v, bytes | bytearray | memoryview) else v for v in row]
            for row in rows
        )
    except (OSError, sqlite3.Error, StoreError) as exc:
        if isinstance(exc, OSError) and _writing_failed(exc):
            raise  # standard output, not the store: main says so
        click.echo(f"mjaudit: {exc}", err=True)
        sys.exit(EXIT_BAD_INPUT)


@cli.command()
@click.argument("shards", nargs=-1, required=True, type=click.Path(file_okay=False))
@click.option("--into", required=True, type=click.Path(file_okay=False), help="Target store.")
@_LOCK_WAIT
def merge(shards: tuple[str, ...], into: str, lock_wait: float) -> None:
    """Join shard stores (from --shard K/N runs) into one store.

    Example: mjaudit merge shard-0/ shard-1/ --into results/
    """
    from analyzer.runs.store import StoreError
    from analyzer.runs.store import merge as merge_stores

    try:
        done = merge_stores(into, shards, lock_wait=lock_wait)
    except (OSError, sqlite3.Error, StoreError) as exc:
        click.echo(f"mjaudit: {exc}", err=True)
        sys.exit(EXIT_BAD_INPUT)
    click.echo(f"merged {done['stores']} stores: {done['games_added']} games added")


@cli.command()
@_STORE
@click.option(
    "--repair",
    is_flag=True,
    help="First drop missing or damaged parts; the next audit --store redoes them.",
)
@_LOCK_WAIT
def compact(store: str, repair: bool, lock_wait: float) -> None:
    """Rewrite a store's many small part files as a few large ones.

    Example: mjaudit compact --store results/

    Example: mjaudit compact --repair --store results/
    """
    from analyzer.runs.store import StoreError
    from analyzer.runs.store import compact as compact_store

    try:
        done = compact_store(store, repair=repair, lock_wait=lock_wait)
    except (OSError, sqlite3.Error, StoreError) as exc:
        click.echo(f"mjaudit: {exc}", err=True)
        sys.exit(EXIT_BAD_INPUT)
    if repair:
        click.echo(f"dropped {done['damaged_parts']} damaged parts ({done['games_dropped']} "
                   f"games); {done['inputs_forgotten']} inputs will be audited again by the "
                   f"next audit --store")  # fmt: skip
    click.echo(f"compacted {done['parts_before']} parts into {done['parts_after']}")


@cli.command()
@click.argument("paths", nargs=-1, required=True)
@click.option("-o", "--output", "out", required=True, help="HTML file (one game) or folder.")
@click.option(
    "--player",
    default=None,
    help="Only this player on the player page. Names are compared after Unicode NFKC "
    "normalisation (HATANO! finds HATANO！); a name that matches nobody exits 2 and "
    "names the nearest.",
)
@click.option("--rules", "rules", default="auto", show_default=True)
@_fail_on_option
@_jobs_option("more than 16 inputs")
@click.option(
    "--progress/--no-progress",
    default=None,
    help="Games done on stderr (default: when it is a terminal).",
)
@click.option(
    "--seat",
    type=click.IntRange(0, 3),
    default=None,
    help="One game: review it from this seat (its turns: shanten, ukeire, efficiency "
    "notes). --player NAME does the same for one game.",
)
@click.option("--lang", type=click.Choice(["en", "ja"]), default="en", show_default=True,
              help="The pages' language: labels, yaku and winds.")  # fmt: skip
@click.option("--since", default=None, type=click.DateTime(["%Y-%m-%d"]),
              help="Statistics and index: games from this day (YYYY-MM-DD).")  # fmt: skip
@click.option("--until", default=None, type=click.DateTime(["%Y-%m-%d"]),
              help="Statistics and index: games up to this day, included.")  # fmt: skip
@click.option("--lobby", "lobbies", multiple=True, metavar="NAME",
              help="Statistics and index: games under this rules preset, room (houou, jade) "
              "or kind of room (ranked, friendly); repeat for several.")  # fmt: skip
@click.option("--min-games", type=click.IntRange(min=1), default=1, show_default=True,
              help="Players page: players with at least this many games.")  # fmt: skip
@_max_input_option
def report(
    paths: tuple[str, ...],
    out: str,
    player: str | None,
    rules: str,
    fail_on: str,
    jobs: int,
    progress: bool | None,
    seat: int | None,
    lang: str,
    since: datetime.datetime | None,
    until: datetime.datetime | None,
    lobbies: tuple[str, ...],
    min_games: int,
    max_input_size: int,
) -> None:
    """Write self-contained HTML: one game file gives one page at OUT; several files,
    a folder, an archive or a database make OUT a folder with index.html, a page
    per game and players.html. Exit codes as for audit: 1 when a game has a finding
    at or above --fail-on, 2 when an input could not be read (the others are still
    reported) or --player names nobody.

    One game with --seat N or --player NAME is reviewed from that seat. --lang ja
    writes the pages in Japanese.

    Example: mjaudit report games/ -o site/ -j 4 --player Aoi --since 2024-01-01
    """
    from reports.html import OneGameOption, UnknownLobby, UnknownPlayer, write_report
    from reports.i18n import language

    _check_rules_option(rules)
    if out == "-":
        raise _InputError(
            "-o -: a report is written to files (a page, or a folder of pages), "
            "not to standard output"
        )
    bar = _GameProgress() if (sys.stderr.isatty() if progress is None else progress) else None
    try:
        try:
            with language(lang):
                result = write_report(
                    paths, out, player=player, rules=rules, max_input_size=max_input_size,
                    jobs=jobs, on_game=bar.step if bar is not None else None, seat=seat,
                    since=since.date().isoformat() if since else None,
                    until=until.date().isoformat() if until else None,
                    lobbies=lobbies, min_games=min_games,
                )  # fmt: skip
        finally:
            if bar is not None:
                bar.close()
    except OSError as exc:
        _fail(f"{exc.filename or out}: cannot write: {exc.strerror or exc}")
    except (UnknownPlayer, UnknownLobby, OneGameOption) as exc:
        _fail(str(exc))
    for error in result.errors:
        _complain(error)
    click.echo(f"wrote {len(result.pages)} page(s) for {result.games} game(s) to {out}")
    if result.errors:
        sys.exit(EXIT_BAD_INPUT)
    sys.exit(_findings_exit(result.worst, fail_on))


class _GameProgress:
    """``mjaudit: 123 games, 4.5/s`` redrawn on stderr, at most ten times a second."""

    def __init__(self) -> None:
        import time

        self.clock = time.monotonic
        self.count = 0
        self.start = self.shown = self.clock()

    def step(self) -> None:
        self.count += 1
        now = self.clock()
        if now - self.shown >= 0.1:
            self.shown = now
            self._show(now)

    def _show(self, now: float) -> None:
        rate = self.count / max(now - self.start, 1e-9)
        games = "game" if self.count == 1 else "games"
        sys.stderr.write(f"\rmjaudit: {self.count} {games}, {rate:.1f}/s ")
        sys.stderr.flush()

    def close(self) -> None:
        self._show(self.clock())
        sys.stderr.write("\n")
        sys.stderr.flush()


@cli.command()
@click.argument("path")
@click.option("--to", "to", required=True, type=click.Choice(["mjai", "tenhou-json", "tenhou-xml"]))
@click.option("-o", "--output", "out", required=True, help="Output file (- for stdout).")
@_max_input_option
def convert(path: str, to: str, out: str, max_input_size: int) -> None:
    """Write the game in PATH (Tenhou XML or JSON, mjai or a Mahjong Soul record; a
    file, - for stdin, or an archive or database that holds one log) in another
    format.

    Example: mjaudit convert game.xml --to mjai -o game.jsonl
    """
    from parsers.containers import failure
    from parsers.convert import convert_file

    try:
        convert_file(path, to, out, max_input_size)
    except MjauditError as exc:
        _fail(str(exc))
    except BrokenPipeError:
        raise  # ``-o -`` and the reader went away: main's 141, as every command
    except OSError as exc:
        _fail(f"{out}: cannot write: {exc.strerror or exc}")
    except Exception as exc:
        _fail(failure(path, "converting", exc))


# The options of ``score`` that ``--batch`` reads: each case gives its own hand,
# situation and rules, and the answers are JSON lines.
_BATCH_USES = frozenset({"batch", "jobs"})


def _given(ctx: click.Context, used: frozenset[str]) -> list[str]:
    """The arguments and options given to a command (on the command line or from the
    environment) that are not in ``used``, as the help names them."""
    from click.core import ParameterSource

    given = []
    for param in ctx.command.params:
        if param.name is None or param.name in used:
            continue
        source = ctx.get_parameter_source(param.name)
        if source in (ParameterSource.COMMANDLINE, ParameterSource.ENVIRONMENT):
            opts = [*param.opts, *param.secondary_opts]
            is_option = isinstance(param, click.Option)
            given.append("/".join(opts) if is_option else param.human_readable_name)
    return given


def _score_batch(cases: str, unused: list[str], jobs: int) -> NoReturn:
    """``score --batch``: every case scored, one answer line each; exit 0, 1 when a
    case is not a win, 2 when a line could not be read (the others are scored).
    ``unused``: the other options given, each a usage error (the cases say it all)."""
    from reports.cases import CasesInputError, score_batch

    if unused:
        named = unused[0] if len(unused) == 1 else f"{', '.join(unused[:-1])} or {unused[-1]}"
        raise click.UsageError(
            "--batch reads the hands from the cases, with their situations and rules: "
            f"give no {named}"
        )
    try:
        # A reader that goes away (| head) drops the rest; the exit code stays the
        # cases' own (click would make it 1, which here means "not a win").
        summary = score_batch(cases, _Echo(), jobs)
    except CasesInputError as exc:
        _fail(str(exc))
    for problem in summary.problems:
        _complain(problem)
    sys.exit(EXIT_BAD_INPUT if summary.problems else EXIT_FINDINGS if summary.not_wins else EXIT_OK)


@cli.group("cases")
def cases_group() -> None:
    """Real wins as conformance cases for any scorer: export them, check answers.

    Example: mjaudit cases export games/ -o cases.jsonl

    Example: mjaudit cases check cases.jsonl answers.jsonl
    """


@cases_group.command("export")
@click.argument("paths", nargs=-1, required=True)
@click.option("-o", "--output", "out", required=True, help="Cases file, JSON lines (- for stdout).")
@click.option(
    "--filter",
    "filters",
    multiple=True,
    metavar="KEY=VALUE",
    help="Keep only cases with yaku=NAME, limit=NAME, han=N (or han>=N, <=, >, <) or "
    "rules=NAME; repeat: all must hold.",
)
@click.option("--dedupe", is_flag=True, help="Drop cases that repeat a hand and situation.")
@click.option("--rules", "rules", default="auto", show_default=True)
@_max_input_option
def cases_export(
    paths: tuple[str, ...],
    out: str,
    filters: tuple[str, ...],
    dedupe: bool,
    rules: str,
    max_input_size: int,
) -> None:
    """Write one case per win of every log in PATHS (files, folders, archives, - for
    stdin): the hand, its situation and rules, and its result as the log recorded it
    and as mjaudit recomputed it. Exit 2 when an input could not be read.

    Example: mjaudit cases export games/ -o cases.jsonl --filter 'han>=5' --dedupe
    """
    from reports.cases import export_cases, parse_filter

    try:
        tests = [parse_filter(f) for f in filters]
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    _check_rules_option(rules)
    # To stdout as `audit` writes: once the reader has gone (`| head`), the rest is
    # dropped and the run ends with its own exit code.
    from parsers.convert import replacing

    try:
        if out == "-":
            summary = export_cases(paths, _Echo(), tests, dedupe, rules, max_input_size)
        else:
            # Whole or not at all: a full disk or Ctrl-C leaves the file there was.
            with replacing(out) as raw:
                text = io.TextIOWrapper(raw, encoding="utf-8")
                summary = export_cases(
                    paths, text, tests, dedupe, rules, max_input_size, target=out
                )
                text.flush()
                text.detach()
    except OSError as exc:
        _fail(f"{exc.filename or out}: cannot write: {exc.strerror or exc}")
    for message in summary.failed:
        _complain(message)
    dropped = [
        f"{n} {what}"
        for n, what in ((summary.filtered, "filtered out"), (summary.duplicates, "duplicates"))
        if n
    ]
    click.echo(
        f"{summary.cases} cases from {summary.games} games"
        + (f" ({', '.join(dropped)})" if dropped else ""),
        err=True,
    )
    sys.exit(EXIT_BAD_INPUT if summary.failed else EXIT_OK)


@cases_group.command("check")
@click.argument("cases_file", metavar="CASES")
@click.argument("answers", metavar="ANSWERS")
@click.option(
    "--against",
    type=click.Choice(["expected", "recorded"]),
    default="expected",
    show_default=True,
    help="Compare with mjaudit's recomputed results or with what the logs recorded.",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json", "junit"]),
    default="text",
    show_default=True,
)
@click.option("--all", "every", is_flag=True, help="List every disagreement, not one example.")
def cases_check(cases_file: str, answers: str, against: str, fmt: str, every: bool) -> None:
    """Compare a scorer's ANSWERS with the results of CASES, field by field, grouped by
    kind with a minimal example each. Exit 0: all agree; 1: disagreements; 2: a line
    or a file could not be read (the other lines are still compared).

    Example: mjaudit cases check cases.jsonl answers.jsonl --format junit
    """
    from reports.cases import (
        CasesInputError,
        check_answers,
        render_check_json,
        render_check_junit,
        render_check_text,
    )

    try:
        check = check_answers(cases_file, answers, against)
    except CasesInputError as exc:
        _fail(str(exc))
    for problem in check.problems:
        _complain(problem)
    if fmt == "json":
        click.echo(render_check_json(check))
    elif fmt == "junit":
        click.echo(render_check_junit(check))
    else:
        click.echo(render_check_text(check, every))
    if check.problems:
        sys.exit(EXIT_BAD_INPUT)
    sys.exit(EXIT_FINDINGS if check.comparison.disagreements else EXIT_OK)


def _tune_gc() -> None:
    """Collect garbage less often in a command-line run.

    An audit allocates about a thousand events per game that all live until the game
    is done, so the default first-generation threshold (700) runs the collector over
    them again and again and promotes them to older generations for nothing. Raising
    it cuts the time spent collecting over the Tenhou corpus from about 0.25 s to
    about 0.05 s; the memory held stays the same (see benchmarks/bench_audit.py).
    """
    gc.freeze()  # what the imports made lives as long as the process
    gc.set_threshold(10_000, 10, 10)


def _narrow_streams() -> None:
    """Standard output and error in an encoding that cannot hold every character (a
    Windows program's output redirected to a file is in the system's code page):
    what they cannot hold is written as an escape rather than ending the run with
    a traceback (reports.safe_text.escape_unencodable). UTF-8 streams are untouched."""
    codecs.register_error(ESCAPE, escape_unencodable)
    for stream in (sys.stdout, sys.stderr):
        encoding = getattr(stream, "encoding", None)
        if not isinstance(stream, io.TextIOWrapper) or not encoding:
            continue
        try:
            utf = codecs.lookup(encoding).name.startswith("utf")
        except LookupError:
            continue
        if not utf:
            stream.reconfigure(errors=ESCAPE)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI and return its exit code (for tests and ``python -m mjaudit``)."""
    if argv is None:  # a process of its own, not a test calling in
        _tune_gc()
    _narrow_streams()
    try:
        code = _run(argv)
        sys.stdout.flush()  # here, where a failure is caught, not when the process exits
    except BrokenPipeError:
        # The reader went away (``| head``) before the command was done: nothing more
        # to say to it, and the shell's code for a process its pipe stopped.
        _drop_stdout()
        return EXIT_PIPE_CLOSED
    except OSError as exc:
        if exc.errno not in WRITE_ERRNOS:  # a bug: its traceback is the report
            raise
        # Standard output (or a file) that cannot take what is written: a full disk,
        # ``> /dev/full``. What was written is incomplete, as after Ctrl-C.
        _drop_stdout()
        what = exc.filename if exc.filename is not None else "standard output"
        click.echo(f"mjaudit: cannot write to {what}: {exc.strerror or exc}", err=True)
        return EXIT_BAD_INPUT
    return code


def _writing_failed(exc: OSError) -> bool:
    """Whether ``exc`` is standard output's: its reader gone, or no room for it."""
    return isinstance(exc, BrokenPipeError) or (exc.errno in WRITE_ERRNOS and exc.filename is None)


def _drop_stdout() -> None:
    """Point standard output at /dev/null, so that what is still buffered does not fail
    again when the interpreter exits (only in a process of its own)."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, ValueError, io.UnsupportedOperation):
        return  # a test's capture: nothing to flush at exit
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, fd)
    os.close(devnull)


def _run(argv: Sequence[str] | None) -> int:
    try:
        cli.main(
            args=list(argv) if argv is not None else None,
            prog_name="mjaudit",
            standalone_mode=False,
        )
    except click.exceptions.Exit as exc:
        return int(exc.exit_code)
    except click.ClickException as exc:
        exc.show()
        return EXIT_BAD_INPUT
    except (click.exceptions.Abort, KeyboardInterrupt):
        # Ctrl-C (click turns it into Abort): said, with the shell's code for it, so
        # that a cut-short run is told from a finished one (2 is a bad input).
        click.echo(_INTERRUPTED, err=True)
        return EXIT_INTERRUPTED
    except SystemExit as exc:
        return int(exc.code) if isinstance(exc.code, int) else EXIT_BAD_INPUT
    except RuntimeError as exc:
        from analyzer.runs.store_parts import is_interrupt

        if not is_interrupt(exc):  # a bug: its traceback is the report
            raise
        click.echo(_INTERRUPTED, err=True)  # DuckDB's own word for Ctrl-C
        return EXIT_INTERRUPTED
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
