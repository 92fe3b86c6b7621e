"""校语: the witnesses' notes in which a commentator, a compiler or a scholar they quote discusses a
reading (某本作某, 一作某, 當作某, 某字衍, 今從某…), found in every layer that carries them, each
quoted with its author and placed on the base characters it discusses, in the apparatus entry
there.

The formulas, the layers searched and the words that introduce a scholar are data
(`data/textual_notes.toml`); the scholars are those of `sources/persons.tsv`. A layer is read a
passage at a time (its characters between those of other layers) on its comparison stream, with
`|` where the witness has a clause boundary. A passage that holds a formula is a 校语; the words of
each scholar in it (敖繼公云…, (臣紱/)按…) are a note of theirs, the rest the layer's author's (the
注 Zheng Xuan's, the 疏 賈公彦's, a compiler's remarks the compiler's). Zheng Xuan's 今文/古文 notes
are left to `jinguwen`.

A note is placed on the characters its first formula names (the X of X本作Y), found in the clause
of the witness's classic text that the note follows, mapped onto the base (`jinguwen.Anchoring`);
a note that quotes its place at its head (an entry of the 考證) on those characters in the
witness's classic text, found in order. A note on characters that are not in the classic text
(on the commentary) stands on the last character of the place. Nothing found is dropped: a note
that cannot be placed is reported with the reason.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

import regex

from ..collation.analysis import Context, Placements, Report
from ..collation.model import Annotated, Annotation, Apparatus, EntryOver
from ..collation.punctuation import quoted_marks
from ..collation.punctuation_model import PROPOSED_RESP
from ..intake.model import Stream, Witness
from ..intake.normalize import Normalizer
from ..publication.tei.apparatus import Encoded
from ..publication.tei.markup import XML_ID, append_text, el
from ..tables import expand_macros, read_toml
from ..text import HAN
from . import jinguwen

NAME = "textual_notes"
PHASE = "entries"
DATA = Path(str(resources.files("edition.traditions") / "data" / "textual_notes.toml"))
BOUNDARY = "|"
MIN_HEADING = 2  # characters of a heading's place found in the classic text, at least
MIN_QUOTED = 2  # characters quoted before an unnamed 案 that judges them, at least
TRANSPARENT = ("format", "chrome")  # layers that never end a passage


@dataclass
class FormulaMatch:
    """One formula in a note: the characters it names, in the witness's own characters."""

    formula: str
    kind: str
    lemma: str = ""
    place: str = ""
    reading: str = ""
    source: str = ""
    named: list[str] = field(default_factory=list)  # the lemma, else the place, a character at a time
    named_norm: str = ""  # the same, as compared
    reading_norm: str = ""
    reading_forms: tuple[str, ...] = ()  # the reading, a character at a time
    side: str = ""  # 上 or 下: where beside the place a reading has (or lacks) characters, as compared
    verb: str = ""  # 有, 衍, 疊 (the reading has the characters) or 脫 (it lacks them), as compared
    trimmed: int = 0  # characters left out at the head of the named ones (`trim`)
    span: tuple[int, int] = (0, 0)  # raw offsets of the formula's words
    named_end: int = 0  # raw offset where its named characters end

    def trim(self, first: int) -> None:
        """Name only the characters from `first` on: in unpunctuated text a formula's named
        characters end where it says, but may begin later than it can tell (釋曰經賓上有于字)."""
        self.trimmed += first
        self.named, self.named_norm = self.named[first:], self.named_norm[first:]
        if self.lemma:
            self.lemma = "".join(self.named)
        else:
            self.place = "".join(self.named)


