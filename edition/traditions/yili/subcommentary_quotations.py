"""The 單疏本 of 賈公彥's 疏 as evidence: its quotations of the 經 and 注, read into typed entries
and placed on the base text.

The 單疏本 (Kanripo KR1d0027, 四部叢刊) prints the 疏 without the 經 and 注. Each comment opens with
its lemma, the passage it explains: the 經 quoted by its first and last words, 「X至Y」, or whole when
it is short, the 注 the same after 注 (注X至Y), then 釋曰; inside a comment 云X者 takes up words of
the 注 (or the 經). These quotations were transmitted apart from the 注疏 合刻 (WYG): they are
independent evidence for the reading of the 經 and 注. The formulas and the layout are data
(`data/subcommentary_quotations.toml`, each with its reason).

`read_edition` reads the folder of 卷 files: which chapter each comment belongs to is told by the
chapters' headings inside the files (士冠禮第一　鄭目録云…), which are matched with the work's
chapters by their number and title; the 卷 by its title line (the files are numbered in order,
and 卷三十二–三十七 are lost). `place` places a chapter's quotations on the base: the lemmata in
order with a cursor through the base's 經 (and 注), the first words where a passage begins and the
last where it ends, within a bounded distance, approximately where the base reads otherwise (a
short lemma of the 經 that the base reads with one character otherwise, where the 注 its lemma
quotes begins); a 云X者 phrase in the passage of its comment (the 經 passage and its 注). What is
not placed is reported with the reason.
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass, field, replace
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Protocol

import regex

from ...collation.external_evidence import Commented, Placed, Read
from ...collation.kanripo_text import Layout, RunningText
from ...collation.model import Quotation
from ...collation.quotation_order import (
    CLASSIC,
    COMMENTARY,
    Approximation,
    BaseLayers,
    BaseSpan,
    Candidate,
    chain,
    occurrences,
    similarity,
    token_bounds,
)
from ...intake.model import EvidenceMeta, Witness
from ...intake.normalize import UNMAPPED, Normalizer
from ...tables import read_toml
from ...text import HAN, numeral

DATA = Path(str(resources.files("edition.traditions.yili") / "data" / "subcommentary_quotations.toml"))
FIRST, LAST, WHOLE, PHRASE = "first", "last", "whole", "phrase"
OPENING = 80  # characters of a comment kept for the formulas that open it (自此至X論Y之事)
ROLES = (FIRST, LAST, WHOLE, PHRASE)


class ChapterLike(Protocol):
    number: int
    title: str
    heading: str


@dataclass(frozen=True)
class Formulas:
    """The data file compiled."""

    layout: Layout
    juan_title: regex.Pattern
    author: regex.Pattern
    preface: regex.Pattern
    heading: regex.Pattern
    titles: frozenset[str]
    opening: regex.Pattern
    commentary: str
    range: regex.Pattern
    longest: int
    first: int
    range_word: str
    phrases: tuple[tuple[str, regex.Pattern], ...]
    bounds: dict[str, int]
    approximation: Approximation


@cache
def formulas(path: Path = DATA) -> Formulas:
    doc, _ = read_toml(path)
    comment, placing = doc["comment"], doc["placement"]
    return Formulas(
        Layout.of(doc["layout"]),
        regex.compile(doc["juan"]["title"]),
        regex.compile(doc["juan"]["author"]),
        regex.compile(doc["juan"]["preface"]),
        regex.compile(doc["chapter"]["heading"]),
        frozenset(doc["chapter"]["titles"]),
        regex.compile(comment["opening"]),
        comment["commentary"],
        regex.compile(comment["range"]),
        comment["longest"],
        comment["first"],
        comment["range_word"],
        tuple((p["name"], regex.compile(p["pattern"])) for p in doc["phrase"]),
        {k: v for k, v in placing.items() if isinstance(v, int) and not isinstance(v, bool)},
        Approximation(placing["shortest"], placing["similarity"]),
    )


# --- the entries ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ShuQuote:
    """Words of the 經 or 注 that the 單疏本 quotes: the words as it writes them (`text`) and
    compared (`norm`), the layer quoted (classic: the 經, with the 傳 in 喪服; commentary: the 注),
    the role (first or last words of a passage, a whole passage, a 云X者 phrase), the comment it
    belongs to, and where it stands: the 卷, the file, its line and raw offsets start:end.
    `marked`: False where the file does not mark where the words begin (a lemma run on from the
    comment before), which placement then finds."""

    chapter: int
    juan: int
    file: str
    line: int
    start: int
    end: int
    text: str
    norm: str
    layer: str
    role: str
    comment: int
    marked: bool = True


@dataclass(frozen=True)
class ShuComment:
    """One comment of the 疏: its lemma (the quotes of the 經 and 注 that open it) and the 云X者
    phrases inside it; `title` for a comment on the chapter's title (鄭目録, 儀禮, 鄭氏注), which
    quotes no text."""

    chapter: int
    index: int  # in the chapter, from 0
    juan: int
    file: str
    line: int  # of 釋曰
    lemma: tuple[ShuQuote, ...]
    phrases: tuple[ShuQuote, ...]
    title: str = ""
    opening: str = ""  # its first words from 釋曰 on, Han characters only (a stand-in as what it stands for)


@dataclass
class ShuChapter:
    """A chapter's comments in the 單疏本, in order, and the 卷 they stand in."""

    number: int
    title: str  # as the heading in the 單疏本 gives it (士昬礼)
    juan: list[int] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    comments: list[ShuComment] = field(default_factory=list)

    def quotes(self) -> list[ShuQuote]:
        return [q for c in self.comments for q in (*c.lemma, *c.phrases)]


