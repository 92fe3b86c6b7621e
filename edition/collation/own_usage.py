"""The base's own words elsewhere as evidence (本校): where a witness reads a character or two
otherwise than the base, and the base itself writes the witness's words, with its own characters
about the place, elsewhere in the same layer (the 經 and 傳 for the 經, the 注 for the 注) but never
its own reading in those words, the book attests the witness's reading. 鄉射禮's 三耦皆袓決遂,
where WYG reads 袒: the base reads 三耦皆袒 at other places and 三耦皆袓 nowhere else. Three
characters are too few: words as common as 之西北 or 亦如之 would make the base's 之西比耦 (大射,
with the 石經) or 皆如之 a slip; and another layer's words are other words (the 經's 明日賓服鄉服
says nothing of the 注's 今文曰賓服鄉服).

Each attestation is a quotation of the base (layer `elsewhere`, rule 本校) at the first place that
writes the words, so it is an independent source of the reading as any quotation is
(`apparatus.support`), printed 「四部叢刊本他處作「三耦皆袒」」. Compared as the witnesses are: in the
comparison text, script and variant forms folded.
"""

from __future__ import annotations

from ..intake.model import Witness
from ..intake.normalize import UNMAPPED
from .model import Quotation

PHRASE = 4  # characters of the words compared: the reading with the base's characters about it
LONGEST = 2  # characters of a reading, at most: a slip, not a passage
LAYER, RULE = "elsewhere", "本校"


class OwnUsage:
    """The base's text, asked place by place which reading its own words elsewhere attest."""

    def __init__(self, base: Witness):
        self.base = base
        self.words = base.classic.text  # the layer collated, whose tokens the places count

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
                out[reading] = [self.quotation(*found, t0)]
        return out

    def written_elsewhere(self, t0: int, t1: int, own: str, reading: str) -> tuple[int, int] | None:
        """Where the base writes `reading` with its characters about t0:t1, and never `own` with
        them but here: the first such words, as stream positions."""
        spare = PHRASE - len(own)
        for before in range(spare, -1, -1):
            left, right = self.words[max(0, t0 - before) : t0], self.words[t1 : t1 + spare - before]
            if len(left) + len(right) != spare or not (left + right).isalpha():
                continue
            ours, theirs = left + own + right, left + reading + right
            if self.words.find(ours, self.words.find(ours) + 1) >= 0:
                continue  # the base writes its own reading in these words elsewhere too
            hit = self.words.find(theirs)
            if hit >= 0:
                return hit, hit + len(theirs)
        return None

    def quotation(self, p0: int, p1: int, near: int) -> Quotation:
        stream, raw = self.base.classic, self.base.raw
        start, end = stream.starts[p0], stream.ends[p1 - 1]
        words = stream.source(raw, p0, p1)
        return Quotation(
            self.base.meta.siglum, LAYER, RULE, words, stream.text[p0:p1], start, end, raw.line_of(start), near, 0, 0
        )
