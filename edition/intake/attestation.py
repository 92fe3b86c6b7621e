"""Attestation: what no other witness has anywhere is the witness's own, and what another has in its
注, its 音義 or its 疏 is that.

A compiler may set his own words, quotations of other books and the text of his tables in large
characters among the classic text (楊復's 儀禮圖: ○小記為母之君母…, 聘義 and its text, 五服衰冠升數圖),
move the classic text about (the 記 beside the passages it explains), and write Zheng's 注, Lu
Deming's 音義, Jia Gongyan's 疏 and his own glosses into one note (緝七入反…○盈手曰搹…○疏曰…), or
quote them by name in his commentary (欽定儀禮義疏: 鄭氏康成曰…賈氏公彦曰…案…), so that neither layout
nor an alignment in order tells them apart. A rule of kind `attestation` reads the characters of
its `within` layers, in the comparison script, against the other witnesses' text (a
`alignment_rule.Reference`) anywhere in it: a character is attested where a run of `min_run`
characters that holds it stands there, in the text collated where the rule reads the 經 and the
傳, or with `attested_as` in the first of those layers of theirs that has it, whose layer the
character then takes.

A stretch (below) at the margin that the base's 經 of the work's other chapters holds
(`Reference.elsewhere`: runs of four characters hold four fifths of it, see `held`) is attested:
classic text moved here from there (楊復 sets the 記 of 既夕禮 beside 士喪禮: ○記小斂 / 辟奠不出室).
A run of at least twice `min_run` unattested characters takes the rule's `layer` (read over line
ends and notes, not over a label, which ends a section, nor over the classic text where the rule
does not read it). The rest is judged by stretches, the characters one rule application claimed
(a line of text with the pieces of it between its notes, a note or its part after a ○, a scholar's
words after a U+3000), cut after a ○:
- a stretch that opens with a name of the rule's `named` (鄭氏康成曰, 疏曰, 案) takes the layer it
  names, and so do the stretches that go on with it: the next line of text or of a note that
  opens with no other name and no classic text between (the same speaker, into the next line);
- one shorter than `min_run` that is a line of its own right after a stretch that took the rule's
  `layer` is the end of that stretch's words, wrapped (○小記世子不降…與大夫之適子 / 同), and takes it;
- another one shorter than `min_run` takes the layer of the first of `attested_as` whose text
  holds it;
- one of at least `min_stretch` characters (by default `min_run`) half or more of which are
  unattested takes the rule's `layer` (a table's row, 斬衰正義服圖, that uses a word of the classic
  text here and there);
- another takes the layer that attests most of its characters (the 疏 that quotes the 注 in part
  is 疏; a variant reading stays in its place), and one too short to judge that none attests
  stays as it is.
With no other witness to read against, the text stays as the layout put it, recorded as undecided.
"""

from __future__ import annotations

from collections import Counter
from itertools import groupby
from typing import TYPE_CHECKING

import regex

from ..text import HAN
from .align import WILDCARDS
from .alignment_rule import MIN_RUN, References, reference_for
from .model import CODES, Stream
from .rule import TRANSMITTED

if TYPE_CHECKING:
    from .layering import Layering
    from .rule import Rule

KEEP = ""  # an attested character that keeps its layer (a rule with no `attested_as`)


def attested(text: str, references: tuple[str, ...], k: int) -> bytearray:
    """1 for each character of `text` that a run of k characters of some reference holds (a gap or
    a character with no mapping counts as attested: there is nothing to judge)."""
    runs = {reference[i : i + k] for reference in references for i in range(len(reference) - k + 1)}
    found = bytearray(len(text))
    for i in range(len(text) - k + 1):
        if text[i : i + k] in runs:
            found[i : i + k] = b"\x01" * k
    for i, char in enumerate(text):
        if char in WILDCARDS:
            found[i] = 1
    return found