@dataclass
class ShuEdition:
    """The 單疏本 read: its chapters by number; the 卷 lost (missing from the numbering), and what
    belongs to no chapter (the 序 and the heads before the first chapter)."""

    chapters: dict[int, ShuChapter]
    juan: dict[int, str]  # 卷 number -> file name
    lost: list[int]
    unmatched_headings: list[str]


# --- reading ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class LemmaPart:
    a: int
    b: int
    layer: str
    marked: bool = True


class JuanReader:
    """One 卷 file's comments: heads, lemmata and phrases, in the running text."""

    def __init__(self, path: Path, data: Formulas, normalizer: Normalizer, encoding: str = "utf-8"):
        self.path, self.data, self.normalizer = path, data, normalizer
        self.juan: int | None = None

        def skip(line: str) -> bool:
            title = data.juan_title.match(line)
            if title and self.juan is None:
                self.juan = numeral(title.group("number"))
            return bool(title or data.author.match(line) or data.preface.match(line))

        self.running = RunningText.read(path, data.layout, skip, encoding)
        self.text = self.running.text

    def headings(self) -> list[tuple[int, int, str, int]]:
        """(start, end, title, number) of each chapter's heading in the running text."""
        out = []
        for m in self.data.heading.finditer(self.text):
            begin, end = m.start("title"), m.end("title")
            cuts = [k + 1 for k in range(begin, end) if self.text[k] == "　"]
            cuts += self.running.lines_between(begin + 1, end)
            cut = max([begin, *(k for k in cuts if end - k >= 2)])  # a title has two characters at least (覲¶禮)
            out.append((cut, m.end(), self.text[cut:end].replace("　", ""), numeral(m.group("number"))))
        return out

    def pieces(self, r0: int, r1: int) -> list[tuple[int, int]]:
        """The stretches between U+3000 of running characters r0:r1."""
        return [(r0 + m.start(), r0 + m.end()) for m in regex.finditer(r"[^　]+", self.text[r0:r1])]

    def is_range(self, a: int, b: int) -> bool:
        return bool(self.data.range.match(self.text[a:b]))

    def shaped(self, a: int, b: int) -> bool:
        """Words that may be a lemma on one layer: a range X至Y, or short words."""
        return 0 < b - a <= self.data.longest and not self.data.opening.match(self.text, a)

    def split(self, a: int, b: int) -> list[LemmaPart]:
        """A marked lemma as its parts: the 經's, then the 注's (after 注)."""
        mark = self.data.commentary
        if self.text.startswith(mark, a):
            return [LemmaPart(a + len(mark), b, COMMENTARY)] if b > a + len(mark) else []
        k = self.text.find(mark, a + 1, b)
        while k >= 0:
            if self.shaped(a, k) and self.shaped(k + len(mark), b) and k + len(mark) < b:
                return [LemmaPart(a, k, CLASSIC), LemmaPart(k + len(mark), b, COMMENTARY)]
            k = self.text.find(mark, k + 1, b)
        return [LemmaPart(a, b, CLASSIC)]

    def run_on(self, a: int, b: int, followed: bool) -> LemmaPart | None:
        """The lemma at the end of running characters a:b that run on from the comment before: from
        a line's start where a range begins there (or, `followed` by a 注 lemma, any words), else
        a range whose first words are taken as `first` characters; else, `followed`, words whose
        start the placement finds."""
        longest = self.data.longest
        for start in self.running.lines_between(max(a, b - longest), b):
            if self.is_range(start, b) or (followed and start > a):
                return LemmaPart(start, b, CLASSIC)
        tail = self.text[max(a, b - 4) : b]
        k = tail.rfind(self.data.range_word)
        if k > 0:
            at = max(a, b - 4) + k
            if 1 <= b - at - 1 <= 3 and at - self.data.first >= a:
                return LemmaPart(at - self.data.first, b, CLASSIC, marked=False)
        if followed:
            return LemmaPart(max(a, b - longest), b, CLASSIC, marked=False)
        return None

    def head(self, r0: int, r1: int) -> list[LemmaPart]:
        """The lemma before an opening 釋曰: r0 is where the comment before it opened its
        explanation (its body runs on up to the lemma)."""
        while r1 > r0 and self.text[r1 - 1] == "　":
            r1 -= 1
        pieces = self.pieces(r0, r1)
        if not pieces:
            return []
        a1, b1 = pieces[-1]
        if a1 > r0 and self.shaped(a1, b1):
            parts = self.split(a1, b1)
            if parts and parts[0].layer == COMMENTARY and len(pieces) > 1:
                a0, b0 = pieces[-2]
                if a0 > r0 and self.shaped(a0, b0) and not self.text.startswith(self.data.commentary, a0):
                    parts = [LemmaPart(a0, b0, CLASSIC), *parts]
                elif (before := self.run_on(a0, b0, False)) is not None:
                    parts = [before, *parts]
            return parts
        # The lemma runs on from the comment before: a 注 lemma glued after it first.
        mark = self.data.commentary
        k = self.text.rfind(mark, max(a1, b1 - self.data.longest), b1)
        while k > a1:
            if self.shaped(k + len(mark), b1) and (
                self.is_range(k + len(mark), b1) or b1 - k - len(mark) <= self.data.longest // 2
            ):
                before = self.run_on(a1, k, True)
                return [*([before] if before else []), LemmaPart(k + len(mark), b1, COMMENTARY)]
            k = self.text.rfind(mark, a1, k)
        found = self.run_on(a1, b1, False)
        return [found] if found else []

    def quotes(self, chapter: int, comment: int, piece: LemmaPart) -> list[ShuQuote]:
        """The quotes of one part of a lemma: first and last words, or the whole."""
        m = self.data.range.match(self.text[piece.a : piece.b])
        if m:
            first = (piece.a, piece.a + m.end("first"))
            last = (piece.a + m.start("last"), piece.b)
            return [
                self.quote(chapter, comment, *first, piece.layer, FIRST, piece.marked),
                self.quote(chapter, comment, *last, piece.layer, LAST),
            ]
        return [self.quote(chapter, comment, piece.a, piece.b, piece.layer, WHOLE, piece.marked)]

    def quote(self, chapter: int, comment: int, a: int, b: int, layer: str, role: str, marked=True) -> ShuQuote:
        start, end = self.running.span(a, b)
        return ShuQuote(
            chapter,
            self.juan or 0,
            self.path.name,
            self.running.line_of(a),
            start,
            end,
            self.running.own(a, b),
            self.running.norm(a, b, self.normalizer),
            layer,
            role,
            comment,
            marked,
        )

    def shown(self, a: int, b: int) -> str:
        """The Han characters of running characters a:b as printed: a stand-in as the character it
        stands for where the tables map it."""
        out, text = [], self.running.raw.text
        for start, end in zip(self.running.starts[a:b], self.running.ends[a:b]):
            own = text[start:end]
            if len(own) > 1:
                own = self.normalizer.gaiji.entry(own).mapping or UNMAPPED
            if HAN.fullmatch(own):
                out.append(own)
        return "".join(out)

    def phrases(self, chapter: int, comment: int, a: int, b: int) -> list[ShuQuote]:
        out = []
        for _, pattern in self.data.phrases:
            for m in pattern.finditer(self.text, a, b):
                out.append(self.quote(chapter, comment, m.start("quote"), m.end("quote"), COMMENTARY, PHRASE))
        return sorted(out, key=lambda q: q.start)


