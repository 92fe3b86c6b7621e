"""Shared by the tests that read witnesses and their transcriptions: a transcription's body read
back as the raw file, a witness's layers as runs of text, and the Kanripo files of the whole 儀禮
through intake (also bench/whole_work_intake's)."""

from pathlib import Path

from edition.intake.model import WitnessMeta
from edition.intake.profile import load_profile
from edition.intake.witness import ToRead, intake_witnesses
from edition.publication.tei import TEI_NS

NS = {"t": TEI_NS}
WORK = Path(__file__).resolve().parent.parent / "sources"  # the whole 儀禮
# Kanripo's two editions in sources/: text, general profile and 卷 (WYG's 卷首 is 卷 0).
KANRIPO = {"SBCK": ("KR1d0026", "mandoku-notes", range(1, 18)), "WYG": ("KR1d0028", "mandoku-zhushu", range(0, 18))}


def intake_kanripo(normalizer, juans: range = range(0, 18)) -> dict:
    """(siglum, 卷) -> the witness of each Kanripo file of those 卷, read by its edition's general
    profile, the two files of a 卷 as intake_all reads a chapter's witnesses (intake_witnesses)."""
    profiles = {profile: load_profile(profile) for _, profile, _ in KANRIPO.values()}
    read = {}
    for juan in juans:
        files = []
        for siglum, (text, profile, its_juans) in KANRIPO.items():
            if juan in its_juans:
                path = WORK / siglum / f"{text}_{juan:03d}.txt"
                meta = WitnessMeta(siglum, path.name, f"{siglum} 卷{juan}", "traditional", profile)
                files.append(ToRead(meta, path, profiles[profile]))
        read |= {(witness.meta.siglum, juan): witness for witness in intake_witnesses(files, normalizer)}
    return read


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
