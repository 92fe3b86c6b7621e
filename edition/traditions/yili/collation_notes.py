"""張淳's 儀禮識誤 as evidence: a Song 校勘記 of the 經 and 注, read entry by entry into typed entries
and placed on the base text.

Chapter by chapter (「士冠禮誤字」…), each entry opens a line with the character(s) in question (its
heading: the reading 張淳 holds right), quotes the text after 經曰 and/or 注曰 (as he found it),
and gives his judgement, often following 陸德明's 釋文 (從釋文); the 四庫 editors' remarks, in small
characters (…), are theirs and kept apart. The layout and the formulas are data
(`data/collation_notes.toml`, each with its reason).

`read_edition` reads the folder of 卷 files; `place` places a chapter's entries on the base: each
quotation in the chapter's 經 or 注, in the order of the entries (the chain of `quotation_order`:
exactly, or by its longest beginning where the quotation runs on into 張淳's words, or
approximately between its neighbours' places); and within it the character(s) the heading is
about, as base tokens, with the reading the entry supports there. Which characters: the heading's
own where the quotation (or the base there) has them; else a character of the quotation the
judgement names (也字近色: 色); else a graphic neighbour of the heading (the same number of strokes
beside the radical, or the same radical, by Unihan's kRSUnicode: 摯 for 贄, 莅 for 涖). Where
several are alike, the first, and the others are named. What is not placed is reported with the
reason.
"""

from __future__ import annotations

import bz2
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path

import regex
from rapidfuzz.distance import Levenshtein

from ...collation.external_evidence import Placed, Read
from ...collation.kanripo_text import Layout, RunningText
from ...collation.model import Quotation
from ...collation.quotation_order import Approximation, BaseLayers, BaseSpan, Candidate, chain, occurrences, raw_bounds
from ...intake.model import EvidenceMeta, Witness
from ...intake.normalize import Normalizer
from ...tables import read_toml
from ...text import ORDINAL, numeral
from .subcommentary_quotations import ChapterLike

DATA = Path(str(resources.files("edition.traditions.yili") / "data" / "collation_notes.toml"))
UNIHAN_SOURCES = Path("/usr/share/unicode/Unihan_IRGSources.txt.bz2")  # kRSUnicode, from Debian's unicode-data


@dataclass(frozen=True)
class NoteFormulas:
    """The data file compiled."""

    layout: Layout
    volume: regex.Pattern
    skip: regex.Pattern
    heading: regex.Pattern
    indent: str
    remark: regex.Pattern
    column: str
    quotations: tuple[tuple[str, str, regex.Pattern], ...]  # name, layer ("" the layer before), pattern
    end: regex.Pattern
    shortest_start: int
    follows: regex.Pattern
    omission: regex.Pattern
    addition: regex.Pattern
    superfluous: regex.Pattern
    wanting: regex.Pattern
    authority: int
    named: regex.Pattern
    approximation: Approximation
    ahead: int


@cache
def note_formulas(path: Path = DATA) -> NoteFormulas:
    doc, _ = read_toml(path)
    judgement, placing = doc["judgement"], doc["placement"]
    return NoteFormulas(
        Layout.of(doc["layout"]),
        regex.compile(doc["volume"]["title"]),
        regex.compile(doc["volume"]["skip"]),
        regex.compile(doc["chapter"]["heading"]),
        doc["entry"]["indent"],
        regex.compile(doc["remark"]["pattern"]),
        doc["remark"]["column"],
        tuple((q["name"], q["layer"], regex.compile(q["pattern"])) for q in doc["quotation"]),
        regex.compile(doc["quotations"]["end"]),
        doc["quotations"]["shortest"],
        regex.compile(judgement["follows"]),
        regex.compile(judgement["omission"]),
        regex.compile(judgement["addition"]),
        regex.compile(judgement["superfluous"]),
        regex.compile(judgement["wanting"]),
        judgement["authority"],
        regex.compile(judgement["named"]),
        Approximation(placing["shortest"], placing["similarity"]),
        placing["ahead"],
    )