def comment_heads(reader: JuanReader, data) -> list[tuple]:
    """Each comment of a 卷 by its opening: (head start, 釋曰 end, the parts of its lemma, the
    title it comments on, the chapter heading before it, 釋曰 start)."""
    headings = sorted(reader.headings())
    heading_starts = [h[0] for h in headings]
    body_from = 0  # where the running body of the comment before begins
    heads: list[tuple] = []
    for m in data.opening.finditer(reader.text):
        first = bisect_left(heading_starts, body_from)
        heading = headings[first] if first < len(headings) and headings[first][0] < m.start() else None
        parts, title = [], ""
        if heading is not None:
            title = reader.running.own(heading[0], m.start()).strip("　")
        else:
            parts = reader.head(body_from, m.start())
            words = reader.text[parts[0].a : parts[-1].b] if parts else ""
            ends = reader.text[body_from : m.start()].rstrip("　")
            named = next((t for t in data.titles if words == t or (not parts and ends.endswith(t))), "")
            if named:
                title, parts = named, []
            elif not parts and heads and heads[-1][3]:
                title = heads[-1][3]  # the comment on the title goes on
        head_start = parts[0].a if parts else m.start()
        heads.append((head_start, m.end(), parts, title, heading, m.start()))
        body_from = m.end()
    return heads


