"""The 句讀 model trained (`make punctuation-model`): from the public punctuated 禮記 正文 (Kanripo
KR1d0052, tls), with the places of Zheng's notes taken from an edition that prints them (the
四部叢刊 禮記, KR1d0054), and from the punctuated witnesses of the sources (their 經 with the notes
they print, and their 注); with the statistics of the genre's unpunctuated texts with notes (the
禮記 and the 儀禮 in their Kanripo editions) as features. Some 篇 of the 禮記 are kept out, to
score the model on; the sources' punctuated chapter is scored on by a model trained without it
(`bench/punctuation.py`).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from importlib import resources
from importlib.metadata import version
from pathlib import Path

import click
import regex

from ..collation.ngram_statistics import NgramStatistics
from ..collation.punctuation import FULL_WIDTH, is_punctuated
from ..collation.punctuation_model import (
    BREAKS,
    MODEL,
    SENTENCE_BREAKS,
    STATISTICS,
    Labelled,
    PunctuationModel,
    folded,
    score,
    train,
)
from ..intake.align import align
from ..intake.model import Witness, WitnessMeta
from .sources import Sources
from .work_sources import Work

PUNCTUATED = "KR1d0052-tls"  # the 禮記 正文, punctuated
WITH_NOTES = "KR1d0054-SBCK"  # the 禮記 with Zheng's notes, unpunctuated
HELD_OUT = ("投壺", "喪服四制")  # 篇 of the 禮記 kept out of training
# the genre's texts with their notes, unpunctuated, whose statistics are features: the 禮記 and the
# 儀禮 with Zheng's notes (四部叢刊) and with the 疏 (四庫), 楊復's 儀禮圖 and the 欽定儀禮義疏
UNPUNCTUATED = ("KR1d0054-SBCK", "KR1d0053-WYG", "KR1d0026-SBCK", "KR1d0028-WYG", "KR1d0032-WYG", "KR1d0037-WYG")
CHAPTER = regex.compile(r"^\*\* \d+ (\S+)", regex.M)
NOT_TEXT = regex.compile(r"^#.*$|<pb:[^>]*>|¶|^\d+(?:\.\d+)+|^\*\*.*$", regex.M)
CHARACTER = regex.compile(r"[\p{Han}\p{Co}]|&[A-Za-z0-9]+;")
NOTE = regex.compile(r"\([^()]*\)")
SEPARATOR = regex.compile(r"[○〇]")  # between the items of a note (a gloss, the 音義, the 疏)


def punctuated(text: str, layer: str = "classic") -> Labelled:
    """A punctuated text as the model reads it: its characters, and the first break after each."""
    chars: list[str] = []
    breaks: list[str] = []
    for match in regex.finditer(r"[\p{Han}\p{Co}]|&[A-Za-z0-9]+;|\p{P}", text):
        found = match.group()
        if CHARACTER.fullmatch(found):
            chars.append("□" if found.startswith("&") else found)
            breaks.append("")
        elif chars and not breaks[-1]:
            mark = FULL_WIDTH.get(found, found)
            breaks[-1] = mark if mark in BREAKS else ""
    return Labelled("".join(chars), breaks, layer=layer)


def chapters_of(folder: Path) -> dict[str, Labelled]:
    """The 篇 of a punctuated mandoku text, by title."""
    out: dict[str, Labelled] = {}
    for path in sorted(folder.glob("*.txt")):
        text = path.read_text(encoding="utf-8")
        heads = list(CHAPTER.finditer(text))
        for i, head in enumerate(heads):
            body = text[head.end() : heads[i + 1].start() if i + 1 < len(heads) else len(text)]
            out[head.group(1)] = punctuated(NOT_TEXT.sub("", body))
    return out


def classic_with_notes(folder: Path) -> tuple[str, set[int]]:
    """An edition's large characters (the 經, with its headings) and the characters a note follows."""
    chars: list[str] = []
    notes: set[int] = set()
    for path in sorted(folder.glob("*.txt")):
        text = NOT_TEXT.sub("", path.read_text(encoding="utf-8"))
        position = 0
        for note in [*NOTE.finditer(text), None]:
            end = note.start() if note else len(text)
            chars += [c if len(c) == 1 else "□" for c in CHARACTER.findall(text, position, end)]
            if note is not None and chars:
                notes.add(len(chars) - 1)
                position = note.end()
    return "".join(chars), notes


