"""今文/古文: Zheng Xuan's notes on where the New Text (今文) and Old Text (古文) traditions of the
仪礼 read differently, found in the 注 layer of every witness, parsed, anchored on the base text
through the collation, and added to the apparatus as readings of two hypothetical witnesses.

The formulas are data (`data/jinguwen.toml`, read by `parse`): X为Y, X作Y, X皆作Y, X皆为Y (X a
list, with 、 or without: 賔觶大夫之觶皆爲爵), 改X为Y, 或作Y (a substitution); 无X (the tradition
lacks X); 曰…, 或言… or 作“…” (a whole phrase as the tradition reads it); a phrase followed by
无X; and chains of these, after one 今文/古文 or with the other tradition following. A note is
anchored in the clause it follows in the witness that carries it (or the clause before), mapped
onto the base through the alignment. Nothing found is dropped: a note that cannot be parsed or
anchored is reported with the reason.
"""

from __future__ import annotations

import tomllib
from bisect import bisect_left
from dataclasses import dataclass, field, replace
from importlib import resources

import regex
from rapidfuzz import fuzz
from rapidfuzz.distance import Levenshtein

from ..collation.analysis import Context, Placements, Report
from ..collation.model import Annotated, Annotation, Apparatus, EntryOver, Unit
from ..intake.model import Witness
from ..intake.normalize import DROPPED, GAP, Normalizer
from ..publication.conventions import Conventions
from ..publication.tei.apparatus import Encoded
from ..publication.tei.markup import XML_ID, append_text, el
from ..tables import expand_macros

NAME = "jinguwen"
PHASE = "entries"
DATA = resources.files("edition.traditions") / "data" / "jinguwen.toml"


@dataclass
class Parsed:
    tradition: str  # "jinwen" or "guwen"
    kind: str  # substitution, omission, phrase, addition (in effect)
    lemma: str  # the base's characters the note is about (X), or "" for a phrase
    reading: str  # what the tradition reads (Y, the phrase, or "" for an omission)
    scope: str = "one"  # "all" for 皆: every occurrence in the passage
    words: str = ""  # the part of the note this reading comes from
    words_reading_like_base: str = ""  # for paired phrases: the run that, found as such in the base, is a phrase


@dataclass
class Note:
    siglum: str
    line: int
    start: int  # raw offset of the note's tradition word
    text: str  # the note sentence as the witness writes it
    commentary: str  # the whole 注 segment
    parsed: list[Parsed] = field(default_factory=list)
    problem: str = ""
    end: int = 0  # raw offset after the note's last character


@dataclass(frozen=True)
class ReadingFormula:
    """One formula of the grammar (data/jinguwen.toml): how a clause of a note gives a reading."""

    name: str
    kind: str  # phrase, omission, substitution, alternative or paired
    pattern: regex.Pattern | None
    scope: str = "one"
    fresh: bool = False  # only right after the tradition's name


def load_grammar() -> tuple[dict[str, str], dict[str, str], list[ReadingFormula]]:
    """The traditions by name, the macros expanded, and the formulas in order."""
    doc = tomllib.loads(DATA.read_text(encoding="utf-8"))
    macros = {name: expand_macros(value, doc["macros"]) for name, value in doc["macros"].items()}
    macros["SKIP"] = doc["separators"]["skip"]
    formulas = [
        ReadingFormula(
            f["name"],
            f["kind"],
            regex.compile(expand_macros(f["pattern"], macros)) if "pattern" in f else None,
            f.get("scope", "one"),
            f.get("fresh", False),
        )
        for f in doc["formula"]
    ]
    return doc["traditions"], macros, formulas


TRADITIONS, MACROS, FORMULAS = load_grammar()
NAMES = {xml_id: name for name, xml_id in reversed(TRADITIONS.items())}  # each tradition's first name
TRADITION = regex.compile("|".join(map(regex.escape, TRADITIONS)))
ATOM = MACROS["ATOM"]
QUOTED = regex.compile(MACROS["QUOTED"])
SKIP = regex.compile(MACROS["SKIP"])
VERDICT = MACROS["VERDICT"]
BRACKET = regex.compile(r"[\p{Ps}\p{Pe}]")
WINDOW = 60  # the longest clause, in tokens, that a note is taken to follow


