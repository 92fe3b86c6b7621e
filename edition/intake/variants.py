"""Variant forms (异体字): each character's standard form, folded from real tables, every fold with
the tables that give it.

A character is asked of the tables in this order; the first that folds it decides, and every
later table that folds it the same way is named as a source too:

1. the curated `variants.tsv`: the editors' word, for what the tables lack (a row whose standard
   is the variant itself keeps a character unfolded): the package's (`data/variants.tsv`, for
   every work) with the work's own rows (`sources/variants.tsv`) over it;
2. Unicode's canonical equivalents of the CJK compatibility ideographs (篆 U+2F962 → 篆);
3. the substitutions that Kanripo's normalized text makes against each edition at every
   occurrence (`data/kanripo-normalized.tsv`, derived by `bench/kanripo_variants`);
3b. the forms of an edition's large characters that Kanripo's standardized text of the classic
   alone (its 正文, another edition) reads otherwise at every place, at two places at least
   (`data/kanripo-standard-text.tsv`, derived by `bench/kanripo_variants`);
4. Kanripo's table of uncoded characters: a Unicode form and the character it normalizes to
   (`data/kanripo-gaiji.tsv`);
5. Unihan kZVariant, 6. OpenCC's Japanese variants (jp2t), 7. Unihan kSemanticVariant,
   8. Unihan kSpecializedSemanticVariant (Unihan from Debian's unicode-data, read at build time);
9. Unihan's definitions (kDefinition): a character it defines as the same as another, or as a
   variant, a non-classical, corrupted, abbreviated, old, ancient or standard form of it (䰟 "(same
   as 魂)", 㓗 "(non-classical of 潔)"); else a character with the same radical (kRSUnicode) and the same
   definition as one standard character, and strokes besides it that differ by one at most (偹 and
   備 "prepare, ready, perfect"; 璂 and 珮 "jade ornament" stay apart).

Only the curated table folds a character that a standard repertoire has. A table folds a
character only if neither GB 2312 nor Big5 has it (the repertoires of simplified and traditional
text) and it is not OpenCC's traditional form of a simplified character (爲, 衆: the mainland's
traditional script). So 荅 and 筭, which Big5 has, fold by the editors' word, while pairs that
join distinct words of a Chinese text never fold: Unihan's 徹/澈, 够/彀 or 關/寡 (kLau,
kMatthews), OpenCC's Japanese 余→餘 or 弁→辨. Of the characters Unihan relates to a variant, it
folds to the most standard one, if that one alone is. Pairs that Unihan calls simplified and
traditional forms (kSimplifiedVariant, kTraditionalVariant: 于/於, 并/並) never fold: they differ
in script, which the comparison script handles. Folds chain (𢧐 → 戦 → 戰), and a chain stops
before it would come back to a character.
"""

from __future__ import annotations

import bz2
import unicodedata
from collections import Counter, defaultdict
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

import opencc
import regex
from rapidfuzz.distance import Levenshtein

from ..errors import EditionError
from ..tables import read_tsv
from ..text import HAN