@dataclass(eq=False)
class TextualNote(Annotation):
    """A 校语 of a witness: the words quoted, its author, the formulas found in it, and where it is
    placed on the base. On its entry it is written as a `note type="textual"`, one per author
    and what they say (the same note in several witnesses quotes each), after the entry's
    readings (`encode`); its id, `-nN`, is what an edition it reports points at."""

    NAME = "textual_notes"
    siglum: str
    layer: str
    line: int
    start: int  # raw span of the quoted words
    end: int
    words: str  # the witness's own characters
    author: str  # person id ("" if none could be named)
    found: list[FormulaMatch] = field(default_factory=list)
    heading: str = ""  # the place a note quotes at its head
    said: int = 0  # raw offset where its words begin, after the heading, its ○ and the name of who says them
    t0: int = 0  # the base tokens it is placed on
    t1: int = 0
    confidence: str = "none"
    reason: str = ""
    on: FormulaMatch | None = None  # the formula whose named characters t0:t1 are, if it is placed on them

    def within_formula(self, offset: int) -> bool:
        """A character at this raw offset is inside one of its formulas, where no break stands,
        except after the characters it names (X，某本作Y)."""
        return any(f.span[0] <= offset < f.span[1] - 1 and offset != f.named_end - 1 for f in self.found)

    @property
    def key(self) -> tuple:
        """The same note in several witnesses: its author and what it says, as compared."""
        return (self.author, tuple((f.kind, f.named_norm, f.reading_norm) for f in self.found))

    @classmethod
    def prepare(cls, writer) -> None:
        """The notes' ids, entry by entry: a note per author and what they say."""
        ids = writer.kept(cls).setdefault("ids", {})
        for unit in writer.apparatus.all_units():
            for number, notes in enumerate(note_groups(unit).values(), 1):
                ids |= {id(note): f"{writer.app_id(unit)}-n{number}" for note in notes}

    @classmethod
    def encode(cls, writer, unit, notes: list[TextualNote]) -> Encoded:
        return Encoded(details=lambda: cls.written(writer, unit, note_groups(unit)))

    @classmethod
    def written(cls, writer, unit, groups: dict[tuple, list[TextualNote]]) -> list:
        """The witnesses' 校语 on the entry's place: a note per author and what they say, pointing at
        the entry, quoting each witness that carries it (`@source`)."""
        witnesses, ids, out = writer.apparatus.witnesses, writer.kept(cls)["ids"], []
        for (author, _), notes in groups.items():
            sources = dict.fromkeys(f"#{witnesses[n.siglum].meta.xml_id}" for n in notes)
            attrib = {
                XML_ID: ids[id(notes[0])],
                "type": "textual",
                "resp": f"#{author}",
                "target": f"#{writer.app_id(unit)}",
                "source": " ".join(sources),
                "cert": notes[0].confidence,
            }
            node = el("note", attrib)
            for number, note in enumerate(notes):
                if number:
                    append_text(node, " ")
                cls.quoted(node, witnesses[note.siglum], note)
            out.append(node)
        return out

    @staticmethod
    def quoted(parent, witness: Witness, note: TextualNote) -> None:
        """The note's words, quoted from its witness (`@source`): what comes before the words it says
        (the place it quotes at its head, the ○, the name of who speaks) a `seg type="heading"`,
        which the 校勘記 leaves out; the words punctuated by the model of 句讀 where they have no
        marks of their own."""
        quote = el("quote", {"source": f"#{witness.meta.xml_id}"}, parent=parent)
        said = min(max(note.said, note.start), note.end)
        if said > note.start:
            el("seg", {"type": "heading"}, witness.layer_between(note.layer, note.start, said), parent=quote)
        words = witness.layer_between(note.layer, said, note.end)
        offsets = witness.layer_offsets(note.layer, said, note.end)
        inside = {i + 1 for i, offset in enumerate(offsets) if note.within_formula(offset)}
        done = 0
        for end, mark in quoted_marks(words, inside).items():
            append_text(quote, words[done:end])
            el("pc", {"resp": f"#{PROPOSED_RESP}"}, mark, parent=quote)
            done = end
        append_text(quote, words[done:])

    @staticmethod
    def id_of(writer, note: TextualNote) -> str:
        """The xml:id of the note that quotes it."""
        return writer.kept(TextualNote)["ids"][id(note)]