@dataclass
class Anchor:
    note: Note
    parsed: Parsed
    t0: int
    t1: int
    confidence: str
    reason: str = ""
    reading_norm: str = ""


# --- finding and parsing ---------------------------------------------------------------------------------


def sentences(commentary: str) -> list[tuple[int, str]]:
    """The parts of a 注 segment that begin with 今文 or 古文 (or 或作 after one), to the end of
    their sentence; a chain of notes stays together."""
    out = []
    for match in TRADITION.finditer(commentary):
        if out and match.start() < out[-1][0] + len(out[-1][1]):
            continue
        end = commentary.find("。", match.start())
        end = len(commentary) if end < 0 else end
        out.append((match.start(), commentary[match.start() : end]))
    return out


def atoms(text: str) -> list[str]:
    return regex.findall(ATOM, text)


def parse(text: str) -> tuple[list[Parsed], str]:
    """Parse a note sentence into readings; the second value explains a failure."""
    out: list[Parsed] = []
    position = 0
    tradition = None
    last_lemma = ""
    fresh = False
    while position < len(text):
        rest = text[position:]
        head = TRADITION.match(rest)
        if head:
            tradition = TRADITIONS[head.group()]
            position += head.end()
            fresh = True
            continue
        skip = SKIP.match(rest)
        if skip:
            position += skip.end()
            continue
        if tradition is None:
            return out, f"no 今文/古文 before {rest[:6]!r}"
        parsed, used = parse_clause(rest, last_lemma, fresh)
        fresh = False
        if parsed is None:
            if out:
                break  # the rest is Zheng's own comment on the reading (序乃夏后氏之学亦非也)
            return out, f"no formula recognised in {rest[:12]!r}"
        for p in parsed:
            p.tradition = tradition
            p.words = text[position : position + used]
            last_lemma = p.lemma or last_lemma
        out += parsed
        position += used
    return out, ""


def parse_clause(rest: str, last_lemma: str, fresh: bool) -> tuple[list[Parsed] | None, int]:
    """One reading (or a list X、X) at the start of `rest`, by the first formula of the grammar
    that reads it; a formula marked `fresh` only right after the tradition's name."""
    for formula in FORMULAS:
        if formula.fresh and not fresh:
            continue
        if formula.kind == "paired":
            pair = paired_phrases(rest, last_lemma)
            if pair:
                return pair
            continue
        m = formula.pattern.match(rest)
        if not m:
            continue
        groups = m.groupdict()
        if formula.kind == "phrase":
            return [Parsed("", "phrase", "", groups["reading"])], m.end()
        if formula.kind == "omission":
            return [Parsed("", "omission", groups["lemma"], "")], m.end()
        if formula.kind == "alternative" and last_lemma:
            return [Parsed("", "substitution", last_lemma, groups["reading"])], m.end()
        if formula.kind == "substitution":
            scope = "all" if groups.get("all") else formula.scope
            if groups.get("list") is None:
                return substitution(groups["lemma"], rest, m.end(), scope)
            items = unpunctuated_list(groups["list"])
            if len(items) > 1:
                return substitution("、".join(items), rest, m.end(), scope)
    return None, 0


def paired_phrases(rest: str, last_lemma: str) -> tuple[list[Parsed], int] | None:
    """Two phrases of one length side by side, the base's and the tradition's (今文皮树繁竖): a run
    of 2n characters that ends the note or is followed by another reading."""
    units = atoms(rest[:24])
    for n in (1, 2, 3):
        if len(units) < 2 * n:
            break
        used = len("".join(units[: 2 * n]))
        after = rest[used:]
        follows = regex.match(r"[，、；]*", after).end()
        ends = not after[follows:] or after[0] in "。"
        if ends and follows == 0 and len(units) > 2 * n:
            continue
        if ends or TRADITION.match(after[follows:]) or parse_clause(after[follows:], last_lemma, False)[0]:
            first, second = "".join(units[:n]), "".join(units[n : 2 * n])
            return [Parsed("", "substitution", first, second, words_reading_like_base=first + second)], used
    return None


