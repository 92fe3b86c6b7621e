"""Publication's model: the edition as read back from its TEI, for the PDF and HTML views."""

from __future__ import annotations

from dataclasses import dataclass, field

FACE = "r-face"  # the id of the TEI's rendition that declares the face the text is set in


@dataclass
class WitnessView:
    id: str
    siglum: str
    title: str
    quality: str
    status: str
    extent: str
    base: bool = False  # the base text (底本)
    name: str = ""  # the short name of the apparatus (禮書綱目)
    author: str = ""
    edition: str = ""  # the edition it reproduces
    abridged: tuple[str, ...] = ()  # the layers it quotes in part (commentary)
    extant: tuple[tuple[str, str, str], ...] = ()  # where it is extant: (first…last, from, to), base characters
    unrecorded: tuple[tuple[str, int], ...] = ()  # (kind, places) of what no entry says: its lacunae, intrusions
    script: str = "traditional"  # the script it writes: traditional, simplified or mixed

    @property
    def role(self) -> str:
        """What it is to the edition: base, included, excluded, evidence, hypothetical or reported."""
        kinds = (("base", self.base), ("hypothetical", self.hypothetical), ("reported", self.reported))
        kinds += (("evidence", self.evidence), ("included", self.included))
        return next((kind for kind, holds in kinds if holds), "excluded")

    @property
    def label(self) -> str:
        """What the apparatus calls it: its name, or its siglum where it has none."""
        return self.name or self.siglum

    @property
    def included(self) -> bool:
        return self.status.startswith("included")

    @property
    def evidence(self) -> bool:
        """A book of evidence: it quotes or judges the text, and is no witness collated."""
        return self.status.startswith("evidence")

    @property
    def hypothetical(self) -> bool:
        return self.status.startswith("hypothetical")

    @property
    def reported(self) -> bool:
        """An edition a 校语 reports: attested only where a note reports it."""
        return self.status.startswith("reported")


@dataclass
class ReadingView:
    id: str
    wit: list[str]
    text: str
    type: str = ""
    subtype: str = ""
    resp: str = ""
    cert: str = ""
    forms: dict[str, str] = field(default_factory=dict)  # witness id -> its own characters, where not `text`
    unmapped: bool = False  # it holds a stand-in that stands for no known character
    quotes: list[tuple[str, str]] = field(default_factory=list)  # (witness id, the note's words)
    reported: list[str] = field(default_factory=list)  # the editions a 校语 reports that read it too (ids)
    corresp: list[str] = field(default_factory=list)  # ids of the readings at a transposition's other place
    elsewhere: list[App] = field(default_factory=list)  # the apps those readings are in
    counterparts: list[ReadingView] = field(default_factory=list)  # those readings
    inner: list[App] = field(default_factory=list)  # the entries nested in this reading


@dataclass
class TextualNote:
    """A witness's 校语 on the entry: its author's id, [(witness id, words)], and whether it
    reports a reading at the entry (a witDetail of type reported names it)."""

    author: str
    quotes: list[tuple[str, str]]
    reports: bool = False


@dataclass(frozen=True)
class Quotation:
    """A quotation of the text in a commentary or book of evidence: the witness, the layer (or
    collation-notes for a judgement), the words, and the id of the reading it attests."""

    wit: str
    layer: str
    words: str
    target: str = ""


