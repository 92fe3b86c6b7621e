"""The base's own words elsewhere as evidence (本校): where a witness reads a character or two
otherwise than the base, and the base itself writes the witness's words, with its own characters
about the place, elsewhere in the same layer (the 經 and 傳 for the 經, the 注 for the 注) but never
its own reading in those words, the book attests the witness's reading. 鄉射禮's 三耦皆袓決遂,
where WYG reads 袒: the base reads 三耦皆袒 at other places and 三耦皆袓 nowhere else. Three
characters are too few: words as common as 之西北 or 亦如之 would make the base's 之西比耦 (大射,
with the 石經) or 皆如之 a slip; and another layer's words are other words (the 經's 明日賓服鄉服
says nothing of the 注's 今文曰賓服鄉服).

The one exception to "the same layer" is the note on the passage itself, which takes up the
words it glosses (`OwnNote`, from data/quotations.toml: X者 in Zheng's 注). Where the note that
follows the place takes up the witness's reading with a character of the base beside it, and never
the base's own, it attests the reading: 士冠禮 卒筮書封, whose 注 just after reads 書卦者筮人….

Each attestation is a quotation of the base (layer `elsewhere`, or the note's layer, rule 本校) at
the first place that writes the words, so it is an independent source of the reading as any
quotation is (`apparatus.support`), printed 「四部叢刊本他處作「三耦皆袒」」 or 「四部叢刊本注引作「書卦」」.
Compared as the witnesses are: in the comparison text, script and variant forms folded.
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass

from ..intake.model import Stream, Witness
from ..intake.normalize import UNMAPPED
from .model import Quotation

PHRASE = 4  # characters of the words compared: the reading with the base's characters about it
LONGEST = 2  # characters of a reading, at most: a slip, not a passage
LAYER, RULE = "elsewhere", "本校"


@dataclass(frozen=True)
class OwnNote:
    """How the base's note on a passage of the classic takes up the words it glosses: the layer
    of the notes, and what follows the words taken up."""

    layer: str
    ending: str


class OwnUsage:
    """The base's text, asked place by place which reading its own words elsewhere attest."""

    def __init__(self, base: Witness, note: OwnNote | None = None):
        self.base = base
        self.words = base.classic.text  # the layer collated, whose tokens the places count
        self.note = note if base.layer == "classic" else None  # only the classic text has notes on it
        self.notes = base.layer_view(note.layer).classic if self.note else None

    def of(self, t0: int, t1: int, readings: set[str]) -> dict[str, list[Quotation]]:
        """Reading -> the base's words elsewhere that attest it at base tokens t0:t1."""
        own = self.words[t0:t1]
        if not 0 < len(own) <= LONGEST or UNMAPPED in own:
            return {}
        out = {}
        for reading in sorted(readings):
            if len(reading) != len(own) or reading == own or not reading.isalpha():
                continue
            found = self.written_elsewhere(t0, t1, own, reading)
            if found is not None:
                out[reading] = [self.quotation(self.base.classic, LAYER, *found, t0)]
            elif self.note is not None and (found := self.taken_up(t0, t1, own, reading)) is not None:
                out[reading] = [self.quotation(self.notes, self.note.layer, *found, t0)]
        return out

    def written_elsewhere(self, t0: int, t1: int, own: str, reading: str) -> tuple[int, int] | None:
        """Where the base writes `reading` with its characters about t0:t1, and never `own` with
        them but here: the first such words, as stream positions."""
        for left, right in self.about(t0, t1, PHRASE - len(own)):
            ours, theirs = left + own + right, left + reading + right
            if self.words.find(ours, self.words.find(ours) + 1) >= 0:
                continue  # the base writes its own reading in these words elsewhere too
            hit = self.words.find(theirs)
            if hit >= 0:
                return hit, hit + len(theirs)
        return None

    def taken_up(self, t0: int, t1: int, own: str, reading: str) -> tuple[int, int] | None:
        """Where the note on the passage of t0:t1 takes up `reading` with the base's characters
        beside it (the most of them first), and never `own` with them: the words, as positions of
        the notes' stream."""
        n0, n1 = self.note_after(t1)
        text, ending = self.notes.text, self.note.ending
        for spare in range(PHRASE - len(own), 0, -1):
            for left, right in self.about(t0, t1, spare):
                if text.find(left + own + right + ending, n0, n1) >= 0:
                    return None
                hit = text.find(left + reading + right + ending, n0, n1)
                if hit >= 0:
                    return hit, hit + spare + len(reading)
        return None

    def about(self, t0: int, t1: int, spare: int):
        """The base's characters before and after tokens t0:t1, `spare` of them in all, the most
        before first: each (left, right) that the text has, of characters alone."""
        for before in range(spare, -1, -1):
            left, right = self.words[max(0, t0 - before) : t0], self.words[t1 : t1 + spare - before]
            if len(left) + len(right) == spare and (left + right).isalpha():
                yield left, right

    def note_after(self, t: int) -> tuple[int, int]:
        """The tokens of the note that follows classic token t - 1: from the first after it up to
        the classic text's next token."""
        classic, notes = self.base.classic, self.notes
        n0 = bisect_left(notes.starts, classic.ends[t - 1])
        if n0 == len(notes.starts):
            return n0, n0
        k = bisect_left(classic.starts, notes.starts[n0])
        return n0, bisect_left(notes.starts, classic.starts[k]) if k < len(classic.starts) else len(notes.starts)

    def quotation(self, stream: Stream, layer: str, p0: int, p1: int, near: int) -> Quotation:
        raw = self.base.raw
        start, end = stream.starts[p0], stream.ends[p1 - 1]
        words = stream.source(raw, p0, p1)
        return Quotation(
            self.base.meta.siglum, layer, RULE, words, stream.text[p0:p1], start, end, raw.line_of(start), near, 0, 0
        )