def substitution(lemma_text: str, rest: str, offset: int, scope: str) -> tuple[list[Parsed], int]:
    """X为Y: the reading Y is quoted, or as long as X. In a list (宾觯、大夫之觯，皆为爵) Y takes the
    place of what the items share at their end, in each of them; with nothing shared, each item
    is one character."""
    quoted = QUOTED.match(rest[offset:])
    lemmas = [x for x in lemma_text.split("、") if x]
    shared = common_ending(lemmas) if len(lemmas) > 1 else ""
    if quoted:
        reading, used = quoted.group("reading"), offset + quoted.end()
    else:
        length = len(atoms(shared)) or (1 if len(lemmas) > 1 else len(atoms(lemmas[0])))
        # X作Y非也: the verdict follows the reading
        found = regex.match(rf"(?:(?!{VERDICT})(?:{ATOM})){{1,{length}}}", rest[offset:])
        if not found:
            return None, 0
        reading, used = found.group(), offset + found.end()
    if shared:
        return [Parsed("", "substitution", x, x[: len(x) - len(shared)] + reading, "all") for x in lemmas], used
    return [Parsed("", "substitution", x, reading, scope if len(lemmas) == 1 else "all") for x in lemmas], used


def unpunctuated_list(run: str) -> list[str]:
    """A list written without 、 (賔觶大夫之觶皆爲爵): the run cut after each occurrence of its last
    character, the ending its items share."""
    units = atoms(run)
    items, item = [], ""
    for unit in units:
        item += unit
        if unit == units[-1]:
            items.append(item)
            item = ""
    return items if not item and all(len(atoms(x)) > 1 for x in items) else []


def common_ending(items: list[str]) -> str:
    """What every item ends with, short of the whole of any item."""
    shortest = min(len(x) for x in items)
    length = 0
    while length < shortest - 1 and all(x[-length - 1] == items[0][-length - 1] for x in items):
        length += 1
    return items[0][len(items[0]) - length :] if length else ""


def commentaries(witness: Witness) -> list[tuple[str, list[tuple[int, int]]]]:
    """The witness's 注, a note at a time. Commentary segments that only format or chrome separate
    are one note where the separation is a line end (a 雙行小注 running on to the next printed line)
    or holds no bracket (a column break): 】【 on one line begins another note. Each note comes with
    (offset in the note, raw offset) for the start of each of its segments."""
    out: list[tuple[str, list[tuple[int, int]]]] = []
    between: str | None = None  # what stands since the last commentary segment, if only format or chrome
    for segment in witness.segments:
        if segment.layer == "commentary" and not segment.supplied:
            continues = between is not None and ("\n" in between or not BRACKET.search(between))
            if not continues:
                out.append(("", []))
            text, starts = out[-1]
            starts.append((len(text), segment.start))
            out[-1] = (text + segment.text(witness.raw), starts)
            between = ""
        elif segment.layer in ("format", "chrome") and between is not None:
            between += segment.text(witness.raw)
        else:
            between = None
    return out


def raw_offset(starts: list[tuple[int, int]], offset: int) -> int:
    position, raw = next((p, r) for p, r in reversed(starts) if p <= offset)
    return raw + offset - position


def find_notes(witness: Witness) -> list[Note]:
    notes = []
    for commentary, starts in commentaries(witness):
        for offset, text in sentences(commentary):
            start = raw_offset(starts, offset)
            note = Note(
                witness.meta.siglum,
                witness.raw.line_of(start),
                start,
                text,
                commentary,
                end=raw_offset(starts, offset + len(text) - 1) + 1,
            )
            note.parsed, note.problem = parse(text)
            if not note.parsed and not note.problem:
                note.problem = "nothing parsed"
            notes.append(note)
    return notes


# --- anchoring ---------------------------------------------------------------------------------------------