@dataclass
class App:
    id: str
    number: int
    lemma: ReadingView
    readings: list[ReadingView]
    editorial: list[str] = field(default_factory=list)  # editors' notes and reasons
    textual: list[TextualNote] = field(default_factory=list)  # the witnesses' 校语
    basis: str = ""  # of an emendation: 對校, 本校, 他校 or 理校
    basis_source: str = ""  # the text a 他校 emendation follows
    same_as: str = ""  # the id of the entry whose emendation this one repeats (the same error)
    evidence: list[Quotation] = field(default_factory=list)  # quotations of the text in the commentary
    markers: list[tuple[str, str]] = field(default_factory=list)  # (witStart… , witness id) inside the entry
    emended: bool = False  # the lemma is not the base's reading: an emendation, automatic or the editor's
    # The lemma is the member of a graphic family (己已巳) the base's words call for, for the base's
    # (lem/@resp #edition-graphic, on the sense: basis 理校).
    graphic: bool = False
    parts: list = field(default_factory=list)  # the lemma's text and the apps nested in it (str or App)
    section: str = ""  # the id of its section
    citation: str = ""  # section.sentence of the sentence it is in
    before: str = ""  # the character of the edited text before it, and after it (for additions)
    after: str = ""
    occurrence: int = 0  # of a lemma that recurs in its sentence: which occurrence it is (1, 2…), else 0
    sentence: str = ""  # the text of its sentence, and where its lemma starts there
    start: int = 0
    within: App | None = None  # the app whose lemma or reading holds it
    in_reading: bool = False  # held by a reading: a moved clause's difference, shown with that reading
    gloss: str = ""  # the id of the note of the 注 it is an entry of ("" for the 經)
    lost_leaf: list[str] = field(default_factory=list)  # a lost leaf of the base: the witnesses it is supplied from
    # The readings that only editions a 校语 reports read (the note, quoted, says them).
    reported: list[ReadingView] = field(default_factory=list)
    leaves: dict[str, str] = field(default_factory=dict)  # witness id -> the leaf its reading begins on
    shown: int = 0  # its number among the entries the apparatus lists (conventions.entries numbers them)

    @property
    def in_text(self) -> bool:
        return not self.in_reading

    @property
    def label(self) -> str:
        """The entry's number as the views give it, counting the entries listed (those that say
        something), the 經's and the 注's apart: 注12 for an entry of the 注."""
        number = self.shown or self.number
        return f"注{number}" if self.gloss else str(number)

    @property
    def nested(self) -> list[App]:
        return [part for part in self.parts if isinstance(part, App)]

    def family(self) -> list[App]:
        """This app and every app nested in its lemma or its readings."""
        inner = [app for part in self.nested for app in part.family()]
        return [self, *inner, *(app for r in self.readings for nested in r.inner for app in nested.family())]

    def of_types(self, types) -> list[ReadingView]:
        return [r for r in self.readings if r.type in types]


@dataclass
class GlossView:
    """A note of Zheng Xuan's 注 after the 經 passage it comments on: its edited text and entries."""

    id: str
    items: list = field(default_factory=list)  # str and App
    section: str = ""
    citation: str = ""  # section.sentence of the 經 it stands in

    @property
    def text(self) -> str:
        return "".join(i.lemma.text if isinstance(i, App) else i for i in self.items if not isinstance(i, Leaf))

    @property
    def apps(self) -> list[App]:
        return [i for i in self.items if isinstance(i, App)]


@dataclass
class Cite:
    """The start of a sentence: its citation (section.sentence), also its xml:id in the TEI."""

    id: str
    n: str


@dataclass
class Paragraph:
    """Where a paragraph of a section begins: its xml:id, and the step of the rite it begins with
    (`n`, empty if none); `first` for the section's first paragraph, which the section opens."""

    id: str
    n: str
    first: bool = False


class Proposed(str):
    """A mark of punctuation the model of 句讀 proposes: text like any other, which the HTML sets apart."""


@dataclass
class LayerMark:
    """Where the edited text changes layer: a 傳 begins (`unit` tradition) or the classic text
    takes up again after it (classic)."""

    unit: str


@dataclass
class Leaf:
    """Where a leaf of the base begins: its 卷 and leaf as the TEI's `pb/@n` gives them (5-3a)."""

    n: str


@dataclass(frozen=True)
class Photograph:
    """The image of a witness's leaf, as the TEI's facsimile gives it (a surface's graphic)."""

    witness: str  # its id (wSBCK)
    n: str  # the leaf (5-3a)
    url: str  # a URL, or a path relative to the edition (images/SBCK/005-3a.png)
    width: int
    height: int
    source: str

    @property
    def local(self) -> bool:
        return "://" not in self.url


MARKS = (Cite, Paragraph, LayerMark, Leaf)  # items of a section that are no text


@dataclass
class SectionView:
    id: str
    title: str
    source: str
    paragraph_id: str
    items: list = field(default_factory=list)  # str, App, Cite or GlossView
    number: int = 0
    opens: str = ""  # the heading of the division (記) that begins with it

    @property
    def text_items(self) -> list:
        """The edited 經 and its entries, without the sentences' citations, the paragraphs' starts and the 注."""
        return [i for i in self.items if not isinstance(i, (*MARKS, GlossView))]

    @property
    def glosses(self) -> list[GlossView]:
        """The notes of the 注 in the section, those a lemma holds among them."""
        return [gloss for item in self.items for gloss in glosses_in(item)]

    @property
    def apps(self) -> list[App]:
        return [i for i in self.items if isinstance(i, App)]


