"""Classes of Chinese characters and Chinese numerals, each defined once for every stage."""

from __future__ import annotations

import regex

HAN = regex.compile(r"\p{Han}")  # one Han character
NOT_HAN = regex.compile(r"\P{Han}+")  # a run of anything else
CLOSING = "，。、；：？！”’」』）》〉】…"  # marks no line may begin with (禁則)
HAN_OR_GAP = regex.compile(r"[\p{Han}▯□]")  # a character of the printed text, a lost one (▯, □) among them
# a character as a transcription writes it: Han, private use, lost, or an entity
WRITTEN = regex.compile(r"[\p{Han}\p{Co}▯□]|&[A-Za-z0-9]+;")

DIGITS = "〇一二三四五六七八九"
NUMERAL = "一二三四五六七八九十百"  # the characters of a numeral up to 999
ORDINAL = regex.compile(rf"第[{NUMERAL}]+$")  # 第五, at the end of a heading


def numeral(text: str) -> int:
    """A Chinese numeral up to 999: 三十八, 十七, 二十, 五十."""
    total, digit = 0, 0
    for char in text:
        if char in DIGITS[1:]:
            digit = DIGITS.index(char)
        elif char == "十":
            total += (digit or 1) * 10
            digit = 0
        elif char == "百":
            total += (digit or 1) * 100
            digit = 0
        else:
            raise ValueError(f"not a numeral: {text}")
    return total + digit


def chinese_number(number: int) -> str:
    """A count in words, whatever its size: 〇, 十二, 一百五十五, 一千零三, 二萬零六百."""
    if number == 0:
        return DIGITS[0]
    if number >= 10**4:
        high, low = divmod(number, 10**4)
        rest = chinese_number(low) if low else ""
        return chinese_number(high) + "萬" + ("零" if low and low < 1000 else "") + rest
    words, gap = "", False
    for digit, unit in zip(f"{number:04d}", ("千", "百", "十", "")):
        if digit == "0":
            gap = bool(words)
            continue
        words += ("零" if gap else "") + DIGITS[int(digit)] + unit
        gap = False
    return words[1:] if words.startswith("一十") else words


def common_ends(a: str, b: str) -> tuple[int, int]:
    """How many characters two texts share at their start, and then at their end."""
    start = 0
    while start < min(len(a), len(b)) and a[start] == b[start]:
        start += 1
    end = 0
    while end < min(len(a), len(b)) - start and a[-1 - end] == b[-1 - end]:
        end += 1
    return start, end