class Anchoring:
    """Places a parsed reading on base tokens: first in the witness's own words of the clause the
    note follows (or the clause before), mapped onto the base through the alignment; failing that,
    in the base text around that place."""

    def __init__(self, apparatus: Apparatus, normalizer: Normalizer):
        self.apparatus = apparatus
        self.normalizer = normalizer
        self.base_text = apparatus.base.classic.text
        self.maps = {s: m.base_of() for s, m in apparatus.maps.items()}
        self.note_cuts: dict[str, tuple[list[int], list[int]]] = {}  # siglum -> note starts, their token positions

    def norm(self, text: str) -> str:
        out = []
        for atom in regex.findall(rf"{ATOM}|.", text):
            entry = self.normalizer.gaiji.entries.get(atom)
            if entry is None and DROPPED.match(atom):
                continue
            if entry is not None:
                out.append(self.normalizer.fold(entry.mapping)[0] if entry.mapping else "\ufffc")
            else:
                out.append("".join(c if c == "▯" else self.normalizer.fold(c)[0] for c in atom))
        return "".join(out)

    def to_base(self, siglum: str, position: int) -> int | None:
        if siglum == self.apparatus.base.meta.siglum:
            return position
        return self.maps.get(siglum, {}).get(position)

    def clauses(self, witness: Witness, start: int) -> list[tuple[int, int]]:
        """Witness token ranges of the clause a note at raw offset `start` follows and of the clause before it."""
        end = bisect_left(witness.classic.starts, start)
        cuts = self.cuts_before(witness, start, end)
        here = cuts[-1] if cuts else max(0, end - WINDOW)
        before = cuts[-2] if len(cuts) > 1 else max(0, here - WINDOW)
        return [(max(here, end - WINDOW), end), (max(before, here - WINDOW), here)]

    def cuts_before(self, witness: Witness, start: int, end: int) -> list[int]:
        """The last two distinct token positions below `end` at which a note before raw offset
        `start` stands: by bisection, each witness's notes being listed once."""
        siglum = witness.meta.siglum
        if siglum not in self.note_cuts:
            commentary = witness.segments_of("commentary")
            self.note_cuts[siglum] = (
                [s.start for s in commentary],
                [bisect_left(witness.classic.starts, s.start) for s in commentary],
            )
        note_starts, cuts = self.note_cuts[siglum]
        below = bisect_left(cuts, end, 0, bisect_left(note_starts, start))  # cuts never decrease
        if not below:
            return []
        here = cuts[below - 1]
        distinct = bisect_left(cuts, here, 0, below)
        return [cuts[distinct - 1], here] if distinct else [here]

    def base_window(self, witness: Witness, w0: int, w1: int) -> tuple[int, int] | None:
        """The base tokens a witness range stands against: around the base position of its last
        aligned token, as long as the range (a clause moved as a block maps with it)."""
        for p in range(w1 - 1, w0 - 1, -1):
            b = self.to_base(witness.meta.siglum, p)
            if b is not None:
                return max(0, b - (p - w0) - 3), b + (w1 - p) + 3
        return None

    def anchor(self, note: Note, parsed: Parsed, witness: Witness) -> list[Anchor]:
        if parsed.kind == "phrase":
            return [self.anchor_phrase(note, parsed, witness, self.clauses(witness, note.start))]
        return [
            Anchor(note, parsed, *found)
            for found in self.locate(witness, note.start, parsed.lemma, parsed.scope == "all")
        ]

    def locate(
        self, witness: Witness, start: int, lemma_text: str, every: bool = False
    ) -> list[tuple[int, int, str, str]]:
        """(t0, t1, confidence, reason) of the base tokens of `lemma_text`: in the witness's clause
        that a note at raw offset `start` follows (or the clause before), mapped onto the base;
        failing that, in the base text around that place. With `every`, each occurrence."""
        clauses = self.clauses(witness, start)
        lemma = self.norm(lemma_text)
        text = witness.classic.text
        for number, (w0, w1) in enumerate(clauses):
            found = [m.start() for m in regex.compile(regex.escape(lemma)).finditer(text, w0, w1, overlapped=True)]
            mapped = [
                (self.to_base(witness.meta.siglum, p), self.to_base(witness.meta.siglum, p + len(lemma) - 1))
                for p in found
            ]
            mapped = [(a, b + 1) for a, b in mapped if a is not None and b is not None and b >= a]
            if mapped:
                confidence = "high" if len(mapped) == 1 and number == 0 else "medium"
                if every:
                    return [(a, b, "high" if number == 0 else "medium", "") for a, b in mapped]
                return [(*mapped[-1], confidence, "")]
        window = self.base_window(witness, clauses[1][0], clauses[0][1])
        if window is None:
            return [(0, 0, "none", "the clause the note follows has no counterpart in the base")]
        start, end = window
        pattern = regex.compile(regex.escape(lemma).replace("▯", "."))
        found = [m.start() for m in pattern.finditer(self.base_text, max(0, start - WINDOW), end, overlapped=True)]
        if not found:
            return [(0, 0, "none", f"{lemma_text} is neither in the clause the note follows nor in the base there")]
        if every:
            return [(a, a + len(lemma), "low", "") for a in found]
        return [(found[-1], found[-1] + len(lemma), "low", "")]

    def phrases_reading_like_base(self, note: Note, witness: Witness) -> list[Parsed]:
        """Paired phrases that the base reads as they stand around the note (君射则为下: not 君→射
        and 则→下) are one phrase of the tradition, with whatever of its note follows them."""
        for index, parsed in enumerate(note.parsed):
            if not parsed.words_reading_like_base:
                continue
            clauses = self.clauses(witness, note.start)
            window = self.base_window(witness, clauses[1][0], clauses[0][1])
            if (
                window
                and self.norm(parsed.words_reading_like_base) in self.base_text[max(0, window[0] - WINDOW) : window[1]]
            ):
                rest = [p for p in note.parsed[index:] if p.tradition == parsed.tradition]
                phrase = Parsed(
                    parsed.tradition, "phrase", "", "".join(p.words for p in rest), words="".join(p.words for p in rest)
                )
                return (
                    note.parsed[:index] + [phrase] + [p for p in note.parsed[index:] if p.tradition != parsed.tradition]
                )
        return note.parsed

    def reordered(self, phrase: str, b0: int, b1: int) -> int | None:
        """Where the base reads the phrase's characters in another order (古文曰反坐: 坐反), last first."""
        if len(phrase) < 2:
            return None
        for start in range(b1 - len(phrase), b0 - 1, -1):
            found = self.base_text[start : start + len(phrase)]
            if found != phrase and sorted(found) == sorted(phrase):
                return start
        return None

    def anchor_phrase(self, note: Note, parsed: Parsed, witness: Witness, clauses) -> Anchor:
        """In the clause the note follows first, then with the clause before."""
        phrase = self.norm(parsed.reading)
        window = self.base_window(witness, clauses[1][0], clauses[0][1])
        if window is None or not phrase:
            return Anchor(note, parsed, 0, 0, "none", "the clause the note follows has no counterpart in the base")
        own = self.base_window(witness, *clauses[0])
        for b0, b1 in ([own] if own else []) + [window]:
            reordered = self.reordered(phrase, b0, b1)
            if reordered is not None:
                return Anchor(note, parsed, reordered, reordered + len(phrase), "high")
            best = fuzz.partial_ratio_alignment(phrase, self.base_text[b0:b1])
            if best.score >= 50:
                break
        start, end = b0 + best.dest_start, b0 + best.dest_end
        # trim base characters at the edges that the phrase does not share, unless the two are of
        # one length and those characters are not the phrase's at all (今文皆曰揖衆賔: [厭衆賔])
        local = self.base_text[start:end]
        opcodes = Levenshtein.opcodes(local, phrase)
        matched = [(i1, i2) for tag, i1, i2, _, _ in opcodes if tag == "equal"]
        if not matched or best.score < 50:
            return Anchor(
                note, parsed, 0, 0, "none", f"phrase {parsed.reading} matches nothing in the clause it follows"
            )
        trimmed = local[: matched[0][0]] + local[matched[-1][1] :]
        if any(op.tag in ("insert", "delete") for op in opcodes) or any(c in phrase for c in trimmed):
            start, end = start + matched[0][0], start + matched[-1][1]
        if self.base_text[start:end] == phrase and end < b1:
            end += 1  # a phrase that reads like the base is about the character next to it (君射则为下[射])
        confidence = "high" if best.score >= 75 else "medium" if best.score >= 60 else "low"
        return Anchor(note, parsed, start, end, confidence)