UNIHAN = Path("/usr/share/unicode/Unihan_Variants.txt.bz2")
UNIHAN_DEFINITIONS = UNIHAN.with_name("Unihan_Readings.txt.bz2")
UNIHAN_RADICALS = UNIHAN.with_name("Unihan_IRGSources.txt.bz2")  # kRSUnicode, as of Unicode 15
# how a definition names the character it is a form of: (same as 魂), (non-classical form of U+6D93 涓),
# (non-classical variant of U+53A8 厨), (ancient and corrupted form of 臺); not a simplified or
# traditional form (script), nor (interchangeable X) (a usage)
FORM_OF = regex.compile(
    r"\((?:(?:an?|the|same|non|classical|corrupt(?:ed)?|abbreviated|old|ancient|archaic|vulgar|standard|incorrect"
    r"|large|seal|type|form|from|variant|and)[ ,\-]+)*?(?:same as|of)\s+(?:U\+[0-9A-F]+\s+)?(\p{Han})"
)
LEAST_DEFINITION = 8  # characters of a definition that two characters share, at least
MOST_STROKES = 1  # strokes besides the radical by which two such characters differ, at most
DATA = Path(str(resources.files("edition.intake") / "data"))
CURATED = DATA / "variants.tsv"
KANRIPO_NORMALIZED = DATA / "kanripo-normalized.tsv"
KANRIPO_STANDARD_TEXT = DATA / "kanripo-standard-text.tsv"
KANRIPO_GAIJI = DATA / "kanripo-gaiji.tsv"
SCRIPT_FIELDS = ("kSimplifiedVariant", "kTraditionalVariant")
UNIHAN_FIELDS = ("kZVariant", "kSemanticVariant", "kSpecializedSemanticVariant")
JAPANESE = "OpenCC Japanese variants (jp2t)"
CANONICAL = "Unicode canonical equivalent (compatibility ideograph)"
SIMPLIFY, TRADITIONALIZE, KYUJITAI = opencc.OpenCC("t2s"), opencc.OpenCC("s2t"), opencc.OpenCC("jp2t")


@cache
def standardness(char: str) -> int:
    """How standard a character is: in GB 2312 (simplified) and in Big5 or as OpenCC's
    traditional form of a simplified character (爲, 衆): 2 in both, 1 in one, 0 in neither."""
    simplified = SIMPLIFY.convert(char)
    traditional = encodes(char, "big5") or simplified != char and TRADITIONALIZE.convert(simplified) == char
    return encodes(char, "gb2312") + traditional


def encodes(char: str, codec: str) -> bool:
    try:
        char.encode(codec)
    except UnicodeEncodeError:
        return False
    return True


@dataclass(frozen=True)
class Fold:
    standard: str
    sources: tuple[str, ...]


@cache
def unihan() -> dict[str, dict[str, tuple[str, ...]]]:
    """Field -> character -> the characters Unihan relates it to by that field."""
    return unihan_variants()[0]


def unihan_tags(field: str, char: str, related: str) -> tuple[str, ...]:
    """The dictionaries Unihan names for a relation (its source tags: kMatthews, kHanYu…)."""
    return unihan_variants()[1].get((field, char, related), ())


@cache
def unihan_variants() -> tuple[dict[str, dict[str, tuple[str, ...]]], dict[tuple[str, str, str], tuple[str, ...]]]:
    """Unihan's variant table: field -> character -> the characters it relates it to; and
    (field, character, related character) -> the source tags of the relation."""
    if not UNIHAN.is_file():
        raise EditionError(
            UNIHAN, "Unihan's variant table is missing: install the Debian package unicode-data (`make` does)"
        )
    fields: dict[str, dict[str, tuple[str, ...]]] = defaultdict(dict)
    tags: dict[tuple[str, str, str], tuple[str, ...]] = {}
    with bz2.open(UNIHAN, "rt", encoding="utf-8") as handle:
        for line in handle:
            if not line.startswith("U+"):
                continue
            code, field, values = line.rstrip("\n").split("\t")
            if field in SCRIPT_FIELDS + UNIHAN_FIELDS:
                char, related = chr(int(code[2:], 16)), []
                for value in values.split():
                    target, _, sources = value.partition("<")
                    related.append(chr(int(target[2:], 16)))
                    if sources:
                        tags[field, char, related[-1]] = tuple(t.split(":")[0] for t in sources.split(","))
                fields[field][char] = tuple(related)
    return fields, tags


def unihan_field(path: Path, field: str) -> dict[str, str]:
    """Character -> its value of one field of a Unihan file."""
    if not path.is_file():
        raise EditionError(path, "a Unihan table is missing: install the Debian package unicode-data (`make` does)")
    tag = f"\t{field}\t"
    with bz2.open(path, "rt", encoding="utf-8") as handle:
        return {
            chr(int(line[2 : line.index("\t")], 16)): line.rstrip("\n").split("\t", 2)[2]
            for line in handle
            if tag in line
        }