def note_groups(unit) -> dict[tuple, list[TextualNote]]:
    """The entry's 校语, one group per author and what they say (the same note in several witnesses)."""
    groups: dict[tuple, list] = {}
    for note in unit.annotations:
        if isinstance(note, TextualNote):
            groups.setdefault(note.key, []).append(note)
    return groups


@dataclass(frozen=True)
class NoteFormula:
    name: str
    kind: str
    pattern: regex.Pattern
    layers: frozenset[str] | None


@dataclass(frozen=True)
class Voice:
    pattern: regex.Pattern
    words: str  # "own", "quoted" or "judgement" (see the data file)
    person: str  # the person a voice names by their work, not by name


@dataclass(frozen=True)
class Layer:
    name: str
    author: str  # person id, or "" (the layout rule's scholar, else the witness's compiler)
    placement: str  # "follows" or "heading"
    entries_by_line: bool  # an entry begins on each line that starts with the layer's text


@dataclass
class Passage:
    """A run of one layer's tokens, its comparison text with boundaries, and where its words are."""

    witness: Witness
    layer: Layer
    stream: Stream  # the layer's comparison stream
    tokens: list[int]  # stream position of each character of `text`, -1 for a boundary
    text: str
    sentences: set[int]  # indexes of the boundaries that end a sentence
    notes: list[TextualNote] = field(default_factory=list)
    heading_end: int = 0  # index in `text` where the words after a heading begin


class TextualNotes:
    """The data file compiled for one edition: its persons and its comparison script."""

    def __init__(self, persons: dict, normalizer: Normalizer, path: Path = DATA):
        self.normalizer = normalizer
        doc, _ = read_toml(path)
        self.names = {self.fold(name): p.id for p in persons.values() for name in (p.name, *p.aliases)}
        self.layered = {p.id for p in persons.values() if p.layers}  # the authors of the text's layers
        person = "(?:" + "|".join(regex.escape(n) for n in sorted(self.names, key=len, reverse=True)) + ")"
        macros = {**doc["macros"], "PERSON": person}
        self.layers = {
            d["name"]: Layer(d["name"], self.person(d["author"]), d["placement"], d.get("entries") == "lines")
            for d in doc["layer"]
        }
        self.voices = [
            Voice(self.compile(v["pattern"], macros), v.get("words", "own"), self.person(v.get("person", "")))
            for v in doc["voice"]
        ]
        self.formulas = [
            NoteFormula(
                f["name"],
                f["kind"],
                self.compile(f["pattern"], macros),
                frozenset(f["layers"]) if "layers" in f else None,
            )
            for f in doc["formula"]
        ]
        bounds = doc["boundaries"]
        self.clause, self.sentence, self.quote_limit = (
            regex.compile(bounds["clause"]),
            regex.compile(bounds["sentence"]),
            bounds["quote_limit"],
        )

    def fold(self, text: str) -> str:
        return "".join(self.normalizer.fold(c)[0] if HAN.match(c) else c for c in text)

    def compile(self, pattern: str, macros: dict) -> regex.Pattern:
        return regex.compile(self.fold(expand_macros(pattern, macros)))

    def person(self, name: str) -> str:
        return self.names.get(self.fold(name), "") if name else ""

    def compiler(self, author: str, excluded: set[str] = frozenset()) -> str:
        """The compiler a witness's `author` names: the last person named there who wrote no layer
        of the text (鄭玄注 張爾岐句讀: 張爾岐), but those `excluded`; "" if none."""
        folded = self.fold(author)
        named = [
            (folded.rfind(name), person)
            for name, person in self.names.items()
            if name in folded and person not in self.layered and person not in excluded
        ]
        return max(named)[1] if named else ""


# --- finding -----------------------------------------------------------------------------------------------


