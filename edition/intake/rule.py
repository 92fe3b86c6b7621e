"""Rules of a layout profile, as read from TOML."""

from __future__ import annotations

from dataclasses import dataclass, field

import regex

from ..errors import EditionError

LAYERS = (
    "classic",
    "tradition",  # 傳: transmitted text explaining the classic (子夏's 傳 of 喪服), collated with it
    "commentary",
    "subcommentary",
    "phonetic",  # 音義: Lu Deming's glosses of sound and sense
    "translation",
    "scholia",
    "kaozheng",  # 考證: an edition's own critical notes at the end of a 卷
    "preface",  # front matter in prose: a 序, the 四庫 提要
    "contents",  # a table of the chapters' contents: Zheng's 目錄 as the 原目 prints it
    "label",
    "chrome",
    "remark",  # a transcriber's remark, not text of the book
    "other-chapter",
    "intrusion",
    "format",
)


TRANSMITTED = ("classic", "tradition")  # the text collated: the 經 and the 傳, in reading order


READS_OTHERS = ("alignment", "attestation")  # the kinds of rule that read the other witnesses' text collated


UNASSIGNED = "unassigned"


FLAGS = {"m": regex.MULTILINE, "s": regex.DOTALL, "x": regex.VERBOSE}


@dataclass(frozen=True)
class Rule:
    name: str
    kind: str
    within: tuple[str, ...]
    layer: str | None = None
    across: tuple[str, ...] = ()  # layers a pattern reads through, as if they were not there
    pattern: regex.Pattern | None = None
    attrs: dict = field(default_factory=dict, hash=False)
    params: dict = field(default_factory=dict, hash=False)
    origin: str = ""  # the profile file or witnesses.toml it comes from

    @property
    def divides(self) -> bool:
        """A rule that moves characters only between the layers collated (經 and 傳): it divides the
        text collated, and never decides what that text is."""
        return {self.layer, *self.within} <= set(TRANSMITTED)

    @classmethod
    def from_table(cls, table: dict, origin: str, line: int | None = None) -> Rule:
        """A rule from a table the schema has validated: what is left to check is its pattern."""
        name = table["name"]
        kind = table.get("kind", "pattern")
        pattern = None
        if "pattern" in table:
            flags = 0
            for flag in table.get("flags", ""):
                flags |= FLAGS[flag]
            try:
                pattern = regex.compile(table["pattern"], flags | regex.VERSION0)
            except regex.error as exc:
                raise EditionError(origin, f"rule {name!r}: bad pattern: {exc}", line) from None
            for group in pattern.groupindex:
                if group.split("__")[0] not in LAYERS:
                    raise EditionError(origin, f"rule {name!r}: group {group!r} names no layer", line)
        if kind == "pattern" and not table.get("layer") and not pattern.groupindex:
            raise EditionError(origin, f"rule {name!r}: needs a layer or named groups", line)
        known = {"name", "kind", "within", "across", "layer", "pattern", "flags", "attrs", "reason"}
        params = {k: v for k, v in table.items() if k not in known}
        within = tuple(table.get("within", [UNASSIGNED]))
        attrs = dict(table.get("attrs", {}))
        return cls(
            name, kind, within, table.get("layer"), tuple(table.get("across", ())), pattern, attrs, params, origin
        )
