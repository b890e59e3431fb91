"""The pages' words in each language: one message catalogue for the templates and views.

English is the source language: a message is its English text. The language of the
pages being made is set for a block of work with :func:`language` (a context
variable, so each thread or worker process has its own); :func:`gettext`, which the
templates call as ``_("...")``, and the views' :func:`yaku_name` and
:func:`wind_name` read it. A message without an entry shows in English, which
tests/test_i18n.py forbids for the templates' own messages. Yaku and winds have
their own tables, in the names players of each language use (the Japanese yaku
names are Tenhou's, the ranks as Tenhou and Mahjong Soul write them). Words the
views make from the audit's facts (a result, a fu part, a draw's kind, a step's
caption) are messages too, with named fields: ``_("Tsumo: {winner}")``. What the
audit itself says (a finding's code and message) and the room as the log names it
stay in English. Shanten is written ``3向聴``, a digit and the word, as Tenhou and
the Japanese review tools write it (the page's other numbers are digits too).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from mjaudit.yaku import Yaku
from parsers.tenhou_json import DAN_TEXTS
from parsers.tenhou_json_result import YAKU_NAMES

__all__ = [
    "LANGS",
    "MESSAGES",
    "Translate",
    "column_head",
    "current",
    "gettext",
    "language",
    "rank_name",
    "round_title",
    "statistic",
    "translator",
    "wind_name",
    "yaku_name",
]

LANGS = ("en", "ja")

Translate = Callable[[str], str]

# The Japanese name of each yaku: the first of Tenhou's names for it.
_YAKU_JA: dict[Yaku, str] = {}
for _name, _yaku in YAKU_NAMES.items():
    _YAKU_JA.setdefault(_yaku, _name)

_WINDS = {"en": ("East", "South", "West", "North"), "ja": ("東", "南", "西", "北")}

# English message -> its Japanese text.
MESSAGES: dict[str, dict[str, str]] = {
    "ja": {
        "All steps": "全手順",
        "Audit": "監査",
        "Click a heading to sort; hover it for its definition, a value for its count.": (
            "見出しをクリックで並べ替え。見出しに重ねると定義、値に重ねると件数を表示。"
        ),
        "Code": "コード",
        "Date": "日付",
        "Definitions": "定義",
        "Each step has its own link:": "各手順のリンク:",
        "Errors": "エラー",
        "Final score": "最終持ち点",
        "Find a player": "プレイヤーを検索",
        "Findings": "指摘",
        "Findings: errors": "指摘: エラー",
        "Findings: notes": "指摘: 注記",
        "Findings: warnings": "指摘: 警告",
        "Fu": "符",
        "Furiten is not shown: the furiten tracker is not installed.": (
            "フリテンは表示されません: フリテン追跡が入っていません。"
        ),
        "Game": "対局",
        "Games": "対局",
        "Han": "飜",
        "Inputs that could not be read": "読めなかった入力",
        "No games for this player.": "このプレイヤーの対局はありません。",
        "None: every hand, payment and score agrees with the rules.": (
            "なし: すべての和了・支払い・点数がルールどおりです。"
        ),
        "Notes": "注記",
        "Payments (recomputed)": "支払い (再計算)",
        "Payments (recorded)": "支払い (記録)",
        "Place": "順位",
        "Placement": "順位分布",
        "Player": "プレイヤー",
        "Player report": "プレイヤー成績",
        "Player report (every player)": "プレイヤー成績 (全員)",
        "Players: place, final score, points": "プレイヤー: 順位・最終持ち点・ポイント",
        "Points (uma)": "ポイント (ウマ)",
        "Rank": "段位",
        "Rank trend": "成績推移",
        "Recomputed": "再計算",
        "Recorded": "記録",
        "Replay keys act on the board in view: ←/→ step, ↑/↓ previous/next round, "
        "Home/End first/last step, n/p next/previous finding or note on a board.": (
            "キー操作は表示中の盤面に効きます: ←/→ 一手ずつ、↑/↓ 前/次の局、"
            "Home/End 最初/最後の手順、n/p 盤面上の次/前の指摘や注記。"
        ),
        "Result": "結果",
        "Room": "卓",
        "Round": "局",
        "Rounds": "局一覧",
        "Scores over the game": "点数推移",
        "Severity": "重要度",
        "Start scores": "開始時の持ち点",
        "Start wind": "開始時の自風",
        "The log contradicts itself in this round; the replay stops where it does.": (
            "この局の牌譜は矛盾しています。矛盾した所で再生は止まります。"
        ),
        "The name in the log": "牌譜上の名前",
        "Warnings": "警告",
        "What": "内容",
        "Where": "場所",
        "Winds in a result are the seat winds of that hand, each beside the player's name; "
        "the score columns are the players, their recorded changes in the hand.": (
            "結果の風はその局の自風で、プレイヤー名と並べて示します。"
            "点数の列はプレイヤーごとの、その局で記録された点数の増減です。"
        ),
        "Yaku": "役",
        "all games": "対局一覧",
        "%d player": "プレイヤー %d 人",
        "%d players": "プレイヤー %d 人",
        "with %d games or more": "(%d 対局以上)",
        "dora": "ドラ",
        "dora indicators → dora": "ドラ表示牌 → ドラ",
        "errors found": "エラーあり",
        "first step (Home)": "最初の手順 (Home)",
        "furiten": "フリテン",
        "game": "対局",
        "last step (End)": "最後の手順 (End)",
        "liable (pao)": "責任払い (包)",
        "next step (→)": "次の手順 (→)",
        "no errors": "エラーなし",
        "none": "なし",
        "placement": "順位",
        "previous step (←)": "前の手順 (←)",
        "riichi": "リーチ",
        "round": "局",
        "rules preset": "ルール",
        "share of wins": "和了に占める割合",
        "step": "手順",
        "sticks": "供託",
        "the seat's wind in the first hand the log records": "牌譜の最初の局での自風",
        "total": "合計",
        "ura indicators → ura dora": "裏ドラ表示牌 → 裏ドラ",
        "waits": "待ち",
        "wall": "山",
        "yakuman": "役満",
        "tiles left in the wall": "枚が山に残る",
        "best discard": "最善の打牌",
        "keeps": "の残した形",
        "a complete hand": "和了形",
        "tenpai": "聴牌",
        "{n}-shanten": "{n}向聴",
        # An efficiency note: what a discard kept, and the discards that kept more.
        "discarding {tile} leaves {shanten} with {ukeire} tiles that improve it": (
            "{tile} 切りは {shanten}、受け入れ {ukeire} 枚"
        ),
        "{better} leaves {best} with {best_ukeire}": (
            "{better} 切りなら {best}、受け入れ {best_ukeire} 枚"
        ),
        "{better} leave {best} with {best_ukeire}": (
            "{better} 切りなら {best}、受け入れ {best_ukeire} 枚"
        ),
        " or ": "・",
        # The score chart: its axis, its end, its markers and their legend.
        "points": "点数",
        "score-chart": "点数推移のグラフ",
        "end": "終局",
        "win": "和了",
        "deal-in": "放銃",
        "{round}: {name} wins {points}": "{round}: {name} 和了 {points}",
        "{round}: {name} deals in": "{round}: {name} 放銃",
        "{round}: {name} riichi": "{round}: {name} リーチ",
        # Results, headings and values of a hand.
        "Tsumo: {winner}": "ツモ: {winner}",
        "Ron: {winner} ← {loser}": "ロン: {winner} ← {loser}",
        " {fu} fu {han} han": " {fu}符{han}飜",
        " · pao: {liable}": " · 責任払い: {liable}",
        "{winner} wins by tsumo": "{winner} ツモ和了",
        "{winner} wins by ron from {loser}": "{winner} ロン和了 ({loser} から)",
        "yakuman ×{n} = {total}": "役満 ×{n} = {total}",
        "{fu} fu {han} han = {total}": "{fu}符{han}飜 = {total}",
        "kita": "抜きドラ",
        "mangan": "満貫",
        "haneman": "跳満",
        "baiman": "倍満",
        "sanbaiman": "三倍満",
        "replay stopped: the log contradicts itself": "再生停止: 牌譜が矛盾しています",
        "{round} step {step}": "{round} 手順 {step}",
        # Draws.
        "Draw": "流局",
        "Draw: tenpai {seats}": "流局: 聴牌 {seats}",
        "Draw: tenpai nobody": "流局: 全員不聴",
        "Draw: nagashi mangan": "流局: 流し満貫",
        "Draw: nagashi mangan; tenpai {seats}": "流局: 流し満貫; 聴牌 {seats}",
        "Abortive draw ({reason})": "途中流局 ({reason})",
        "Abortive draw ({reason}) declared by {seat}": "途中流局 ({reason}) 宣言: {seat}",
        "Draw: nagashi mangan for {nagashi}": "流局: 流し満貫 {nagashi}",
        "Draw: nagashi mangan for {nagashi}; tenpai {seats}": (
            "流局: 流し満貫 {nagashi}; 聴牌 {seats}"
        ),
        "Penalty (the server ended the hand)": "罰符 (サーバーが局を終了)",
        "Penalty: {seat} pays a mangan chombo": "罰符: {seat} が満貫のチョンボを支払う",
        "exhaustive": "荒牌平局",
        "nagashi-mangan": "流し満貫",
        "kyuushu": "九種九牌",
        "suufon-renda": "四風連打",
        "suucha-riichi": "四家立直",
        "suukaikan": "四開槓",
        "sanchahou": "三家和",
        "penalty": "罰符",
        # Recorded against recomputed.
        "yaku": "役",
        "han": "飜",
        "fu": "符",
        "limit": "満貫以上の区分",
        "seat {seat}": "席{seat}",
        # Fu, line by line (analyzer/hands/fu.py's reasons).
        "base": "副底",
        "closed ron": "門前加符",
        "tsumo": "ツモ符",
        "chiitoitsu": "七対子",
        "pinfu tsumo": "平和ツモ",
        "open pinfu shape": "喰い平和の形",
        "kanchan wait": "嵌張待ち",
        "penchan wait": "辺張待ち",
        "tanki wait": "単騎待ち",
        "pair of dragon": "三元牌の雀頭",
        "pair of double wind": "連風牌の雀頭",
        "pair of seat wind": "自風牌の雀頭",
        "pair of round wind": "場風牌の雀頭",
        "rounding up": "切り上げ",
        "closed triplet {tile}": "暗刻 {tile}",
        "open triplet {tile}": "明刻 {tile}",
        "closed kan {tile}": "暗槓 {tile}",
        "open kan {tile}": "明槓 {tile}",
        # The board's captions, one per step.
        "{seat} draws {tile}": "{seat} ツモ {tile}",
        "{seat} discards {tile}": "{seat} 打 {tile}",
        "{seat} discards {tile} (tsumogiri)": "{seat} 打 {tile} (ツモ切り)",
        "{seat} calls {kind} {tiles}": "{seat} {kind} {tiles}",
        "chi": "チー",
        "pon": "ポン",
        "daiminkan": "大明槓",
        "ankan": "暗槓",
        "kakan": "加槓",
        "new dora indicator {tile}": "新ドラ表示牌 {tile}",
        "{seat} declares riichi": "{seat} リーチ宣言",
        "{seat}'s riichi stick is paid": "{seat} のリーチ棒が供託される",
        "{seat} wins by ron on {loser}": "{seat} ロン和了 ({loser} から)",
        "draw: {reason}": "流局: {reason}",
        "the server ends the hand with a penalty": "サーバーが罰符で局を終える",
        "{round}: dealer {seat}": "{round}: 親 {seat}",
        # Why a seat is furiten: its own discards, a win passed this turn, in riichi.
        "discard": "捨て牌",
        "temporary": "同巡内",
        # The players page and the index.
        "in {n} seats": "{n} 席",
        "{n} placed": "順位あり {n}",
        "{n} wins": "和了 {n}",
        "{n} hands": "{n} 局",
        "not checked": "未確認",
        "{n} games with results": "結果のある対局 {n}",
        "1st": "1位",
        "2nd": "2位",
        "3rd": "3位",
        "4th": "4位",
        "placements in game order": "対局順の順位",
        "first 10: {first}, last 10: {last}": "最初の10戦: {first}、最後の10戦: {last}",
        "Player report: {name}": "プレイヤー成績: {name}",
        "mjaudit report: {n} game": "mjaudit レポート: {n} 対局",
        "mjaudit report: {n} games": "mjaudit レポート: {n} 対局",
        # A finding's severity.
        "error": "エラー",
        "warning": "警告",
        "info": "注記",
        # The badges above the findings.
        "{n} mismatch in {wins} win": "和了 {wins} 件中 不一致 {n} 件",
        "{n} mismatches in {wins} win": "和了 {wins} 件中 不一致 {n} 件",
        "{n} mismatch in {wins} wins": "和了 {wins} 件中 不一致 {n} 件",
        "{n} mismatches in {wins} wins": "和了 {wins} 件中 不一致 {n} 件",
        "Wins re-scored: yaku, han, fu, points, limit and every seat's payment": (
            "再計算した和了: 役・飜・符・点数・満貫以上の区分・各席の支払い"
        ),
        "{n} furiten error": "フリテンのエラー {n} 件",
        "{n} furiten errors": "フリテンのエラー {n} 件",
        "Wins that furiten forbade (ron-while-furiten)": ("フリテンで禁じられたロン和了"),
        "{n} furiten note": "フリテンの注記 {n} 件",
        "{n} furiten notes": "フリテンの注記 {n} 件",
        "Missed wins, riichi while furiten, discards into furiten": (
            "見逃し・フリテン立直・フリテンになる打牌"
        ),
        "furiten not checked": "フリテン未確認",
        "analyzer.review.furiten is not installed": "analyzer.review.furiten が入っていません",
        "{n} other error": "その他のエラー {n} 件",
        "{n} other errors": "その他のエラー {n} 件",
        "Dora, score chain, final scores, calls, riichi or a log that cannot be replayed": (
            "ドラ・点数の推移・最終持ち点・副露・リーチ、または再生できない牌譜"
        ),
        "{n} warning": "警告 {n} 件",
        "{n} warnings": "警告 {n} 件",
        "Rules read from the log or assumed": "牌譜から読んだ、または仮定したルール",
    }
}


_LANG: ContextVar[str] = ContextVar("mjaudit_report_language", default="en")


def _check(lang: str) -> str:
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r} (known: {', '.join(LANGS)})")
    return lang


@contextmanager
def language(lang: str) -> Iterator[None]:
    """Make the pages of this block in ``lang``."""
    token = _LANG.set(_check(lang))
    try:
        yield
    finally:
        _LANG.reset(token)


def current() -> str:
    """The language of the pages being made (``en`` outside :func:`language`)."""
    return _LANG.get()


def gettext(text: str) -> str:
    """``text`` in the current language (the templates' ``_``)."""
    table = MESSAGES.get(_LANG.get())
    return table.get(text, text) if table else text


def translator(lang: str) -> Translate:
    """A ``_`` fixed to ``lang``, whatever the current language."""
    table = MESSAGES.get(_check(lang))
    if not table:
        return _same
    return lambda text: table.get(text, text)


def _same(text: str) -> str:
    return text


def yaku_name(yaku: Yaku, lang: str | None = None) -> str:
    """``pinfu`` in English, ``平和`` in Japanese (the current language by default)."""
    if (lang or _LANG.get()) == "ja":
        return _YAKU_JA.get(yaku, yaku.label)
    return yaku.label


def wind_name(wind: int, lang: str | None = None) -> str:
    """Wind 0..3 (East..North) by name, in the current language by default."""
    return _WINDS.get(lang or _LANG.get(), _WINDS["en"])[wind % 4]


# The statistics of the players page (``reports.stats.DEFINITIONS``): name, definition.
_STATS_JA: dict[str, tuple[str, str]] = {
    "games": ("対戦数", "プレイヤーが席に着いた対局。同じ名前が何席に座っても 1 対局と数える。"),
    "rounds": (
        "局数",
        "最後まで打たれた局 (途中流局を含む)。プレイヤーが座ったすべての席で数える。",
    ),
    "average placement": ("平均順位", "最終順位の平均。同点は起家に近い席が上。"),
    "first place rate": ("トップ率", "1 位で終えた対局 / 順位のある席。"),
    "last place rate": ("ラス率", "最下位 (4 位、三人打ちでは 3 位) で終えた対局 / 順位のある席。"),
    "placement": ("順位分布", "各順位で終えた対局と、順位のある席全体に占める割合。"),
    "rank trend": (
        "成績推移",
        "対局順 (牌譜に日付があれば日付順) の順位、最初と最後の 10 戦の平均、"
        "最初と最後の対局で牌譜が記録した段位とレート。",
    ),
    "win rate": ("和了率", "プレイヤーが和了した局 / 局数。ダブロンの和了者はそれぞれ 1 回和了。"),
    "tsumo rate": ("ツモ率", "ツモ和了 / 和了。"),
    "deal-in rate": (
        "放銃率",
        "プレイヤーの打牌 (または槍槓された槓) で和了された局 / 局数。ダブロンは放銃 1 局。",
    ),
    "riichi rate": ("立直率", "プレイヤーの立直が成立した局 / 局数。ダブル立直を含む。"),
    "riichi win rate": ("立直和了率", "プレイヤーが和了した立直局 / 立直局。"),
    "deal-in after riichi": ("立直後放銃率", "立直の後に放銃した立直局 / 立直局。"),
    "first riichi": ("先制立直率", "他家がまだ立直していなかった立直局 / 立直局。"),
    "chasing riichi": ("追っかけ立直率", "他家がすでに立直していた立直局 / 立直局。"),
    "dama wins": ("ダマ和了率", "門前で立直していない和了 / 和了。"),
    "open-hand rate": (
        "副露率",
        "チー・ポン・大明槓を 1 回以上した局 / 局数。暗槓と抜きドラは副露ではない。",
    ),
    "open-hand win rate": ("副露和了率", "プレイヤーが和了した副露局 / 副露局。"),
    "average winning turn": (
        "平均和了巡目",
        "和了の巡目の平均: 和了までのその局での自分の打牌数に 1 を足したもの。",
    ),
    "average win": ("平均打点", "和了の打点の平均: 牌譜の点数。本場と供託は含まない。"),
    "average deal-in": (
        "平均放銃打点",
        "放銃した和了の打点の平均。ダブロンは和了者ごとに 1 回、本場と供託は含まない。",
    ),
    "tenpai at draw": (
        "流局時聴牌率",
        "聴牌で迎えた荒牌平局 / 荒牌平局。牌譜の宣言を監査が確認したもの "
        "(流し満貫と途中流局は除く)。",
    ),
    "furiten": (
        "フリテン",
        "プレイヤーのフリテンの指摘 (フリテンでのロン、フリテン立直、フリテンになる打牌) / 局数。"
        "フリテン追跡が必要。",
    ),
    "missed wins": (
        "見逃し",
        "和了できたのにしなかった回数 (ロンの見逃し、ツモの見逃し) / 局数。フリテン追跡が必要。",
    ),
    "yaku": (
        "役",
        "各役のある和了 / 和了: その役があった和了の割合 (ドラは数えない。1 回の和了に"
        "複数の役があるので、割合の合計は 100% を超える)。",
    ),
    "han": ("飜", "各和了の飜数。役満は別の列。"),
    "fu": ("符", "役満でない各和了の符。"),
    "points": ("ポイント", "各対局終了時のウマ・オカ込みのポイントを対局順に足したもの。"),
}

# The players table's short headings.
_COLUMNS_JA = {
    "Games": "対戦数",
    "Rounds": "局数",
    "Avg place": "平均順位",
    "1st": "トップ",
    "Last": "ラス",
    "Win": "和了",
    "Deal-in": "放銃",
    "Riichi": "立直",
    "Riichi win": "立直和了",
    "Open": "副露",
    "Dama wins": "ダマ和了",
    "Avg turn": "平均巡目",
    "Avg win": "平均打点",
    "Tenpai at draw": "流局聴牌",
    "Points": "ポイント",
}


def statistic(key: str, definition: str, lang: str | None = None) -> tuple[str, str]:
    """A statistic's name and definition (``reports.stats.DEFINITIONS``: its key and
    English definition) in the current language by default."""
    if (lang or _LANG.get()) == "ja" and key in _STATS_JA:
        return _STATS_JA[key]
    return key, definition


def column_head(head: str, lang: str | None = None) -> str:
    """A heading of the players table (``Avg place``), in the current language."""
    if (lang or _LANG.get()) == "ja":
        return _COLUMNS_JA.get(head, head)
    return head


# Mahjong Soul's ranks (``parsers.mahjongsoul_names.RANK_NAMES``) as its Japanese
# client names them.
_MS_RANKS_JA = {
    "Novice": "初心",
    "Adept": "雀士",
    "Expert": "雀傑",
    "Master": "雀豪",
    "Saint": "雀聖",
    "Celestial": "魂天",
}


def rank_name(dan: str, lang: str | None = None) -> str:
    """A rank as the parsers name it (``7dan``, ``1kyu``, ``Master 3``), in the current
    language by default: ``七段``, ``1級``, ``雀豪3`` in Japanese."""
    if (lang or _LANG.get()) != "ja":
        return dan
    if dan in DAN_TEXTS:
        return DAN_TEXTS[dan]
    name, _, stars = dan.partition(" ")
    return f"{_MS_RANKS_JA[name]}{stars}" if name in _MS_RANKS_JA else dan


def round_title(round_index: int, honba: int, sticks: int) -> str:
    """``East 1, 0 honba, 1 riichi stick``; ``東1局 0本場 供託1``."""
    wind = wind_name(round_index // 4)
    if _LANG.get() == "ja":
        return f"{wind}{round_index % 4 + 1}局 {honba}本場 供託{sticks}"
    return (
        f"{wind} {round_index % 4 + 1}, {honba} honba, "
        f"{sticks} riichi stick{'s' if sticks != 1 else ''}"
    )
