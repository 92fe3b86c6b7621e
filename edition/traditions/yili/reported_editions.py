"""Reported editions: the editions a 校语 cites for a reading (「石經作X」, 「監本譌作X」, 「石經及敖本無還字」,
「袒字上石經及楊本敖本有遂字」) as reported witnesses, attested only where such a note reports them, as
今文 and 古文 are attested only where Zheng Xuan's notes report them.

The editions are data (`data/reported_editions.tsv`: the names a note writes, an id, a title,
and whose word the identification is); the notes are those `textual_note` found and placed. A
formula of a note that names an edition of the table reports that edition's reading of the
characters the note is placed on, if it is placed on the characters the formula names (a note
on the commentary, or one whose characters are not in its place, reports nothing here):

- a substitution (X某本作Y, X某本譌作Y): Y for X, as long as X; where a note says an edition
  errs (譌, 誤), Y is still that edition's reading;
- an omission (某本無X字, 某本脫X字): nothing for X;
- beside a place (X上某本有Y字, X下某本衍Y字, X上某本脫Y字, 某本疊X字): the place with Y before or
  after it, or without it. Where the base has Y there, the edition reads with the base's Y, or
  lacks it, over the place and Y. One that judges what the text should be (某本X上當有Y字, 疑衍)
  reports nothing.

The reading is attested in the entries that lie within the characters it covers (an entry of an
addition at its edge takes what the edition has there), never in an entry reaching beyond them,
whose reading the note does not give; it is attested at all only if every character where it
differs from the base stands in such an entry. Nothing is dropped: a note that names an edition
and whose reading is not attested is reported with the reason.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path

import regex

from ...collation.analysis import Context, Placements, Report
from ...collation.model import Annotated, Annotation, Apparatus, HeldBack, Reading, Unit
from ...collation.reading import classify
from ...errors import EditionError
from ...intake.normalize import Normalizer
from ...publication.tei.apparatus import Encoded
from ...publication.tei.markup import XML_ID, append_text, el
from ...tables import read_toml, read_tsv
from ...text import HAN
from ...vocabulary import ReadingType as T
from .. import textual_note
from ..textual_note import FormulaMatch, TextualNote

NAME = "reported_editions"
PHASE = "entries"
AFTER = ("textual_notes",)
DATA = Path(str(resources.files("edition.traditions.yili") / "data" / "reported_editions.tsv"))
# The verbs of a reading beside a place (it has the characters there, or lacks them) and its side.
FORMULAS = Path(str(resources.files("edition.traditions.yili") / "data" / "reported_formulas.toml"))
# Readings an edition's reading is never taken to be one with: what a witness's state, its
# moving text or a site made of its text, not its words.
NOT_WORDS = (T.LACUNA, T.FRAGMENT, T.TRANSPOSITION, T.INTRUSION)


@dataclass(frozen=True)
class Edition:
    """An edition of the table: its id (xml:id), the names notes give it, its title, and whose
    word the identification is."""

    id: str
    names: tuple[str, ...]
    title: str
    source: str


@cache
def editions(path: Path = DATA) -> dict[str, Edition]:
    """The editions of the table by id, in its order."""
    found: dict[str, Edition] = {}
    for line, row in read_tsv(path, ("name", "id", "title", "source")):
        name, ident = row["name"].strip(), row["id"].strip()
        if not name or not regex.fullmatch(r"[A-Za-z][A-Za-z0-9_-]*", ident):
            raise EditionError(path, f"a row needs a name and an id that is an xml:id, found {ident!r}", line)
        known = found.get(ident)
        if known is not None and known.title != row["title"]:
            raise EditionError(path, f"{ident}: the title differs from its first row's ({known.title!r})", line)
        names = (*known.names, name) if known else (name,)
        found[ident] = Edition(ident, names, row["title"], known.source if known else row["source"])
    return found


class Names:
    """The editions a note's `source` group names, its characters compared as the witnesses'."""

    def __init__(self, normalizer: Normalizer, table: dict[str, Edition]):
        self.fold = lambda text: "".join(normalizer.fold(c)[0] if HAN.match(c) else c for c in text)
        self.ids = {self.fold(name): e.id for e in table.values() for name in e.names}
        self.pattern = regex.compile("|".join(map(regex.escape, sorted(self.ids, key=len, reverse=True))))
        formulas = read_toml(FORMULAS)[0]
        beside = formulas["beside"]
        self.verbs = {
            self.fold(verb): verb in beside["has"] for verb in beside["has"] + beside["lacks"]
        }  # -> it has them
        self.before = self.fold(beside["before"])
        self.error = regex.compile(formulas["judged"]["error"])

    def neutral(self, note: TextualNote | None) -> bool:
        """The note reports readings without judging them: it adopts none (今依敖本改正, 從之) and
        calls none an error (譌, 誤)."""
        adopts = note is not None and any(f.kind == "adoption" for f in note.found)
        return note is not None and not adopts and not self.error.search(note.words)

    def cited(self, source: str) -> list[str]:
        """The ids of the editions named in `source` (石經及楊本敖本: shijing, yangben, aoben), once each;
        the names of no edition (諸本, 本) left out."""
        return list(dict.fromkeys(self.ids[m.group()] for m in self.pattern.finditer(self.fold(source))))


# --- the annotation: an edition's reading a 校语 reports, and its path to print ----------------------------


@dataclass(frozen=True)
class ReportedReading(Annotation):
    """The reading of an edition that a 校语 reports (石經作X, 監本脱X字), over base tokens a:b: what
    the edition reads for each of them (its characters and their comparison text, "" for none),
    and what it has besides them at gap a (`before`) and gap b (`after`). Its reading over an
    entry is known only where the entry lies within a:b (`over`).

    In the TEI, the editions that read alike in an entry (`attestations`) are witnesses of the
    lemma or a witness's reading (@wit), or of a reading of their own (`rdg`, typed against the
    lemma, its id `-eN`); each note that reports one a `witDetail type="reported"` after the
    entry's notes; each edition attested a `witness` of listWit, and named in the principles."""

    edition: str  # its id (data/reported_editions.tsv)
    a: int
    b: int
    reads: tuple[tuple[str, str], ...]  # (characters, comparison text) for each base token of a:b
    before: tuple[str, str]
    after: tuple[str, str]
    note: TextualNote | None = None  # the 校语 that reports it, and its formula that says it
    formula: FormulaMatch | None = None

    def over(self, unit: Unit, additions: set[int]) -> tuple[str, str] | None:
        """What the edition reads over the unit's base tokens, as (characters, comparison text): for
        an addition's unit inside a:b nothing, at gap a or b what it has there; for a unit within
        a:b its reading of those tokens, with what it has at a gap of its edge where no unit of
        an addition stands (`additions`, the gaps where one does). None where the note does not
        say (a unit reaching outside a:b, a gap at its edge where it has nothing besides)."""
        if unit.t0 == unit.t1:
            gap = unit.t0
            if self.a < gap < self.b:
                return "", ""
            side = self.before if gap == self.a else self.after if gap == self.b else ("", "")
            return side if side[1] else None
        if not (self.a <= unit.t0 and unit.t1 <= self.b):
            return None
        parts = list(self.reads[unit.t0 - self.a : unit.t1 - self.a])
        if unit.t0 == self.a and self.a not in additions:
            parts.insert(0, self.before)
        if unit.t1 == self.b and self.b not in additions:
            parts.append(self.after)
        return "".join(p[0] for p in parts), "".join(p[1] for p in parts)

    @classmethod
    def encode(cls, writer, unit: Unit, reported: list[ReportedReading]) -> Encoded:
        kept = writer.kept(cls)
        if "additions" not in kept:  # the first entry written: the editions' ids are their sigla
            kept["additions"], kept["reported_by"] = additions(writer.apparatus), {}
            writer.reported_ids |= {e: e for e in editions()}
        attested = attestations(writer.apparatus, unit, kept["additions"])
        encoded = Encoded(also={id(a.reading): a.editions for a in attested if a.reading is not None})
        for number, attestation in enumerate((a for a in attested if a.new is not None), 1):
            reading = attestation.new
            reading.xml_id = f"{writer.app_id(unit)}-e{number}"
            attrib = {XML_ID: reading.xml_id, "wit": writer.wit(attestation.editions), "type": reading.type}
            if reading.subtype:
                attrib["subtype"] = reading.subtype
            encoded.readings.append(el("rdg", attrib, attestation.display))
        encoded.details = lambda: cls.details(writer, attested, kept["reported_by"])
        return encoded

    @staticmethod
    def details(writer, attested: list[Attestation], reported_by: dict) -> list:
        """For each edition a 校语 reports here, the note that reports it (`witDetail
        type="reported"`, its @source the note, in this app or in the one beside it whose place
        the note names, @resp its author), pointing at the reading it attests; who reports each
        edition kept ({edition: {(person id, siglum of the witness): None}})."""
        out = []
        for attestation in attested:
            target = (attestation.reading or attestation.new).xml_id
            said = dict.fromkeys(
                (r.edition, TextualNote.id_of(writer, r.note), r.note.author, r.note.siglum, r.note.confidence)
                for r in attestation.reported
            )
            for edition, note, author, siglum, confidence in said:
                reported_by.setdefault(edition, {})[(author, siglum)] = None
                attrib = {
                    "type": "reported",
                    "wit": writer.wit([edition]),
                    "target": f"#{target}",
                    "resp": f"#{author}",
                    "source": f"#{note}",
                    "cert": confidence,
                }
                out.append(el("witDetail", attrib))
        return out

    @classmethod
    def witnesses(cls, writer, sources, parent) -> None:
        """Each edition attested, in listWit: its name as the notes give it, its title, and who
        reports it in which witness; its status says it is attested only where they report it."""
        reported_by = writer.kept(cls).get("reported_by", {})
        names = {p.id: p.name for p in sources.persons.values()}
        witnesses = writer.apparatus.witnesses
        for edition, described in editions().items():
            if edition not in reported_by:
                continue
            witness = el("witness", {XML_ID: edition, "n": described.names[0]}, parent=parent)
            el("abbr", {"type": "siglum"}, described.names[0], parent=witness)
            append_text(witness, " ")
            el("title", text=described.title, parent=el("bibl", parent=witness))
            reporters = "; ".join(
                f"{names.get(author, author)} in {witnesses[siglum].meta.name or siglum} ({siglum})"
                for author, siglum in reported_by[edition]
            )
            el(
                "note",
                {"type": "status"},
                f"reported: its readings as the 校語 of {reporters} report them (named {'、'.join(described.names)}), "
                "attested only in the apps where such a note reports its reading (witDetail type reported)",
                parent=witness,
            )

    @classmethod
    def principles(cls, writer) -> dict[str, list[str]]:
        """The editions reported, by the first name the notes give them (the principles' `reported`)."""
        reported_by = writer.kept(cls).get("reported_by", {})
        return {"reported": [e.names[0] for ident, e in editions().items() if ident in reported_by]}