def read_edition(
    folder: Path,
    normalizer: Normalizer,
    chapters: list[ChapterLike],
    data_path: Path = DATA,
    encoding: str = "utf-8",
) -> ShuEdition:
    """The 單疏本's 卷 files in `folder` (KR1d0027_NNN.txt, in order), each comment in the chapter
    whose heading stands before it. `chapters`: the work's chapters (their number, title, heading)."""
    data = formulas(data_path)
    by_number = {c.number: c for c in chapters}
    out: dict[int, ShuChapter] = {}
    juan: dict[int, str] = {}
    unmatched: list[str] = []
    current: ShuChapter | None = None
    for path in sorted(folder.glob("*.txt")):
        reader = JuanReader(path, data, normalizer, encoding)
        if reader.juan is not None:
            juan[reader.juan] = path.name
        heads = comment_heads(reader, data)
        for k, (_, body_start, parts, title, heading, opening_start) in enumerate(heads):
            if heading is not None:
                _, _, name, number = heading
                if number in by_number:
                    current = out.setdefault(number, ShuChapter(number, name))
                else:
                    unmatched.append(f"{path.name}: {name}第{number}")
                    current = None
            if current is None:
                continue
            if path.name not in current.files:
                current.files.append(path.name)
                if reader.juan is not None:
                    current.juan.append(reader.juan)
            index = len(current.comments)
            body_end = heads[k + 1][0] if k + 1 < len(heads) else len(reader.text)
            lemma = [q for part in parts for q in reader.quotes(current.number, index, part)]
            phrases = [] if title else reader.phrases(current.number, index, body_start, body_end)
            current.comments.append(
                ShuComment(
                    current.number,
                    index,
                    reader.juan or 0,
                    path.name,
                    reader.running.line_of(body_start - 1),
                    tuple(lemma),
                    tuple(phrases),
                    title,
                    reader.shown(opening_start, min(body_end, body_start + OPENING)),
                )
            )
    numbers = sorted(juan)
    lost = [n for n in range(numbers[0], numbers[-1] + 1) if n not in juan] if numbers else []
    return ShuEdition(out, juan, lost, unmatched)


