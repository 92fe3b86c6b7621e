"""Shared by the tests that read witnesses and their transcriptions: a transcription's body read
back as the raw file, and a witness's layers as runs of text."""

from edition.publication.tei import TEI_NS

NS = {"t": TEI_NS}


def text_of_body(doc) -> str:
    """The body's text with every lb of a line of the file read as a line end: the raw file again
    (an lb of a printed line inside a file line stands beside its ¶)."""
    ab = doc.find(".//t:body/t:ab", NS)
    for lb in ab.iter(f"{{{TEI_NS}}}lb"):
        if lb.get("type") != "printed":
            lb.tail = ("\n" if lb.get("n") != "1" else "") + (lb.tail or "")
    return "".join(ab.itertext())


def runs(witness, lines: range | None = None) -> list[tuple[str, str]]:
    """(layer, text) with the format left out and what only format separates joined (of the
    segments that begin on `lines`)."""
    out: list[list[str]] = []
    for segment in (s for s in witness.segments if lines is None or s.line in lines):
        if segment.layer == "format":
            continue
        if out and out[-1][0] == segment.layer:
            out[-1][1] += segment.text(witness.raw)
        else:
            out.append([segment.layer, segment.text(witness.raw)])
    return [tuple(r) for r in out]