# --- finding -----------------------------------------------------------------------------------------------


@dataclass
class ReportedEditionFindings:
    attested: list[tuple[ReportedReading, list[Unit]]]  # each reading with the entries it is attested in
    left: list[tuple[TextualNote, FormulaMatch, str, str]]  # (note, formula, edition id, why) not attested
    neutral: set[int] = field(default_factory=set)  # ids of the notes that judge none of the readings they report


def find(apparatus: Apparatus, context: Context) -> ReportedEditionFindings:
    names = Names(context.normalizer, editions())
    base = [t.char for t in apparatus.base.classic.tokens]
    gaps = additions(apparatus)
    found = ReportedEditionFindings([], [])
    for passage in context.found[textual_note.NAME].passages:
        for note in passage.notes:
            if note.confidence == "none" or not note.author:  # no entry holds it (textual_note.place)
                continue
            for formula in note.found:
                cited = names.cited(formula.source)
                if not cited:
                    continue
                read, why = reading_of(note, formula, base, names)
                units: list[Unit] = []
                if read is not None:
                    aligned = formula.named_norm == "".join(base[note.t0 : note.t1])
                    units, why = attested_in(apparatus, read, gaps, base, aligned)
                for edition in cited:
                    if units:
                        found.attested.append((ReportedReading(edition, *read, note, formula), units))
                        if names.neutral(note):
                            found.neutral.add(id(note))
                    else:
                        found.left.append((note, formula, edition, why))
    # A note that reports an edition's reading by one formula and names it in another (反位上監本脱賓字,
    # 監本脱賓字) is left out once, by the formula it is placed on, and not at all if that one is attested.
    said = {(id(r.note), r.edition) for r, _ in found.attested}
    left: dict[tuple[int, str], tuple] = {}
    for note, formula, edition, why in found.left:
        key = (id(note), edition)
        if key not in said and (key not in left or note.on is formula):
            left[key] = (note, formula, edition, why)
    found.left = list(left.values())
    return found