# --- placing ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PlacedShuQuote:
    """A quote on the base: base tokens `span` of its layer (the span it stands for, which evidence
    compares with a variation unit's readings there), the base's own characters and comparison
    text there; for a lemma, `passage` the base tokens of the whole passage it quotes."""

    quote: ShuQuote
    span: BaseSpan
    base_text: str
    base_norm: str
    passage: tuple[int, int]

    @property
    def differs(self) -> bool:
        """The 單疏本 reads otherwise than the base there."""
        return self.quote.norm != self.base_norm

    @property
    def confidence(self) -> float:
        return self.span.similarity


@dataclass(frozen=True)
class UnplacedShuQuote:
    quote: ShuQuote
    reason: str


@dataclass
class ShuPlacement:
    """A chapter's quotes placed on the base, in the order of the 疏; and those not placed."""

    chapter: ShuChapter
    placed: list[PlacedShuQuote] = field(default_factory=list)
    unplaced: list[UnplacedShuQuote] = field(default_factory=list)

    def counts(self) -> dict[str, int]:
        lemma = [p for p in self.placed if p.quote.role != PHRASE]
        return {
            "comments": len(self.chapter.comments),
            "lemma_quotes": sum(1 for q in self.chapter.quotes() if q.role != PHRASE),
            "lemma_placed": len(lemma),
            "lemma_approximate": sum(1 for p in lemma if not p.span.exact),
            "lemma_unplaced": sum(1 for u in self.unplaced if u.quote.role != PHRASE),
            "phrases": sum(1 for q in self.chapter.quotes() if q.role == PHRASE),
            "phrases_placed": sum(1 for p in self.placed if p.quote.role == PHRASE),
            "phrases_unplaced": sum(1 for u in self.unplaced if u.quote.role == PHRASE),
            "differs": sum(1 for p in self.placed if p.differs),
        }