class Reader:
    """The passages of a witness's layers, with what separates their tokens in the raw file."""

    def __init__(self, witness: Witness, data: TextualNotes):
        self.witness, self.data = witness, data
        size = len(witness.raw.text)
        self.layer_at: list[str | None] = [None] * size
        self.is_break = bytearray(size)
        for s in witness.segments:  # text supplied from another witness is none of its layers
            self.layer_at[s.start : s.end] = [None if s.supplied else s.layer] * (s.end - s.start)
            if "break" in s.attrs:
                self.is_break[s.start : s.end] = b"\x01" * (s.end - s.start)
        self.segment_starts = [s.start for s in witness.segments]

    def separation(self, layer: Layer, a: int, b: int) -> str:
        """What raw offsets a:b between two tokens of a layer are: "passage" (another layer's text,
        or a new entry), "sentence", "clause" or ""."""
        text = self.witness.raw.text
        if layer.entries_by_line and text[b - 1 : b] == "\n":
            return "passage"
        run_on = "\n" in text[a:b]  # the brackets of a 雙行小注 running on to the next line are layout
        found = ""
        for k in range(a, b):
            own = self.layer_at[k]
            if own not in (layer.name, *TRANSPARENT):
                return "passage"
            if (
                own == layer.name or (own == "format" and not self.is_break[k] and not run_on)
            ) and self.data.clause.match(text[k]):
                found = "sentence" if self.data.sentence.match(text[k]) else found or "clause"
        return found

    def passages(self, layer: Layer) -> list[Passage]:
        stream = self.witness.stream.only((layer.name,))
        out: list[Passage] = []
        last = None  # the last token of the witness's own
        for i, char in enumerate(stream.text):
            if self.layer_at[stream.starts[i]] is None:
                continue
            kind = self.separation(layer, stream.ends[last], stream.starts[i]) if last is not None else "passage"
            last = i
            if kind == "passage":
                out.append(Passage(self.witness, layer, stream, [], "", set()))
            passage = out[-1]
            if kind in ("clause", "sentence") and passage.text:
                if kind == "sentence":
                    passage.sentences.add(len(passage.text))
                passage.tokens.append(-1)
                passage.text += BOUNDARY
            passage.tokens.append(i)
            passage.text += char
        return out

    def resp_at(self, offset: int) -> str:
        """The scholar the layout rule names for the segment at a raw offset (attrs.resp)."""
        segment = self.witness.segments[bisect_right(self.segment_starts, offset) - 1]
        return self.data.person(segment.attrs.get("resp", ""))

    def notes(self, passage: Passage, excluded: list[tuple[int, int]]) -> list[TextualNote]:
        """The passage's voices, each a note if the passage holds a formula (outside `excluded`
        raw spans); a heading is its first voice's."""
        layer, text, stream = passage.layer, passage.text, passage.stream
        if layer.placement == "heading":
            passage.heading_end = text.find(BOUNDARY) + 1 if BOUNDARY in text else 0
        author = self.witness.meta.author
        default = (
            self.resp_at(stream.starts[passage.tokens[0]])
            or layer.author
            or self.data.person(author)
            or self.data.compiler(author)
        )
        named = lambda m: "".join(m.captures("name")) if "name" in m.re.groupindex else ""
        marks = sorted(
            (
                (m.start(), m.end(), self.data.person(named(m)) or v.person, v.words)
                for v in self.data.voices
                for m in v.pattern.finditer(text, passage.heading_end)
            ),
            key=lambda m: (m[0], not m[2]),  # where two begin alike, the one that names a person first
        )
        starts = [(passage.heading_end, passage.heading_end, default, "own")]
        for mark in (m for m in marks if m[2] or m[3] == "judgement"):
            if mark[0] < starts[-1][1]:
                continue
            if mark[3] == "judgement" and not (
                starts[-1][3] == "quoted" and len(text[starts[-1][1] : mark[0]].strip(BOUNDARY)) >= MIN_QUOTED
            ):
                continue  # an 案 of the one who speaks, or one right after a name (朱子云按…)
            starts.append(mark)
        # A note that opens by quoting the one its layer is by (鄭注… in a layer of 注) is not theirs.
        opened = starts[1] if len(starts) > 1 and starts[1][0] == passage.heading_end else None
        own = default if opened is None or opened[3] != "quoted" or opened[2] != default else ""
        own = own or self.data.compiler(author, {opened[2]} if opened else set())
        starts = [
            (a, b, own if kind == "judgement" or not number else who, kind)
            for number, (a, b, who, kind) in enumerate(starts)
        ]
        voices = [
            (a, b, who, kind, starts[i + 1][0] if i + 1 < len(starts) else len(text))
            for i, (a, b, who, kind) in enumerate(starts)
        ]
        voices = [v for v in voices if text[v[1] : v[4]].strip(BOUNDARY)]  # a voice of words, not a name alone
        notes: list[tuple] = []  # (where its quotation begins, author, kind, formulas, end, where its words begin)
        for number, (begin, words_from, who, kind, end) in enumerate(voices):
            found = self.formulas(passage, words_from, end, excluded)
            # the heading goes with the first words
            quote_from = 0 if number == 0 and layer.placement == "heading" else begin
            said_from = words_from
            if kind == "judgement" and notes and notes[-1][2] == "quoted" and not notes[-1][3]:
                quote_from, *_, said_from = notes.pop()  # the words it judges go with the judgement
            notes.append((quote_from, who, kind, found, end, said_from))
        notes = [
            (self.quote(passage, a, end, found), who, [f for f, _ in found], said)
            for a, who, _, found, end, said in notes
        ]
        if not any(found for _, _, found, _ in notes):
            return []
        out = []
        for (a, b), author, found, said in notes:
            start, end = stream.starts[passage.tokens[a]], stream.ends[passage.tokens[b - 1]]
            words = self.witness.layer_between(layer.name, start, end)
            said = next((i for i in range(max(a, said), b) if passage.tokens[i] >= 0), a)
            out.append(
                TextualNote(
                    self.witness.meta.siglum,
                    layer.name,
                    self.witness.raw.line_of(start),
                    start,
                    end,
                    words,
                    author,
                    found,
                    said=stream.starts[passage.tokens[said]],
                )
            )
        return out

    def formulas(self, passage: Passage, begin: int, end: int, excluded) -> list[tuple[FormulaMatch, tuple[int, int]]]:
        """The formulas in text[begin:end], in order, with their spans."""
        text = passage.text[begin:end]
        out = []
        for formula in self.data.formulas:
            if formula.layers is not None and passage.layer.name not in formula.layers:
                continue
            for m in formula.pattern.finditer(text):
                start = passage.stream.starts[passage.tokens[begin + m.start()]]
                if any(a <= start < b for a, b in excluded):
                    continue
                out.append((self.found(formula, passage, begin, m), (begin + m.start(), begin + m.end())))
        return sorted(out, key=lambda f: f[1])

    def found(self, formula: NoteFormula, passage: Passage, begin: int, m) -> FormulaMatch:
        def span(name: str) -> tuple[int, int] | None:
            return (
                (begin + m.start(name), begin + m.end(name))
                if name in m.groupdict() and m.group(name) is not None
                else None
            )

        def chars(s: tuple[int, int] | None) -> list[str]:
            return (
                [passage.stream.source(self.witness.raw, p, p + 1) for p in passage.tokens[s[0] : s[1]] if p >= 0]
                if s
                else []
            )

        def own(s: tuple[int, int] | None) -> str:
            return "".join(chars(s))

        def compared(s: tuple[int, int] | None) -> str:
            return passage.text[s[0] : s[1]] if s else ""

        lemma, reading = span("lemma"), span("reading")
        if lemma and reading:  # as long as the lemma, within the clause
            stop = passage.text.find(BOUNDARY, reading[0])
            reading = (reading[0], min(reading[0] + lemma[1] - lemma[0], stop if stop >= 0 else len(passage.text)))
        named = lemma or span("place")
        raw = [p for p in passage.tokens[begin + m.start() : begin + m.end()] if p >= 0]
        named_raw = [p for p in passage.tokens[named[0] : named[1]] if p >= 0] if named else []
        return FormulaMatch(
            formula.name,
            formula.kind,
            own(lemma),
            own(span("place")),
            own(reading),
            own(span("source")),
            chars(named),
            compared(named),
            compared(reading),
            tuple(chars(reading)),
            compared(span("side")),
            compared(span("verb")),
            span=(passage.stream.starts[raw[0]], passage.stream.ends[raw[-1]]) if raw else (0, 0),
            named_end=passage.stream.ends[named_raw[-1]] if named_raw else 0,
        )

    def quote(self, passage: Passage, begin: int, end: int, found: list) -> tuple[int, int]:
        """The character span to quote of a voice: whole if short, else the sentences that hold its
        formulas, else the formulas; without boundaries at its edges."""
        if end - begin > self.data.quote_limit and found:
            first, last = found[0][1][0], max(f[1][1] for f in found)
            cuts = sorted(passage.sentences)
            a = max([c + 1 for c in cuts if begin <= c < first], default=begin)
            b = min([c for c in cuts if last <= c < end], default=end)
            begin, end = (a, b) if b - a <= self.data.quote_limit else (first, last)
        while begin < end and passage.tokens[begin] < 0:
            begin += 1
        while end > begin and passage.tokens[end - 1] < 0:
            end -= 1
        return begin, end


