"""Leaves: the page breaks of the base and of each witness collated, carried into the edition as
`pb` milestones (`ed` the witness, `n` its 卷 and leaf, `facs` the page's id), where the text they
break stands in the edition: in the 經 or in a note of the 注, before the next character the witness
reads. A witness's break inside a reading of its own (words it adds, or reads for the base's) stands
after the entry, so that a reading is always on the leaf where the witness begins it. Where a
witness's pages have photographs (intake.page_images), each break points at its leaf's surface in
the TEI's `facsimile`, whose graphic is the image."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable
from functools import partial

from lxml import etree

from ...intake.model import Segment, Witness
from ...intake.page_images import PageImage
from .markup import TEI_NS, XML_ID, el
from .transcription import taken

Inserts = dict[int, Callable[[], list]]


def page_breaks(apparatus, commentary=None) -> tuple[Inserts, Inserts, Inserts]:
    """The `pb`s by base gap, the base's first, then each witness's in the apparatus's order: of
    the 經 before the note of the 注 that stands at the gap, of the 經 after it, and of the 注 (none
    without the 注 collated)."""
    before, after, inside = {}, {}, {}
    notes = commentary.apparatus if commentary is not None else None
    for siglum in apparatus.witnesses:
        witness = compared(apparatus, siglum)
        breaks = [s for s in witness.segments if s.layer == "format" and s.attrs.get("break") == "page"]
        if not breaks:
            continue
        to_classic = gaps_of(apparatus, siglum)
        glossed = notes is not None and siglum in notes.witnesses
        to_notes = gaps_of(notes, siglum) if glossed else None
        classic, zhu = witness.classic, compared(notes, siglum).classic if glossed else None
        on = None  # the leaf the witness is on
        for segment in breaks:
            attrib = leaf(witness, segment)
            if attrib.get("n", on) == on:  # a break the layout gives no leaf for, or one the file repeats
                continue
            on = attrib["n"]
            pb = partial(el, "pb", attrib)
            c = bisect_left(classic.starts, segment.start)
            next_classic = classic.starts[c] if c < len(classic.starts) else len(witness.raw.text)
            z = bisect_left(zhu.starts, segment.start) if zhu is not None else 0
            if zhu is None or z == len(zhu.starts) or zhu.starts[z] > next_classic:
                after.setdefault(to_classic(c), []).append(pb)
            elif z and (c == 0 or zhu.ends[z - 1] > classic.ends[c - 1]):  # inside a note
                inside.setdefault(to_notes(z), []).append(pb)
            else:  # between a passage of the 經 and its note
                before.setdefault(to_classic(c), []).append(pb)
    return made(before), made(after), made(inside)


def compared(apparatus, siglum: str) -> Witness:
    """The witness as the apparatus compares it: the base, or the witness its map sets against it."""
    return apparatus.base if siglum == apparatus.base.meta.siglum else apparatus.maps[siglum].witness


def leaf(witness: Witness, segment: Segment) -> dict[str, str]:
    """The attributes of a break's `pb`: the witness, and the leaf and page id the layout gives."""
    attrib = {"ed": f"#{witness.meta.xml_id}"}
    return attrib | {
        name: value for name in ("n", "facs") if name in segment.attrs and (value := taken(segment, witness.raw, name))
    }


def made(found: dict[int, list]) -> Inserts:
    return {gap: partial(lambda makes: [make() for make in makes], makes) for gap, makes in found.items()}


def gaps_of(apparatus, siglum: str) -> Callable[[int], int]:
    """Witness token -> the base gap before which its break stands: the base's own token; for a
    witness, where its alignment sets the token, after the entry where the token is inside a
    reading of its own; a token no step of the alignment sets, where the next that one sets."""
    if siglum == apparatus.base.meta.siglum:
        return lambda w: w
    wmap = apparatus.maps[siglum]
    length = len(apparatus.base.classic.tokens)
    gap = [-1] * (len(compared(apparatus, siglum).classic.tokens) + 1)
    gap[-1] = length
    for op in wmap.alignment.ops:
        for w in range(op.w0, op.w1):
            if op.tag == "equal":
                gap[w] = op.b0 + w - op.w0
            else:
                gap[w] = op.b0 if w == op.w0 else min(max(op.b1, op.b0 + 1), length)
    for w in range(len(gap) - 2, -1, -1):
        if gap[w] < 0:
            gap[w] = gap[w + 1]
    return lambda w: gap[min(w, len(gap) - 1)]


def facsimile(body: etree._Element, images: dict[str, dict[str, PageImage]]) -> etree._Element | None:
    """The photographs of the leaves the text's breaks name, a `surface` each (its `graphic` the
    image, with its size and source), each break pointing at its surface; None if there are none."""
    surfaces: dict[str, etree._Element] = {}
    for pb in body.iter(f"{{{TEI_NS}}}pb"):
        siglum = pb.get("ed", "").removeprefix("#w")
        image = images.get(siglum, {}).get(pb.get("facs", ""))
        if image is None:
            continue
        ident = f"f-{image.page}"
        if ident not in surfaces:
            size = {"ulx": "0", "uly": "0", "lrx": str(image.width), "lry": str(image.height)}
            surfaces[ident] = surface = el("surface", {XML_ID: ident, "n": pb.get("n", "")} | size)
            pixels = {"width": f"{image.width}px", "height": f"{image.height}px"}
            graphic = el("graphic", {"url": image.published(siglum)} | pixels, parent=surface)
            el("desc", text=image.source, parent=graphic)
        pb.set("facs", f"#{ident}")
    if not surfaces:
        return None
    holder = el("facsimile")
    holder.extend(surfaces.values())
    return holder