class ShuPlacer:
    """Places a chapter's lemmata in order (the chain of `quotation_order`), then its phrases in the
    passages of their comments."""

    def __init__(self, base: BaseLayers, data: Formulas):
        self.base, self.data = base, data
        self.bounds = data.bounds

    def placed(self, quote: ShuQuote, span: BaseSpan, passage: tuple[int, int]) -> PlacedShuQuote:
        t0, t1 = span.t0, span.t1
        return PlacedShuQuote(
            quote, span, self.base.own(span.layer, t0, t1), self.base.texts[span.layer][t0:t1], passage
        )

    def candidates(self, quotes: list[ShuQuote]) -> list[Candidate]:
        """Where one part of a lemma (one layer's first and last words, or whole) stands exactly."""
        layer = quotes[0].layer
        if quotes[0].role == WHOLE:
            if quotes[0].marked:
                return self.base.exact_whole(layer, quotes[0].norm)
            return self.base.exact_suffix(layer, quotes[0].norm, 2)
        return self.base.exact_range(layer, quotes[0].norm, quotes[1].norm, self.bounds[f"span_{layer}"])

    def nearby(self, quotes: list[ShuQuote], t_lo: int, t_hi: int) -> Candidate | None:
        """Where a part of a lemma that the base does not read exactly stands between tokens
        t_lo:t_hi of its layer (within `ahead` characters of the first): approximately, else its
        first words alone where a passage begins."""
        layer = quotes[0].layer
        t_hi = min(t_hi, t_lo + self.bounds[f"ahead_{layer}"])
        if quotes[0].role == WHOLE:
            if not quotes[0].marked:
                return None
            found = self.base.approximate(layer, quotes[0].norm, t_lo, t_hi, self.data.approximation)
            return self.base.candidate((found,), 0.0) if found else None
        span = self.bounds[f"span_{layer}"]
        both = self.base.approximate_range(layer, quotes[0].norm, quotes[1].norm, t_lo, t_hi, span)
        if both is not None:
            return self.base.candidate(both, 0.0)
        starts = self.base.passage_starts[layer]
        length = len(quotes[0].norm)
        first = next(
            (k for k in occurrences(self.base.texts[layer], quotes[0].norm, t_lo, t_hi - length + 1) if k in starts),
            None,
        )
        if first is None:
            return None
        return self.base.candidate((BaseSpan(layer, first, first + len(quotes[0].norm), 1.0),), 0.0)

    def lemmata(self, result: ShuPlacement) -> None:
        items = [
            [q for q in comment.lemma if q.layer == layer]
            for comment in result.chapter.comments
            if not comment.title
            for layer in (CLASSIC, COMMENTARY)
            if any(q.layer == layer for q in comment.lemma)
        ]
        chosen: list[Candidate | None] = [None] * len(items)
        gaps: dict[int, tuple[int, int]] = {}
        for layer in (CLASSIC, COMMENTARY):  # each layer's lemmata are a chain of passages
            indexes = [i for i, quotes in enumerate(items) if quotes[0].layer == layer]
            found = chain([self.candidates(items[i]) for i in indexes], passages=True)
            size = self.base.size(layer)
            token_bounds(found, size, lambda k, lo, hi: self.nearby(items[indexes[k]], lo, hi))
            for k, i in enumerate(indexes):
                chosen[i] = found[k]
            gaps |= dict(zip(indexes, token_bounds(found, size)))
        for i, quotes in enumerate(items[:-1]):
            note = chosen[i + 1]
            if chosen[i] is None and note is not None and items[i + 1][0].comment == quotes[0].comment:
                chosen[i] = self.before_note(quotes, note, *gaps[i])
        for i, quotes in enumerate(items):
            found = chosen[i]
            where = "經" if quotes[0].layer == CLASSIC else "注"
            if found is None:
                t_lo, t_hi = gaps[i]
                layer = quotes[0].layer
                lost = self.base.lost_between(self.base.raw_start(layer, t_lo), self.base.raw_start(layer, t_hi))
                if not quotes[0].marked and quotes[0].role == WHOLE:
                    reason = (
                        "the words before the lemma of the 注 run on from the comment before, and no end of them "
                        f"is a passage of the base's {where} there: most likely the 疏 quotes no 經 here"
                    )
                    result.unplaced += [UnplacedShuQuote(q, reason) for q in quotes]
                    continue
                reason = (
                    "the base has lost a leaf between the places of the lemmata around it: the passage is lost there"
                    if lost
                    else f"the base's {where} does not read these words, nor like them, between the places of the "
                    "lemmata around it"
                )
                result.unplaced += [UnplacedShuQuote(q, reason) for q in quotes]
                continue
            if found.trim:
                quotes = [self.trimmed(quotes[0], found.trim)]
            passage = (found.spans[0].t0, found.spans[-1].t1)
            for quote, span in zip(quotes, found.spans):
                result.placed.append(self.placed(quote, span, passage))
            if len(found.spans) < len(quotes):
                span = self.bounds[f"span_{quotes[0].layer}"]
                result.unplaced.append(
                    UnplacedShuQuote(
                        quotes[-1],
                        f"the first words are where a passage of the {where} begins, the last neither there nor like "
                        f"them within {span} characters after them",
                    )
                )

    def before_note(self, quotes: list[ShuQuote], note: Candidate, t_lo: int, t_hi: int) -> Candidate | None:
        """A short 經 lemma that the base reads with one character otherwise, placed by the lemma of
        its 注 that follows it in the same comment: the 經 passage that ends where that 注 begins,
        whose last words the lemma is (末旅 where the 單疏本 reads 未旅 and then 注旅序至終也)."""
        quote, first = quotes[0], note.spans[0]
        if (
            quote.layer != CLASSIC
            or quote.role != WHOLE
            or not quote.marked
            or first.t0 not in self.base.passage_starts[COMMENTARY]
        ):
            return None
        end = self.base.first_after(CLASSIC, self.base.raw_start(COMMENTARY, first.t0))
        start = end - len(quote.norm)
        if len(quote.norm) < 2 or not t_lo <= start < end <= t_hi:
            return None
        read = self.base.texts[CLASSIC][start:end]
        if sum(a != b for a, b in zip(read, quote.norm)) != 1:
            return None
        return self.base.candidate((BaseSpan(CLASSIC, start, end, round(similarity(quote.norm, read), 3)),), 0.0)

    @staticmethod
    def trimmed(quote: ShuQuote, trim: int) -> ShuQuote:
        """A lemma whose start the file does not mark, less the characters before its place."""
        own = regex.findall(r"&KR\d{4};|.", quote.text)
        cut = len("".join(own[:trim])) if len(own) == len(quote.norm) else trim
        return replace(quote, text=quote.text[cut:], norm=quote.norm[trim:], start=quote.start + cut, marked=True)

    def phrase(self, quote: ShuQuote, windows: list[tuple[str, int, int]]) -> PlacedShuQuote | UnplacedShuQuote:
        """A 云X者 phrase in its comment's passage: the 注 there first, then the 經."""
        for layer, w0, w1 in windows:
            k = self.base.texts[layer].find(quote.norm, w0, w1) if quote.norm else -1
            if k >= 0:
                return self.placed(replace(quote, layer=layer), BaseSpan(layer, k, k + len(quote.norm), 1.0), (w0, w1))
        for layer, w0, w1 in windows:
            found = self.base.approximate(layer, quote.norm, w0, w1, self.data.approximation)
            if found is not None:
                return self.placed(replace(quote, layer=layer), found, (w0, w1))
        return UnplacedShuQuote(
            quote, "not in the 注 or the 經 of the passage its comment is on: it quotes another book or another place"
        )

    def phrases(self, result: ShuPlacement) -> None:
        passages: dict[int, dict[str, tuple[int, int]]] = {}
        for p in result.placed:
            if p.quote.role != PHRASE:
                passages.setdefault(p.quote.comment, {})[p.quote.layer] = p.passage
        passage: dict[str, tuple[int, int]] = {}
        for comment in result.chapter.comments:
            if comment.title:
                continue
            here = passages.get(comment.index, {})
            if CLASSIC in here:
                passage = {
                    CLASSIC: here[CLASSIC],
                    COMMENTARY: here.get(COMMENTARY) or self.base.window_of(CLASSIC, *here[CLASSIC], COMMENTARY),
                }
            elif COMMENTARY in here:
                passage = {COMMENTARY: here[COMMENTARY], **({CLASSIC: passage[CLASSIC]} if CLASSIC in passage else {})}
            windows = [(layer, *passage[layer]) for layer in (COMMENTARY, CLASSIC) if layer in passage]
            for q in comment.phrases:
                if not windows:
                    result.unplaced.append(UnplacedShuQuote(q, "its comment's passage is not placed"))
                    continue
                found = self.phrase(q, windows)
                (result.placed if isinstance(found, PlacedShuQuote) else result.unplaced).append(found)

    def place(self, chapter: ShuChapter) -> ShuPlacement:
        result = ShuPlacement(chapter)
        self.lemmata(result)
        self.phrases(result)
        result.placed.sort(key=lambda p: (p.quote.comment, p.quote.start))
        result.unplaced.sort(key=lambda u: (u.quote.comment, u.quote.start))
        return result