def in_witness(witness: Witness, data: TextualNotes) -> tuple[list[Passage], list[dict]]:
    """The witness's passages that hold 校语, each with its notes; and the entries of a layer of
    notes that quote their place (the 考證) in which no formula is recognised."""
    excluded = [(n.start, n.end) for n in jinguwen.find_notes(witness)]
    reader = Reader(witness, data)
    found, unrecognised = [], []
    for layer in data.layers.values():
        for passage in reader.passages(layer):
            passage.notes = reader.notes(passage, excluded)
            if passage.notes:
                found.append(passage)
            elif layer.placement == "heading":
                start, end = passage.stream.starts[passage.tokens[0]], passage.stream.ends[passage.tokens[-1]]
                unrecognised.append(
                    {
                        "witness": witness.meta.siglum,
                        "layer": layer.name,
                        "line": witness.raw.line_of(start),
                        "words": witness.layer_between(layer.name, start, end),
                    }
                )
    return found, unrecognised


# --- placing -----------------------------------------------------------------------------------------------


class Placing:
    """Places each passage's notes on base tokens."""

    def __init__(self, apparatus: Apparatus, normalizer: Normalizer):
        self.anchoring = jinguwen.Anchoring(apparatus, normalizer)
        self.after: dict[tuple[str, str], int] = {}  # (siglum, layer) -> classic position of the last heading found

    def base_span(self, siglum: str, w0: int, w1: int) -> tuple[int, int] | None:
        a, b = self.anchoring.to_base(siglum, w0), self.anchoring.to_base(siglum, w1 - 1)
        return (a, b + 1) if a is not None and b is not None and b >= a else None

    def last_before(self, witness: Witness, position: int, lowest: int | None = None) -> tuple[int, int] | None:
        """The base token of the witness's last classic token before classic position `position`
        (down to `lowest`, or a clause's length) that has one."""
        lowest = max(0, position - jinguwen.WINDOW) if lowest is None else lowest
        for p in range(position - 1, lowest - 1, -1):
            b = self.anchoring.to_base(witness.meta.siglum, p)
            if b is not None:
                return b, b + 1
        return None

    def place(self, passage: Passage) -> None:
        found = [f for n in passage.notes for f in n.found if f.named]
        named = next((f for f in found if f.kind != "gloss"), found[0] if found else None)  # a reading first
        placing = self.heading if passage.layer.placement == "heading" else self.follows
        span, confidence, reason, heading = placing(passage, named)
        for note in passage.notes:
            note.heading = heading
            if span is None:
                note.confidence, note.reason = "none", reason
            else:
                (note.t0, note.t1), note.confidence, note.reason = span, confidence, reason
                note.on = named if not reason else None  # no reason: on the characters it names

    def follows(self, passage: Passage, named: FormulaMatch | None):
        """On the named characters in the clause the note follows, or the end of them."""
        witness = passage.witness
        start = passage.notes[0].start
        what = "the note names no characters"
        if named is not None:
            what = f"{''.join(named.named)} is not in the classic text the note follows (a note on the commentary?)"
            for first in range(len(named.named)):
                t0, t1, confidence, _ = self.anchoring.locate(witness, start, "".join(named.named[first:]))[0]
                if confidence != "none":
                    named.trim(first)
                    return (t0, t1), confidence if not first else "medium", "", ""
            if named.kind == "gloss":  # how the commentator reads a character: on that character or nowhere
                return None, "none", what, ""
        fallback = self.last_before(witness, bisect_left(witness.classic.starts, start))
        if fallback is None:
            return None, "none", f"{what}, and the clause it follows has no counterpart in the base", ""
        return fallback, "low", f"{what}: placed on the last character of the clause it follows", ""

    def heading(self, passage: Passage, named: FormulaMatch | None):
        """The heading's place in the witness's classic text, in order: the longest start of it
        found there (the rest of it quotes the commentary); on the named characters in it."""
        witness = passage.witness
        siglum = witness.meta.siglum
        heading = passage.text[: max(0, passage.heading_end - 1)]
        own = "".join(
            passage.stream.source(witness.raw, p, p + 1) for p in passage.tokens[: max(0, passage.heading_end - 1)]
        )
        text = witness.classic.text
        after = self.after.get((siglum, passage.layer.name), 0)
        for length in range(len(heading), MIN_HEADING - 1, -1):
            at = text.find(heading[:length], after)
            at = at if at >= 0 else text.find(heading[:length])
            if at >= 0:
                break
        else:
            return None, "none", f"the place 「{own}」 is not in the witness's classic text", own
        self.after[(siglum, passage.layer.name)] = at
        on_commentary = length < len(heading)
        if named is not None and not on_commentary:
            for first in range(len(named.named_norm)):
                inside = heading[:length].find(named.named_norm[first:])
                span = (
                    self.base_span(siglum, at + inside, at + inside + len(named.named_norm) - first)
                    if inside >= 0
                    else None
                )
                if span is not None:
                    named.trim(first)
                    return span, "high", "", own
        span = self.last_before(witness, at + length, at)
        if span is None:
            return None, "none", f"the place 「{own}」 has no counterpart in the base (lost there?)", own
        why = (
            "the note is on the commentary its heading quotes"
            if on_commentary
            else "the note names no characters of its place"
            if named is None
            else f"{''.join(named.named)} is not in its place"
        )
        return span, "medium", f"{why}: placed on the last character of the place", own