@cache
def definition_folds() -> dict[str, tuple[str, str]]:
    """Character -> (the character Unihan's definition makes it a form of, the source): the one it
    names (䰟 "(same as 魂)"), else the one standard character of the same radical and the same
    definition (偹, 備)."""
    definitions = unihan_field(UNIHAN_DEFINITIONS, "kDefinition")
    radical_strokes = {
        c: (radical.rstrip("'"), int(strokes))
        for c, rs in unihan_field(UNIHAN_RADICALS, "kRSUnicode").items()
        for radical, strokes in [rs.split()[0].split(".")]
    }
    folds: dict[str, tuple[str, str]] = {}
    alike: defaultdict[tuple[str, str], list[str]] = defaultdict(list)
    for char, definition in definitions.items():
        if (named := FORM_OF.search(definition)) and named.group(1) != char:
            folds[char] = (named.group(1), f"Unihan kDefinition ({named.group()[1:]})")
        elif char in radical_strokes and len(definition) >= LEAST_DEFINITION:
            alike[radical_strokes[char][0], definition].append(char)
    for (_, definition), chars in alike.items():
        best = max(map(standardness, chars))
        standard = [c for c in chars if standardness(c) == best]
        if best and len(standard) == 1:
            strokes = radical_strokes[standard[0]][1]
            source = f"Unihan kDefinition and kRSUnicode (the same radical and definition: {definition})"
            folds |= {
                c: (standard[0], source)
                for c in chars
                if standardness(c) < best and c not in folds and abs(radical_strokes[c][1] - strokes) <= MOST_STROKES
            }
    return folds


def definition_fold(char: str) -> tuple[str, str] | None:
    """`char`'s fold by Unihan's definitions; the table is read the first time a character reaches it."""
    return definition_folds().get(char)


def script_pair(a: str, b: str) -> bool:
    """Unihan calls one the simplified or traditional form of the other."""
    return any(b in unihan()[field].get(a, ()) or a in unihan()[field].get(b, ()) for field in SCRIPT_FIELDS)


def simplified_only(char: str) -> bool:
    """A character of simplified script alone: OpenCC gives it a traditional form and Big5 has no
    place for it (来, 献; not 于, 尸 or 后, which traditional texts write too)."""
    return TRADITIONALIZE.convert(char) != char and not encodes(char, "big5")


def in_traditional(text: str, mixed: bool = False) -> str:
    """Text in traditional script, character by character (OpenCC's phrases would make 注疏 註疏):
    from a source of simplified or `mixed` script every character OpenCC converts (仪礼 儀禮, 献
    獻); from a traditional one only its simplified-only characters (使来 使來), every other as it
    is (尸, 于 and 云 stay)."""
    return "".join(TRADITIONALIZE.convert(char) if mixed or simplified_only(char) else char for char in text)


def in_script(text: str, script: str, source_script: str) -> str:
    """Words of a source of `source_script` in the edition's `script`: see `in_traditional`; in
    simplified script every character OpenCC converts; a mixed edition keeps them."""
    if script == "traditional":
        return in_traditional(text, mixed=source_script != "traditional")
    return "".join(SIMPLIFY.convert(char) for char in text) if script == "simplified" else text


def unihan_fold(char: str, field: str) -> str | None:
    """The one character of those Unihan relates `char` to by `field` that is the most standard,
    if it is more standard than `char`; of a simplified and a traditional form of one character
    (夀 to 壽 and 寿), the traditional, as the comparison script makes them one."""
    related = [c for c in unihan()[field].get(char, ()) if c != char and not script_pair(char, c)]
    if not related:
        return None
    best = max(map(standardness, related))
    chosen = [c for c in related if standardness(c) == best]
    chosen = [c for c in chosen if not any(script_pair(c, other) and simplified_only(c) for other in chosen)]
    return chosen[0] if len(chosen) == 1 and best > standardness(char) else None