def held(text: str, *by: str, run: int = MIN_RUN, share: float = 0.8) -> bool:
    """Runs of `run` characters that one of the texts `by` holds cover `share` of `text` (a
    character with no mapping counts as held: there is nothing to judge); the texts are searched,
    not indexed, so they may be long (a work's other chapters)."""
    if len(text) < run:
        return False
    found = bytearray(char in WILDCARDS for char in text)
    for i in range(len(text) - run + 1):
        if any(text[i : i + run] in other for other in by):
            found[i : i + run] = b"\x01" * run
    return sum(found) >= share * len(text)


def judged(labels: list[str | None], layer: str, min_stretch: int) -> list[str | None]:
    """The layers of one stretch's characters from what attests each (None: nothing; `layer`: in
    a long unattested run, which keeps it): all `layer` where half or more are unattested, else
    the layer that attests most of them."""
    counts = Counter(labels)
    if len(labels) >= min_stretch and 2 * (counts[None] + counts[layer]) >= len(labels):
        return [layer] * len(labels)
    attesting = max((label for label in counts if label not in (None, layer)), key=counts.__getitem__, default=KEEP)
    return [layer if label == layer else attesting for label in labels]


def stretches(layering: Layering, stream: Stream) -> list[list[int]]:
    """The characters of the stream by the rule application that claimed them (a line and the
    pieces of it between its notes are one), cut after a ○ (the end of a passage of the classic
    text before his quotation: 以名 / 服也○檀弓…), in order."""
    out: dict[tuple[int, int], list[int]] = {}
    raw, cuts = layering.raw.text, 0
    for i, start in enumerate(stream.starts):
        cuts += i > 0 and "○" in raw[stream.ends[i - 1] : start]
        out.setdefault((layering.claim[start], cuts), []).append(i)
    return list(out.values())


def places(layering: Layering, stream: Stream, rule: Rule) -> list[int]:
    """For each character of the stream, the place it stands in: a new one after text of the 經
    or the 傳 where the rule does not read them (two notes with the classic text between), and
    after a label (the end of a section: 以慈已加也, then 右小功五月 and the title of his table)."""
    apart = {CODES[layer] for layer in TRANSMITTED if layer not in rule.within} | {CODES["label"]}
    place, out = 0, []
    for i, start in enumerate(stream.starts):
        place += i > 0 and any(code in apart for code in layering.codes[stream.ends[i - 1] : start])
        out.append(place)
    return out


def labelled(text: str, attesting: list[tuple[str, tuple[str, ...]]], k: int) -> list[str | None]:
    """For each character, the first label whose texts attest it, or None."""
    labels: list[str | None] = [None] * len(text)
    for label, texts in reversed(attesting):  # the first wins
        for i, found in enumerate(attested(text, texts, k)):
            if found:
                labels[i] = label
    return labels


def apply(layering: Layering, rule: Rule, references: References) -> None:
    reference = reference_for(layering, layering.spans(rule.within), references)
    if reference is None:
        return
    k = int(rule.params.get("min_run", MIN_RUN))
    attesting = [(layer, reference.texts_of((layer,))) for layer in rule.params.get("attested_as", ())]
    stream = reference.normalizer.stream(layering.raw, layering.segments(), rule.within)
    labels = labelled(stream.text, attesting or [(KEEP, reference.texts_of(rule.within))], k)
    for stretch in moved_in(layering, stream, reference.searched_of(rule.within)):
        for i in stretch:
            labels[i] = KEEP
    where = places(layering, stream, rule)
    position = 0
    for (_, unattested), run in groupby(range(len(labels)), key=lambda i: (where[i], labels[i] is None)):
        length = len(list(run))
        if unattested and length >= 2 * k:
            labels[position : position + length] = [rule.layer] * length
        position += length
    layers = decided(layering, rule, stream, labels, where, attesting)
    position = 0
    for layer, run in groupby(
        layer if layer and CODES[layer] != code else None for layer, code in zip(layers, stream.codes)
    ):
        length = len(list(run))
        if layer is not None:
            pieces = layering.spans(rule.within, stream.starts[position], stream.ends[position + length - 1])
            for number, (start, end) in enumerate(pieces):
                layering.assign(start, end, layer, rule, join=number > 0)
        position += length