@dataclass(frozen=True)
class TextualNoteFindings:
    passages: list[Passage]
    unrecognised: list[dict]  # the entries of the 考證 in which no formula is recognised


def find(apparatus: Apparatus, context: Context) -> TextualNoteFindings:
    return TextualNoteFindings(*collect(apparatus, context.persons, context.normalizer))


def collect(
    apparatus: Apparatus, persons: dict, normalizer: Normalizer, data_path: Path = DATA
) -> tuple[list[Passage], list[dict]]:
    """Every witness's 校语, placed; and the entries in which no formula is recognised."""
    data = TextualNotes(persons, normalizer, data_path)
    placing = Placing(apparatus, normalizer)
    passages, unrecognised = [], []
    for witness in apparatus.witnesses.values():
        found, left = in_witness(witness, data)
        for passage in found:
            placing.place(passage)
        passages += found
        unrecognised += left
    return passages, unrecognised


def place(apparatus: Apparatus, found: TextualNoteFindings) -> Placements:
    """Each placed note with a named author goes with the apparatus entry over its characters: the
    first of those it shares characters with (a note is no reading: entries are not merged for
    it), or one made where the witnesses agree."""
    for passage in found.passages:
        for note in passage.notes:
            if note.confidence != "none" and note.author:
                shared = sorted(apparatus.overlapping(note.t0, note.t1), key=lambda u: (u.t0, u.t1))
                unit = shared[0] if shared else (yield EntryOver(note.t0, note.t1))
                yield Annotated(unit, note)