def stretches_of(folder: Path) -> list[str]:
    """The stretches of an edition's text between two notes, and within each note (its lines
    joined) between two separators, in simplified script."""
    out = []
    for path in sorted(folder.glob("*.txt")):
        text = NOT_TEXT.sub("", path.read_text(encoding="utf-8")).replace("\n", "").replace(")(", "")
        for part in [*NOTE.split(text), *(m.group()[1:-1] for m in NOTE.finditer(text))]:
            for stretch in SEPARATOR.split(part):
                chars = "".join(c if len(c) == 1 else "□" for c in CHARACTER.findall(stretch))
                if chars:
                    out.append(fold(chars))
    return out


def fold(text: str) -> str:
    return "".join(map(folded, text))


def agreement(base: str, chars: str) -> float:
    """The share of a witness's characters that align with the base's as the same."""
    ops = align(fold(base), fold(chars)).ops
    return sum(op.w1 - op.w0 for op in ops if op.tag == "equal") / max(1, len(chars))


def with_notes_placed(texts: dict[str, Labelled], edition: str, notes: set[int]) -> None:
    """Each text's notes_after: where the edition's notes stand, through an alignment of the two."""
    titles = list(texts)
    whole = "".join(texts[t].chars for t in titles)
    alignment = align(fold(edition), fold(whole))
    to_edition: dict[int, int] = {}
    for op in alignment.ops:
        if op.tag == "equal":
            to_edition |= {op.w0 + j: op.b0 + j for j in range(op.w1 - op.w0)}
    start = 0
    for title in titles:
        text = texts[title]
        text.notes_after = {i for i in range(len(text.chars)) if to_edition.get(start + i, -1) in notes}
        start += len(text.chars)


def witness_texts(witness: Witness) -> list[Labelled]:
    """A punctuated witness's 經 (one text, with the notes it prints after its characters) and each
    of its 注 notes (a text each)."""
    raw = witness.raw.text
    classic = [s for s in witness.compared_segments]
    commentary = witness.segments_of("commentary")
    text = punctuated("".join(raw[s.start : s.end] for s in classic))
    ends, count = [], 0
    for segment in classic:
        count += len(punctuated(raw[segment.start : segment.end]).chars)
        ends.append((segment.end, count - 1))
    note_starts = [s.start for s in commentary]
    text.notes_after = {
        last
        for i, (end, last) in enumerate(ends)
        if last >= 0
        and any(end <= n < (classic[i + 1].start if i + 1 < len(classic) else len(raw)) for n in note_starts)
    }
    notes = [punctuated(raw[s.start : s.end], "commentary") for s in commentary]
    return [text, *notes]


MIN_AGREEMENT = 0.8


@dataclass
class Corpus:
    """The training texts: the 禮記 by 篇, and the punctuated witnesses' by chapter and siglum."""

    liji: dict[str, Labelled]
    witnesses: dict[tuple[str, str], list[Labelled]]

    @classmethod
    def read(cls, kanripo: Path, chapters: dict[str, tuple[Witness, dict[str, Witness]]]) -> Corpus:
        """The 禮記, and for each chapter (its base, its punctuated witnesses) those witnesses' texts:
        the 經 of one that prints no notes takes the places of the base's."""
        liji = chapters_of(kanripo / PUNCTUATED)
        with_notes_placed(liji, *classic_with_notes(kanripo / WITH_NOTES))
        texts = {}
        for chapter, (base, witnesses) in chapters.items():
            base_classic = witness_texts(base)[0]
            for siglum, witness in witnesses.items():
                classic, *notes = found = witness_texts(witness)
                if agreement(base_classic.chars, classic.chars) < MIN_AGREEMENT:
                    continue  # its classic text is not the base's (a scrambled page, a translation)
                texts[chapter, siglum] = found
                if not notes:
                    with_notes_placed({"": classic}, base_classic.chars, base_classic.notes_after)
        return cls(liji, texts)

    def training(self, without: str = "") -> list[Labelled]:
        """All but the held-out 篇 of the 禮記, and the witnesses but those of chapter `without`."""
        liji = [t for title, t in self.liji.items() if title not in HELD_OUT]
        return liji + [t for (chapter, _), texts in self.witnesses.items() if chapter != without for t in texts]

    def held_out(self) -> list[Labelled]:
        return [self.liji[t] for t in HELD_OUT]