# --- the entries ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ShiwuQuote:
    """Words of the 經 or 注 as 張淳 quotes them (after 經曰, 注曰, 又曰): as he writes them and
    compared, with their line and raw offsets."""

    layer: str
    text: str
    norm: str
    line: int
    start: int
    end: int
    chars: tuple[str, ...] = ()  # its own character for each character of `norm`


@dataclass(frozen=True)
class EditorsRemark:
    """A remark of the 四庫 editors inside an entry (their small characters, (…)): their words, not
    張淳's."""

    text: str
    line: int
    start: int
    end: int


@dataclass(frozen=True)
class ShiwuEntry:
    """One entry of the 識誤: its heading (the character(s) in question, the reading 張淳 holds
    right), its quotations, his judgement (his words after them, the editors' remarks taken out),
    the authority he follows (釋文, 疏, 監本…), the editors' remarks, and where it stands."""

    chapter: int | None  # None: an entry on no chapter (釋文誤字)
    index: int
    juan: int
    file: str
    line: int
    start: int
    end: int
    heading: str
    heading_norm: str
    quotations: tuple[ShiwuQuote, ...]
    judgement: str
    follows: str
    remarks: tuple[EditorsRemark, ...]


@dataclass
class ShiwuChapter:
    number: int
    title: str  # as the 識誤 heads it (士昬禮)
    entries: list[ShiwuEntry] = field(default_factory=list)


@dataclass
class ShiwuEdition:
    """The 識誤 read: its chapters by number, and the sections that are no chapter's (釋文誤字) with
    their entries."""

    chapters: dict[int, ShiwuChapter]
    elsewhere: dict[str, list[ShiwuEntry]]