# --- reporting ---------------------------------------------------------------------------------------------


def report(apparatus: Apparatus, found: TextualNoteFindings, context: Context) -> Report:
    summary = summarize(apparatus, found.passages, found.unrecognised, context.persons)
    line = f"  校语: {len(summary['notes'])} notes, {summary['placed']} with an apparatus entry"
    return Report("textual_notes", summary, markdown(summary), (line,))


def summarize(apparatus: Apparatus, passages: list[Passage], unrecognised: list[dict], persons: dict) -> dict:
    text = apparatus.base.classic.text
    app_of = {
        id(n): f"app-{u.index + 1}" for u in apparatus.all_units() for n in u.annotations if isinstance(n, TextualNote)
    }
    rows = []
    for passage in passages:
        for note in passage.notes:
            rows.append(
                {
                    "witness": note.siglum,
                    "layer": note.layer,
                    "line": note.line,
                    "author": note.author,
                    "author_name": persons[note.author].name if note.author in persons else "",
                    "words": note.words,
                    "heading": note.heading,
                    "formulas": [
                        {
                            "formula": f.formula,
                            "kind": f.kind,
                            "lemma": f.lemma,
                            "place": f.place,
                            "reading": f.reading,
                            "source": f.source,
                        }
                        for f in note.found
                    ],
                    "base_from": note.t0 + 1 if note.confidence != "none" else None,
                    "base_to": note.t1 if note.confidence != "none" else None,
                    "context": text[max(0, note.t0 - 6) : note.t0]
                    + "["
                    + text[note.t0 : note.t1]
                    + "]"
                    + text[note.t1 : note.t1 + 6]
                    if note.confidence != "none"
                    else "",
                    "confidence": note.confidence,
                    "reason": note.reason,
                    "app": app_of.get(id(note), ""),
                }
            )
    counts: dict[str, dict[str, int]] = {}
    for row in rows:
        by_author = counts.setdefault(row["witness"], {})
        by_author[row["author"] or "unknown"] = by_author.get(row["author"] or "unknown", 0) + 1
    return {"notes": rows, "counts": counts, "placed": sum(1 for r in rows if r["app"]), "unrecognised": unrecognised}