def place(chapter: ShuChapter, base: Witness | BaseLayers, data_path: Path = DATA) -> ShuPlacement:
    """The chapter's quotes placed on the base (the chapter's base witness as intake reads it)."""
    layers = base if isinstance(base, BaseLayers) else BaseLayers.of(base)
    return ShuPlacer(layers, formulas(data_path)).place(chapter)


# --- reporting ----------------------------------------------------------------------------------------


def report(placement: ShuPlacement) -> dict:
    """What was placed and what not, with the reason: for a report file (JSON)."""

    def quote(q: ShuQuote) -> dict:
        return {
            "juan": q.juan,
            "file": q.file,
            "line": q.line,
            "start": q.start,
            "end": q.end,
            "text": q.text,
            "layer": q.layer,
            "role": q.role,
            "comment": q.comment,
        }

    return {
        "chapter": placement.chapter.number,
        "title": placement.chapter.title,
        "juan": placement.chapter.juan,
        "counts": placement.counts(),
        "placed": [
            quote(p.quote)
            | {
                "base_from": p.span.t0,
                "base_to": p.span.t1,
                "base_text": p.base_text,
                "similarity": p.span.similarity,
                "differs": p.differs,
            }
            for p in placement.placed
        ],
        "unplaced": [quote(u.quote) | {"reason": u.reason} for u in placement.unplaced],
    }


