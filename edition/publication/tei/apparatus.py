"""The edition's text and apparatus in TEI: the base's text with an `app` at every entry
(parallel segmentation), cut into sentences and sections, and the 注 after its 經 passages."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import partial

import regex
from lxml import etree
from rapidfuzz.distance import Levenshtein

from ...collation.apparatus import AUTO_RESP, GRAPHIC_RESP, SUPPLIED_RESP
from ...collation.punctuation_model import PROPOSED_RESP
from ...intake.gaiji import GaijiEntry
from ...intake.model import CODES, LAYER_OF_CODE, EvidenceMeta, Witness, WitnessMeta
from ...settings import Person, layer_persons
from ...vocabulary import APP_ORDER
from ..validate import Place
from .markup import TEI_NS, XML_ID, append_text, el
from .transcription import layer_element

MARKER_AT_START = ("witStart", "lacunaEnd")


SENTENCE = regex.compile(r"[^。？！]*[。？！]+[」』”’）]*|[^。？！]+")


SENTENCE_END = regex.compile(r"[。？！][」』”’）]*$")


class Sentences:
    """A section's paragraph written citation unit by unit: an `anchor` of type sentence, whose
    xml:id and @n are its citation (section.unit, c12.3 / 12.3), before the first character of
    each unit, as the HTML and the PDF cite it. A unit is a sentence where the text is punctuated,
    else a passage (the writer closes it). Without a section, text written into an element inside
    the paragraph (a moved clause's place), which starts no unit."""

    def __init__(self, parent: etree._Element, section: int | None = None):
        self.parent, self.section, self.number, self.open = parent, section, 0, section is None

    def start(self) -> None:
        self.number += 1
        n = f"{self.section}.{self.number}"
        el("anchor", {"type": "sentence", XML_ID: f"c{n}", "n": n}, parent=self.parent)
        self.open = True

    def text(self, text: str) -> None:
        for piece in SENTENCE.findall(text):
            first = regex.search(r"\p{Han}|▯", piece)
            if not self.open and first:
                append_text(self.parent, piece[: first.start()])
                self.start()
                piece = piece[first.start() :]
            append_text(self.parent, piece)
            self.went_on(piece)

    def mark(self, node: etree._Element) -> None:
        """Punctuation, which ends a sentence or not but starts none."""
        self.parent.append(node)
        self.went_on(node.text or "")

    def paragraph(self, p: etree._Element) -> None:
        """Go on in a new paragraph, with a new sentence."""
        self.parent, self.open = p, False

    def element(self, node: etree._Element, text: str) -> None:
        if not self.open:
            self.start()
        self.parent.append(node)
        self.went_on(text)

    def close(self) -> None:
        """The unit ends here (a passage of an unpunctuated text): the next character begins one."""
        if self.section is not None:
            self.open = False

    def went_on(self, text: str) -> None:
        """The paragraph went on by `text`: the sentence is closed if it ends one."""
        if self.section is not None and SENTENCE_END.search(text):
            self.open = False


APP_PREFIX, COMMENTARY_APP_PREFIX = "app", "zhu-app"  # of the ids of the apps of the 經 and of the 注


@dataclass
class Encoded:
    """What one kind of annotation adds to an entry: witnesses it reports reading a reading written
    (by the reading's id), readings of its own after the witnesses' (with their notes), details
    after the notes (made when written, after the apps nested in the entry's readings), and the
    entry's type where its readings give none."""

    also: dict[int, list[str]] = field(default_factory=dict)
    readings: list[etree._Element] = field(default_factory=list)
    details: Callable[[], list[etree._Element]] = list
    app_type: str = ""


def annotation_kinds(unit, order: list[type]) -> dict[type, list]:
    """The unit's annotations by kind, the kinds in the order the apparatus received them."""
    kinds: dict[type, list] = {kind: [] for kind in order}
    for annotation in unit.annotations:
        kinds[type(annotation)].append(annotation)
    return {kind: found for kind, found in kinds.items() if found}


def app_id(prefix: str, unit) -> str:
    return f"{prefix}-{unit.index + 1}"


class EditionWriter:
    """Renders an apparatus and its sections as one TEI document (build/edition.xml).

    A clause that a witness reads elsewhere is an `app` of type transposition at each end, its
    transposed readings pointing at each other with `@corresp`: at its place in the base the
    `lem` holds the clause, with the other witnesses' entries inside it nested as `app`s, and the
    witness's `rdg` is empty; where the witness reads it the `lem` is empty and the witness's
    `rdg` holds its text, with its differences from the base's clause nested as `app`s.
    """

    def __init__(
        self,
        apparatus,
        sections,
        persons: dict[str, Person],
        prefix: str = APP_PREFIX,
        paragraphs: dict | None = None,
        evidence: tuple[EvidenceMeta, ...] = (),
        metas: tuple[WitnessMeta, ...] = (),
    ):
        self.apparatus = apparatus
        self.sections = sections
        self.owners = layer_persons(persons)  # layer -> the id of the person whose it is
        self.prefix = prefix  # of the apps' ids
        self.paragraphs = paragraphs or {}  # base token -> the step of the rite a paragraph begins with there
        # A paragraph of the section written, beginning at a token.
        self.new_paragraph: Callable[[int], etree._Element] | None = None
        self.section_end = 0
        self.unit_starts: set[int] = set()  # the base gaps where a citation unit of the section begins
        self.base = apparatus.base
        # The witnesses collated in this layer, then the sources' others (a lost leaf's supplier
        # that this layer's collation leaves out), by their ids.
        self.order = list(dict.fromkeys([*apparatus.witnesses, *(m.siglum for m in metas)]))
        self.ids = {m.siglum: m.xml_id for m in metas} | {s: w.meta.xml_id for s, w in apparatus.witnesses.items()}
        self.evidence = {book.siglum: book.xml_id for book in evidence}  # books of evidence, not collated
        # Witnesses that annotations report (the editions a 校语 reports), by siglum: their ids.
        self.reported_ids: dict[str, str] = {}
        self.kinds: dict[type, dict] = {}  # each kind of annotation written, with what it keeps while writing
        self.also: dict[int, list[str]] = {}  # id of a reading -> the witnesses reported to read it too, in the app
        self.gaiji: set[GaijiEntry] = set()
        self.counterparts: dict[int, list] = {}  # reading id -> the transposed readings at the other place
        self.places = apparatus.places  # the units that hold those inside them: moved clauses' places, lost leaves
        self.punctuated: set[int] = set()  # base gaps whose carried punctuation is written
        self.inserts: dict[
            int, Callable[[], list]
        ] = {}  # base gap -> what else stands there (the 注 after its passage), made when written
        self.inserted: set[int] = set()
        self.queue: deque = deque()  # the units not yet written, in the order of the text
        self.position, self.t = 0, 0  # where writing stands: a raw offset of the base, after its token t - 1

    def app_id(self, unit) -> str:
        return app_id(self.prefix, unit)

    def offset(self, t: int) -> int:
        tokens = self.base.classic.tokens
        return tokens[t].start if t < len(tokens) else len(self.base.raw.text)

    def wit(self, sigla) -> str:
        """The witnesses' ids in the apparatus's order, then books of evidence (not collated), then
        the witnesses annotations report."""
        order = [*self.order, *self.evidence, *self.reported_ids]
        ids = self.ids | self.evidence | self.reported_ids
        return " ".join(f"#{ids[s]}" for s in sorted(set(sigla), key=order.index))

    def kept(self, kind: type) -> dict:
        """What a kind of annotation keeps while the edition is written (the first time: it is written)."""
        return self.kinds.setdefault(kind, {})

    def written_kinds(self) -> list[type]:
        """The kinds of annotation written, in the order the apparatus received them."""
        return [kind for kind in self.apparatus.kinds if kind in self.kinds]

    def append_tokens(
        self,
        parent,
        raw,
        tokens,
        markers_before=None,
        markers_after=None,
        base_from: int | None = None,
        marks: dict[int, int] | None = None,
    ) -> None:
        """Tokens as the witness writes them: gaps as gap, stand-ins as g. Base tokens from base
        token `base_from` on have the base's own punctuation between them, and the punctuation
        carried over to the base; other tokens the punctuation of the base gaps `marks` names."""
        for index, token in enumerate(tokens):
            for name, siglum in (markers_before or {}).get(index, ()):
                el(name, {"wit": self.wit([siglum])}, parent=parent)
            if base_from is not None and index:
                append_text(parent, self.base.classic_between(tokens[index - 1].end, token.start))
                parent.extend(self.carried(base_from + index) + self.inserted_at(base_from + index))
            elif marks and index in marks:
                parent.extend(self.carried(marks[index]))
            source = token.source(raw)
            if token.kind == "gap":
                gap = el("gap", {"reason": "lost", "quantity": str(len(source)), "unit": "marks"}, parent=parent)
                el("desc", text=source, parent=gap)
            elif token.kind == "gaiji":
                el("g", {"ref": f"#{token.gaiji.xml_id}"}, source, parent=parent)
                self.gaiji.add(token.gaiji)
            else:
                append_text(parent, source)
            for name, siglum in (markers_after or {}).get(index, ()):
                el(name, {"wit": self.wit([siglum])}, parent=parent)

    def carries(self, gap: int) -> bool:
        """Base gap `gap` has carried punctuation not yet written."""
        return gap in self.apparatus.punctuation and gap not in self.punctuated

    def carried(self, gap: int) -> list[etree._Element]:
        """The punctuation at base gap `gap` as editorial `pc`, once: the editor's (@resp), carried from a
        witness (@source), or proposed by the model of 句讀 (@resp)."""
        if not self.carries(gap):
            return []
        self.punctuated.add(gap)
        by, decided = self.apparatus.punctuation_by.get(gap, ""), self.apparatus.punctuation_decided.get(gap)
        if decided is not None:
            attrib = {"resp": f"#ed-{decided.resp}"}
        elif by:
            attrib = {"resp": f"#{AUTO_RESP}", "source": f"#{self.ids[by]}"}
        else:
            attrib = {"resp": f"#{PROPOSED_RESP}"}
        return [el("pc", attrib, mark) for mark in self.apparatus.punctuation[gap]]

    def inserted_at(self, gap: int) -> list[etree._Element]:
        """What else stands at base gap `gap`, once."""
        if gap not in self.inserts or gap in self.inserted:
            return []
        self.inserted.add(gap)
        return self.inserts[gap]()

    def overdue(self, unit) -> list[etree._Element]:
        """What stands at the gaps inside a unit that its lemma did not hold (one not of the base)."""
        return [node for gap in range(unit.t0 + 1, unit.t1) for node in self.inserted_at(gap)]

    def append_base(self, sentences: Sentences, start: int, t0: int, t1: int, end: int | None = None) -> None:
        """The base's classic text from raw offset `start` (after its token `t0` - 1) to its token
        `t1` (or, up to raw offset `end`, through its token `t1` - 1), with the punctuation carried
        over to the gaps on the way and what else stands there."""
        tokens = self.base.classic.tokens
        for gap in range(t0, t1 + 1 if end is None else t1):
            if self.carries(gap) or gap in self.inserts and gap not in self.inserted or gap in self.unit_starts:
                stop = max(start, tokens[gap - 1].end) if gap else start
                sentences.text(self.base.classic_between(start, stop))
                for mark in self.carried(gap):
                    sentences.mark(mark)
                sentences.parent.extend(self.inserted_at(gap))
                if gap in self.unit_starts:
                    sentences.close()
                start = stop
        if end is None:
            end = tokens[t1].start if t1 < len(tokens) else len(self.base.raw.text)
        sentences.text(self.base.classic_between(start, end))

    def reading_element(self, tag: str, reading, unit, raw, base_from: int | None = None):
        attrib = {XML_ID: reading.xml_id}
        sigla = [*reading.sigla, *self.also.get(id(reading), ())]
        if sigla:
            attrib["wit"] = self.wit(sigla)
        if reading.type:
            attrib["type"] = reading.type
        if reading.subtype:
            attrib["subtype"] = reading.subtype
        if tag == "lem" and not reading.tokens and not reading.display:
            attrib["type"] = "omission"
        if tag == "lem" and unit.emended:
            attrib["resp"] = f"#{AUTO_RESP}"
        if tag == "lem" and unit.graphic:
            attrib["resp"] = f"#{GRAPHIC_RESP}"
        if tag == "lem" and unit.decided is not None:
            attrib["resp"] = f"#ed-{unit.decided.resp}"
        if tag == "rdg" and reading.error is not None:
            attrib["cause"] = "error"
        if id(reading) in self.counterparts:
            attrib["corresp"] = " ".join(f"#{other.xml_id}" for other in self.counterparts[id(reading)])
        leaf = unit.lost_leaf
        if leaf is not None and tag == "lem":  # supplied by the tool, from the witness named
            attrib |= {"resp": f"#{SUPPLIED_RESP}", "source": self.wit([leaf.source])}
        node = etree.Element(f"{{{TEI_NS}}}{tag}", attrib)
        if leaf is not None and reading.type == "lacuna" and self.base.meta.siglum in reading.sigla:
            el("desc", text=leaf.remark, parent=el("gap", {"reason": "lost", "unit": "leaf"}, parent=node))
        before: dict[int, list] = {}
        after: dict[int, list] = {}
        for siglum, names in unit.markers.items():
            if siglum not in reading.sigla:
                continue
            for name in names:
                if tag == "lem" or reading.type == "fragment":
                    token_index = self.marker_index(unit, siglum, name)
                else:
                    token_index = 0 if name in MARKER_AT_START else max(0, len(reading.tokens) - 1)
                (before if name in MARKER_AT_START else after).setdefault(token_index, []).append((name, siglum))
        if reading.intrusion:
            append_text(node, reading.display)
        elif reading.inner:
            position = 0
            for first, end, inner in reading.inner:
                self.append_tokens(node, raw, reading.tokens[position:first])
                node.append(self.app_element(inner))
                position = end
            self.append_tokens(node, raw, reading.tokens[position:])
        elif not reading.tokens and reading.display:  # the editor's own reading
            append_text(node, reading.display)
        elif not (tag == "lem" and id(unit) in self.places):  # a place: body() fills its lemma
            marks = self.carried_into(unit, reading) if tag == "lem" and base_from is None else {}
            self.append_tokens(node, raw, reading.tokens, before, after, base_from, marks)
        if not reading.tokens and (before or after):
            for name, siglum in [*before.get(0, []), *after.get(0, [])]:
                el(name, {"wit": self.wit([siglum])}, parent=node)
        return node

    def carried_into(self, unit, reading) -> dict[int, int]:
        """A lemma not the base's (an emendation): the base gaps inside the unit whose punctuation
        it carries, by its token each stands before, through the characters both read."""
        base = "".join(t.char for t in self.base.classic.tokens[unit.t0 : unit.t1])
        own = "".join(t.char for t in reading.tokens)
        return {
            b0 + k: unit.t0 + a0 + k
            for tag, a0, a1, b0, _ in Levenshtein.opcodes(base, own)
            if tag == "equal"
            for k in range(1, a1 - a0 + 1)
            if a0 + k < len(base) and b0 + k < len(own)
        }

    def marker_index(self, unit, siglum: str, name: str) -> int:
        wmap = self.apparatus.maps.get(siglum)
        extant = [i - unit.t0 for i in range(unit.t0, unit.t1) if wmap is None or wmap.extant[i]]
        if not extant:
            return 0
        return extant[0] if name in MARKER_AT_START else extant[-1]

    def app_element(self, unit):
        app = etree.Element(f"{{{TEI_NS}}}app", {XML_ID: self.app_id(unit)})
        types = unit.types
        if types:
            app.set(
                "type",
                next(t for t in APP_ORDER if t in types),
            )
        groups: dict[str, list] = {}
        for reading in unit.readings:
            groups.setdefault(reading.norm if reading.type in ("orthographic", "gaiji") else id(reading), []).append(
                reading
            )
        lemma_variants = groups.pop(unit.lemma.norm, [])
        base_reads_lemma = unit.lemma.owner in ("", self.base.meta.siglum)
        lemma_raw = self.base.raw if base_reads_lemma else self.source_raw(unit.lemma)
        # A witness that starts or stops here reading the lemma has a reading of its own that holds
        # the marker (TEI Guidelines 12.1.5), so that no entry is a lemma without readings.
        fragments = [s for s in unit.lemma.sigla if unit.markers.get(s)]
        lemma = replace(unit.lemma, sigla=[s for s in unit.lemma.sigla if s not in fragments])
        # What the annotations add: witnesses they report reading the lemma or a reading (the app's
        # own: an app nested in one of its readings restores it when written), readings and details.
        encoded = [
            kind.encode(self, unit, items) for kind, items in annotation_kinds(unit, self.apparatus.kinds).items()
        ]
        outer, self.also = self.also, {key: sigla for e in encoded for key, sigla in e.also.items()}
        if id(unit.lemma) in self.also:
            self.also[id(lemma)] = self.also.pop(id(unit.lemma))
        lem = self.reading_element("lem", lemma, unit, lemma_raw, unit.t0 if base_reads_lemma else None)
        if lemma_variants:
            group = el("rdgGrp", {"type": "lemma"}, parent=app)
            group.append(lem)
            for reading in lemma_variants:
                group.append(self.reading_element("rdg", reading, unit, self.source_raw(reading)))
        else:
            app.append(lem)
        for readings in groups.values():
            for reading in readings:
                app.append(self.reading_element("rdg", reading, unit, self.source_raw(reading)))
        for number, siglum in enumerate(fragments, 1):
            fragment = replace(unit.lemma, sigla=[siglum], type="fragment", subtype=unit.markers[siglum][0])
            fragment.xml_id = f"{self.app_id(unit)}-f{number}"
            app.append(self.reading_element("rdg", fragment, unit, lemma_raw))
        for added in encoded:
            app.extend(added.readings)
        annotated = next((e.app_type for e in encoded if e.app_type), "")
        if annotated and not types:
            app.set("type", annotated)
        elif fragments and not types:
            app.set("type", "fragment")
        for added in encoded:
            app.extend(added.details())
        self.editorial_notes(app, unit)
        self.emendation_details(app, unit)
        self.form_details(app, unit)
        self.also = outer
        return app

    @staticmethod
    def editorial_notes(app: etree._Element, unit) -> None:
        """The editors' reasons: of the lemma's decision, of an error (pointing at the witness's
        reading) and their notes."""
        editorial = [(d, d.reason, {}) for d in ([unit.decided] if unit.decided else [])]
        editorial += [(r.error, r.error.reason, {"target": f"#{r.xml_id}"}) for r in unit.readings if r.error]
        editorial += [(d, d.text, {}) for d in unit.editor_notes]
        for decision, text, target in editorial:  # an error's reason points at the witness's reading
            el("note", {"type": "editorial", "resp": f"#ed-{decision.resp}", **target}, text, parent=app)

    def form_details(self, app: etree._Element, unit) -> None:
        """Where witnesses that share a reading write it in other characters than the reading's
        own, each writing (`witDetail type="form"`, @wit its witnesses, @target the reading)."""
        for reading in unit.readings:
            writings: dict[tuple[str, ...], list] = {}
            for alike in reading.alike:
                writings.setdefault(alike.forms, []).append(alike)
            for alike in writings.values():
                attrib = {
                    "type": "form",
                    "wit": self.wit([s for a in alike for s in a.sigla]),
                    "target": f"#{reading.xml_id}",
                }
                detail = el("witDetail", attrib, parent=app)
                self.append_tokens(detail, self.source_raw(alike[0]), alike[0].tokens)

    def emendation_details(self, app, unit) -> None:
        """The basis of an emendation on its lemma (`@cause`), the source a 他校 emendation cites,
        the emendation elsewhere whose words it corrects alike, and the quotations of the
        commentary that attest a reading (`witDetail`, pointing at the reading)."""
        lem = app.find(f"{{{TEI_NS}}}lem")
        lem = lem if lem is not None else app.find(f"{{{TEI_NS}}}rdgGrp/{{{TEI_NS}}}lem")
        if unit.basis:
            lem.set("cause", unit.basis)
        resp = f"#ed-{unit.decided.resp}" if unit.decided is not None else f"#{AUTO_RESP}"
        if unit.decided is not None and "source" in unit.decided.fields:
            el(
                "bibl",
                text=unit.decided.source,
                parent=el("note", {"type": "editorial", "subtype": "source", "resp": resp}, parent=app),
            )
        if unit.same_as is not None:
            other = f"app-{unit.same_as.index + 1}"
            el(
                "note",
                {"type": "editorial", "subtype": "same-error", "resp": resp, "target": f"#{other}"},
                f"{unit.basis}: the base's words as at {other}, emended so there",
                parent=app,
            )
        ids = {}
        for reading in reversed(unit.all_readings):
            ids[reading.norm] = reading.xml_id
        for norm, quotations in unit.evidence.items():
            for q in quotations:
                detail = el(
                    "witDetail",
                    {
                        "type": "evidence",
                        "subtype": q.layer,
                        "wit": self.wit([q.siglum]),
                        "target": f"#{ids[norm]}",
                        "n": str(q.line),
                    },
                    parent=app,
                )
                el("q", text=q.text, parent=detail)

    def quote(self, parent: etree._Element, siglum: str, words: str) -> None:
        """Words of a witness, quoted (`@source` the witness)."""
        el("quote", {"source": f"#{self.apparatus.witnesses[siglum].meta.xml_id}"}, words, parent=parent)

    def source_raw(self, reading):
        """The raw text of the witness whose tokens the reading holds."""
        siglum = reading.owner or (reading.sigla[0] if reading.sigla else self.base.meta.siglum)
        return self.apparatus.witnesses[siglum].raw

    def prepare(self) -> None:
        """The readings' ids, the annotations' (each kind prepares its own), the transposed
        readings' counterparts, the units to write."""
        for unit in self.apparatus.all_units():
            unit.lemma.xml_id = f"{self.app_id(unit)}-lem"
            for number, reading in enumerate(unit.readings, 1):
                reading.xml_id = f"{self.app_id(unit)}-r{number}"
        for kind in self.apparatus.kinds:
            kind.prepare(self)
        for t in self.apparatus.transpositions:
            away, arrival = t.reading_at(t.away), t.reading_at(t.arrival)
            self.counterparts.setdefault(id(away), []).append(arrival)
            self.counterparts.setdefault(id(arrival), []).append(away)
        self.queue = deque(self.apparatus.entries())

    def write(self, sentences: Sentences, t1: int, takes) -> None:
        """The base's text from where writing stands to its token `t1`, with the units at the head
        of the queue that `takes` accepts: a moved clause's place holds the units inside it."""
        tokens = self.base.classic.tokens
        places: list[tuple[object, etree._Element]] = []  # the moved clauses' places open here: (unit, its lem)

        def close_place() -> None:
            place, lem = places.pop()
            self.append_base(Sentences(lem), self.position, self.t, place.t1, end=tokens[place.t1 - 1].end)
            if not places:
                sentences.went_on("".join(lem.itertext()))
            self.position, self.t = tokens[place.t1 - 1].end, place.t1

        while self.queue and takes(self.queue[0]):
            unit = self.queue.popleft()
            while places and unit.t0 >= places[-1][0].t1:
                close_place()
            if places:
                self.append_base(Sentences(places[-1][1]), self.position, self.t, unit.t0)
            else:
                self.text_to(sentences, unit.t0)
            app = self.app_element(unit)
            if places:
                places[-1][1].append(app)
            else:
                sentences.element(app, "".join(app.find(f".//{{{TEI_NS}}}lem").itertext()))
            if id(unit) in self.places:
                places.append((unit, app.find(f".//{{{TEI_NS}}}lem")))
                self.position, self.t = self.offset(unit.t0), unit.t0
            else:
                (places[-1][1] if places else sentences.parent).extend(self.overdue(unit))
                self.position = tokens[unit.t1 - 1].end if unit.t1 > unit.t0 else self.offset(unit.t0)
                self.t = unit.t1
        while places:
            close_place()
        self.text_to(sentences, t1)
        self.position, self.t = self.offset(t1), t1

    def text_to(self, sentences: Sentences, stop: int) -> None:
        """The base's text on to token `stop`, a new paragraph at each step of the rite that begins on the way."""
        for start in sorted(g for g in self.paragraphs if self.t < g <= stop and g < self.section_end):
            self.append_base(sentences, self.position, self.t, start)
            sentences.paragraph(self.new_paragraph(start))
            self.position, self.t = self.offset(start), start
        self.append_base(sentences, self.position, self.t, stop)

    def body(self):
        self.prepare()
        body = el("body")
        tokens = self.base.classic.tokens
        n = len(tokens)
        holder = body  # the body, or the division the sections are in
        for number, section in enumerate(self.sections, 1):
            last = number == len(self.sections)
            if section.opens is not None:
                heading = section.opens
                holder = el("div", {"type": "division", XML_ID: f"d-{heading.head}"}, parent=body)
                el(
                    "head",
                    {"type": "division"},
                    self.base.classic_between(tokens[heading.t0].start, tokens[heading.t1 - 1].end),
                    parent=holder,
                )
                self.position, self.t = self.offset(section.t0), section.t0  # the heading is not the section's text
            div = el("div", {"type": "section", "n": str(number), XML_ID: section.xml_id}, parent=holder)
            head = {"type": section.kind}  # incipit: its first words
            if section.kind != "incipit":  # a witness's label, or a step the 疏 of a witness or a book names
                head["source"] = self.wit([section.source])
            el("head", head, section.title, parent=div)
            p = self.paragraph(div, section, 1, section.t0)
            self.new_paragraph = lambda start, div=div, section=section: self.paragraph(
                div, section, len(div.findall(f"{{{TEI_NS}}}p")) + 1, start
            )
            self.section_end = section.t1
            self.unit_starts = set(section.units)
            self.write(Sentences(p, number), section.t1, lambda u: u.t0 < section.t1 or (last and u.t0 == n))
        return body

    def paragraph(self, div: etree._Element, section, number: int, start: int) -> etree._Element:
        """A paragraph of the section; one that a step of the rite begins names it (`@n`, the
        commentary's name for it) and the witness whose commentary divides the text so (`@corresp`)."""
        attrib = {XML_ID: f"{section.xml_id}-p{number}"}
        step = self.paragraphs.get(start)
        if step is not None and not (section.kind == "step" and start == section.t0):  # not the section's own
            attrib |= {"n": step.title, "corresp": self.wit([step.source])}
        return el("p", attrib, parent=div)


class CommentaryWriter(EditionWriter):
    """The 注 collated: each note of the base's 注 after the last character of the 經 passage it
    comments on, as a `note type="commentary"` whose @target is the anchor where the passage
    begins (`k` and the number of base characters before it), holding the edited 注 and its
    apparatus, written as the 經's; the ids of its apps begin `zhu-app`."""

    def __init__(
        self,
        commentary,
        persons: dict[str, Person],
        evidence: tuple[EvidenceMeta, ...] = (),
        metas: tuple[WitnessMeta, ...] = (),
    ):
        super().__init__(
            commentary.apparatus, [], persons, prefix=COMMENTARY_APP_PREFIX, evidence=evidence, metas=metas
        )
        self.commentary = commentary
        self.prepare()

    def after_passages(self) -> dict[int, Callable[[], list]]:
        """Base gap of the 經 -> what stands there: the anchor where the first passage begins, and
        after each passage its note and the anchor where the next begins."""
        glosses = self.commentary.glosses
        out = {0: lambda: [passage_anchor(0)]}
        for gloss in glosses:
            out[gloss.c1] = partial(self.note, gloss, gloss is not glosses[-1])
        return out

    def note(self, gloss, anchored: bool) -> list[etree._Element]:
        tag, attrib = layer_element("commentary", self.owners)
        n = str(gloss.index + 1)
        note = el(tag, {**attrib, XML_ID: f"zhu-{n}", "n": n, "target": f"#k{gloss.c0}"})
        self.write(Sentences(note), gloss.t1, lambda u: self.commentary.gloss_of(u).index == gloss.index)
        return [note, passage_anchor(gloss.c1)] if anchored else [note]


class WitnessPlaces:
    """Where a witness has an entry of the edition in its raw file, by the entry's xml:id, and the
    editor's decision applied to it (`decided`, the decisions' findings): what a failure of
    validation names, since the TEI carries no offsets into the raw files."""

    CONTEXT = 2  # tokens on each side of a place where the witness reads nothing

    def __init__(self, apparatus, commentary=None, decided=None):
        layers = [(APP_PREFIX, apparatus)] + ([(COMMENTARY_APP_PREFIX, commentary.apparatus)] if commentary else [])
        self.units = {app_id(prefix, u): (collated, u) for prefix, collated in layers for u in collated.all_units()}
        self.decisions = {}
        for decision in decided.decisions.items if decided else ():
            unit = decided.outcome(decision).applied_to
            if not isinstance(unit, str) and unit is not None:
                self.decisions.setdefault(id(unit), (decided.decisions.path, decision))

    def decision_at(self, app: str) -> Place | None:
        """The first decision applied to the entry, where it is written."""
        _, unit = self.units.get(app, (None, None))
        if id(unit) not in self.decisions:
            return None
        path, decision = self.decisions[id(unit)]
        return Place(str(path), decision.line, "", f"decision {decision.number} ({decision.kind})")

    def __call__(self, app: str, siglum: str) -> Place | None:
        """The witness's file, the line, and what it reads there ('reads 「…」'), or where it reads
        nothing there, the text next to it."""
        collated, unit = self.units.get(app, (None, None))
        witness = collated.witnesses.get(siglum) if collated else None
        if witness is None or not witness.classic.tokens:
            return None
        stream = witness.classic
        w0, w1 = (unit.t0, unit.t1) if siglum == collated.base.meta.siglum else self.span(collated.maps[siglum], unit)
        at = stream.starts[min(w0, len(stream.tokens) - 1)]
        if w1 > w0:
            read = f"reads 「{witness.classic_between(stream.starts[w0], stream.ends[w1 - 1])}」"
        else:
            w0, w1 = max(w0 - self.CONTEXT, 0), min(w0 + self.CONTEXT, len(stream.tokens))
            read = f"reads nothing there, next to 「{witness.classic_between(stream.starts[w0], stream.ends[w1 - 1])}」"
        return Place(str(witness.raw.path_of(at)), witness.raw.line_of(at), read)

    @staticmethod
    def span(wmap, unit) -> tuple[int, int]:
        """The witness's tokens against the unit's base tokens and the gaps inside it (at an
        addition, its gap); an empty span where it reads nothing, at the token nearest the place."""
        gaps = range(unit.t0, unit.t1 + 1) if unit.t1 == unit.t0 else range(unit.t0 + 1, unit.t1)
        spans = [(wmap.start[t], wmap.end[t]) for t in range(unit.t0, unit.t1) if wmap.start[t] is not None]
        spans += [span for gap in gaps for span in wmap.inserted.get(gap, ())]
        if spans and max(e for _, e in spans) > min(s for s, _ in spans):
            return min(s for s, _ in spans), max(e for _, e in spans)
        nearest = min(
            (t for t, start in enumerate(wmap.start) if start is not None), key=lambda t: abs(t - unit.t0), default=None
        )
        at = 0 if nearest is None else wmap.start[nearest]
        return at, at


def passage_anchor(gap: int) -> etree._Element:
    return el("anchor", {XML_ID: f"k{gap}"})


def layer_milestones(base: Witness) -> dict[int, Callable[[], list]]:
    """Base gap -> a `milestone` where the base's text collated changes layer: unit tradition
    where a 傳 begins, unit classic where the classic text takes up again after it; none in a
    text without 傳."""
    codes = base.classic.codes
    changes = [t for t in range(1, len(codes)) if codes[t] != codes[t - 1]]
    if codes and codes[0] != CODES["classic"]:
        changes.insert(0, 0)
    return {t: partial(lambda unit: [el("milestone", {"unit": unit})], LAYER_OF_CODE[codes[t]]) for t in changes}


def joined_inserts(*inserts: dict[int, Callable[[], list]]) -> dict[int, Callable[[], list]]:
    """What stands at each base gap, from several sources, in their order."""
    out: dict[int, Callable[[], list]] = {}
    for source in inserts:
        for gap, make in source.items():
            out[gap] = partial(lambda before, after: before() + after(), out[gap], make) if gap in out else make
    return out
