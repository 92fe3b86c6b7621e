"""Leaves: the page breaks of the base and of each witness carried into the edition's TEI as `pb`
milestones, so that every reading of an entry is found on its witness's leaf (issue 40)."""

from __future__ import annotations

import subprocess
from bisect import bisect_right
from types import SimpleNamespace

import lxml.html
from lxml import etree
from texts import NS

from edition.intake.model import Op
from edition.publication import pdf, render
from edition.publication.conventions import Conventions
from edition.publication.model import App, GlossView, Leaf
from edition.publication.tei.apparatus import APP_PREFIX, COMMENTARY_APP_PREFIX, app_id
from edition.publication.tei.leaves import gaps_of
from edition.publication.tei.markup import TEI_NS, XML_ID


def leaves_of(witness) -> tuple[list[int], list[str]]:
    """The raw offsets of a witness's page breaks and the leaf each opens (卷-leaf, as `@n`)."""
    breaks = [s for s in witness.segments if s.layer == "format" and s.attrs.get("break") == "page"]
    names = [s.text(witness.raw).rsplit("_", 1)[-1].rstrip(">").lstrip("0") for s in breaks]
    return [s.start for s in breaks], names


def leaf_at(leaves: tuple[list[int], list[str]], offset: int) -> str | None:
    starts, names = leaves
    k = bisect_right(starts, offset)
    return names[k - 1] if k else None


def test_every_reading_stands_after_its_witnesss_leaf(guanli_edition):
    """Over a whole chapter, 經 and 注: before each entry, the last `pb` of each witness that reads
    words in it names the leaf where the witness's raw file has them (SBCK 卷一, WYG 卷一), and the
    base's leaves come in its order, every one of them."""
    edited, document = guanli_edition.edited, guanli_edition.document
    base = edited.apparatus.base.meta.siglum
    by_id = {
        app_id(prefix, unit): (apparatus, unit)
        for prefix, apparatus in ((APP_PREFIX, edited.apparatus), (COMMENTARY_APP_PREFIX, edited.commentary.apparatus))
        for unit in apparatus.all_units()
    }
    sigla = {w.meta.xml_id: s for s, w in edited.apparatus.witnesses.items()}
    raw_leaves = {s: leaves_of(w) for s, w in edited.apparatus.witnesses.items()}
    current: dict[str, str] = {}
    checked, base_leaves = 0, []
    for node in document.getroot().iter(f"{{{TEI_NS}}}pb", f"{{{TEI_NS}}}app"):
        if etree.QName(node).localname == "pb":
            siglum = sigla[node.get("ed").lstrip("#")]
            current[siglum] = node.get("n")
            base_leaves += [node.get("n")] if siglum == base else []
        elif node.get(XML_ID) in by_id:
            apparatus, unit = by_id[node.get(XML_ID)]
            for siglum in apparatus.witnesses:
                start = reading_start(apparatus, unit, siglum)
                if start is not None and raw_leaves[siglum][0]:
                    assert current.get(siglum) == leaf_at(raw_leaves[siglum], start), (node.get(XML_ID), siglum)
                    checked += 1
    assert checked > 200
    assert base_leaves == raw_leaves[base][1]


def reading_start(apparatus, unit, siglum: str) -> int | None:
    """The raw offset where the witness begins its reading of the unit, None where it reads no words."""
    if siglum == apparatus.base.meta.siglum:
        return apparatus.base.classic.starts[unit.t0] if unit.t1 > unit.t0 else None
    wmap = apparatus.maps.get(siglum)
    if wmap is None:
        return None
    spans = [(wmap.start[t], wmap.end[t]) for t in range(unit.t0, unit.t1) if wmap.start[t] >= 0]
    gaps = range(unit.t0, unit.t1 + 1) if unit.t1 == unit.t0 else range(unit.t0 + 1, unit.t1)
    spans += [span for gap in gaps for span in wmap.inserted.get(gap, ())]
    spans = [(a, b) for a, b in spans if b > a]
    if not spans:
        return None
    return wmap.witness.classic.starts[min(a for a, _ in spans)]