@dataclass(frozen=True)
class JinguwenFindings:
    notes: list[Note]
    anchors: list[Anchor]


def find(apparatus: Apparatus, context: Context) -> JinguwenFindings:
    return JinguwenFindings(*collect(apparatus, context.normalizer))


def collect(apparatus: Apparatus, normalizer: Normalizer) -> tuple[list[Note], list[Anchor]]:
    notes: list[Note] = []
    anchors: list[Anchor] = []
    anchoring = Anchoring(apparatus, normalizer)
    for witness in apparatus.witnesses.values():
        for note in find_notes(witness):
            note.parsed = anchoring.phrases_reading_like_base(note, witness)
            notes.append(note)
            for parsed in note.parsed:
                for anchor in anchoring.anchor(note, parsed, witness):
                    anchor.reading_norm = anchoring.norm(parsed.reading)
                    anchors.append(anchor)
    return notes, anchors


def effect(base: str, reading: str) -> str:
    """What a tradition's reading does to the base: substitution, omission, addition, transposition."""
    if not reading:
        return "omission"
    if len(reading) > 1 and sorted(reading) == sorted(base) and reading != base:
        return "transposition"
    if base in reading or (len(reading) > len(base) and all(c in reading for c in base)):
        return "addition"
    if reading in base or (len(reading) < len(base) and all(c in base for c in reading)):
        return "omission"
    return "substitution"