def reading_of(note: TextualNote, formula: FormulaMatch, base: list[str], names: Names) -> tuple[tuple | None, str]:
    """What the formula says the edition reads: (a, b, reads, before, after) over base tokens a:b,
    or None and why it says nothing the apparatus can hold."""
    if note.on is not formula:
        return None, (
            f"the note is not placed on the characters the formula names ({note.reason})"
            if note.on is None
            else "the note is placed on the characters another of its formulas names"
        )
    if formula.trimmed:
        return None, f"only the end 「{''.join(formula.named)}」 of the characters it names is in its place"
    t0, t1 = note.t0, note.t1
    own, norm = formula.named, formula.named_norm
    if len(norm) != t1 - t0 or len(own) != len(norm):
        return None, f"「{''.join(own)}」 stands for {t1 - t0} characters of the base"
    place = tuple(zip(own, norm))
    none = ("", "")
    if formula.verb:  # beside the place: Y before or after it, or lacking there
        extra = formula.reading_forms or tuple(own)  # 某本疊X字: X again
        extra_norm = formula.reading_norm or norm
        before = formula.side == names.before  # else after (某本疊X字: X after X)
        has = names.verbs.get(formula.verb)
        if has is None:
            return None, f"it says what the text should be ({formula.verb}), not what an edition reads"
        if len(extra) != len(extra_norm) or not extra_norm:
            return None, "the formula gives no characters beside its place"
        n = len(extra_norm)
        beside = base[max(t0 - n, 0) : t0] if before else base[t1 : t1 + n]
        added = tuple(zip(extra, extra_norm)) if has else (none,) * n
        if "".join(beside) == extra_norm:  # the base has them there: over the place and them
            if before:
                return (t0 - n, t1, added + place, none, none), ""
            return (t0, t1 + n, place + added, none, none), ""
        joined = ("".join(extra), extra_norm) if has else none
        return (t0, t1, place, joined if before else none, none if before else joined), ""
    if formula.kind == "substitution" and formula.lemma:
        reading = formula.reading_forms
        if not formula.reading_norm or len(formula.reading_norm) != len(norm) or len(reading) != len(norm):
            return None, f"its reading 「{formula.reading}」 is not as long as 「{''.join(own)}」"
        return (t0, t1, tuple(zip(reading, formula.reading_norm)), none, none), ""
    if formula.kind == "omission" and formula.lemma:
        return (t0, t1, (none,) * len(norm), none, none), ""
    return None, f"the formula {formula.formula} gives no reading"