def load_pairs(path: Path, variant_column: str, standard_column: str, source) -> dict[str, tuple[str, str]]:
    """variant -> (standard, source) of a table, its rows that name one character for another."""
    pairs = {}
    for _, row in read_tsv(path, (variant_column, standard_column)):
        variant, standard = row[variant_column], row[standard_column]
        if len(variant) == 1 and len(standard) == 1 and variant != standard and HAN.match(standard):
            pairs.setdefault(variant, (standard, source(row)))
    return pairs


@cache
def kanripo_tables() -> tuple[dict[str, tuple[str, str]], ...]:
    normalized = load_pairs(KANRIPO_NORMALIZED, "variant", "standard", lambda row: row["source"])
    standard_text = load_pairs(KANRIPO_STANDARD_TEXT, "variant", "standard", lambda row: row["source"])
    gaiji = load_pairs(KANRIPO_GAIJI, "form", "normalized", lambda row: f"Kanripo gaiji table ({row['code']})")
    return normalized, standard_text, gaiji


def load_curated(path: Path) -> dict[str, tuple[str, str]]:
    table: dict[str, tuple[str, str]] = {}
    for line, row in read_tsv(path, ("variant", "standard", "source")):
        variant, standard = row["variant"], row["standard"]
        if len(variant) != 1 or len(standard) != 1:
            raise EditionError(path, "variant and standard must be single characters", line)
        if variant in table:
            raise EditionError(path, f"variant {variant} is listed twice", line)
        if not row["source"].strip():
            raise EditionError(path, f"variant {variant} has no source", line)
        table[variant] = (standard, row["source"])
    return table


def canonical(char: str) -> tuple[str, str] | None:
    composed = unicodedata.normalize("NFC", char)
    return (composed, CANONICAL) if composed != char else None


def japanese(char: str) -> tuple[str, str] | None:
    converted = KYUJITAI.convert(char)
    return (
        (converted, JAPANESE)
        if len(converted) == 1 and converted != char and not script_pair(char, converted)
        else None
    )


def unihan_table(field: str):
    def fold(char: str) -> tuple[str, str] | None:
        standard = unihan_fold(char, field)
        if not standard:
            return None
        tags = unihan_tags(field, char, standard)
        return standard, f"Unihan {field}" + (f" ({', '.join(tags)})" if tags else "")

    return fold


@cache
def tables() -> tuple:
    """The tables after the curated one, in order: each a function giving a character's standard
    form there and the source to name, or None."""
    normalized, standard_text, gaiji = kanripo_tables()
    return (
        canonical,
        normalized.get,
        standard_text.get,
        gaiji.get,
        unihan_table("kZVariant"),
        japanese,
        unihan_table("kSemanticVariant"),
        unihan_table("kSpecializedSemanticVariant"),
        definition_fold,
    )


def folds_elsewhere(char: str) -> set[str]:
    """The standard forms the tables but the standardized text's give `char` (the derivation of
    that table leaves out a character they fold otherwise: 𫝊, 傳 in Unihan, 傅 in the 禮記's 正文)."""
    normalized, _, gaiji = kanripo_tables()
    others = (canonical, normalized.get, gaiji.get, japanese, *map(unihan_table, UNIHAN_FIELDS), definition_fold)
    return {hit[0] for table in others if (hit := table(char))}