class VolumeReader:
    """One 卷 file of the 識誤: its chapters' entries."""

    def __init__(self, path: Path, data: NoteFormulas, normalizer: Normalizer, encoding: str = "utf-8"):
        self.path, self.data, self.normalizer = path, data, normalizer
        self.juan: int | None = None

        def skip(line: str) -> bool:
            title = data.volume.match(line)
            if title and self.juan is None:
                self.juan = numeral(title.group("number"))
            return bool(title or data.skip.match(line) or not line.strip())

        self.running = RunningText.read(path, data.layout, skip, encoding)
        self.text = self.running.text

    def sections(self) -> list[tuple[str, int, int]]:
        """(title, start, end) of each chapter's entries in the running text."""
        starts = sorted(self.running.line_starts) + [len(self.text)]
        found = []
        for k, after in zip(starts, starts[1:]):
            m = self.data.heading.match(self.text[k:after])
            if m:
                found.append((m.group("title"), k, after))
        return [
            (title, after, found[i + 1][1] if i + 1 < len(found) else len(self.text))
            for i, (title, _, after) in enumerate(found)
        ]

    def entries(self, chapter: int | None, first: int, a: int, b: int) -> list[ShiwuEntry]:
        """The entries between running characters a:b, each from a line that is not indented."""
        opens = [k for k in self.running.lines_between(a, b) if self.text[k : k + 1] not in ("", self.data.indent)]
        out = []
        for i, k in enumerate(opens):
            stop = opens[i + 1] if i + 1 < len(opens) else b
            out.append(self.entry(chapter, first + i, k, stop))
        return out

    def entry(self, chapter: int | None, index: int, a: int, b: int) -> ShiwuEntry:
        text, data = self.text, self.data
        cut = text.find(self.data.indent, a, b)
        head_end = cut if cut >= 0 else b
        remarks, kept = self.remarks(head_end, b)
        words = "".join(text[k] for k in kept)
        quotations, rest = self.quotations(words, kept)
        judgement = words[rest:].strip(data.indent)
        follows = data.follows.search(judgement)
        start, end = self.running.span(a, b)
        return ShiwuEntry(
            chapter,
            index,
            self.juan or 0,
            self.path.name,
            self.running.line_of(a),
            start,
            end,
            self.running.own(a, head_end),
            self.running.norm(a, head_end, self.normalizer),
            tuple(quotations),
            self.own_of(kept[rest:]) if rest < len(kept) else "",
            follows.group("source") if follows else "",
            tuple(remarks),
        )

    def remarks(self, a: int, b: int) -> tuple[list[EditorsRemark], list[int]]:
        """The editors' remarks between running characters a:b (a run of (…) over several lines is
        one), and the running indexes of the rest, 張淳's words, without line indents."""
        spans = [m.span() for m in self.data.remark.finditer(self.text, a, b)]
        groups: list[list[tuple[int, int]]] = []
        for s, e in spans:
            between = self.text[groups[-1][-1][1] : s] if groups else None
            if between is not None and between.strip(self.data.indent) == "":
                groups[-1].append((s, e))
            else:
                groups.append([(s, e)])
        out = []
        inside = set()
        for group in groups:
            own = "".join(self.running.own(s + 1, e - 1) for s, e in group).replace(self.data.column, "")
            start, end = self.running.span(group[0][0], group[-1][1])
            out.append(EditorsRemark(own, self.running.line_of(group[0][0]), start, end))
            for s, e in group:
                inside.update(range(s, e))
        kept = [k for k in range(a, b) if k not in inside and self.text[k] != self.data.indent]
        return out, kept

    def own_of(self, indexes: list[int]) -> str:
        return "".join(self.running.own(k, k + 1) for k in indexes)

    def quotations(self, words: str, kept: list[int]) -> tuple[list[ShiwuQuote], int]:
        """The quotations at the head of an entry's words, one after another; and where the
        judgement begins."""
        out: list[ShiwuQuote] = []
        at, layer = 0, ""
        while True:
            found = None
            for _, name_layer, pattern in self.data.quotations:
                m = pattern.match(words, at)
                if m:
                    found = (name_layer or layer, m.end())
                    break
            if found is None or not found[0]:
                return out, at
            layer, begin = found
            stops = [m.start() for _, _, p in self.data.quotations for m in [p.search(words, begin)] if m]
            end_word = self.data.end.search(words, begin)
            stop = min([len(words), *stops, *([end_word.start()] if end_word else [])])
            if stop > begin:
                indexes = kept[begin:stop]
                a, b = indexes[0], indexes[-1] + 1
                norm = "".join(self.running.norm(k, k + 1, self.normalizer) for k in indexes)
                start, end = self.running.starts[a], self.running.ends[b - 1]
                chars = tuple(self.running.own(k, k + 1) for k in indexes)
                if len(chars) != len(norm):  # a character the comparison drops (punctuation)
                    pairs = [(c, self.running.norm(k, k + 1, self.normalizer)) for c, k in zip(chars, indexes)]
                    chars = tuple(c for c, n in pairs if n)
                out.append(ShiwuQuote(layer, self.own_of(indexes), norm, self.running.line_of(a), start, end, chars))
            at = stop


def read_edition(
    folder: Path,
    normalizer: Normalizer,
    chapters: list[ChapterLike],
    data_path: Path = DATA,
    encoding: str = "utf-8",
) -> ShiwuEdition:
    """The 識誤's 卷 files in `folder`, each chapter's entries matched with the work's chapters by
    title (compared as the normalizer compares: 士昬禮 is 士昏禮; 大射儀 is 大射, 有司徹 有司)."""
    data = note_formulas(data_path)

    def fold(text: str) -> str:
        return text.translate(normalizer.comparison)

    names: dict[str, int] = {}
    for c in chapters:
        for name in (c.title, ORDINAL.sub("", c.heading)):
            names[fold(name)] = c.number
    out: dict[int, ShiwuChapter] = {}
    elsewhere: dict[str, list[ShiwuEntry]] = {}
    for path in sorted(folder.glob("*.txt")):
        reader = VolumeReader(path, data, normalizer, encoding)
        if reader.juan is None:
            continue
        for title, a, b in reader.sections():
            key = fold(title)
            number = names.get(key) or next(
                (n for name, n in names.items() if key.startswith(name) and len(name) >= 2), None
            )
            if number is None:
                elsewhere.setdefault(title, []).extend(reader.entries(None, len(elsewhere.get(title, [])), a, b))
                continue
            chapter = out.setdefault(number, ShiwuChapter(number, title))
            chapter.entries += reader.entries(number, len(chapter.entries), a, b)
    return ShiwuEdition(out, elsewhere)