def additions(apparatus: Apparatus) -> set[int]:
    """The base gaps where an entry of an addition stands."""
    return {u.t0 for u in apparatus.units if u.t0 == u.t1}


def attested_in(
    apparatus: Apparatus, read: tuple, gaps: set[int], base: list[str], aligned: bool
) -> tuple[list[Unit], str]:
    """The entries a reading (a, b, reads, before, after) is attested in, and why none if it is not:
    where it differs from the base, a character or an addition, that no such entry holds. A
    reading given for characters that are not the base's (`aligned` false), or that moves the
    base's characters, says nothing character by character: its differences must fall in one
    entry, over the characters it covers if they are not the base's."""
    a, b, reads, before, after = read
    probe = ReportedReading("", a, b, reads, before, after)
    units = [u for u in apparatus.units if u.t0 <= b and u.t1 >= a and probe.over(u, gaps) is not None]
    held = {t for u in units for t in range(u.t0, u.t1)}
    differs = [t for t in range(a, b) if reads[t - a][1] != base[t]]
    loose = [t for t in differs if t not in held]
    if before[1] and not any(u.t0 == a for u in units):
        loose.append(a)
    if after[1] and not any(u.t1 == b for u in units):
        loose.append(max(b - 1, a))
    if loose:
        where = "".join(apparatus.base.classic.tokens[t].source(apparatus.base.raw) for t in sorted(set(loose)))
        return [], f"where it differs from the base (at 「{where}」) no entry of its characters alone stands"
    moved = len(differs) > 1 and sorted(r[1] for r in reads) == sorted(base[a:b])
    holding = {(u.t0, u.t1) for u in units for t in differs if u.t0 <= t < u.t1}
    if differs and (not aligned or moved) and (len(holding) > 1 or not aligned and holding != {(a, b)}):
        return [], "it reads characters that are not the base's, or moves them, across more than one entry"
    if not units:
        return [], "no entry lies within the characters it covers"
    return units, ""


def place(apparatus: Apparatus, found: ReportedEditionFindings) -> Placements:
    """Each reported reading on its entries; an automatic emendation where an edition reads the
    base's words, by a note that does not judge it an error nor adopt another reading, is held back
    (the 石經's 得以 in 士昏禮, where WYG and the base's words elsewhere read 以得): evidence beyond the
    witnesses on both sides is for the editor to weigh. Not where the note says 監本譌作曰 or 今依敖本改正."""
    base, gaps = apparatus.base.meta.siglum, additions(apparatus)
    for reported, units in found.attested:
        for unit in units:
            yield Annotated(unit, reported)
            read, former = reported.over(unit, gaps), unit.reading_of(base)
            held = id(reported.note) in found.neutral and former is not None
            if unit.emended and held and read is not None and read[1] == former.norm:
                yield HeldBack(unit)


