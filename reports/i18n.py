"""The pages' words in each language: one message catalogue for the templates and views.

English is the source language: a message is its English text. The language of the
pages being made is set for a block of work with :func:`language` (a context
variable, so each thread or worker process has its own); :func:`gettext`, which the
templates call as ``_("...")``, and the views' :func:`yaku_name` and
:func:`wind_name` read it. A message without an entry shows in English, which
tests/test_i18n.py forbids for the templates' own messages. Yaku and winds have
their own tables, in the names players of each language use (the Japanese yaku
names are Tenhou's). What the audit says (a finding's message, a step's caption
beyond its winds) stays in English.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from mjaudit.yaku import Yaku
from parsers.tenhou_json_result import YAKU_NAMES

__all__ = [
    "LANGS",
    "MESSAGES",
    "Translate",
    "current",
    "gettext",
    "language",
    "round_title",
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
        "Han": "翻",
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
        "Start wind": "起家からの風",
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
        "dora indicators": "ドラ表示牌",
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
        "the seat's wind in the first hand": "最初の局での自風",
        "total": "合計",
        "ura indicators": "裏ドラ表示牌",
        "waits": "待ち",
        "wall": "山",
        "yakuman": "役満",
        "tiles left in the wall": "枚が山に残る",
        "best discard": "最善の打牌",
        "keeps": "の残した形",
        "a complete hand": "和了形",
        "tenpai": "聴牌",
        "shanten": "向聴",
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


def round_title(round_index: int, honba: int, sticks: int) -> str:
    """``East 1, 0 honba, 1 riichi stick``; ``東1局 0本場 供託1``."""
    wind = wind_name(round_index // 4)
    if _LANG.get() == "ja":
        return f"{wind}{round_index % 4 + 1}局 {honba}本場 供託{sticks}"
    return (
        f"{wind} {round_index % 4 + 1}, {honba} honba, "
        f"{sticks} riichi stick{'s' if sticks != 1 else ''}"
    )