def punctuated_witnesses(work: Work) -> dict[str, tuple[Sources, list[WitnessMeta]]]:
    """The chapters that have punctuated witnesses, with their sources and those witnesses."""
    out = {}
    for chapter in work.chapters:
        sources = work.sources(chapter)
        found = [
            meta
            for meta in sources.witnesses
            if meta.siglum != sources.config.base
            and all(
                is_punctuated(path.read_text(encoding="utf-8", errors="replace")) for path, _ in sources.files(meta)
            )
        ]
        if found:
            out[chapter.title] = (sources, found)
    return out


def read_corpus(kanripo: Path, work: Work) -> tuple[Corpus, dict[str, Path]]:
    """The corpus of the work's punctuated witnesses and the 禮記, and the witnesses' files."""
    chapters, files = {}, {}
    for title, (sources, metas) in punctuated_witnesses(work).items():
        normalizer = sources.normalizer()
        base = next(m for m in sources.witnesses if m.siglum == sources.config.base)
        chapters[title] = (sources.intake(base, normalizer), {m.siglum: sources.intake(m, normalizer) for m in metas})
        files |= {f"{title}/{m.siglum}": sources.files(m)[0][0] for m in metas}
    corpus = Corpus.read(kanripo, chapters)
    return corpus, {name: path for name, path in files.items() if tuple(name.split("/")) in corpus.witnesses}


def scores(model: PunctuationModel, texts: list[Labelled]) -> dict:
    proposed = [model.breaks(t) for t in texts]
    gold = [t.breaks for t in texts]
    return {
        "characters": sum(len(t.chars) for t in texts),
        "sentence_breaks": vars(score(gold, proposed, SENTENCE_BREAKS)),
        "all_breaks": vars(score(gold, proposed, BREAKS)),
    }


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def genre_statistics(kanripo: Path) -> NgramStatistics:
    return NgramStatistics.counted(s for folder in UNPUNCTUATED for s in stretches_of(kanripo / folder))


def files_digest(folder: Path) -> dict:
    files = sorted(folder.glob("*.txt"))
    listing = "".join(f"{sha256(p)}  {p.name}\n" for p in files)
    return {"files": len(files), "sha256_of_listing": hashlib.sha256(listing.encode()).hexdigest()}


def build_model(corpus: Corpus, kanripo: Path, witness_files: dict[str, Path], out: Path) -> dict:
    """Count the genre's statistics, train the model on the whole corpus but the held-out 篇, score
    it on them, and write it with the statistics and its provenance beside it."""
    statistics = genre_statistics(kanripo)
    statistics.write(
        out.with_name(STATISTICS.name), "the statistics of the 句讀 model's features: " + ", ".join(UNPUNCTUATED)
    )
    train(corpus.training(), out, statistics)
    held_out = scores(PunctuationModel(out, statistics), corpus.held_out())
    provenance = {
        "model": "CRF (CRFsuite, L-BFGS), python-crfsuite " + version("python-crfsuite"),
        "labels": "the break after each character: " + BREAKS,
        "trained_on": {
            "liji": {
                "text": f"{PUNCTUATED}: the 禮記 正文, punctuated (Kanripo, CC BY-SA)",
                "notes_from": f"{WITH_NOTES}: the places of Zheng's notes",
                "held_out": list(HELD_OUT),
                "files": {p.name: sha256(p) for p in sorted((kanripo / PUNCTUATED).glob("*.txt"))},
            },
            "witnesses": {name: {"file": p.name, "sha256": sha256(p)} for name, p in witness_files.items()},
            "characters": sum(len(t.chars) for t in corpus.training()),
        },
        "statistics_from": {
            "texts": {folder: files_digest(kanripo / folder) for folder in UNPUNCTUATED},
            "characters": statistics.characters,
            "runs_kept": len(statistics.counts),
        },
        "held_out_scores": held_out,
    }
    Path(out).with_suffix(".json").write_text(json.dumps(provenance, ensure_ascii=False, indent=1) + "\n")
    return provenance


@click.command()
@click.option("--kanripo", type=click.Path(exists=True, file_okay=False, path_type=Path), required=True)
@click.option("--sources", type=click.Path(exists=True, file_okay=False, path_type=Path), default=Path("sources"))
def main(kanripo: Path, sources: Path) -> None:
    """Train the model into the package, and print its held-out scores."""
    corpus, files = read_corpus(kanripo, Work.load(sources))
    with resources.as_file(MODEL) as out:
        provenance = build_model(corpus, kanripo, files, out)
    click.echo(json.dumps(provenance["held_out_scores"], ensure_ascii=False))


if __name__ == "__main__":
    main()