# --- the readings of an entry --------------------------------------------------------------------------------


@dataclass
class Attestation:
    """Editions that read alike in an entry: the entry's reading they read (`reading`, the lemma or
    a witness's), or a reading of their own (`new`, typed against the lemma); with the readings
    the notes report."""

    editions: list[str]
    display: str
    norm: str
    reported: list[ReportedReading]
    reading: Reading | None = None
    new: Reading | None = None


def attestations(apparatus: Apparatus, unit: Unit, gaps: set[int] | None = None) -> list[Attestation]:
    """The reported editions' readings in the entry, those that read alike together."""
    reported_here = [a for a in unit.annotations if isinstance(a, ReportedReading)]
    if not reported_here:
        return []
    gaps = additions(apparatus) if gaps is None else gaps
    order = list(editions())
    out: dict[str, Attestation] = {}
    for reported in reported_here:
        read = reported.over(unit, gaps)
        if read is None:
            continue
        display, norm = read
        same = out.setdefault(norm, Attestation([], display, norm, []))
        if reported.edition not in same.editions:
            same.editions.append(reported.edition)
        same.reported.append(reported)
    for attestation in out.values():
        attestation.editions.sort(key=order.index)
        words = [r for r in unit.readings if r.type not in NOT_WORDS]
        attestation.reading = next((r for r in [unit.lemma, *words] if r.norm == attestation.norm), None)
        if attestation.reading is None:
            new = Reading([], [], attestation.display, attestation.norm)
            new.type, new.subtype = classify(new, unit.lemma, apparatus.relations)
            attestation.new = new
    return list(out.values())


# --- reporting ---------------------------------------------------------------------------------------------


def report(apparatus: Apparatus, found: ReportedEditionFindings, context: Context) -> Report:
    summary = summarize(apparatus, found, context)
    attested = sum(len(e["attested"]) for e in summary["editions"].values())
    line = f"  reported editions: {len(summary['editions'])} attested in {attested} entries, {len(found.left)} left"
    return Report(NAME, summary, markdown(summary), (line,))


def summarize(apparatus: Apparatus, found: ReportedEditionFindings, context: Context) -> dict:
    table = editions()
    gaps = additions(apparatus)
    persons = context.persons
    by_edition: dict[str, dict] = {}
    for unit in apparatus.all_units():
        for attestation in attestations(apparatus, unit, gaps):
            reads = "lemma" if attestation.reading is unit.lemma else "reading" if attestation.reading else "own"
            for edition in attestation.editions:
                entry = by_edition.setdefault(edition, {"names": list(table[edition].names), "attested": []})
                notes = [r.note for r in attestation.reported if r.edition == edition]
                entry["attested"].append(
                    {
                        "app": f"app-{unit.index + 1}",
                        "lemma": unit.lemma.display,
                        "reading": attestation.display,
                        "reads": reads,
                        "type": attestation.new.type if attestation.new else None,
                        "notes": [
                            {
                                "witness": n.siglum,
                                "line": n.line,
                                "author": persons[n.author].name if n.author in persons else n.author,
                                "words": n.words,
                            }
                            for n in notes
                        ],
                    }
                )
    left = [
        {"edition": edition, "witness": note.siglum, "line": note.line, "words": note.words, "why": why}
        for note, formula, edition, why in found.left
    ]
    return {"editions": {e: by_edition[e] for e in table if e in by_edition}, "left": left}


def markdown(summary: dict) -> str:
    lines = [
        "# Reported editions",
        "",
        "The editions a 校语 cites for a reading, attested where a note reports them.",
        "",
        "| edition | app | lemma | reads | as | note |",
        "|---|---|---|---|---|---|",
    ]
    for ident, entry in summary["editions"].items():
        for row in entry["attested"]:
            said = "; ".join(f"{n['witness']} {n['line']}: {n['words']}" for n in row["notes"])
            lines.append(
                f"| {entry['names'][0]} ({ident}) | {row['app']} | {row['lemma'] or '—'} | {row['reading'] or '—'} | "
                f"{row['reads'] if row['reads'] != 'own' else row['type']} | {said} |"
            )
    lines += ["", f"## Not attested ({len(summary['left'])})", ""]
    lines += [
        f"- {r['edition']}: {r['witness']} line {r['line']} 「{r['words']}」: {r['why']}" for r in summary["left"]
    ]
    return "\n".join(lines) + "\n"