# --- as evidence ---------------------------------------------------------------------------------------------

STATUS = (
    "evidence: the 疏 printed without the 經 and 注; its lemmata and 云X者 quote them, "
    "attested only where a witDetail cites a quotation"
)


def chapters_found(source: EvidenceMeta, normalizer: Normalizer, chapters: list) -> set[int]:
    return set(read_edition(source.folder, normalizer, chapters, encoding=source.encoding).chapters)


def evidence(source: EvidenceMeta, normalizer: Normalizer, chapters: list, number: int, layers: BaseLayers) -> Read:
    """The book's chapter placed on the base: its quotations, and the passages of the 經 whose
    lemma was placed (for the steps its comments name); a chapter it lacks, lost."""
    chapter = read_edition(source.folder, normalizer, chapters, encoding=source.encoding).chapters.get(number)
    if chapter is None:
        return Read([], [], {"chapter": number, "placed": [], "unplaced": [], "lost": True})
    placement = place(chapter, layers)
    placed = [shu_quote(source, p) for p in placement.placed]
    return Read(placed, commented(source, chapter, placement), report(placement))


def commented(source: EvidenceMeta, chapter: ShuChapter, placement: ShuPlacement) -> list[Commented]:
    """The passages of the 經 whose lemma in the 單疏本 was placed, each with its comment's first words."""
    comments = {c.index: c for c in chapter.comments}
    out: dict[int, Commented] = {}
    for p in placement.placed:
        q = p.quote
        if q.layer == CLASSIC and q.role != PHRASE:
            comment = comments[q.comment]
            out.setdefault(q.comment, Commented(source.siglum, comment.line, comment.opening, *p.passage))
    return list(out.values())


def shu_quote(source: EvidenceMeta, p) -> Placed:
    q = p.quote
    quotation = Quotation(
        source.siglum, "subcommentary", f"shu-{q.role}", q.text, q.norm, q.start, q.end, q.line, p.span.t0, 0, 0
    )
    return Placed(p.span.layer, p.span.t0, p.span.t1, q.norm, quotation)