@dataclass
class VariantFormView:
    """A row of the 异体字表."""

    text: str  # the edited text's form
    form: str  # the witnesses' form
    count: int
    witnesses: list[tuple[str, int]]  # witness id, count
    sources: str  # the tables the fold comes from


@dataclass
class EditionView:
    title: str
    tool: str
    witnesses: dict[str, WitnessView]
    sections: list[SectionView]
    apps: list[App]
    gaiji: dict[str, str | None]  # id -> how it prints (render.printed_form); None: no text, not shown
    commentary_apps: list[App] = field(default_factory=list)  # the entries of the 注
    variant_forms: list[VariantFormView] = field(default_factory=list)
    variant_forms_note: str = ""  # the 异体字表's own description
    variant_forms_at_each_place: bool = False  # also recorded in the apparatus (normalization/@method)
    # Classical usages (古今字, 通假) phrased at each place in the print and the HTML (the setting
    # `usages`, normalization/@method of decl-usages); the TEI records them either way.
    usages_at_each_place: bool = True
    persons: dict[str, str] = field(default_factory=dict)  # id -> name, of the header's listPerson
    heading: str = ""  # what heads the text: the chapter's title (鄉射禮第五), else the edition's
    style: str = "chinese"  # the apparatus's conventions (the 凡例's @subtype)
    script: str = "traditional"  # the script the edition writes in (text/@xml:lang)
    face: str = "Noto Serif CJK TC"  # the CJK face the text is set in (tagsDecl/rendition r-face)
    editors: list[str] = field(default_factory=list)  # titleStmt/editor
    place: str = ""  # publicationStmt/pubPlace
    date: str = ""  # publicationStmt/date/@when: the build's day, ISO
    urn: str = ""  # publicationStmt/idno[@type='URN']: the edition's, which its citations extend
    photographs: list[Photograph] = field(default_factory=list)  # of the leaves its breaks name, in order
    urn_delim: str = "."  # what comes between it and a citation (the section's citeStructure/@delim)
    fanli_head: str = ""
    fanli: list[str] = field(default_factory=list)  # the 凡例, item by item
    fanli_keys: list[str] = field(default_factory=list)  # each item's key in conventions.toml (base, script…)

    @property
    def base(self) -> WitnessView | None:
        return next((w for w in self.witnesses.values() if w.base), None)

    @property
    def all_apps(self) -> list[App]:
        """The entries of the 經, then those of the 注."""
        return self.apps + self.commentary_apps

    @property
    def glosses(self) -> list[GlossView]:
        return [gloss for section in self.sections for gloss in section.glosses]

    @property
    def traditions(self) -> dict[str, str]:
        """The traditions a commentator's notes report (hypothetical witnesses: 今文, 古文), by
        reference (#jinwen), with their names."""
        return {f"#{w.id}": w.label for w in self.witnesses.values() if w.hypothetical}

    def photograph(self, witness: str, n: str) -> Photograph | None:
        """The image of a witness's leaf (its id, wSBCK, and the leaf, 5-3a), if the edition has it."""
        return next((p for p in self.photographs if p.witness == witness and p.n == n), None)

    def cited_urn(self, citation: str) -> str:
        """A citation's URN: urn:cts:chineseLit:yili:5.3.2 for 3.2 of 鄉射禮第五."""
        return f"{self.urn}{self.urn_delim}{citation}" if self.urn else ""

    def sigla(self, ids: list[str], joiner: str = " ") -> str:
        """The witnesses' names (sigla where they have none)."""
        return joiner.join(self.witnesses[i.lstrip("#")].label for i in ids if i.lstrip("#") in self.witnesses)


@dataclass
class Collected:
    """What reading the TEI collects: the stand-ins, and the entries of the 經 and of the 注."""

    gaiji: dict
    reported: frozenset[str] = frozenset()  # the ids of the editions a 校语 reports (witnesses of listWit)
    hypothetical: frozenset[str] = frozenset()  # the ids of the traditions a commentator's notes report
    base: str = ""  # the id of the base, whose leaves the text marks
    apps: list[App] = field(default_factory=list)
    commentary_apps: list[App] = field(default_factory=list)


def glosses_in(item) -> list[GlossView]:
    """The notes of the 注 an item is or holds (in a lemma)."""
    if isinstance(item, GlossView):
        return [item]
    return [gloss for part in item.parts for gloss in glosses_in(part)] if isinstance(item, App) else []