# --- the annotation: a tradition's reading a note reports, and its path to print ---------------------------


@dataclass
class Reported(Annotation):
    """One tradition's reading in one entry, with the notes that report it. In the TEI a reading
    of the hypothetical witness of its tradition (`rdg type="jinguwen"`, its id `-jinwenN` or
    `-guwenN`, @subtype what it does to the base), extant only inside it (witStart, witEnd), and
    the notes that report it quoted with their witnesses (`note type="jinguwen"`), both said by
    the person of the 注; each tradition a `witness` of listWit."""

    NAME = "jinguwen"

    tradition: str
    kind: str
    reading: str  # over the whole app
    notes: list[Note]
    confidence: str
    core: str = ""  # the tradition's own characters at the anchor
    span: tuple[int, int] = (0, 0)  # the base tokens the tradition's characters stand for
    core_norm: str = ""  # `core` as compared: the same reading in another script or form is this one

    def joined(self, other: Reported) -> Reported | None:
        """The same tradition's same reading at the same place is one, with the notes of both."""
        if (other.tradition, other.span, other.core_norm) != (self.tradition, self.span, self.core_norm):
            return None
        return replace(self, notes=[*self.notes, *(n for n in other.notes if n not in self.notes)])

    def noted_by(self, siglum: str, words: str) -> bool:
        return any(n.siglum == siglum and n.text == words for n in self.notes)

    def moved(self, apparatus: Apparatus, unit: Unit, t0: int, t1: int) -> Reported:
        """Where an editor anchors it: over base tokens t0:t1, sure."""
        reading = apparatus.with_reading(unit, t0, t1, self.core)
        return replace(self, reading=reading, confidence="high", span=(t0, t1))

    @classmethod
    def principles(cls, writer) -> dict[str, list[str]]:
        """The traditions the notes report here (the principles' `traditions`)."""
        return {"traditions": list(reported_traditions(writer))}

    @classmethod
    def encode(cls, writer, unit: Unit, reported: list[Reported]) -> Encoded:
        writer.kept(cls)
        commentator = f"#{writer.owners['commentary']}" if "commentary" in writer.owners else None
        said_by = {"resp": commentator} if commentator else {}
        encoded = Encoded(app_type="jinguwen")
        for number, r in enumerate(reported, 1):
            xml_id = f"{writer.app_id(unit)}-{r.tradition}{number}"
            attrib = {XML_ID: xml_id, "wit": f"#{r.tradition}", "type": "jinguwen", "subtype": r.kind}
            attrib |= {"resp": commentator, "source": commentator} if commentator else {}
            rdg = el("rdg", {**attrib, "cert": r.confidence})
            el("witStart", {"wit": f"#{r.tradition}"}, parent=rdg)  # extant only in the reading a note reports
            append_text(rdg, r.reading)
            el("witEnd", {"wit": f"#{r.tradition}"}, parent=rdg)
            note = el("note", {"type": "jinguwen", "target": f"#{xml_id}", **said_by})
            for number_in_note, source in enumerate(r.notes):
                if number_in_note:
                    append_text(note, " ")
                writer.quote(note, source.siglum, source.text)
            encoded.readings += [rdg, note]
        return encoded

    @classmethod
    def witnesses(cls, writer, sources, parent) -> None:
        """The traditions the notes report here, hypothetical witnesses, described in the style's words."""
        described = Conventions(sources.config.apparatus_style).templates["headings"]["traditions"]
        for name, xml_id in reported_traditions(writer).items():
            witness = el("witness", {XML_ID: xml_id, "n": name}, parent=parent)
            el("abbr", {"type": "siglum"}, name, parent=witness)
            append_text(witness, " " + described[xml_id])
            el(
                "note",
                {"type": "status"},
                "hypothetical: a tradition reported by Zheng Xuan's notes, attested only where a note reports it",
                parent=witness,
            )