def moved_in(layering: Layering, stream: Stream, elsewhere: tuple[str, ...]) -> list[list[int]]:
    """The stretches at the margin (an indented line is the compiler's) that the texts `elsewhere`
    (the base's 經 of the work's other chapters) hold: classic text moved here from there."""
    raw = layering.raw.text
    return [
        stretch
        for stretch in (stretches(layering, stream) if elsewhere else ())
        if not raw[raw.rfind("\n", 0, stream.starts[stretch[0]]) + 1 :].startswith("\u3000")
        and held("".join(stream.text[i] for i in stretch), *elsewhere)
    ]


def decided(
    layering: Layering,
    rule: Rule,
    stream: Stream,
    labels: list[str | None],
    where: list[int],
    attesting: list[tuple[str, tuple[str, ...]]],
) -> list[str | None]:
    """The layer of each character of the stream, stretch by stretch: by its name or the name of
    the speaker it goes on with, by the texts that hold it whole where it is short, or judged by
    what attests its characters (KEEP: as it is)."""
    k = int(rule.params.get("min_run", MIN_RUN))
    min_stretch = int(rule.params.get("min_stretch", k))
    named = [(layer, regex.compile(pattern)) for layer, pattern in rule.params.get("named", {}).items()]
    layers: list[str | None] = [None] * len(labels)
    speakers: dict[bool, tuple[str, int]] = {}  # in notes and out of them: the last name, and where it ended
    raw = layering.raw.text
    own_before = None  # the last character of the stretch before, where that took the rule's layer
    for stretch in stretches(layering, stream):
        first = stream.starts[stretch[0]]
        indent = raw[raw.rfind("\n", 0, first) + 1 : first]
        in_note = raw[first - 1 : first] in ("(", "○")
        own = "".join(raw[stream.starts[i] : stream.ends[i]] for i in stretch)
        name = next((layer for layer, pattern in named if pattern.match(own)), None)
        previous = speakers.pop(in_note, None)
        if name is None and previous and where[previous[1]] == where[stretch[0]] and not indent.strip("\u3000("):
            name = previous[0]  # a line that goes on with the speaker of the line before
        if name:
            speakers[in_note] = (name, stretch[-1])
        text = "".join(stream.text[i] for i in stretch)
        whole = len(text) < k and next((label for label, texts in attesting if any(text in t for t in texts)), None)
        if not name and len(text) < k and own_before is not None and wrapped(raw, stream, own_before, stretch):
            judgment = [rule.layer] * len(stretch)  # the end of his words, wrapped into a line of its own
        elif name or whole:
            judgment = [name or whole] * len(stretch)
        else:
            judgment = judged([labels[i] for i in stretch], rule.layer, min_stretch)
        for i, layer in zip(stretch, judgment):
            layers[i] = layer
        own_before = stretch[-1] if all(layer == rule.layer for layer in judgment) else None
    return layers


def wrapped(raw: str, stream: Stream, before: int, stretch: list[int]) -> bool:
    """The stretch is the text of a line of its own (its notes aside) right after the line that
    ends with the stream's character `before`: the end of that line's words, wrapped (楊復's
    ○小記世子不降妻之父母其為妻也與大夫之適子 / 同, ○檀弓…其叔父 / 也(伯文殷時滕君也…))."""
    line_end = raw.find("\n", stream.ends[stretch[-1]]) % (len(raw) + 1)
    after = stretch[-1] + 1
    alone = after == len(stream.starts) or stream.starts[after] > line_end
    between = raw[stream.ends[before] : stream.starts[stretch[0]]]
    return stretch[0] == before + 1 and alone and "\n" in between and not HAN.search(between)