# --- placing ------------------------------------------------------------------------------------------


@cache
def radical_strokes(path: Path = UNIHAN_SOURCES) -> dict[str, tuple[int, int]]:
    """Each character's radical and residual strokes (Unihan kRSUnicode, the first value); empty
    where Debian's unicode-data is not installed."""
    if not path.is_file():
        return {}
    out = {}
    with bz2.open(path, "rt", encoding="utf-8") as handle:
        for line in handle:
            if "\tkRSUnicode\t" in line:
                code, _, value = line.rstrip("\n").split("\t")
                radical, strokes = value.split()[0].split(".")
                out[chr(int(code[2:], 16))] = (int(radical.rstrip("'")), int(strokes))
    return out


# The least strokes beside the radical for two characters of different radicals to be neighbours:
# a phonetic part of fewer is shared by too many (鈃 and 芼, four strokes each, look nothing alike).
PHONETIC_STROKES = 5


def neighbours(a: str, b: str) -> bool:
    """Graphic neighbours: the same strokes beside another radical (the same phonetic part: 贄/摯,
    涖/莅, 撤/徹), or the same radical with as many strokes or one apart (已/巳, 束/東)."""
    table = radical_strokes()
    if a == b or a not in table or b not in table:
        return False
    (ra, sa), (rb, sb) = table[a], table[b]
    return (ra != rb and sa == sb and sa >= PHONETIC_STROKES) or (ra == rb and abs(sa - sb) <= 1)


@dataclass(frozen=True)
class PlacedShiwuEntry:
    """An entry on the base: its quotation `quote` at base tokens `span` (where it runs on into
    張淳's words, its beginning only: `quoted`, the characters placed), and within it `target`, the
    base tokens the heading is about, the base's reading there (`base_reading`, its own
    characters) and the reading the entry supports (`supports`: the heading; "" an omission;
    for an addition, the heading after `target`, an empty span); `how` says how the target was
    found, `reason` why and which of several. A transposition's heading goes from `target` to
    base token `moved_to` of the same layer, in the other quotation."""

    entry: ShiwuEntry
    quote: ShiwuQuote
    quoted: int
    span: BaseSpan
    target: tuple[int, int]
    base_reading: str
    supports: str
    kind: str  # reading, omission, addition or transposition
    how: str  # heading, base, named, neighbour
    reason: str
    moved_to: BaseSpan | None = None  # a transposition's other quotation, `t0` where the heading goes

    @property
    def layer(self) -> str:
        return self.span.layer


@dataclass(frozen=True)
class UnplacedShiwuEntry:
    entry: ShiwuEntry
    reason: str


@dataclass
class ShiwuPlacement:
    chapter: ShiwuChapter
    placed: list[PlacedShiwuEntry] = field(default_factory=list)
    unplaced: list[UnplacedShiwuEntry] = field(default_factory=list)

    def counts(self) -> dict[str, int]:
        return {
            "entries": len(self.chapter.entries),
            "placed": len(self.placed),
            "approximate": sum(1 for p in self.placed if not p.span.exact),
            "unplaced": len(self.unplaced),
        }


