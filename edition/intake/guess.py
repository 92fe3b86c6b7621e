"""Guessing how a new witness file is laid out: its encoding, line ends, script, commentary
brackets, translation, page markers, header, and so the layout profile to read it with."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import opencc
import regex

from .raw import guess_encoding

PAGE_MARKER = regex.compile(r"\[p\.?\s*\d+\]|<pb[^>\n]*>")
HEADER_LINE = regex.compile(r"^[^\n：:]{1,12}[：:]", regex.MULTILINE)


@dataclass
class Guess:
    encoding: str
    bom: bool
    newline: str
    script: str
    brackets: str
    translation: bool
    page_markers: int
    header_lines: int
    profile: str

    def lines(self) -> list[str]:
        return [
            f"encoding: {self.encoding}{' with BOM' if self.bom else ''}, {self.newline} line ends",
            f"script: {self.script}",
            f"commentary brackets: {self.brackets or 'none'}",
            f"translation: {'yes' if self.translation else 'no'}",
            f"page markers: {self.page_markers}",
            f"header lines: {self.header_lines}",
            f"layout profile: {self.profile}",
        ]


def decode(data: bytes) -> tuple[str, str, bool]:
    if data.startswith(b"\xef\xbb\xbf"):
        return data[3:].decode("utf-8"), "utf-8", True
    try:
        return data.decode("utf-8"), "utf-8", False
    except UnicodeDecodeError:
        encoding = (guess_encoding(data) or "gb18030").lower()
        return data.decode(encoding, errors="replace"), encoding, False


def script_of(text: str) -> str:
    han = set(regex.findall(r"\p{Han}", text))
    to_simplified, to_traditional = opencc.OpenCC("t2s"), opencc.OpenCC("s2t")
    traditional = sum(1 for c in han if to_simplified.convert(c) != c)
    simplified = sum(1 for c in han if to_traditional.convert(c) != c)
    if traditional > 3 * max(simplified, 1):
        return "traditional"
    if simplified > 3 * max(traditional, 1):
        return "simplified"
    return "mixed"


def profile_for(text: str) -> str:
    if "【注" in text:
        return "wuli-tongkao"
    if regex.search(r"^原文$", text, regex.MULTILINE) and regex.search(r"^译文$", text, regex.MULTILINE):
        return "web-translation"
    if "[疏]" in text or regex.search(r"^译", text, regex.MULTILINE):
        return "zhushu"
    if "【" in text:
        return "lishu-gangmu"
    return "plain"


def guess(path: Path) -> Guess:
    data = path.read_bytes()
    text, encoding, bom = decode(data)
    crlf = data.count(b"\r\n")
    newline = "CRLF" if crlf and crlf == data.count(b"\n") else "mixed" if crlf else "LF"
    brackets = "".join(pair for pair in ("【】", "（）", "〔〕") if pair[0] in text and pair[1] in text)
    header = regex.match(r"(?:[^\n：:]{1,12}[：:][^\n]*\r?\n)+", text)
    return Guess(
        encoding=encoding,
        bom=bom,
        newline=newline,
        script=script_of(text),
        brackets=brackets,
        translation=bool(regex.search(r"^(?:译文|译)", text, regex.MULTILINE)),
        page_markers=len(PAGE_MARKER.findall(text)),
        header_lines=len(HEADER_LINE.findall(header.group())) if header else 0,
        profile=profile_for(text),
    )