class VariantForms:
    """The folds of characters to their standard forms, asked character by character."""

    def __init__(self, curated: dict[str, tuple[str, str]]):
        self.curated = curated
        self.folds: dict[str, Fold | None] = {}

    @classmethod
    def load(cls, work_table: Path) -> VariantForms:
        """The package's curated table with a work's own rows over it (a row of the work's that
        folds a character the package's folds decides it)."""
        return cls(load_curated(CURATED) | load_curated(work_table))

    def step(self, char: str) -> Fold | None:
        """The one fold `char` has: the curated table's, else the first table's if no standard
        repertoire has `char`; with every table that folds it the same way."""
        if char not in self.folds:
            hits = (
                [hit for table in tables() if (hit := table(char))]
                if char in self.curated or standardness(char) == 0
                else []
            )
            if char in self.curated:
                standard, source = self.curated[char]
                hits.insert(0, (standard, f"{source} (variants.tsv)"))
            fold = None
            if hits and hits[0][0] != char:
                standard = hits[0][0]
                fold = Fold(standard, tuple(dict.fromkeys(source for found, source in hits if found == standard)))
            self.folds[char] = fold
        return self.folds[char]

    def fold(self, char: str) -> Fold | None:
        """`char` folded through the chain of its folds, with the sources of every step."""
        chain, sources = [char], []
        while (step := self.step(chain[-1])) and step.standard not in chain:
            chain.append(step.standard)
            sources += step.sources
        return Fold(chain[-1], tuple(dict.fromkeys(sources))) if len(chain) > 1 else None

    def standard(self, char: str) -> str:
        fold = self.fold(char)
        return fold.standard if fold else char

    def sources(self, char: str) -> tuple[str, ...]:
        fold = self.fold(char)
        return fold.sources if fold else ()


# --- Derivation of data/kanripo-normalized.tsv ---------------------------------------------------

ENTITY = regex.compile(r"&KR\d+;")
MARKUP = regex.compile(r"<pb:[^>]*>|[¶\r\n()/\u3000]")
ENTITY_MARK = "\ufffc"  # an entity stands for one character; never a fold of its own
SMALL_NOTE = regex.compile(r"\([^()]*\)")


def mandoku_characters(text: str) -> str:
    """The characters of a mandoku file: no header or remark lines, page breaks, line ends,
    brackets or column marks; an entity as one character."""
    body = "".join(line for line in text.splitlines(keepends=True) if not line.startswith("#"))
    return MARKUP.sub("", ENTITY.sub(ENTITY_MARK, body))


def large_characters(text: str) -> str:
    """The characters of a mandoku file but its small notes `(…)`: an edition's 經 and headings."""
    return mandoku_characters(SMALL_NOTE.sub("", text))


def standard_text_characters(text: str) -> str:
    """The Han characters (and entities) of a standardized text: no punctuation, paragraph numbers
    or `** N 篇名` headings."""
    body = "".join(line for line in text.splitlines(keepends=True) if not line.startswith("*"))
    return "".join(regex.findall(rf"{HAN.pattern}|{ENTITY_MARK}", mandoku_characters(body)))


def kanripo_substitutions(
    editions: list[tuple[str, str, str]], least: int = 1, label: str = "Kanripo normalized text"
) -> list[tuple[str, str, int, str]]:
    """(variant, standard, count, source) of each character that Kanripo's normalized text
    replaces by one and the same character at every occurrence in the editions, at `least` places,
    aligned one to one character by character (rapidfuzz's Levenshtein opcodes). `editions` are
    (label, edition characters, normalized characters)."""
    replaced: dict[str, Counter] = defaultdict(Counter)
    kept: Counter = Counter()
    seen_in: dict[tuple[str, str], set[str]] = defaultdict(set)
    for edition_label, a, b in editions:
        for tag, i1, i2, j1, j2 in Levenshtein.opcodes(a, b):
            if tag == "equal":
                kept.update(a[i1:i2])
            elif tag == "replace" and i2 - i1 == j2 - j1:
                for x, y in zip(a[i1:i2], b[j1:j2]):
                    if HAN.match(x) and HAN.match(y):
                        replaced[x][y] += 1
                        seen_in[x, y].add(edition_label)
    rows = []
    for variant, targets in replaced.items():
        if len(targets) == 1 and not kept[variant]:
            ((standard, count),) = targets.items()
            if count >= least:
                rows.append((variant, standard, count, f"{label}: " + ", ".join(sorted(seen_in[variant, standard]))))
    return sorted(rows, key=lambda row: (-row[2], row[0]))