def markdown(summary: dict) -> str:
    lines = [
        "# 校语",
        "",
        "The witnesses' notes that discuss a reading, with their authors and the apparatus entry they go with.",
        "",
    ]
    lines += [
        "| witness | line | author | words | formulas | placed on | confidence | app |",
        "|---|---:|---|---|---|---|---|---|",
    ]
    for row in summary["notes"]:
        formulas = (
            "; ".join(
                f"{f['formula']}: {f['lemma'] or f['place'] or '…'}"
                + ("" if f["kind"] == "gloss" else f" → {f['reading'] or '…'}")
                for f in row["formulas"]
            )
            or "–"
        )
        where = row["context"] or f"not placed: {row['reason']}"
        lines.append(
            f"| {row['witness']} | {row['line']} | {row['author_name'] or '?'} | {row['words']} | {formulas} | "
            f"{where} | {row['confidence']} | {row['app'] or '–'} |"
        )
    lines += [
        "",
        f"## Entries of the 考證 with no formula recognised ({len(summary['unrecognised'])})",
        "",
        "They discuss the meaning rather than a reading, or say it in words the formulas do not know.",
        "",
    ]
    lines += [f"- {u['witness']} line {u['line']}: {u['words']}" for u in summary["unrecognised"]]
    return "\n".join(lines) + "\n"