class ShiwuPlacer:
    def __init__(self, base: BaseLayers, data: NoteFormulas):
        self.base, self.data = base, data

    def candidates(self, quote: ShiwuQuote) -> list[Candidate]:
        """Where the quotation stands exactly, or its longest beginning (it runs on into 張淳's words)."""
        words = quote.norm
        found = self.base.exact_whole(quote.layer, words, passages=False)
        if found:
            return found
        text = self.base.texts[quote.layer]
        for length in range(len(words) - 1, self.data.shortest_start - 1, -1):
            places = occurrences(text, words[:length])
            if places:
                return [
                    self.base.candidate((BaseSpan(quote.layer, k, k + length, 1.0),), 1.0 + length / len(words))
                    for k in places
                ]
        return []

    def nearby(self, entry: ShiwuEntry, quote: ShiwuQuote, lo: int, hi: int) -> Candidate | None:
        """A quotation the base does not read exactly, between raw offsets lo:hi (within `ahead`
        characters of its layer): approximately; else where the base differs from it only by
        reading the heading's characters (張淳 quotes the text as he found it, and the base may
        read his correction: 匴作纂 where the base reads 匴爲篹, the heading 爲篹)."""
        t_lo = self.base.first_after(quote.layer, lo)
        t_hi = min(self.base.first_after(quote.layer, hi), t_lo + self.data.ahead)
        found = self.base.approximate(quote.layer, quote.norm, t_lo, t_hi, self.data.approximation)
        if found is not None:
            return self.base.candidate((found,), 0.0)
        words, heading, text = quote.norm, set(entry.heading_norm), self.base.texts[quote.layer]
        width = len(words)
        for k in range(t_lo, max(t_lo, t_hi - width + 1)):
            window = text[k : k + width]
            same = sum(a == b for a, b in zip(words, window))
            if same and same >= width - len(heading) and all(a == b or b in heading for a, b in zip(words, window)):
                return self.base.candidate((BaseSpan(quote.layer, k, k + width, round(same / width, 3)),), 0.0)
        return None

    def place(self, chapter: ShiwuChapter) -> ShiwuPlacement:
        result = ShiwuPlacement(chapter)
        items = [(e, q) for e in chapter.entries for q in e.quotations]
        chosen = chain([self.candidates(q) for _, q in items])
        size = len(self.base.raw.text)
        raw_bounds(chosen, size, lambda i, lo, hi: self.nearby(items[i][0], items[i][1], lo, hi))
        bounds = raw_bounds(chosen, size)
        by_entry: dict[int, list[tuple[ShiwuQuote, Candidate | None, int]]] = {}
        for i, (entry, quote) in enumerate(items):
            by_entry.setdefault(entry.index, []).append((quote, chosen[i], i))
        for entry in chapter.entries:
            placed = by_entry.get(entry.index, [])
            if not entry.quotations:
                result.unplaced.append(
                    UnplacedShiwuEntry(entry, "it quotes no words of the 經 or 注 (an entry on the whole 篇: 此卷…)")
                )
                continue
            on_place = [(q, c) for q, c, _ in placed if c is not None]
            if not on_place:
                result.unplaced.append(
                    UnplacedShiwuEntry(entry, self.why_not(entry, [i for _, _, i in placed], bounds))
                )
                continue
            result.placed.append(self.target(entry, on_place))
        return result

    def why_not(self, entry: ShiwuEntry, indexes: list[int], bounds: list[tuple[int, int]]) -> str:
        if indexes and self.base.lost_between(*bounds[indexes[0]]):
            return (
                "the base has lost a leaf between the places of the entries around it: the words it quotes are "
                "lost there"
            )
        elsewhere = []
        for quote in entry.quotations:
            if self.candidates(quote):
                elsewhere.append(quote.text)
        if elsewhere:
            return (
                f"its quotation ({'; '.join(elsewhere)}) stands in the base only out of the order of the entries "
                "around it (a quotation of another place, or a place before theirs)"
            )
        layers = "/".join(sorted({"經" if q.layer == "classic" else "注" for q in entry.quotations}))
        return (
            f"the base's {layers} of this chapter does not read its quotation, nor like it (it quotes another chapter?)"
        )

    def target(self, entry: ShiwuEntry, on_place: list[tuple[ShiwuQuote, Candidate]]) -> PlacedShiwuEntry:
        """The characters the heading is about, in the first quotation that has them."""
        heading = entry.heading_norm
        kind, supports, last = self.kind(entry)
        best = None
        for quote, candidate in on_place:
            span = candidate.spans[0]
            words = quote.norm[: span.t1 - span.t0] if span.exact else quote.norm
            # where only the beginning is placed, the base's next characters may be the heading's
            more = len(heading) if span.exact and len(words) < len(quote.norm) else 0
            base = self.base.texts[span.layer][span.t0 : span.t1 + more]
            own = quote.chars[: len(words)]
            # where only the beginning of the quotation is in the base, the rest is 張淳's words too
            said = quote.text[len("".join(own)) :] + entry.judgement if span.exact else entry.judgement
            found = self.find(heading, entry.heading, words, own, base, said, last)
            if found is not None and (best is None or found[0] > best[0]):
                best = (*found, quote, span)
            if kind == "addition":
                best = (0, (span.t1 - span.t0, span.t1 - span.t0), "addition", "after the words quoted", quote, span)
                break
        if best is None:
            quote, candidate = on_place[0]
            span = candidate.spans[0]
            base_span = (span.t0, span.t1)
            how, reason = (
                "quotation",
                f"{entry.heading} is in question somewhere in the words quoted: none of them is it, names it "
                "or looks like it",
            )
        else:
            _, (a, b), how, reason, quote, span = best
            base_span = (span.t0 + a, span.t0 + b)
        quoted = span.t1 - span.t0
        if kind == "addition":
            base_span = (base_span[1], base_span[1])
        moved_to = self.moved_to(entry, on_place, span) if kind == "omission" and how == "heading" else None
        if moved_to is not None:
            kind, supports = "transposition", entry.heading
            reason = f"{reason}; it goes to the other quotation, between the characters the judgement has about it"
        return PlacedShiwuEntry(
            entry,
            quote,
            quoted,
            span,
            base_span,
            self.base.own(span.layer, *base_span),
            supports,
            kind,
            how,
            reason,
            moved_to,
        )

    def moved_to(self, entry: ShiwuEntry, on_place: list[tuple[ShiwuQuote, Candidate]], own: BaseSpan):
        """Of an entry that finds the heading once too many in one quotation and wanting in the
        other (上句多一X字下句少一X字): the other quotation's place, its `t0` where the heading goes,
        between the two characters the judgement's own words have about it (服至尊也); or None."""
        superfluous = {m.group("which") for m in self.data.superfluous.finditer(entry.judgement)}
        for m in self.data.wanting.finditer(entry.judgement):
            which = m.group("which")
            if m.group("char") != entry.heading or which in superfluous or len(on_place) < 2:
                continue
            quote, candidate = on_place[-1] if which == "下" else on_place[0]
            span = candidate.spans[0]
            if span == own or span.layer != own.layer or not span.exact or (span.t0 < own.t0) != (which == "上"):
                continue
            words = quote.norm[: span.t1 - span.t0]
            if entry.heading_norm in words:
                continue
            for around in regex.finditer(regex.escape(entry.heading), entry.judgement):
                left, right = entry.judgement[around.start() - 1 : around.start()], entry.judgement[around.end() :][:1]
                for k in range(1, len(words)):
                    if left and right and words[k - 1] == left and words[k] == right:
                        return BaseSpan(span.layer, span.t0 + k, span.t1, span.similarity)
        return None

    def kind(self, entry: ShiwuEntry) -> tuple[str, str, bool]:
        """reading (the heading for the characters quoted), omission or addition, by the judgement;
        and whether it is about the heading's last occurrence in the words quoted (下羨一X字)."""
        for m in self.data.superfluous.finditer(entry.judgement):
            if m.group("char") == entry.heading:
                return "omission", "", m.group("which") == "下"
        for kind, pattern in (("omission", self.data.omission), ("addition", self.data.addition)):
            for m in pattern.finditer(entry.judgement):
                if m.group("char") != entry.heading:
                    continue
                before = entry.judgement[max(0, m.start() - self.data.authority) : m.start()]
                if entry.follows and entry.follows[:2] in before:
                    return kind, "" if kind == "omission" else entry.heading, False
        return "reading", entry.heading, False

    def find(
        self,
        heading: str,
        heading_own: str,
        words: str,
        own: tuple[str, ...],
        base: str,
        judgement: str,
        last: bool = False,
    ):
        """(score, base offsets a:b, how, reason) of the characters the heading is about in a
        quotation placed on base characters `base` (its words `words` as compared, `own` as 張淳
        writes them): equal as compared (in the base, or in the words quoted where the base reads
        others there); named by the judgement and graphic neighbours as written. Of several alike,
        the first, or with `last` the last."""
        if not heading:
            return None
        heading_chars = regex.findall(r"&KR\d{4};|.", heading_own)
        if len(heading_chars) != len(heading):
            heading_chars = list(heading)
        named = {m.group("char") for m in self.data.named.finditer(judgement)} - set(heading_chars)
        ops = Levenshtein.opcodes(words, base) if words != base else None

        def to_base(k: int) -> int:
            if ops is None:
                return k
            for tag, a0, a1, b0, b1 in ops:
                if a0 <= k < a1:
                    return b0 + min(k - a0, max(0, b1 - b0 - 1)) if tag != "delete" else b0
            return len(base)

        width = len(heading)
        scored = []
        for k in range(0, len(base) - width + 1):  # the base reads the heading there
            if base[k : k + width] == heading:
                said = (
                    "the base reads the heading there" if heading not in words else "the heading is in the words quoted"
                )
                scored.append((3 * width, (k, k + width), "heading", said))
        for k in range(0, len(words) - width + 1):
            score, hows = 0, set()
            for h, w, ho, wo in zip(heading, words[k : k + width], heading_chars, own[k : k + width]):
                if h == w:
                    score += 3
                    hows.add("heading")
                elif wo in named:
                    score += 2
                    hows.add("named")
                elif neighbours(ho, wo):
                    score += 1
                    hows.add("neighbour")
            a = to_base(k)
            if hows == {"heading"} and score == 3 * width and base[a : a + width] != heading:
                said = f"the heading is in the words quoted, where the base reads {base[a : a + width]}"
                scored.append((3 * width, (a, a + width), "heading", said))
            elif score and hows != {"heading"}:
                how = "named" if "named" in hows else "neighbour"
                said = (
                    f"{''.join(own[k : k + width])} of the words quoted, which the judgement names"
                    if how == "named"
                    else f"{''.join(own[k : k + width])} of the words quoted, a graphic neighbour of the heading"
                )
                scored.append((score, (a, a + width), how, said))
        for m in regex.finditer(regex.escape(heading_own), judgement):  # 釋文云以上 for the quotation's 此上
            after = judgement[m.end() : m.end() + 1]
            for k in range(0, len(words) - width + 1):
                if after and "".join(own[k + width : k + width + 1]) == after and words[k : k + width] != heading:
                    a = to_base(k)
                    said = (
                        f"{''.join(own[k : k + width])} of the words quoted, where the judgement reads "
                        f"{heading_own}{after}"
                    )
                    scored.append((0.5, (a, a + width), "named", said))  # the last resort
        if not scored:
            return None
        top = max(s[0] for s in scored)
        best = [s for s in scored if s[0] == top]
        best.sort(key=lambda s: s[1])
        if last:
            return (*best[-1][:3], f"{best[-1][3]}; the last of {len(best)} such, as the judgement says (下)")
        first = best[0]
        if len(best) > 1:
            others = ", ".join(str(s[1][0] - first[1][0]) for s in best[1:])
            first = (*first[:3], f"{first[3]}; the first of {len(best)} such (the others {others} characters on)")
        return first