def reported_traditions(writer) -> dict[str, str]:
    """The traditions the notes report in the entries written, name -> id, in the grammar's order
    (data/jinguwen.toml)."""
    found = {r.tradition for unit in writer.apparatus.all_units() for r in readings_on(unit)}
    first_names: dict[str, str] = {}
    for name, xml_id in TRADITIONS.items():
        if xml_id in found:
            first_names.setdefault(xml_id, name)
    return {name: xml_id for xml_id, name in first_names.items()}


def readings_on(unit: Unit) -> list[Reported]:
    return [a for a in unit.annotations if isinstance(a, Reported)]


def place(apparatus: Apparatus, found: JinguwenFindings) -> Placements:
    """Each anchored reading goes into the entry over its characters, with the notes that report
    the same reading (whatever the script or form a witness writes it in) of the same tradition at
    the same place. A reading with a character the witness's transcription lost (古文▯只为▯) is none."""
    for anchor in found.anchors:
        if anchor.confidence != "none" and not GAP.search(anchor.parsed.reading):
            t0, t1, parsed = anchor.t0, anchor.t1, anchor.parsed
            kind = effect(apparatus.base.classic.text[t0:t1], anchor.reading_norm)
            unit = yield EntryOver(t0, t1)
            reading = apparatus.with_reading(unit, t0, t1, parsed.reading)
            said, sure, core, norm = [anchor.note], anchor.confidence, parsed.reading, anchor.reading_norm
            yield Annotated(unit, Reported(parsed.tradition, kind, reading, said, sure, core, (t0, t1), norm))


def report(apparatus: Apparatus, found: JinguwenFindings, context: Context) -> Report:
    summary = summarize(apparatus, found.notes, found.anchors, context.found["sections"])
    placed = sum(1 for a in found.anchors if a.confidence != "none")
    line = f"  今文/古文: {len(found.notes)} notes, {len(found.anchors)} readings, {placed} anchored"
    return Report("jinguwen", summary, markdown(summary), (line,))


def summarize(apparatus: Apparatus, notes: list[Note], anchors: list[Anchor], sections) -> dict:
    """Every note found, what it says, where it is anchored (or why not), and where witnesses
    disagree about it or leave it out."""
    base = apparatus.base
    text = base.classic.text
    by_note: dict[int, list[Anchor]] = {}
    for anchor in anchors:
        by_note.setdefault(id(anchor.note), []).append(anchor)
    unit_of = {}
    for unit in apparatus.units:
        for reported in readings_on(unit):
            for note in reported.notes:
                unit_of.setdefault(id(note), []).append(unit)

    def section_at(t: int) -> str:
        return next((s.xml_id for s in sections if s.t0 <= t < s.t1), sections[-1].xml_id if sections else "")

    rows = []
    for note in notes:
        readings = []
        for parsed in note.parsed:
            placed = [a for a in by_note.get(id(note), []) if a.parsed is parsed]
            readings.append(
                {
                    "tradition": parsed.tradition,
                    "name": NAMES[parsed.tradition],
                    "formula": parsed.kind,
                    "lemma": parsed.lemma,
                    "reading": parsed.reading,
                    "scope": parsed.scope,
                    "words": parsed.words,
                    "anchors": [
                        {
                            "base_from": a.t0 + 1,
                            "base_to": a.t1,
                            "section": section_at(a.t0),
                            "context": text[max(0, a.t0 - 6) : a.t0]
                            + "["
                            + text[a.t0 : a.t1]
                            + "]"
                            + text[a.t1 : a.t1 + 6],
                            "confidence": a.confidence,
                            "reason": a.reason,
                        }
                        for a in placed
                    ],
                }
            )
        rows.append(
            {
                "witness": note.siglum,
                "line": note.line,
                "note": note.text,
                "problem": note.problem,
                "readings": readings,
                "apps": sorted({f"app-{u.index + 1}" for u in unit_of.get(id(note), [])}),
            }
        )
    return {"notes": rows, "disagreements": disagreements(apparatus), "left_out": left_out(apparatus, anchors)}