def test_a_witnesss_break_inside_its_own_reading_stands_after_the_entry():
    """Base tokens 0–8 against a witness's 0–9: equal 0–3, the base's 3–5 read otherwise as the
    witness's 3–6, two words the witness adds at gap 5 (its 6–8), equal again. A break before a
    token that begins a reading stands before the entry; one inside it, after; one past the last
    token, at the end."""
    ops = [Op("equal", 0, 3, 0, 3), Op("replace", 3, 5, 3, 6), Op("insert", 5, 5, 6, 8), Op("equal", 5, 8, 8, 11)]
    base = SimpleNamespace(meta=SimpleNamespace(siglum="A"), classic=SimpleNamespace(tokens=[None] * 8))
    witness = SimpleNamespace(classic=SimpleNamespace(tokens=[None] * 11))
    apparatus = SimpleNamespace(
        base=base, maps={"B": SimpleNamespace(witness=witness, alignment=SimpleNamespace(ops=ops))}
    )
    gap = gaps_of(apparatus, "B")
    assert [gap(w) for w in range(12)] == [0, 1, 2, 3, 5, 5, 5, 6, 5, 6, 7, 8]
    assert gaps_of(apparatus, "A")(4) == 4  # the base's own


def test_the_site_marks_the_bases_leaves_and_each_entry_names_its_witnesses_leaves(built):
    """鄉射禮's page: each leaf of the base in the text where the TEI has it (卷五葉…), and each
    entry with the leaf of every witness that reads in it and has leaves, as the TEI's `pb`s before
    the entry give it."""
    doc = etree.parse(str(built / "edition.xml"))
    edition = render.read(built / "edition.xml")
    base = next(w for w in edition.witnesses.values() if w.base)
    conventions = Conventions(edition.style)
    html = lxml.html.parse(str(built / "site" / "index.html"))
    marked = [span.text for span in html.iterfind(".//span[@class='leaf']")]
    leaves = [pb.get("n") for pb in doc.iterfind(f".//t:body//t:pb[@ed='#{base.id}']", NS)]
    assert len(leaves) > 20 and marked == [conventions.leaf(n, short=True) for n in leaves]
    assert marked[0] == "五·一a"
    named = {li.get("id"): li.findtext(".//span[@class='entry-leaves']") for li in html.iterfind(".//li[@id]")}
    apps = [app for app in edition.all_apps if app.in_text and app.id in named]
    assert len(apps) > 100
    for app in apps:
        with_leaves = sorted(w for w in app.leaves)
        assert with_leaves, app.id  # the base or 四庫本 reads in every entry
        assert named[app.id] and all(edition.witnesses[w].label in named[app.id] for w in with_leaves), app.id


def test_the_pdf_prints_the_bases_leaves_in_the_margin(built):
    """The left margin of the PDF: each leaf of the base, 卷 and leaf (五·三a), where it begins."""
    edition = render.read(built / "edition.xml")
    conventions = Conventions(edition.style)
    leaves = leaves_in(edition)
    source = pdf.latex(edition)
    base = next(w for w in edition.witnesses.values() if w.base)
    doc = etree.parse(str(built / "edition.xml"))
    assert leaves == [pb.get("n") for pb in doc.iterfind(f".//t:body//t:pb[@ed='#{base.id}']", NS)]
    assert source.count(r"\ledleftnote{\leafno{") >= len(leaves)
    text = subprocess.run(["pdftotext", str(built / "edition.pdf"), "-"], capture_output=True, text=True).stdout
    text = "".join(text.split())
    printed = [n for n in leaves if conventions.leaf(n, short=True) in text]
    assert len(printed) >= 0.9 * len(leaves)  # two leaves that begin on one line: the margin shows the first


def leaves_in(edition) -> list[str]:
    """The base's leaves as the views read them: in the text, the 注 and the lemmata."""

    def of(items) -> list[str]:
        out = []
        for item in items:
            if isinstance(item, Leaf):
                out.append(item.n)
            elif isinstance(item, GlossView):
                out += of(item.items)
            elif isinstance(item, App):
                out += of(item.parts)
        return out

    return [n for section in edition.sections for n in of(section.items)]
