"""Write the sample Tenhou logs in this folder: ``python sample_logs/build_samples.py``.

Every game is made with the event builders of tests/builders.py and written with
parsers.tenhou_xml_writer, so the files are exactly what this script prints; a test
compares them. Each claim (yaku, han, fu, points, deltas, final results) is worked
out by hand under Tenhou rules in the comment next to it. Conventions used:

- points: base = fu * 2 ** (han + 2); a non-dealer ron pays 4 * base, a dealer ron
  6 * base, a tsumo 1 * base per non-dealer and 2 * base from the dealer, each
  rounded up to 100. Honba: 300 per honba to a ron winner (100 from each payer
  on a tsumo); every riichi stick on the table goes to the (first) winner.
- exhaustive draw: 3000 split between noten and tenpai seats.
- end: leftover sticks go to the top; result = (score - 30000) / 1000 plus uma
  +20/+10/-10/-20, and the top gets minus the sum of the others (oka +20).

Seat 0 deals first. Hands are written in mpsz; ``junk`` hands are far from tenpai and
only ever discard the tile they just drew.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from mjaudit.events import GameLog  # noqa: E402
from mjaudit.tiles import tiles  # noqa: E402
from mjaudit.yaku import Yaku  # noqa: E402
from parsers.tenhou_xml_writer import write_tenhou_xml  # noqa: E402
from tests.builders import GameBuilder  # noqa: E402

NAMES = ("Aoi", "Ben", "さくら", "Dmitri")


def idle(b: GameBuilder, moves: str) -> None:
    """Turns where a seat draws a tile and discards it: ``"0:9m 1:4z"``."""
    for move in moves.split():
        seat, tile = move.split(":")
        b.turn(int(seat), tile)


def wall_filler(b: GameBuilder, avoid: str, count: int) -> list[str]:
    """``count`` tiles still in the wall, none of the kinds in ``avoid`` (waits)."""
    banned = {str(t) for t in tiles(avoid)}
    order = [f"{n}{s}" for s in "zspm" for n in "1234567" if s == "z" or n != "0"]
    order += [f"{n}{s}" for s in "spm" for n in "89"]
    left = {t: b.remaining(t) for t in order if t not in banned}
    out: list[str] = []
    while len(out) < count:
        before = len(out)
        for t in order:
            if left.get(t, 0) > 0 and len(out) < count:
                left[t] -= 1
                out.append(t)
        if len(out) == before:
            raise ValueError("the wall has run out of safe tiles")
    return out


# -- clean_game.xml -----------------------------------------------------------------
def clean_game() -> GameLog:
    b = GameBuilder(NAMES, path="clean_game.xml")

    # E1-0, dealer seat 0. Seat 1 riichi, then rons seat 2's 8s.
    b.start_round(
        [
            "147m258p369s1234z",
            "234m678m345p6s99p1z",  # after 7s: 234m 678m 345p 67s 99p, waits 5s/8s
            "258m369p147s5566z",
            "369m147p258s5677z",
        ],
        dora="1m",  # dora 2m
    )
    b.turn(0, "2m", "1z")
    idle(b, "1:4z 2:9s 3:1m 0:3z")
    b.draw(1, "7s")
    b.riichi(1, "1z")  # not the first discard, so not double riichi; 24000 after the stick
    idle(b, "2:2z 3:7z 0:5z")
    idle(b, "1:6z")  # seat 1's next discard ends ippatsu
    b.draw(2, "8s")
    b.discard(2, "8s")
    # 234m 678m 345p 678s 99p: riichi 1 + pinfu 1 + dora 1 (2m) = 3 han 30 fu;
    # ura indicator 9m shows 1m: no hit. Non-dealer ron 4 * 960 = 3840 -> 3900,
    # plus the riichi stick: +4900. Scores 25000 28900 21100 25000.
    b.ron(
        1,
        2,
        fu=30,
        points=3900,
        yaku=[(Yaku.RIICHI, 1), (Yaku.PINFU, 1), (Yaku.DORA, 1), (Yaku.URA_DORA, 0)],
        deltas=[0, 4900, -3900, 0],
        ura="9m",
    )

    # E2-0, dealer seat 1. Seat 3 tsumo on 6s.
    b.start_round(
        [
            "147m258p369s1234z",
            "258m369p147s5566z",
            "369m147p258s5677z",
            "234m567p345s66m8s1z",  # after 7s: waits 6s/9s
        ],
        round_index=1,
        dora="9p",  # dora 1p
    )
    idle(b, "1:1z 2:9p")
    b.turn(3, "7s", "1z")
    idle(b, "0:1p 1:7z 2:9m")
    b.draw(3, "6s")
    # 234m 567p 345s 678s 66m: menzen tsumo 1 + pinfu 1 + tanyao 1 = 3 han 20 fu;
    # base 20 * 32 = 640: 700 from each non-dealer, 1300 from the dealer = 2700.
    # Scores 24300 27600 20400 27700.
    b.tsumo(
        3,
        fu=20,
        points=2700,
        yaku=[(Yaku.MENZEN_TSUMO, 1), (Yaku.PINFU, 1), (Yaku.TANYAO, 1)],
        deltas=[-700, -1300, -700, 2700],
    )

    # E3-0, dealer seat 2. Seat 0 riichi; exhaustive draw with seats 0 and 3 tenpai.
    b.start_round(
        [
            "123m456p789s4447z",  # tanki wait on 7z
            "258m369p147s5566z",
            "369m147p258s5677z",
            "567m234p678s99m46p",  # kanchan wait on 5p
        ],
        round_index=2,
        dora="2z",
    )
    # All 70 live tiles are drawn: everyone discards what they draw, never a 7z
    # or a 5p, so both tenpai hands stay as they are. Seat 0 declares riichi with
    # its second discard (the 7th draw); 23300 after the stick.
    for k, tile in enumerate(wall_filler(b, "7z5p0p", 70)):
        seat = (2 + k) % 4
        if k == 6:
            b.draw(seat, tile)
            b.riichi(seat, tile)
        else:
            b.turn(seat, tile)
    # Two tenpai (0, 3), two noten (1, 2): +1500 / -1500. The stick stays on the
    # table. Scores 24800 26100 18900 29200; the dealer was noten: E4-1.
    b.draw_game([1500, -1500, -1500, 1500], tenpai=[0, 3])

    # E4-1, dealer seat 3, 1 honba, 1 riichi stick. Seat 1 pons white, rons 5s.
    b.start_round(
        [
            "147m258p369s1234z",
            "55z234m678p34s22s9m",  # after the pon: 234m 678p 34s 22s, waits 2s/5s
            "258m369p1457s566z",
            "369m147p258s5677z",
        ],
        round_index=3,
        honba=1,
        dora="1s",  # dora 2s
    )
    b.draw(3, "1p")
    b.discard(3, "5z")
    b.pon(1)
    b.discard(1, "9m")
    idle(b, "2:9p 3:1m 0:3z 1:4z")
    b.draw(2, "1z")
    b.discard(2, "5s")
    # 234m 678p 345s 22s + pon 555z: haku 1 + dora 2 (22s) = 3 han.
    # fu 20 + open honour triplet 4 = 24 -> 30 (open ron: no menzen 10).
    # 4 * 960 = 3840 -> 3900, + 300 honba + 1000 stick = +5200 / -4200.
    b.ron(
        1,
        2,
        fu=30,
        points=3900,
        yaku=[(Yaku.HAKU, 1), (Yaku.DORA, 2)],
        deltas=[0, 5200, -4200, 0],
    )
    # Final 24800 31300 14700 29200: seat 1 is past 30000 after the last hand, so
    # the game ends. 2nd seat 3: -0.8 + 10 = 9.2; 3rd seat 0: -5.2 - 10 = -15.2;
    # 4th seat 2: -15.3 - 20 = -35.3; top seat 1: 41.3 (= 1.3 + 20 + 20).
    b.end([24800, 31300, 14700, 29200], [-15.2, 41.3, -35.3, 9.2])
    return b.build()


# -- kans.xml / broken_dora.xml ------------------------------------------------------
def kans(broken: bool = False) -> GameLog:
    """Every kind of kan, a rinshan win, a chankan and a double ron.

    ``broken`` turns the daiminkan's indicator right after the call instead of
    after the replacement draw (the one thing wrong in broken_dora.xml).
    """
    path = "broken_dora.xml" if broken else "kans.xml"
    b = GameBuilder(NAMES, path=path)

    # E1-0, dealer seat 0: ankan 2m, then seat 2's daiminkan of 8p; seat 0 riichi, ron.
    b.start_round(
        [
            "2222m345p678s56m4s",
            "39m178p129s34567z",
            "147m8889p369s125z",
            "17m269p259s13457z",
        ],
        dora="1p",  # dora 2p
    )
    b.draw(0, "4s")
    b.ankan(0, "2m")
    b.dora("7z")  # Tenhou: a concealed kan's indicator comes before the replacement draw
    b.draw(0, "1z")
    b.discard(0, "1z")
    b.draw(1, "9m")
    b.discard(1, "8p")
    b.daiminkan(2)
    if broken:
        b.dora("8m")  # wrong: an open kan's indicator waits for the replacement draw
        b.draw(2, "9s")
    else:
        b.draw(2, "9s")
        b.dora("8m")  # Tenhou: after the replacement draw, right before the discard
    b.discard(2, "9s")
    idle(b, "3:9p")
    b.draw(0, "3z")
    b.riichi(0, "3z")  # 24000 after the stick
    idle(b, "1:4z 2:6z 3:2z 0:1s 1:8s 2:3s")
    b.draw(3, "1m")
    b.discard(3, "7m")
    # 2222m(ankan) 345p 678s 567m 44s: riichi 1 + tanyao 1 = 2 han. fu 20 + menzen
    # ron 10 + concealed kan of simples 16 = 46 -> 50. Dora 2p, white, 9m and ura
    # (3 indicators, one per dora: 2z 6z 9p show W, red, 1p) do not hit.
    # Dealer ron 6 * 800 = 4800, + stick = +5800. Scores 29800 25000 25000 20200.
    b.ron(
        0,
        3,
        fu=50,
        points=4800,
        yaku=[(Yaku.RIICHI, 1), (Yaku.TANYAO, 1), (Yaku.URA_DORA, 0)],
        deltas=[5800, 0, 0, -4800],
        ura="2z6z9p",
    )

    # E1-1, dealer seat 0 again, 1 honba: seat 3 riichi; seat 0's 6p is ronned by
    # seats 1 and 3 (double ron, seat 1 first: it sits right after the discarder).
    b.start_round(
        [
            "147m258p39s12567z",
            "234m678m234s4p88s1z",  # after 5p: waits 3p/6p
            "369m147p129s3457z",
            "123m345s678s99m7p2z",  # after 8p: waits 6p/9p
        ],
        honba=1,
        dora="9s",  # dora 1s
    )
    idle(b, "0:4z")
    b.turn(1, "5p", "1z")
    idle(b, "2:1m")
    b.turn(3, "8p", "2z")
    idle(b, "0:9m 1:7z 2:1p")
    b.draw(3, "3z")
    b.riichi(3, "3z")  # 19200 after the stick
    idle(b, "0:6z 1:4z 2:8m 3:1s")  # seat 3's next discard ends ippatsu
    b.draw(0, "6p")
    b.discard(0, "6p")
    # Seat 1: 234m 678m 234s 456p 88s: pinfu 1 + tanyao 1 = 2 han 30 fu;
    # 4 * 480 = 1920 -> 2000, + 300 honba + 1000 stick = +3300 / -2300.
    b.ron(
        1,
        0,
        fu=30,
        points=2000,
        yaku=[(Yaku.PINFU, 1), (Yaku.TANYAO, 1)],
        deltas=[-2300, 3300, 0, 0],
    )
    # Seat 3: 123m 345s 678s 678p 99m: riichi 1 + pinfu 1 = 2 han 30 fu = 2000;
    # the second winner is paid no honba and gets no stick (Tenhou; its record
    # still shows the 1 honba, and 0 sticks). Ura 1z shows 2z.
    # Scores 25500 28300 25000 21200; the dealer did not win: E2-0.
    b.ron(
        3,
        0,
        fu=30,
        points=2000,
        yaku=[(Yaku.RIICHI, 1), (Yaku.PINFU, 1), (Yaku.URA_DORA, 0)],
        deltas=[-2000, 0, 0, 2000],
        ura="1z",
    )

    # E2-0, dealer seat 1: seat 2 pons red dragon, adds the fourth, wins on the
    # replacement tile. No indicator for that kan: Tenhou turns an open kan's
    # indicator at the kanner's discard, and a rinshan win never discards.
    b.start_round(
        [
            "147m258p39s12356z",
            "369m147p129s3457z",
            "77z234m456p67s99p9m",  # after the pon: 234m 456p 67s 99p, waits 5s/8s
            "147m258p369s1235z",
        ],
        round_index=1,
        dora="1z",  # dora S
    )
    b.draw(1, "1p")
    b.discard(1, "7z")
    b.pon(2)
    b.discard(2, "9m")
    idle(b, "3:9s 0:4z 1:1m")
    b.draw(2, "7z")
    b.kakan(2, "7z")
    b.draw(2, "8s")
    # 234m 456p 678s 99p + kan 7777z: chun 1 + rinshan 1 = 2 han. fu 20 + tsumo 2
    # + open honour kan 16 = 38 -> 40. Base 640: 700 / 1300, total 2700.
    # Scores 24800 27000 27700 20500.
    b.tsumo(
        2,
        fu=40,
        points=2700,
        yaku=[(Yaku.RINSHAN, 1), (Yaku.CHUN, 1)],
        deltas=[-700, -1300, 2700, -700],
    )

    # E3-0, dealer seat 2: seat 0 pons 6p, adds the fourth; seat 3 robs it (chankan).
    b.start_round(
        [
            "66p147m28s12356z9p",
            "369m147p129s3457z",
            "6p147m258s36z1379s",
            "234m567m456s7p33m1z",  # after 8p: waits 6p/9p
        ],
        round_index=2,
        dora="9s",  # dora 1s
    )
    b.draw(2, "4z")
    b.discard(2, "6p")
    b.pon(0)
    b.discard(0, "1z")
    idle(b, "1:2z 2:4z")
    b.turn(3, "8p", "1z")
    b.draw(0, "6p")
    b.kakan(0, "6p")
    # 234m 567m 456s 678p 33m: chankan 1 + pinfu 1 + tanyao 1 = 3 han 30 fu;
    # 4 * 960 = 3840 -> 3900. No indicator for the robbed kan.
    # Scores 20900 27000 27700 24400.
    b.ron(
        3,
        0,
        fu=30,
        points=3900,
        yaku=[(Yaku.CHANKAN, 1), (Yaku.PINFU, 1), (Yaku.TANYAO, 1)],
        deltas=[-3900, 0, 0, 3900],
    )

    # E4-0, dealer seat 3: seat 2 (damaten) rons seat 0's 6m.
    b.start_round(
        [
            "147m258p39s1256z6m",
            "369m147p129s3457z",
            "234m567p345s66s7m1z",  # after 8m: waits 6m/9m
            "147m258p369s1235z",
        ],
        round_index=3,
        dora="1m",  # dora 2m
    )
    idle(b, "3:9p 0:4z 1:1s")
    b.turn(2, "8m", "1z")
    idle(b, "3:6z")
    b.draw(0, "2z")
    b.discard(0, "6m")
    # 234m 678m 567p 345s 66s: tanyao 1 + pinfu 1 + dora 1 (2m) = 3 han 30 fu = 3900.
    b.ron(
        2,
        0,
        fu=30,
        points=3900,
        yaku=[(Yaku.PINFU, 1), (Yaku.TANYAO, 1), (Yaku.DORA, 1)],
        deltas=[-3900, 0, 3900, 0],
    )
    # Final 17000 27000 31600 24400: seat 2 passes 30000, the game ends.
    # 2nd seat 1: -3.0 + 10 = 7.0; 3rd seat 3: -5.6 - 10 = -15.6;
    # 4th seat 0: -13.0 - 20 = -33.0; top seat 2: 41.6 (= 1.6 + 20 + 20).
    b.end([17000, 27000, 31600, 24400], [-33.0, 7.0, 41.6, -15.6])
    return b.build()


SAMPLES: dict[str, Callable[[], GameLog]] = {
    "clean_game.xml": clean_game,
    "kans.xml": kans,
    "broken_dora.xml": lambda: kans(broken=True),
}


def render() -> dict[str, bytes]:
    """File name -> the bytes this script writes for it."""
    return {name: write_tenhou_xml(make()) + b"\n" for name, make in SAMPLES.items()}


def main() -> None:
    for name, data in render().items():
        (HERE / name).write_bytes(data)
        print(f"wrote sample_logs/{name} ({len(data)} bytes)")


if __name__ == "__main__":
    main()