def place(chapter: ShiwuChapter, base: Witness | BaseLayers, data_path: Path = DATA) -> ShiwuPlacement:
    """The chapter's entries placed on the base (the chapter's base witness as intake reads it)."""
    layers = base if isinstance(base, BaseLayers) else BaseLayers.of(base)
    return ShiwuPlacer(layers, note_formulas(data_path)).place(chapter)


def report(placement: ShiwuPlacement) -> dict:
    """What was placed and what not, with the reason: for a report file (JSON)."""

    def entry(e: ShiwuEntry) -> dict:
        return {
            "file": e.file,
            "line": e.line,
            "heading": e.heading,
            "quotations": [{"layer": q.layer, "text": q.text, "line": q.line} for q in e.quotations],
            "judgement": e.judgement,
            "follows": e.follows,
            "remarks": [r.text for r in e.remarks],
        }

    return {
        "chapter": placement.chapter.number,
        "title": placement.chapter.title,
        "counts": placement.counts(),
        "placed": [
            entry(p.entry)
            | {
                "layer": p.layer,
                "quoted": p.quote.text,
                "base_from": p.span.t0,
                "base_to": p.span.t1,
                "similarity": p.span.similarity,
                "target": list(p.target),
                "base_reading": p.base_reading,
                "supports": p.supports,
                "kind": p.kind,
                "how": p.how,
                "reason": p.reason,
            }
            | ({"moved_to": p.moved_to.t0} if p.moved_to else {})
            for p in placement.placed
        ],
        "unplaced": [entry(u.entry) | {"reason": u.reason} for u in placement.unplaced],
    }


