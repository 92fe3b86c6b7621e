"""A kind of finding is one module: an analysis that places an annotation of its own class, which
writes itself into the TEI. A toy one, placed beside the engine's analyses on a sample of two
witnesses, reaches the edition with nothing else changed; and the 儀禮's reported editions are
written by their annotation alone (the engine's model has no field of them)."""

from dataclasses import dataclass, fields
from types import SimpleNamespace

from probe import SAMPLE, sample_sources, write_witness

from edition.collation.decision_file import load
from edition.collation.model import Annotated, Annotation, Unit
from edition.publication import tei, validate
from edition.publication.tei.apparatus import Encoded
from edition.publication.tei.markup import el
from edition.traditions import Tradition
from edition.traditions.textual_note import TextualNote
from edition.traditions.yili.reported_editions import ReportedReading
from edition.work.chapter_build import edit
from edition.work.sources import Sources

NS = {"t": tei.TEI_NS}


@dataclass(frozen=True)
class Marked(Annotation):
    """A toy annotation: a remark on an entry, written as a `note type="marked"` after its notes
    (it adds nothing to the witnesses or the principles: `Annotation`'s defaults)."""

    remark: str

    @classmethod
    def encode(cls, writer, unit: Unit, marked: list["Marked"]) -> Encoded:
        writer.kept(cls).setdefault("count", [0])[0] += len(marked)
        return Encoded(details=lambda: [el("note", {"type": "marked"}, m.remark) for m in marked])


def marking(apparatus, found):
    for unit in found:
        yield Annotated(unit, Marked(f"marked {unit.lemma.display}"))


MARKS = SimpleNamespace(
    NAME="marks",
    PHASE="entries",
    find=lambda apparatus, context: list(apparatus.units),
    place=marking,
    report=lambda apparatus, found, context: None,
)


def test_an_annotation_placed_by_one_module_reaches_the_tei(tmp_path):
    root = sample_sources(tmp_path / "sources")
    write_witness(root, "B", "b.txt", SAMPLE.replace("西阶", "东阶").encode("utf-8"), append=True)
    sources = Sources.load(root)
    sources.tradition = Tradition("toy", analyses=(MARKS,))
    edited = edit(sources, sources.intake_all(), load(sources.decisions))
    document = tei.edition_document(sources, edited.apparatus, edited.sections, {}, edited.paragraphs)
    notes = document.xpath("//t:app/t:note[@type='marked']", namespaces=NS)
    assert [n.text for n in notes] == [f"marked {u.lemma.display}" for u in edited.apparatus.units] != []
    assert all(n.getparent().find("t:lem", NS) is not None for n in notes)
    assert validate.tei_all_for(document).validate(document)


def test_the_engines_entries_hold_no_field_of_an_analysis_of_the_yili():
    """The 校语 and the editions they report are annotations: a unit has no field of them, and
    their kinds are the traditions' (the editions, the 儀禮's; the 校语, every work's)."""
    assert not {"editions", "textual_notes"} & {f.name for f in fields(Unit)}
    for kind, package in ((ReportedReading, "edition.traditions.yili"), (TextualNote, "edition.traditions")):
        assert issubclass(kind, Annotation) and kind.__module__.startswith(package)
