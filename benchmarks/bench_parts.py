"""Where the CPU time of ``mjaudit audit -j 1`` goes, part by part, next to jansou's.

Each part is timed in one process as a step added to the ones before it, over the
same files: reading and parsing (``load_bytes`` on each file's bytes), then the
replay without observers, then the replay with the furiten tracker (as the audit
runs it), then the walls rebuilt from the seed and compared (``check_wall``), then
the whole audit (the other checks). The start-up (the interpreter, the imports and
the command line, with no log to read) is timed as a command, as are the whole
command and ``jansou-validate`` on the same files. Every figure is the median of
``--runs`` alternating rounds (CPU time: user + system).

"The rest" is what the command spends besides the parts: the tables an audit fills
the first time it meets a hand shape (filled once before the in-process steps, so
that no step pays for them), the batch and the output. The last lines are a bound:
the ratio to jansou the command would have if the replay and the furiten tracker
cost nothing, everything else staying as it is.
Garbage is collected as a batch run collects it (off, and the youngest generation
once per 16 logs).

    python benchmarks/bench_parts.py [PATH] [--runs N]
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from peer_common import CORPUS, compile_project, logs_under, peer_command, timed

from analyzer.checks.audit import audit_log, resolve_rules
from analyzer.checks.audit_wall import check_wall
from analyzer.engine.replay import replay
from analyzer.engine.state import GameReplay
from analyzer.review.furiten import FuritenTracker
from mjaudit.events import GameLog
from parsers.sources import load_bytes


def _parse(log: GameLog) -> None:
    pass


def _replay(log: GameLog) -> None:
    replay(log, resolve_rules(log, "auto"))


def _track(log: GameLog) -> GameReplay:
    rules = resolve_rules(log, "auto")
    return replay(log, rules, [FuritenTracker(rules, log.path, True)])


def _walls(log: GameLog) -> None:
    check_wall(log, _track(log))


def _audit(log: GameLog) -> None:
    audit_log(log, resolve_rules(log, "auto"), review=True, hand_records=False)


# Each step does what the one before it does, and one part more.
STEPS: list[tuple[str, Callable[[GameLog], object]]] = [
    ("parse", _parse),
    ("replay", _replay),
    ("furiten tracker", _track),
    ("walls", _walls),
    ("other checks", _audit),
]


def _in_process(files: list[str], then: Callable[[GameLog], object]) -> float:
    """CPU seconds to read and parse every file and do ``then`` with each log."""
    start = time.process_time()
    gc.disable()
    for k, name in enumerate(files, 1):
        then(load_bytes(Path(name).read_bytes(), name))
        if k % 16 == 0:
            gc.collect(0)
    gc.enable()
    return time.process_time() - start


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("path", nargs="?", default=str(CORPUS))
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    compile_project()
    files = logs_under(args.path)
    if not files:
        print(f"no .xml logs under {args.path}")
        return 2
    peer = peer_command("jansou-validate")
    with tempfile.TemporaryDirectory() as empty:
        mine = [sys.executable, "-m", "mjaudit", "audit", "--format", "json", "-j", "1"]
        commands = {"start-up": [*mine, empty], "mjaudit audit": [*mine, args.path]}
        if peer is not None:
            commands["jansou-validate"] = [*peer, "-q", str(Path(args.path) / "**" / "*.xml")]
        _in_process(files[:16], _audit)  # the tables every audit fills, filled once here
        steps: dict[str, list[float]] = {}
        timers: list[tuple[str, Callable[[], float]]] = [
            *((name, lambda then=then: _in_process(files, then)) for name, then in STEPS),
            *((name, lambda cmd=cmd: timed(cmd)[1]) for name, cmd in commands.items()),
        ]
        for run in range(args.runs):
            shift = run % len(timers)
            for name, timer in timers[shift:] + timers[:shift]:
                steps.setdefault(name, []).append(timer())
    median = {name: statistics.median(times) for name, times in steps.items()}
    print(f"{len(files)} files, CPU seconds, median of {args.runs} alternating rounds")
    parts = {"start-up": median["start-up"]}
    before = 0.0
    for name, _ in STEPS:
        parts[name] = median[name] - before
        before = median[name]
    for name, seconds in parts.items():
        print(f"  {name:<18} {seconds:6.3f}")
    command = median["mjaudit audit"]
    print(f"  {'the rest':<18} {command - sum(parts.values()):6.3f}")
    print(f"  {'the command':<18} {command:6.3f}")
    if peer is None:
        print("jansou-validate not installed (pip install jansou)")
        return 0
    theirs = median["jansou-validate"]
    print(f"jansou-validate      {theirs:6.3f}")
    print(f"ratio of the command: {command / theirs:.2f}")
    free = command - parts["replay"] - parts["furiten tracker"]
    print(f"ratio with the replay and the tracker at no cost: {free / theirs:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
