"""Rulesets: one frozen field per rule that changes replay or payment.

The presets: ``tenhou``, ``tenhou-sanma``, ``mahjongsoul``, ``mahjongsoul-sanma``,
``mleague``, ``wrc``,
``jpml``, ``ema``, ``worldatplay``, ``worldatplay-sanma``, and the Japanese
professional leagues ``saikouisen``, ``mu`` and ``rmu`` (never chosen by ``auto``).
docs/rules.md gives every preset's value of every field with its source; each preset
below cites its source where the choice is not obvious. A TOML file overrides a
preset: ``base = "tenhou"`` and then any field by name.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from functools import lru_cache
from pathlib import Path
from typing import Literal, get_args

from mjaudit.errors import MjauditError, did_you_mean
from mjaudit.events import DrawReason, RulesHint

__all__ = [
    "PRESETS",
    "RulesError",
    "Ruleset",
    "load_rules",
    "one_hand_game_stated",
    "override",
    "preset",
    "preset_of",
    "rules_for",
    "stated_end_rules",
]

DoraTiming = Literal["immediate", "after-discard"]
TempFuritenLift = Literal["discard", "draw", "draw-or-call"]
TripleRon = Literal["abortive", "scored", "atamahane"]
PaoScope = Literal["whole", "pao-share"]
Rounding = Literal["thousand-half-up", "exact"]
# Renhou (a non-dealer's ron before their first draw, no call before it), riichi.wiki
# "Rule variations" (Renhou): "none" is no yaku; "mangan" a limit hand, paid as a mangan
# unless the hand's own yaku and dora are worth more; "yakuman"; "cumulative" a 5-han
# yaku that adds to the other yaku and dora (so a mangan on its own).
RenhouValue = Literal["none", "mangan", "yakuman", "cumulative"]


class RulesError(MjauditError):
    """A rules name or TOML file that cannot be used."""


@dataclass(frozen=True, slots=True)
class Ruleset:
    """One rule per field, with its default; named presets override a few (see PRESETS)."""

    # Bookkeeping: names the ruleset in reports and messages and changes no verdict.
    name: str = "tenhou"
    players: int = 4
    # -- tiles and dora (matrix §A)
    aka: bool = True
    kan_dora: bool = True
    ura_dora: bool = True
    kan_ura: bool = True
    ankan_dora_timing: DoraTiming = "immediate"
    open_kan_dora_timing: DoraTiming = "after-discard"
    kokushi_robs_ankan: bool = False
    # -- limits and yakuman (§B)
    kiriage: bool = False
    kazoe_yakuman: bool = True
    double_yakuman_patterns: bool = False
    composite_yakuman: bool = True
    # -- fu (§C)
    double_wind_pair_fu: int = 4
    rinshan_tsumo_fu: bool = True
    # -- yaku (§D)
    kuitan: bool = True
    ippatsu: bool = True
    renhou: RenhouValue = "none"
    kuikae_forbidden: bool = True
    chi_allowed: bool = True
    # Tenhou 3p: a win on the replacement tile after a kita is rinshan kaihou (the
    # real logs list 嶺上開花 for it; rules-matrix note 6 left this open).
    kita_rinshan: bool = True
    # -- payments and game flow (§E)
    honba_ron: int = 300
    honba_tsumo_each: int = 100
    double_ron: bool = True
    double_ron_honba_each: bool = False
    triple_ron: TripleRon = "abortive"
    pao_yakuman: frozenset[str] = frozenset({"daisangen", "daisuushii"})
    pao_scope: PaoScope = "whole"
    pao_pays_honba: bool = True
    tsumo_son: bool = False
    noten_pool: int = 3000
    nagashi_mangan: bool = True
    nagashi_open_calls_allowed: bool = True
    abortive_draws: frozenset[str] = frozenset(
        {"kyuushu", "suufon-renda", "suucha-riichi", "suukaikan", "sanchahou"}
    )
    tobi: bool = True
    # -- the game's end (analyzer.checks.audit_flow; rules-matrix §E game end row)
    # A score of exactly 0 busts too (no preset: Tenhou and seed 004 play on at 0).
    tobi_at_zero: bool = False
    # The all-last dealer may stop as the sole top with the return points (Tenhou's
    # agari-yame / tenpai-yame; the game may end there, it need not: a 2010 log plays on).
    agari_yame: bool = True
    # After the last hand, no one at the return points: the next wind, sudden death,
    # up to its fourth hand (Tenhou; "no North").
    west_extension: bool = True
    hanchan: bool = True
    # The regular game is its first hand (Mahjong Soul's one-hand and one-round modes
    # 3, 4, 13 and 14); after it the game may go on until a player reaches the
    # return points. The corpus's three such games end after E1 or E2 (MJS-rec 3).
    one_hand_game: bool = False
    start_points: int = 25000
    # The top player's target: the points that end the game after the last hand (the
    # West extension) and that agari-yame needs; the results count from them too
    # (the oka) unless ``settlement_points`` says otherwise.
    return_points: int = 30000
    # The points the final results count from, when they are not the return points:
    # Mahjong Soul's 精算原点 (``jingsuanyuandian``), its start points, so no oka.
    # None: the return points, and the top player takes the oka.
    settlement_points: int | None = None
    uma: tuple[int, ...] = (20, 10, -10, -20)
    # Placement-dependent uma: entry k is the uma when k players finish at or above
    # the start points (k = 0..players); empty means ``uma`` always.
    uma_by_floating: tuple[tuple[int, ...], ...] = ()
    leftover_sticks_to_top: bool = True
    final_rounding: Rounding = "exact"
    # Tied players share (average) the uma of the places they cover, and the oka when
    # first place is among them; the leftover sticks then go to no one.
    uma_split_ties: bool = False
    # A Tenhou log's final results follow Tenhou's own formula for its lobby and date
    # (uma, oka and rounding by era: analyzer/hands/final.py), not the four fields above. A
    # rules file that does not set it gets false: its own start, return and uma apply.
    tenhou_lobby_results: bool = True
    # The log does not state how its final results are counted (a Mahjong Soul
    # friendly room whose record elides its uma): start, settlement and uma are
    # assumed, so a result that differs is a ``rules-assumed`` warning, not an error.
    results_assumed: bool = False
    # -- riichi and furiten (§F)
    riichi_min_points: int | None = 1000
    riichi_min_live_tiles: int | None = 4
    temp_furiten_lifted_by: TempFuritenLift = "discard"
    # At an exhaustive draw a tenpai hand not in riichi may be declared noten (WRC).
    noten_declaration: bool = False
    # -- bookkeeping
    assumed: tuple[str, ...] = field(default=(), compare=False)

    @property
    def dead_wall(self) -> int:
        return 14

    @property
    def wall_tiles(self) -> int:
        return 108 if self.players == 3 else 136


_TENHOU = Ruleset()

# Tenhou 3p: honba 200/100 and a 2000 noten pool (matrix §7, settled by the corpus),
# tsumo-son, 35000 start / 40000 return, uma +20/0/-20 (matrix §E uma row).
_TENHOU_SANMA = replace(
    _TENHOU,
    name="tenhou-sanma",
    players=3,
    chi_allowed=False,
    honba_ron=200,
    honba_tsumo_each=100,
    tsumo_son=True,
    noten_pool=2000,
    abortive_draws=frozenset({"kyuushu", "suucha-riichi", "suukaikan"}),
    start_points=35000,
    return_points=40000,
    uma=(20, 0, -20),
)

# Mahjong Soul's ranked rooms (docs/rules.md, MJS column: riichi.wiki's Mahjong Soul
# page and the records in ../shared/corpus/mahjongsoul, with the counts that settled
# each value).
_MAHJONGSOUL = replace(
    _TENHOU,
    name="mahjongsoul",
    tenhou_lobby_results=False,
    double_yakuman_patterns=True,
    triple_ron="scored",
    pao_scope="pao-share",
    abortive_draws=frozenset({"kyuushu", "suufon-renda", "suucha-riichi", "suukaikan"}),
    # The records' final points (head.result total_point) are (score - 25000) + uma
    # 15/5/-5/-15 thousand, no oka: 2 ranked and 21 friendly 4-player games; the
    # 30000 return points only end the game (friendly rooms state it as fandian).
    settlement_points=25000,
    uma=(15, 5, -5, -15),
    temp_furiten_lifted_by="draw-or-call",
    # Kokushi may rob a concealed kan (riichienv GameRule.default_mjsoul
    # allows_ron_on_ankan_for_kokushi_musou; rules-matrix §A).
    kokushi_robs_ankan=True,
)

# Mahjong Soul three-player (riichi.wiki Mahjong Soul page, 3P section: honba 200,
# noten 2000, red 0p and 0s, uma +15/0/-15, tsumo-son by default, no four-winds or
# all-riichi abortive draw). The corpus records also settle the honba, red fives,
# tsumo-son, start and results (docs/rules.md, MJS3 column); the noten pool and the
# abortive draws rest on the page alone (no three-player draw in the corpus).
_MAHJONGSOUL_SANMA = replace(
    _MAHJONGSOUL,
    name="mahjongsoul-sanma",
    players=3,
    chi_allowed=False,
    honba_ron=200,
    honba_tsumo_each=100,
    tsumo_son=True,
    noten_pool=2000,
    abortive_draws=frozenset({"kyuushu", "suukaikan"}),
    start_points=35000,
    return_points=40000,
    settlement_points=35000,
    uma=(15, 0, -15),
)

_MLEAGUE = replace(
    _TENHOU,
    name="mleague",
    tenhou_lobby_results=False,
    # Tied players share the uma (rules-matrix §E uma row: ML-3, ML-4).
    uma_split_ties=True,
    open_kan_dora_timing="immediate",
    # riichi.wiki M.League page, "Notable rule variations": "Double-wind pair worths 2 fu".
    double_wind_pair_fu=2,
    kiriage=True,
    kazoe_yakuman=False,
    double_ron=False,
    triple_ron="atamahane",
    pao_scope="pao-share",
    # Sekinin barai on daisangen, daisuushii and suukantsu, the last only when the 4th
    # kan is a daiminkan (riichi.wiki M.League page, "Notable rule variations").
    pao_yakuman=frozenset({"daisangen", "daisuushii", "suukantsu"}),
    abortive_draws=frozenset(),
    tobi=False,
    # No agari-yame and no extension: the all-last dealer plays on (ML-2 in
    # rules-matrix §E game end row).
    agari_yame=False,
    west_extension=False,
    start_points=25000,
    return_points=30000,
    uma=(30, 10, -10, -30),
    riichi_min_points=None,
    riichi_min_live_tiles=None,
    nagashi_mangan=False,
)

_WRC = replace(
    _TENHOU,
    name="wrc",
    tenhou_lobby_results=False,
    # Tied players share (average) the uma (rules-matrix §E uma row: riichi.wiki WRC
    # rules page; MahjongPantheon wrc.php).
    uma_split_ties=True,
    aka=False,
    # WRC 2014 rules §6.5.4 "Five han yaku" (the table of contents) with the precision
    # "Renhō is cumulative with other yaku and dora" (reachmahjong.com WRC 2014 rules
    # thread); WRC 2015 keeps a §6.5.4 "Mangan yaku". The 2025 text was not read.
    renhou="cumulative",
    open_kan_dora_timing="immediate",
    kiriage=True,
    kazoe_yakuman=False,
    composite_yakuman=False,
    double_ron=False,
    triple_ron="atamahane",
    nagashi_mangan=False,
    abortive_draws=frozenset(),
    tobi=False,
    # No agari-yame (WRC 2015 §5.9.1) and no extension; seed 004 "End of the game":
    # "a dealer leading after that last hand plays on ... (section 10)".
    agari_yame=False,
    west_extension=False,
    # Four-kong liability (seed 004, liability section: "WRC also applies liability to
    # Four kongs (9.1.1)"): the discarder of the tile for the 4th kan, a daiminkan.
    pao_yakuman=frozenset({"daisangen", "daisuushii", "suukantsu"}),
    # The WRC 2022 Optional Rules preface names robbing a concealed quad for
    # Thirteen Orphans among the fixed yaku definitions.
    kokushi_robs_ankan=True,
    start_points=30000,
    return_points=30000,
    uma=(15, 5, -5, -15),
    leftover_sticks_to_top=False,
    # Seed 004, furiten section: "WRC also lifts it when you call a tile".
    temp_furiten_lifted_by="draw-or-call",
    # Seed 004 riichi section: "WRC 2025 drops both thresholds and allows riichi below
    # 1,000 points and with fewer than four tiles left, even on the last draw (8.9)".
    riichi_min_points=None,
    riichi_min_live_tiles=None,
    # A tenpai hand may be declared noten unless in riichi (WRC 2015 §5.7.2, in
    # rules-matrix §E noten row; seed 004: "declaring noten as WRC allows").
    noten_declaration=True,
)

_EMA = replace(
    _WRC,
    name="ema",
    kiriage=False,
    # Ties: no EMA text on sharing the uma was read (unverified); each seat takes its
    # rank's uma by seat order, as before.
    uma_split_ties=False,
    # EMA RCR 2016 (announcement on mahjongnews.com; riichi.wiki EMA page, 2016+):
    # "renhou is now a strict mangan only".
    renhou="mangan",
    double_ron=True,
    double_ron_honba_each=True,
    triple_ron="scored",
    pao_pays_honba=False,
    leftover_sticks_to_top=True,
    # What EMA does not take over from WRC 2025 (EMA RCR 2016): liability on DSG and
    # DSX only (§3.3.9), no kokushi ankan robbing and no declared noten (not in the
    # RCR text read: unverified, kept as before), the riichi thresholds of the 2012
    # text (>= 4 tiles; 1000 points unverified).
    pao_yakuman=frozenset({"daisangen", "daisuushii"}),
    kokushi_robs_ankan=False,
    noten_declaration=False,
    riichi_min_points=1000,
    riichi_min_live_tiles=4,
)

_JPML = replace(
    _TENHOU,
    name="jpml",
    tenhou_lobby_results=False,
    aka=False,
    # JPML common rules (pixiv encyclopedia, 日本プロ麻雀連盟, 共通ルール): "連風牌の対子も2符
    # とする" (a double-wind pair is 2 fu too); a rinshan win is a tsumo, +2 fu (same list).
    double_wind_pair_fu=2,
    kan_dora=False,
    ura_dora=False,
    kan_ura=False,
    ippatsu=False,
    kazoe_yakuman=False,
    composite_yakuman=False,
    double_ron=False,
    triple_ron="atamahane",
    nagashi_mangan=False,
    tobi=False,
    # Head-bump settles a triple ron, so it is no abortive draw (Pantheon jpmlA.php
    # setWithAtamahane(true)); the other four stay (abortive draws on).
    abortive_draws=frozenset({"kyuushu", "suufon-renda", "suucha-riichi", "suukaikan"}),
    # No agari-yame, no extension (unverified: no JPML text found; league play ends
    # after South 4 as WRC and M.League do).
    agari_yame=False,
    west_extension=False,
    pao_yakuman=frozenset({"daisangen", "daisuushii", "suukantsu"}),
    # JPML official rules (ma-jan.or.jp game_rule, archived 2012): 人和 is a 特役 (mangan);
    # as a limit: a hand worth more by its own yaku and dora is paid that (pixiv
    # 日本プロ麻雀連盟 common rules: "人和満貫 ... 8翻(場ゾロ込)以上ある場合は複合せず").
    renhou="mangan",
    # JPML-K ("国士無双 暗カンでもチャンカン可"): thirteen orphans robs a concealed kan;
    # JPML-R ("ツモ番がなくてもリーチをかけることができる"): riichi needs no draw left.
    kokushi_robs_ankan=True,
    riichi_min_live_tiles=None,
    start_points=30000,
    return_points=30000,
    uma=(8, 4, -4, -8),
    # The uma depends on how many finish at or above 30,000 (浮き): one: 12/-1/-3/-8,
    # three: 8/3/1/-12, otherwise 8/4/-4/-8 (MahjongPantheon jpmlA.php ComplexUma, which
    # counts the players below the start points: 3 -> neg3, 1 -> neg1, else otherwise).
    uma_by_floating=(
        (8, 4, -4, -8),
        (12, -1, -3, -8),
        (8, 4, -4, -8),
        (8, 3, 1, -12),
        (8, 4, -4, -8),
    ),
    leftover_sticks_to_top=False,
)

# The seed-004 site ruleset (../shared/seeds/004_16cf5bcb846ae025.txt).
_WORLDATPLAY = replace(
    _TENHOU,
    name="worldatplay",
    tenhou_lobby_results=False,
    double_yakuman_patterns=True,
    nagashi_open_calls_allowed=False,
    uma=(0, 0, 0, 0),
    return_points=25000,
    temp_furiten_lifted_by="draw",
    # Seed 004 "End of the game": the game ends after South 4 unless the dealer
    # repeats, "since there is no stopping early", and below 0 (0 plays on).
    agari_yame=False,
    west_extension=False,
)
_WORLDATPLAY_SANMA = replace(
    _WORLDATPLAY,
    name="worldatplay-sanma",
    players=3,
    chi_allowed=False,
    kita_rinshan=False,
    aka=True,
    tsumo_son=True,
    # Seed 004, sanma section: "Honba. 300 on a ron, 100 from each of the two payers on
    # a self-draw".
    honba_ron=300,
    honba_tsumo_each=100,
    noten_pool=3000,
    abortive_draws=frozenset({"kyuushu", "suucha-riichi", "suukaikan", "sanchahou"}),
    # Seed 004: sanma "starts each player on 35,000"; "there is no uma or oka".
    start_points=35000,
    return_points=35000,
    uma=(0, 0, 0),
)

# -- Japanese professional leagues (docs/rules.md, "Japanese professional leagues").
# Each preset sets the fields its league's rules text gives; the others keep the
# base preset's value and are listed as unverified in docs/rules.md. Values in the
# leagues' own notation count 場ゾロ (two extra han): their "30符6翻" is 4 han 30 fu.

# Saikouisen (最高位戦日本プロ麻雀協会): the league's 競技規定; jan39.com's summary of
# the Saikouisen rules (SKI-J); the West One Cup 2015 rules, which follow them (SKI-W).
_SAIKOUISEN = replace(
    _JPML,
    name="saikouisen",
    # SKI-J: ippatsu, ura dora, kan dora and kan ura all on (SKI-W: "一発、裏ドラ、カンドラあり").
    ippatsu=True,
    ura_dora=True,
    kan_dora=True,
    kan_ura=True,
    # SKI-W: 4 han 30 fu (their 30符6翻) is paid as a mangan.
    kiriage=True,
    # SKI-W: 13 han or more is sanbaiman, and "役満は重複しない" (SKI-J likewise).
    kazoe_yakuman=False,
    composite_yakuman=False,
    # SKI-J: no kokushi ron on a concealed kan.
    kokushi_robs_ankan=False,
    # SKI-W: a double-wind pair is 2 fu.
    double_wind_pair_fu=2,
    # SKI-W: 300 a honba (100 from each on a tsumo); SKI-J, SKI-W: 3000 noten payments.
    honba_ron=300,
    honba_tsumo_each=100,
    noten_pool=3000,
    # SKI-W: "アガリは上家優先" (head-bump, a triple ron included).
    double_ron=False,
    triple_ron="atamahane",
    # SKI-J: "途中流局 一切無し" (no abortive draws at all).
    abortive_draws=frozenset(),
    # SKI-J, SKI-W: no liability payments; SKI-W: no nagashi mangan.
    pao_yakuman=frozenset(),
    nagashi_mangan=False,
    # SKI-W: kuikae forbidden.
    kuikae_forbidden=True,
    # SKI-J, SKI-W: no agari-yame or tenpai-yame; the game ends after South 4.
    agari_yame=False,
    west_extension=False,
    # SKI-J, SKI-W: 30000 start and return (no oka), uma +30/+10/-10/-30
    # ("ウマ 10000点‐30000点"), fixed whatever the scores.
    start_points=30000,
    return_points=30000,
    uma=(30, 10, -10, -30),
    uma_by_floating=(),
    # SKI-W: sticks left at the game's end stay on the table (供託), paid to no one.
    leftover_sticks_to_top=False,
    # SKI-W: "ツモ牌がなくてもリーチは可能" (riichi with no draw left).
    riichi_min_live_tiles=None,
)

# Mahjong Rengo μ (麻将連合): mj-king.net/pro/6/2.html, the league's main rules
# (MU-K, rule numbers below); the Mu Cup rules post on ameblo.jp/shimode (MU-A).
_MU = replace(
    _JPML,
    name="mu",
    # MU-K rule 2: no ippatsu, no ura dora, no kan dora (so no kan ura).
    ippatsu=False,
    ura_dora=False,
    kan_dora=False,
    kan_ura=False,
    # MU-K rule 3, MU-A (現物食い替えもOK): any swap call is allowed.
    kuikae_forbidden=False,
    # MU-K rules 4 and 6: no abortive draws (and no fifth kan).
    abortive_draws=frozenset(),
    # MU-K rule 9: head-bump.
    double_ron=False,
    triple_ron="atamahane",
    # MU-K rule 10: no counters are paid.
    honba_ron=0,
    honba_tsumo_each=0,
    # MU-K rule 11: no kiriage (4 han 30 fu is 7700 / 11600).
    kiriage=False,
    # MU-K rule 12: 3000 noten payments.
    noten_pool=3000,
    # MU-K rules 13 and 14: no agari-yame; a noten dealer ends the last hand.
    agari_yame=False,
    west_extension=False,
    # MU-K rule 16: liability on daisangen and daisuushii only.
    pao_yakuman=frozenset({"daisangen", "daisuushii"}),
    # MU-K rule 19: no kokushi ron on a concealed kan.
    kokushi_robs_ankan=False,
    # Unverified (no MU text on it was read): four draws left, as before JPML's
    # own value was read from its source.
    riichi_min_live_tiles=4,
    # MU-K rules 20 and 21: no renhou, no nagashi mangan.
    renhou="none",
    nagashi_mangan=False,
    # MU-K rules 22 and 23: uma +12/+4/-4/-12, fixed; tied players share it.
    uma=(12, 4, -4, -12),
    uma_by_floating=(),
    uma_split_ties=True,
)

# RMU (Real Mahjong Unit), its A rules: rmu.jp/rule (RMU-R); what the page does not
# give, from a summary of the RMU rules (top3776.hatenablog.com, 2022-06-04: RMU-B).
_RMU = replace(
    _WRC,
    name="rmu",
    # RMU-R: no red fives in the A rules (the M rules add three).
    aka=False,
    # RMU-R: ippatsu, ura dora, kan dora and kan ura on; kuitan on.
    ippatsu=True,
    ura_dora=True,
    kan_dora=True,
    kan_ura=True,
    kuitan=True,
    # RMU-B: two different yakuman add up; no counted yakuman; no liability (パオ).
    composite_yakuman=True,
    kazoe_yakuman=False,
    pao_yakuman=frozenset(),
    # RMU-R: 300 a honba, 3000 noten payments.
    honba_ron=300,
    honba_tsumo_each=100,
    noten_pool=3000,
    # RMU-R: no abortive draws (four riichi play on, no fifth kan).
    abortive_draws=frozenset(),
    # RMU-R: one winner a hand, head-bump for a double or triple ron.
    double_ron=False,
    triple_ron="atamahane",
    # RMU-R: kuikae forbidden.
    kuikae_forbidden=True,
    # RMU-R: no busting (a player out of points borrows 30000), no agari-yame or
    # tenpai-yame; the game is an East-South hanchan.
    tobi=False,
    agari_yame=False,
    west_extension=False,
    hanchan=True,
    # RMU-R: 30000 start and return, uma +15/+5/-5/-15, tied players share it.
    start_points=30000,
    return_points=30000,
    uma=(15, 5, -5, -15),
    uma_split_ties=True,
)

PRESETS: dict[str, Ruleset] = {
    r.name: r
    for r in (
        _TENHOU,
        _TENHOU_SANMA,
        _MAHJONGSOUL,
        _MAHJONGSOUL_SANMA,
        _MLEAGUE,
        _WRC,
        _JPML,
        _EMA,
        _WORLDATPLAY,
        _WORLDATPLAY_SANMA,
        _SAIKOUISEN,
        _MU,
        _RMU,
    )
}


def preset(name: str) -> Ruleset:
    try:
        return PRESETS[name]
    except KeyError:
        known = ", ".join(sorted(PRESETS))
        raise RulesError(f"unknown rules preset {name!r} (known: {known})") from None


@lru_cache(maxsize=64)
def preset_of(rules: Ruleset) -> str | None:
    """The preset ``rules`` are, field for field, whatever they are called (``name``
    is bookkeeping); None for rules of their own (a rules file that changes a field,
    ``--rules auto`` reading a log's flags onto a preset)."""
    for key, candidate in PRESETS.items():
        if replace(rules, name=candidate.name) == candidate:
            return key
    return None


# Points, fu and counts of any ruleset are far below this; a larger number in a rules
# file is a typing error, and would only overflow a payment later.
_MAX_NUMBER = 10**7


def _is_number(value: object) -> bool:
    return type(value) is int and abs(value) <= _MAX_NUMBER


def _coerce(name: str, current: object, value: object, path: str) -> object:
    """``value`` from a rules file as the type of the field it replaces, or RulesError."""
    choices = _CHOICES.get(name)
    if choices is not None:
        if value not in choices:
            raise RulesError(f"{path}: {name} must be one of {', '.join(map(repr, choices))}")
        return value
    if isinstance(current, frozenset):
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise RulesError(f"{path}: {name} must be a list of names")
        known = _NAMES[name]
        unknown = [v for v in value if v not in known]
        if unknown:
            # A name the engine does not know would be read as no rule at all (a
            # liability or an abortive draw lost), and the audit would blame the log.
            said = ", ".join(f"{v!r}{did_you_mean(v, list(known), 2)}" for v in unknown)
            raise RulesError(f"{path}: {name} has unknown {said}; known: {', '.join(known)}")
        return frozenset(value)
    if name == "uma_by_floating":
        if not isinstance(value, list) or not all(
            isinstance(row, list) and all(map(_is_number, row)) for row in value
        ):
            raise RulesError(f"{path}: {name} must be a list of lists of integers")
        return tuple(tuple(row) for row in value)
    if isinstance(current, tuple):
        if not isinstance(value, list) or not all(map(_is_number, value)):
            raise RulesError(f"{path}: {name} must be a list of integers")
        return tuple(value)
    if isinstance(current, bool):
        if not isinstance(value, bool):
            raise RulesError(f"{path}: {name} must be true or false")
        return value
    if isinstance(current, int) or current is None:
        if not _is_number(value):
            raise RulesError(f"{path}: {name} must be an integer of at most {_MAX_NUMBER}")
        return value
    if isinstance(current, str) and not isinstance(value, str):
        raise RulesError(f"{path}: {name} must be a string")
    return value


# The fields whose values are a fixed set (the Literal types above, and players).
_CHOICES: dict[str, tuple[object, ...]] = {
    "players": (3, 4),
    "ankan_dora_timing": get_args(DoraTiming),
    "open_kan_dora_timing": get_args(DoraTiming),
    "renhou": get_args(RenhouValue),
    "triple_ron": get_args(TripleRon),
    "pao_scope": get_args(PaoScope),
    "final_rounding": get_args(Rounding),
    "temp_furiten_lifted_by": get_args(TempFuritenLift),
}


# The names each list-valued field may hold: the yakuman with a liability
# (analyzer.hands.points) and the abortive draws (mjaudit.events.DrawReason).
_NAMES: dict[str, tuple[str, ...]] = {
    "pao_yakuman": ("daisangen", "daisuushii", "suukantsu"),
    "abortive_draws": tuple(r.value for r in DrawReason if r.abortive),
}


def override(base: Ruleset, values: Mapping[str, object], path: str = "<rules>") -> Ruleset:
    """A copy of ``base`` with the named fields replaced; unknown names are errors."""
    names = {f.name: f for f in fields(Ruleset)}
    changes: dict[str, object] = {}
    for key, value in values.items():
        if key == "base":
            continue
        if key not in names:
            raise RulesError(f"{path}: unknown rule {key!r}{did_you_mean(key, list(names), 2)}")
        changes[key] = _coerce(key, getattr(base, key), value, path)
    rules = dataclasses.replace(base, **changes)  # type: ignore[arg-type]
    if len(rules.uma) != rules.players:
        raise RulesError(f"{path}: uma has {len(rules.uma)} values for {rules.players} players")
    if rules.uma_by_floating and (
        len(rules.uma_by_floating) != rules.players + 1
        or any(len(row) != rules.players for row in rules.uma_by_floating)
    ):
        raise RulesError(
            f"{path}: uma_by_floating needs {rules.players + 1} rows (0 to {rules.players} "
            f"players at or above the start points) of {rules.players} values"
        )
    return rules


def load_rules(spec: str) -> Ruleset:
    """A preset name, or a TOML file whose ``base`` names the preset it overrides.

    A file that does not set ``tenhou_lobby_results`` gets false: the final results
    follow its own start, return and uma, whatever its base or name.
    """
    if spec.endswith(".toml") or (spec not in PRESETS and Path(spec).is_file()):
        # A file is read as TOML whatever its name (club.txt; a JSON file is then
        # "not valid TOML", which says more than "unknown rules preset").
        # Imported here: tomllib (with the datetime module it loads) is a noticeable
        # share of the start-up, and only a rules file needs it.
        import tomllib

        path = Path(spec)
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except OSError as exc:
            raise RulesError(f"{spec}: cannot read rules file: {exc.strerror or exc}") from None
        except UnicodeDecodeError as exc:
            raise RulesError(f"{spec} (byte {exc.start}): not UTF-8 text") from None
        except tomllib.TOMLDecodeError as exc:
            raise RulesError(f"{spec}: not valid TOML: {exc}") from None
        except RecursionError:
            raise RulesError(
                f"{spec}: not valid TOML: arrays or tables nested too deeply"
            ) from None
        except ValueError as exc:  # an integer of thousands of digits, say
            raise RulesError(f"{spec}: not valid TOML: {str(exc).split(';')[0]}") from None
        base_name = data.get("base", "tenhou")
        if not isinstance(base_name, str):
            raise RulesError(f"{spec}: base must be the name of a preset")
        base = preset(base_name)
        rules = override(base, data, spec)
        if "tenhou_lobby_results" not in data:
            rules = replace(rules, tenhou_lobby_results=False)
        if "name" not in data:
            rules = replace(rules, name=f"{base.name}+{path.stem}")
        return rules
    if spec not in PRESETS:
        # Neither a preset nor a file: a typo in either.
        known = ", ".join(sorted(PRESETS))
        raise RulesError(
            f"no rules preset or file named {spec!r}{did_you_mean(spec, sorted(PRESETS))} "
            f"(presets: {known})"
        )
    return preset(spec)


def rules_for(hint: RulesHint, spec: str = "auto") -> Ruleset:
    """Resolve ``--rules``: ``auto`` reads the log's hint; anything else is a preset or file.

    With ``auto``, a Tenhou log gets the ``tenhou`` (or ``tenhou-sanma``) preset with
    aka and kuitan taken from its GO flags. The names of rules assumed rather than
    read from the log are listed in ``Ruleset.assumed`` so the audit can say so.
    """
    if spec != "auto":
        return load_rules(spec)
    return _auto_rules(hint)


# A batch resolves the same few hints again and again (one per lobby and length);
# a Ruleset is frozen, so the games of one kind share one.
@lru_cache(maxsize=256)
def _auto_rules(hint: RulesHint) -> Ruleset:
    if hint.platform == "mahjongsoul":
        return _mahjongsoul_rules(hint)
    base = preset("tenhou-sanma" if hint.players == 3 else "tenhou")
    changes: dict[str, object] = {}
    if hint.aka is not None:
        changes["aka"] = hint.aka
    if hint.kuitan is not None:
        changes["kuitan"] = hint.kuitan
    if hint.hanchan is not None:
        changes["hanchan"] = hint.hanchan
    rules = override(base, changes)
    if hint.source.startswith("tenhou"):
        if hint.special_lobby:
            rules = replace(
                rules,
                assumed=(
                    f"special lobby ({hint.description}): {rules.name} rules assumed for "
                    "everything the log does not state",
                ),
            )
        return rules
    said = f" (the log says: {hint.description})" if hint.description else ""
    return replace(
        rules,
        assumed=(f"the log states no ruleset: {base.name} rules assumed{said}",),
    )


# -- Mahjong Soul rooms (docs/rules.md, "Mahjong Soul rooms and --rules auto") ----------
# A record's ``detail_rule`` (protobuf GameDetailRule) in snake_case: each key that
# changes a rule, the field it sets and how its text reads. Protobuf elides a key
# whose value is 0 or false, so a key the record does not state is not "off": it is
# assumed (the corpus's friendly rooms elide have_yifa, yet score ippatsu).
_MS_ABORTIVE = {
    "have_jiuzhongjiupai": "kyuushu",
    "have_sifenglianda": "suufon-renda",
    "have_sijializhi": "suucha-riichi",
    "have_sigangsanle": "suukaikan",
    "have_sanjiahele": "sanchahou",
}
_MS_FLAGS = {
    "shiduan": "kuitan",
    "can_jifei": "tobi",
    "have_liujumanguan": "nagashi_mangan",
    "have_qieshangmanguan": "kiriage",
    "have_gang_biao_dora": "kan_dora",
    "have_li_dora": "ura_dora",
    "have_gang_li_dora": "kan_ura",
    "have_yifa": "ippatsu",
    "have_nanruxiru": "west_extension",
    "have_zimosun": "tsumo_son",
}
_MS_POINTS = {"init_point": "start_points", "fandian": "return_points"}
# Keys that change no rule of the game (time, hints, the AI's strength, the bots'
# open hands).
_MS_IGNORED = frozenset({"time_fixed", "time_add", "bianjietishi", "ai_level", "open_hand"})
# Keys whose default the engine plays, and whose other values it cannot play.
_MS_DEFAULTS = {
    "fanfu": "1",  # the minimum han
    "liqibang_value": "1000",  # the riichi stick
    "have_biao_dora": "true",  # the first dora indicator
    "have_helelianzhuang": "true",  # the dealer repeats on a win
    "have_tingpailianzhuang": "true",  # the dealer repeats on tenpai
    "guyi_mode": "0",  # local yaku
    "dora3_mode": "0",
    "begin_open_mode": "0",
    "jiuchao_mode": "0",
    "muyu_mode": "0",
    "tianbian_value": "0",
}
# GameMode.mode of the one-hand and one-round games (3, 4 with four players; 13, 14
# with three): each corpus game of these modes ends once a player has the return
# points, after its first hand or later (MJS-rec 3).
_MS_ONE_HAND_MODES = frozenset({"3", "4", "13", "14"})


def one_hand_game_stated(hint: RulesHint) -> bool:
    """Whether the log states that its game is one hand (or one round) long: a Mahjong
    Soul record's mode 3, 4, 13 or 14. Like the East or South length a log states, this
    is the game's own length under any rules."""
    return dict(hint.extras).get("mode") in _MS_ONE_HAND_MODES


# What the corpus's friendly and AI rooms show where the uma and settlement keys are
# elided (28 games): total_point = (score - init_point) + uma 15/5/-5/-15 (4p, 21
# games), 15/0/-15 (3p, 4 games of 2023) but 20/0/-20 (3p, 3 games of 2022). An elided
# uma is no known value and no record confirms the keys' units, so a friendly room's
# results are never judged as errors (results_assumed).
_MS_RESULT_KEYS = ("jingsuanyuandian", "shunweima_2", "shunweima_3", "shunweima_4")


# The keys of a room's end rules (analyzer.checks.audit_flow): the start, the return
# points, busting, the extension and agari-yame. A record that states all of them is
# judged for its end by them, whatever else of its rules or results is assumed; one
# that states ``can_jifei`` is judged for busting. Protobuf elides a false or 0 value,
# so a rule the record leaves out is unknown, not off.
_MS_END_KEYS = ("init_point", "fandian", "can_jifei", "have_nanruxiru", "have_helezhongju")


def stated_end_rules(hint: RulesHint) -> tuple[bool, bool]:
    """Whether a Mahjong Soul game's own record gives its end rules, and its busting
    rule: a ranked or casual match plays the ranked rules; another room, as far as its
    ``detail_rule`` states them."""
    if hint.platform != "mahjongsoul":
        return False, False
    if hint.category in ("ranked", "casual"):
        return True, True
    stated = dict(hint.stated_rules)
    every = all(key in stated for key in _MS_END_KEYS) and all(
        (_ms_int(stated[key]) or 0) > 0 for key in _MS_POINTS
    )
    return every, "can_jifei" in stated


def _ms_flag(text: str) -> bool:
    return text.strip().lower() in ("1", "true")


def _ms_int(text: str) -> int | None:
    try:
        return int(text)
    except ValueError:
        return None


def _mahjongsoul_rules(hint: RulesHint) -> Ruleset:
    """A Mahjong Soul game: ``mahjongsoul`` or ``mahjongsoul-sanma`` by the player count.

    A ranked room plays the preset as it is (its rules are fixed). A friendly,
    tournament or AI room may set its own: each rule its ``detail_rule`` states is
    read onto the preset, and every rule it does not state (or states in a way the
    engine cannot play) is named in ``assumed``; its final results are only
    compared as warnings (``results_assumed``).
    """
    base = preset("mahjongsoul-sanma" if hint.players == 3 else "mahjongsoul")
    changes: dict[str, object] = {}
    if hint.hanchan is not None:
        changes["hanchan"] = hint.hanchan
    if hint.category in ("ranked", "casual"):
        for name in ("aka", "kuitan"):
            if getattr(hint, name) is not None:
                changes[name] = getattr(hint, name)
        rules = override(base, changes)
        if hint.category == "ranked":
            return rules
        # A casual match (交流の間) plays the ranked rules, but gives no rank points:
        # what its result points are counted from, no source or record shows.
        return replace(
            rules,
            results_assumed=True,
            assumed=(_ms_results_note("Mahjong Soul casual match: ranked rules of play;", rules),),
        )
    stated = dict(hint.stated_rules)
    notes: list[str] = []
    odd: list[str] = []
    for key, text in sorted(stated.items()):
        if key in _MS_IGNORED or key in _MS_RESULT_KEYS:
            continue
        value = _ms_int(text)
        if key in _MS_FLAGS:
            changes[_MS_FLAGS[key]] = _ms_flag(text)
        elif key in _MS_POINTS and value is not None and value > 0:
            changes[_MS_POINTS[key]] = value
        elif key == "dora_count" and value is not None:
            changes["aka"] = value > 0
            usual = 2 if base.players == 3 else 3
            if value not in (0, usual):
                odd.append(f"dora_count {value} (the engine knows {usual} red fives or none)")
        elif key == "changbang_value" and value is not None:
            changes["honba_ron"] = value
            changes["honba_tsumo_each"] = value // (base.players - 1)
        elif key == "ming_dora_immediately_open":
            changes["open_kan_dora_timing"] = "immediate" if _ms_flag(text) else "after-discard"
        elif key == "have_toutiao":
            head_bump = _ms_flag(text)
            changes["double_ron"] = not head_bump
            if head_bump:
                changes["triple_ron"] = "atamahane"
        elif key == "disable_multi_yukaman":
            changes["double_yakuman_patterns"] = not _ms_flag(text)
            changes["composite_yakuman"] = not _ms_flag(text)
        elif key in ("have_helezhongju", "have_tingpaizhongju"):
            # The dealer may stop on a win (和了止め) or on tenpai (聴牌止め): the engine
            # has one rule for both (agari_yame: may stop), so either one allows it.
            changes["agari_yame"] = bool(changes.get("agari_yame")) or _ms_flag(text)
        elif key in _MS_ABORTIVE:
            pass  # below, all five together
        elif key in _MS_DEFAULTS:
            if text.strip().lower() != _MS_DEFAULTS[key] and not (
                _MS_DEFAULTS[key] == "true" and _ms_flag(text)
            ):
                odd.append(f"{key} {text}")
        else:
            odd.append(f"{key} {text}")
    draws = set(base.abortive_draws)
    for key, kind in _MS_ABORTIVE.items():
        if key in stated:
            (draws.add if _ms_flag(stated[key]) else draws.discard)(kind)
    if draws != base.abortive_draws:
        changes["abortive_draws"] = sorted(draws)
    if "have_sanjiahele" in stated and changes.get("triple_ron") != "atamahane":
        changes["triple_ron"] = "abortive" if _ms_flag(stated["have_sanjiahele"]) else "scored"
    if one_hand_game_stated(hint):
        changes["one_hand_game"] = True
    start = changes.get("start_points", base.start_points)
    changes["settlement_points"] = _ms_int(stated.get("jingsuanyuandian", "")) or start
    uma = _ms_uma(stated, base)
    if uma is not None:
        changes["uma"] = list(uma)
    rules = override(base, changes)
    room = hint.category or "unknown kind of"
    unstated = [key for key in _ms_rule_keys(base.players) if key not in stated]
    if unstated:
        notes.append(
            f"Mahjong Soul {room} room: the record does not state "
            f"{', '.join(unstated)}; {base.name} ranked rules assumed for them"
        )
    if odd:
        notes.append(
            f"Mahjong Soul {room} room: the record sets {'; '.join(odd)}, which the engine "
            f"does not play; {base.name} rules assumed instead"
        )
    notes.append(_ms_results_note(f"Mahjong Soul {room} room:", rules))
    return replace(rules, results_assumed=True, assumed=tuple(notes))


def _ms_results_note(room: str, rules: Ruleset) -> str:
    """The warning that a room's result points are assumed, with the formula assumed."""
    uma = "/".join(f"{u:+d}" for u in rules.uma)
    return (
        f"{room} final results assumed to be (score - {rules.settlement_points}) / 1000 "
        f"+ uma {uma}; a result that differs is not judged an error"
    )


def _ms_rule_keys(players: int) -> tuple[str, ...]:
    """The detail_rule keys that set a rule of play, in the order they are reported."""
    keys = [
        "init_point",
        "fandian",
        "dora_count",
        "shiduan",
        "can_jifei",
        "changbang_value",
        "have_liujumanguan",
        "have_qieshangmanguan",
        "have_gang_biao_dora",
        "ming_dora_immediately_open",
        "have_li_dora",
        "have_gang_li_dora",
        "have_yifa",
        "have_toutiao",
        "have_helezhongju",
        "have_nanruxiru",
        "disable_multi_yukaman",
        *_MS_ABORTIVE,
    ]
    if players == 3:
        # Three players cannot discard four winds, all declare four riichi or all
        # three ron one tile; they choose how a tsumo is paid.
        keys = [k for k in keys if k not in _MS_NOT_SANMA]
        keys.append("have_zimosun")
    return tuple(keys)


_MS_NOT_SANMA = frozenset({"have_sifenglianda", "have_sijializhi", "have_sanjiahele"})


def _ms_uma(stated: Mapping[str, str], base: Ruleset) -> tuple[int, ...] | None:
    """The uma that ``shunweima_2..n`` state (2nd to last place; the top takes minus
    their sum), in thousands; None when the record states none of them."""
    keys = [f"shunweima_{k}" for k in range(2, base.players + 1)]
    if not any(k in stated for k in keys):
        return None
    rest = []
    for k in keys:
        value = _ms_int(stated.get(k, "0")) or 0
        rest.append(value // 1000 if abs(value) >= 1000 else value)
    return (-sum(rest), *rest)