# --- as evidence ---------------------------------------------------------------------------------------------

STATUS = (
    "evidence: a 校勘記 whose entries say what a character should be, attested only where a witDetail cites an entry"
)


def chapters_found(source: EvidenceMeta, normalizer: Normalizer, chapters: list) -> set[int]:
    return set(read_edition(source.folder, normalizer, chapters, encoding=source.encoding).chapters)


def evidence(source: EvidenceMeta, normalizer: Normalizer, chapters: list, number: int, layers: BaseLayers) -> Read:
    """The book's chapter placed on the base: each entry as what it reads over the words it quotes."""
    chapter = read_edition(source.folder, normalizer, chapters, encoding=source.encoding).chapters.get(number)
    if chapter is None:
        return Read([], [], {"chapter": number, "placed": [], "unplaced": []})
    placement = place(chapter, layers)
    return Read([note_reading(source, p, layers) for p in placement.placed], [], report(placement))


def note_reading(source: EvidenceMeta, p, layers: BaseLayers) -> Placed:
    """A 識誤 entry as what it reads over the words it quotes: the heading in its target's stead
    (nothing there, for an omission)."""
    t0, t1 = p.target
    entry, span = p.entry, p.span
    base = layers.texts[span.layer]
    heading = entry.heading_norm if p.kind != "omission" else ""
    words = base[span.t0 : t0] + heading + base[t1 : span.t1]
    said = f"{entry.heading}：{entry.judgement or p.quote.text[p.quoted :]}"  # his words, run on from a quotation
    quotation = Quotation(
        source.siglum, "collation-notes", p.kind, said, heading, entry.start, entry.end, entry.line, t0, 0, 0
    )
    if p.moved_to is None:
        return Placed(span.layer, span.t0, span.t1, words, quotation, about=p.target)
    # a transposition: over both quotations and what stands between, the heading at its other place
    to, first, last = p.moved_to.t0, min(span.t0, p.moved_to.t0), max(span.t1, p.moved_to.t1)
    if to >= t1:
        words = base[first:t0] + base[t1:to] + heading + base[to:last]
    else:
        words = base[first:to] + heading + base[to:t0] + base[t1:last]
    return Placed(span.layer, first, last, words, quotation, about=(min(t0, to), max(t1, to)))
