"""Register: telling a modern-Chinese line from a classical one, for witnesses that interleave a
translation line by line with the text (002, 仪礼注疏 with its 译 blocks).

Each line is scored with the marker table `data/register.tsv` (modern markers count for, classical
ones against). A line opening with the profile's `marker` (译) is modern whatever its score; an
undecided line keeps the register of the line before it. With `copies = true`, a line repeating an
earlier line (a translation block that copies the original instead of translating it) is modern too.
"""

from __future__ import annotations

import csv
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING

import regex

if TYPE_CHECKING:
    from .layering import Layering, TimeLimit
    from .rule import Rule

MIN_COPY = 8
IGNORED = regex.compile(r"[\p{P}\p{S}\s▯〇]")


@cache
def markers() -> tuple[tuple[str, float], ...]:
    """(marker, signed weight): positive for modern Chinese, negative for classical."""
    path = resources.files("edition.intake") / "data" / "register.tsv"
    with path.open(encoding="utf-8") as handle:
        rows = csv.DictReader((line for line in handle if not line.startswith("#")), delimiter="\t")
        return tuple((row["marker"], float(row["weight"]) * (1 if row["register"] == "modern" else -1)) for row in rows)


def score(text: str) -> float:
    return sum(weight * text.count(marker) for marker, weight in markers())


def apply(layering: "Layering", rule: "Rule", limit: "TimeLimit") -> None:
    text = layering.raw.text
    marker = regex.compile(rule.params["marker"]) if "marker" in rule.params else None
    claimable = (*rule.within, "format")
    seen_lines: set[str] = set()
    modern = False
    position = 0
    for line in text.split("\n"):
        start, end = position, position + len(line)
        position = end + 1
        spans = layering.spans(rule.within, start, end)
        if not spans:
            continue
        content = "".join(text[a:b] for a, b in spans)
        key = IGNORED.sub("", content)
        forced = limit.match(marker, line, start) if marker else None
        value = score(content)
        if forced or (rule.params.get("copies") and len(key) >= MIN_COPY and key in seen_lines):
            modern = True
        elif value:
            modern = value > 0
        seen_lines.add(key)
        if not modern:
            continue
        body_start = start + forced.end() if forced else start
        if forced:
            layering.assign(start, body_start, "format", rule, {"marker": forced.group()})
        for a, b in layering.spans(claimable, body_start, end):
            layering.assign(a, b, rule.layer, rule)
