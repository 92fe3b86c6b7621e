"""A witness file as bytes and as text, decoded strictly without losing a byte."""

from __future__ import annotations

import codecs
import re
from pathlib import Path

from charset_normalizer import from_bytes

from ..errors import EditionError
from .model import RawText

CONTROLS = re.compile(r"[\x00-\x08\x0b\x0e-\x1f]")  # below U+0020, except tab, line ends and form feed
# The header of a mandoku file (Kanripo): `#+TITLE: 儀禮圖`, `#+PROPERTY: ID KR1d0032`, `#+PROPERTY: BASEEDITION WYG`
HEADER = re.compile(r"^#\+(?:TITLE:\s*(?P<title>\S.*?)|PROPERTY:\s*(?P<key>ID|BASEEDITION)\s+(?P<value>\S+))\s*$", re.M)


def guess_encoding(data: bytes) -> str | None:
    if marked := marked_encoding(data):
        return marked
    match = from_bytes(data).best()
    if match is None:
        return None
    name = codecs.lookup(match.encoding).name
    if name in ("gb18030", "gbk", "gb2312", "hz"):
        return "GB18030"
    if name in ("big5", "big5hkscs", "cp950"):
        return "Big5"
    return name


# Byte order marks, UTF-32 before UTF-16 (whose little-endian mark begins UTF-32's).
BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)


def marked_encoding(data: bytes) -> str | None:
    """UTF-16 or UTF-32, where the data opens with its byte order mark."""
    return next((name for bom, name in BOMS if data.startswith(bom)), None)


def wide(encoding: str) -> bool:
    """An encoding whose text holds NUL bytes (UTF-16, UTF-32)."""
    try:
        return codecs.lookup(encoding).name.startswith(("utf-16", "utf-32"))
    except LookupError:
        return False


def check_text_data(path: Path, data: bytes, encoding: str = "utf-8") -> None:
    """A witness file is neither empty nor binary (NUL bytes, but in UTF-16 or UTF-32)."""
    if not data.strip(b"\x00\t\n\r \xff\xfe"):
        raise EditionError(path, "empty witness file")
    if b"\x00" in data and not (marked_encoding(data) or wide(encoding)):
        raise EditionError(
            path, "binary file, not a text witness (contains NUL bytes; if it is UTF-16, give its encoding)"
        )


def book_of(text: str) -> tuple[str, str]:
    """The book a file's header names, and how to cite the digital text (its ID and the edition
    it transcribes: `KR1d0032, WYG`); empty where the file has no such header."""
    found = {}
    for match in HEADER.finditer(text[:2000]):
        key = "title" if match["title"] else match["key"]
        found.setdefault(key, match["title"] or match["value"])
    return found.get("title", ""), ", ".join(found[k] for k in ("ID", "BASEEDITION") if k in found)


def read_raw(path: Path, encoding: str = "utf-8") -> RawText:
    """Decode a witness file strictly (in UTF-16 or UTF-32 where it opens with their byte order
    mark); bad input raises a one-line EditionError."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise EditionError(path, f"cannot read witness file ({exc.strerror})") from None
    check_text_data(path, data, encoding)
    encoding = marked_encoding(data) or encoding
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        if encoding.replace("-", "").lower() == "utf8":
            guess = guess_encoding(data)
            hint = (
                f'; it looks like {guess}: set encoding = "{guess.lower()}" in its metadata'
                if guess and guess.lower() not in ("utf_8", "ascii")
                else ""
            )
            raise EditionError(path, f"not valid UTF-8 (byte 0x{data[exc.start]:02x}){hint}", line) from None
        raise EditionError(path, f"not valid {encoding} (byte 0x{data[exc.start]:02x})", line) from None
    except LookupError:
        raise EditionError(path, f"unknown encoding {encoding!r} in its metadata") from None
    controls = len(CONTROLS.findall(text))
    if controls > max(2, len(text) // 100):
        raise EditionError(path, "binary file, not a text witness (control characters)")
    return RawText(path=path, data=data, text=text, encoding=encoding)
