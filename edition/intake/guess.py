"""Guessing how a new witness file is laid out: its encoding, line ends and script, and the
layout features it shows, composed into a profile.

Each feature that can be told from a file's text has a `[detect]` table in its
`features/*.toml`: a `pattern`, how many matches (`min`) show it, the features it goes `with`
only and those it is `unless`. The features found are composed in the order of
`data/composition.toml`. A built-in profile made of the same features (and of others that find
nothing in the file) is named instead of a new one. How sure the guess is comes from what only
this tool knows: how the classic text the profile finds aligns with the base's.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import opencc
import regex

from ..budget import Budget
from ..errors import EditionError
from ..tables import TomlLines, read_toml
from ..text import HAN
from .align import align, layout_problem
from .alignment_rule import Reference
from .model import RawText, Witness
from .normalize import Normalizer
from .profile import Profile, built_in, compose, load_profile, split_layers
from .raw import guess_encoding, marked_encoding, read_raw
from .rule import TRANSMITTED

SURE, LIKELY = 0.9, 0.5  # shares of the classic text aligned in order with the base
BETTER = 0.02  # how much better (a share of the score) another profile must read the file to be chosen
FIT_SAMPLE = 1_000_000  # characters of a file its layout is judged on, at most
ENOUGH = 0.5  # of an edition's files that show a feature, for the edition's profile to compose it
DETECT_TIME_LIMIT = 5  # seconds a detector's pattern may take on one file


@dataclass(frozen=True)
class Detector:
    feature: str
    words: str
    pattern: regex.Pattern | None  # None: found wherever the features it goes with are
    min: int
    goes_with: tuple[str, ...]
    unless: tuple[str, ...]
    sparse: bool = False  # an edition has it if any of its files shows it (a mark only some 卷 have)


@dataclass(frozen=True)
class Detection:
    feature: str
    words: str
    count: int


@dataclass
class Guess:
    encoding: str
    bom: bool
    newline: str
    script: str
    found: list[Detection]
    profile: str
    composed: str | None  # the TOML of a new profile to write as sources/profiles/<profile>.toml
    fit: str  # how sure, in words

    def lines(self, profile_given: bool = False) -> list[str]:
        """What was guessed, for the user; with `profile_given`, only what the profile was not."""
        found = [f"found {f.feature}: {f.words}" + (f" ({f.count}×)" if f.count else "") for f in self.found]
        written = (
            f", composed of {', '.join(f.feature for f in self.found)}; "
            f"written to sources/profiles/{self.profile}.toml for review"
            if self.composed
            else ""
        )
        layout = (
            []
            if profile_given
            else [*found, f"guessed layout profile: {self.profile}{written}", f"how sure: {self.fit}"]
        )
        return [
            f"guessed encoding: {self.encoding}{' with BOM' if self.bom else ''}, {self.newline} line ends",
            f"guessed script: {self.script}",
            *layout,
        ]


@cache
def detectors() -> tuple[Detector, ...]:
    """The features a file can show, in the order a profile composes them."""
    order, _ = read_toml(built_in("data") / "composition.toml")
    out = []
    for name in order["order"]:
        doc, _ = read_toml(built_in("features") / f"{name}.toml", "feature")
        detect = doc.get("detect")
        if detect is None:
            raise EditionError(
                built_in("features") / f"{name}.toml",
                "a feature that data/composition.toml composes needs a [detect] table",
            )
        flags = sum(getattr(regex, f.upper()) for f in detect.get("flags", ""))
        pattern = regex.compile(detect["pattern"], flags) if "pattern" in detect else None
        out.append(
            Detector(
                name,
                detect["words"],
                pattern,
                detect.get("min", 1),
                tuple(detect.get("with", ())),
                tuple(detect.get("unless", ())),
                detect.get("sparse", False),
            )
        )
    return tuple(out)


def features_found(text: str) -> list[Detection]:
    counts: dict[str, Detection] = {}
    for detector in detectors():
        count = (
            len(Budget(DETECT_TIME_LIMIT).run(lambda timeout: detector.pattern.findall(text, timeout=timeout)))
            if detector.pattern
            else 0
        )
        if (
            (detector.pattern and count < detector.min)
            or any(w not in counts for w in detector.goes_with)
            or any(u in counts for u in detector.unless)
        ):
            continue
        counts[detector.feature] = Detection(detector.feature, detector.words, count)
    return list(counts.values())


def composition(found: list[Detection], what: str) -> str:
    """The TOML of a profile of the features found; `what`: whose layout it is, in words."""
    lines = [f'description = """\nThe layout of {what} as `edition add-witness` found it: review it.\n"""\n']
    lines += [f'[[rule]]\nfeature = "{f.feature}"\n' for f in found]
    return "\n".join(lines)


def common_features(found: list[list[Detection]]) -> list[Detection]:
    """The features of an edition of several files: those found in at least ENOUGH of them (a
    sparse one, in any), in the order a profile composes them, their matches added up."""
    counts: dict[str, list[Detection]] = {}
    for detections in found:
        for detection in detections:
            counts.setdefault(detection.feature, []).append(detection)
    return [
        Detection(d.feature, d.words, sum(f.count for f in counts[d.feature]))
        for d in detectors()
        if len(counts.get(d.feature, ())) >= (1 if d.sparse else ENOUGH * len(found))
    ]


def built_in_equivalent(found: list[Detection], text: str | None) -> str | None:
    """A built-in profile made only of features, the found ones among them in the same order, the
    others not shown in the file (fewer matches than their detector's `min`; `text` None: features
    of several files, where the others are those too few of them show)."""
    names = [f.feature for f in found]
    detecting = {d.feature: d for d in detectors()}
    for path in sorted(built_in("profiles").glob("*.toml")):
        doc, _ = read_toml(path, "profile")
        steps = [step.get("feature") for step in doc["rule"]]
        if None in steps or [s for s in steps if s in names] != names:
            continue
        extras = [detecting.get(s) for s in steps if s not in names]
        if all(
            d is not None
            and d.pattern is not None
            and (
                text is None
                or len(Budget(DETECT_TIME_LIMIT).run(lambda timeout, d=d: d.pattern.findall(text, timeout=timeout)))
                < d.min
            )
            for d in extras
        ):
            return path.stem
    return None


def layout(
    found: list[Detection], text: str | None, name: str, origin: Path, what: str = ""
) -> tuple[Profile, str | None]:
    """The profile of the features found: a built-in equivalent, or composed as `name` (with its
    TOML; `what`: whose layout it is, by default witness `name`)."""
    equivalent = built_in_equivalent(found, text)
    if equivalent:
        return load_profile(equivalent), None
    composed = composition(found, what or f"witness {name}")
    return Profile(name, "", compose(tomllib.loads(composed), TomlLines(composed), origin, ())), composed


def decode(data: bytes) -> tuple[str, str, bool]:
    if marked := marked_encoding(data):  # UTF-16 or UTF-32, by its byte order mark
        return data.decode(marked, errors="replace"), marked, False
    if data.startswith(b"\xef\xbb\xbf"):
        return data[3:].decode("utf-8"), "utf-8", True
    try:
        return data.decode("utf-8"), "utf-8", False
    except UnicodeDecodeError:
        encoding = (guess_encoding(data) or "gb18030").lower()
        return data.decode(encoding, errors="replace"), encoding, False


def script_of(text: str) -> str:
    han = {c for c in set(text) if HAN.match(c)}
    to_simplified, to_traditional = opencc.OpenCC("t2s"), opencc.OpenCC("s2t")
    traditional = sum(1 for c in han if to_simplified.convert(c) != c)
    simplified = sum(1 for c in han if to_traditional.convert(c) != c)
    if traditional > 3 * max(simplified, 1):
        return "traditional"
    if simplified > 3 * max(traditional, 1):
        return "simplified"
    return "mixed"


def fit(
    raw: RawText, profile: Profile, base: Witness | None, normalizer: Normalizer | None, unchecked: str = ""
) -> tuple[float, str]:
    """How well the profile reads the file, and that in words: the characters of the classic text
    it finds that align in order with the base's, times their share of that text (so that neither
    commentary read as classic text nor classic text read as commentary scores well); nothing
    below a likely reading. A file larger than FIT_SAMPLE characters is judged on its first
    FIT_SAMPLE (to a line's end): a layout shows in its first pages as well as in all of them."""
    raw = sampled(raw)
    try:
        segments = split_layers(raw, profile, (), Reference.of([base], normalizer) if base else None)
    except EditionError as error:
        return -1.0, f"the profile cannot read it: {error}"
    if base is None:
        return 0.0, unchecked or "no base witness to check its classic text against"
    classic = normalizer.stream(raw, segments, TRANSMITTED)
    alignment = align(base.classic.text, classic.text)
    quality = alignment.quality
    stretches = layout_problem(alignment)
    verdict = (
        "sure"
        if quality >= SURE
        else "likely"
        if quality >= LIKELY
        else "unsure: scrambled or unrelated"
        if stretches is None
        else f"unsure: a layout problem, {len(stretches)} long stretches the base lacks between runs that align "
        "(commentary read as classic text?)"
    )
    return (
        alignment.in_order * quality if quality >= LIKELY else 0.0
    ), f"{quality:.0%} of the classic text it finds aligns in order with the base {base.meta.siglum}'s: {verdict}"


def sampled(raw: RawText) -> RawText:
    """The file's first FIT_SAMPLE characters, to the end of a line; the file itself if it is shorter."""
    if len(raw.text) <= FIT_SAMPLE:
        return raw
    end = raw.text.find("\n", FIT_SAMPLE)
    text = raw.text[: end + 1 if end >= 0 else len(raw.text)]
    return RawText(raw.path, text.encode(raw.encoding), text, raw.encoding)


def guess(
    path: Path,
    siglum: str,
    profiles: dict[str, Profile],
    base: Witness | None = None,
    normalizer: Normalizer | None = None,
    unchecked: str = "",
) -> Guess:
    """How the file at `path` is laid out; `profiles`: the built-in and the edition's own, to be
    weighed against the composed one when there is a base to check them by; `unchecked`: why there
    is none."""
    data = path.read_bytes()
    text, encoding, bom = decode(data)
    crlf = data.count(b"\r\n")
    newline = "CRLF" if crlf and crlf == data.count(b"\n") else "mixed" if crlf else "LF"
    found = features_found(text)
    candidate, composed = layout(found, text, siglum, path)
    name = None if composed else candidate.name
    raw = read_raw(path, encoding)
    score, words = fit(raw, candidate, base, normalizer, unchecked)
    for other, profile in profiles.items():
        if base is None or other == name or profile.aligns_text:
            continue  # a profile that decides its text by the base's cannot be weighed by it
        other_score, other_words = fit(raw, profile, base, normalizer)
        if other_score > score * (1 + BETTER):
            name, composed, score, words = (
                other,
                None,
                other_score,
                f"{other_words} (it reads the file better than the features found)",
            )
    return Guess(encoding, bom, newline, script_of(text), found, name or siglum, composed, words)