def disagreements(apparatus: Apparatus) -> list[dict]:
    """Places where witnesses report the same reading for different traditions."""
    out = []
    for unit in apparatus.units:
        by_reading: dict[str, list[Reported]] = {}
        for reported in readings_on(unit):
            by_reading.setdefault(reported.reading, []).append(reported)
        for reading, reports in by_reading.items():
            traditions = {r.tradition for r in reports}
            if len(traditions) > 1:
                out.append(
                    {
                        "app": f"app-{unit.index + 1}",
                        "reading": reading,
                        "reports": [
                            {
                                "tradition": r.tradition,
                                "name": NAMES[r.tradition],
                                "witnesses": sorted({n.siglum for n in r.notes}),
                                "notes": [n.text for n in r.notes],
                            }
                            for r in reports
                        ],
                    }
                )
    return out


def left_out(apparatus: Apparatus, anchors: list[Anchor]) -> list[dict]:
    """Notes a witness with commentary does not have where it is extant and another has one."""
    out = []
    carriers = {s: w for s, w in apparatus.witnesses.items() if w.segments_of("commentary")}
    for anchor in anchors:
        if anchor.confidence == "none":
            continue
        for siglum in carriers:
            if siglum == anchor.note.siglum:
                continue
            status = apparatus.statuses[siglum]
            if not any(a <= anchor.t0 < b for a, b in status.extant):
                continue
            has = any(a.note.siglum == siglum and a.t0 == anchor.t0 for a in anchors)
            item = {
                "witness": siglum,
                "note": anchor.note.text,
                "carried_by": anchor.note.siglum,
                "base_from": anchor.t0 + 1,
            }
            if not has and not any(o["witness"] == siglum and o["note"] == item["note"] for o in out):
                out.append(item)
    return out


def markdown(summary: dict) -> str:
    lines = [
        "# 今文/古文 notes",
        "",
        "Every note of Zheng Xuan on the 今文 and 古文 traditions found in the 注 of the witnesses.",
        "",
    ]
    lines += ["| witness | line | note | reading | anchored on | confidence |", "|---|---:|---|---|---|---|"]
    for row in summary["notes"]:
        if not row["readings"]:
            lines.append(
                f"| {row['witness']} | {row['line']} | {row['note']} | not parsed: {row['problem']} | – | none |"
            )
        for reading in row["readings"]:
            said = f"{reading['name']} {reading['formula']}: {reading['lemma'] or '…'} → {reading['reading'] or '∅'}"
            said += " (皆)" if reading["scope"] == "all" else ""
            for anchor in reading["anchors"] or [{"context": "–", "confidence": "none", "reason": "not anchored"}]:
                where = anchor["context"] if anchor["confidence"] != "none" else f"not anchored: {anchor['reason']}"
                lines.append(
                    f"| {row['witness']} | {row['line']} | {row['note']} | {said} | {where} | {anchor['confidence']} |"
                )
    lines += ["", f"## Disagreements between witnesses ({len(summary['disagreements'])})", ""]
    for d in summary["disagreements"]:
        parts = "; ".join(
            f"{'今文' if r['tradition'] == 'jinwen' else '古文'} in {', '.join(r['witnesses'])} "
            f"({' / '.join(r['notes'])})"
            for r in d["reports"]
        )
        lines.append(f"- {d['app']}: reading 「{d['reading']}」 is {parts}")
    lines += ["", f"## Notes a witness leaves out ({len(summary['left_out'])})", ""]
    for item in summary["left_out"]:
        lines.append(
            f"- {item['witness']} has no note where {item['carried_by']} reads 「{item['note']}」 "
            f"(base {item['base_from']})"
        )
    return "\n".join(lines) + "\n"
