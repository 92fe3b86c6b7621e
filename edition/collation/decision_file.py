"""The editors' decisions file (`decisions.toml`) as the engine reads and writes it: its decisions
loaded, each on the layer it names, and a decision written ready to paste (the collation report
offers one for each candidate). What the decisions do is the analysis `decisions`."""

from __future__ import annotations

import json
from pathlib import Path

import regex

from ..errors import EditionError
from ..tables import read_toml
from .model import COLLATION, Apparatus, Decision, Decisions, Reading, Unit
from .reading import UNMAPPED

# The apparatus a decision is on: the 經 (the default) or the 注 (`layer = "注"`), by the base's layer there.
LAYERS = {"經": "classic", "注": "commentary"}
LAYER_NAMES = {layer: name for name, layer in LAYERS.items()}


def layer_of(decision: Decision) -> str:
    return LAYERS[decision.fields.get("layer", "經")]


def load(path: Path) -> Decisions:
    if not path.is_file():
        return Decisions(path, {})
    doc, lines = read_toml(path, "decisions.toml")
    decisions = Decisions(path, dict(doc.get("editors", {})))
    for number, table in enumerate(doc.get("decision", []), 1):
        line = lines.line(("decision", number - 1))
        if table["resp"] not in decisions.editors:
            raise EditionError(
                path,
                f"decision {number}: resp {table['resp']!r} is not in [editors]",
                lines.line(("decision", number - 1, "resp")),
            )
        decisions.items.append(Decision(number, line, table["kind"], dict(table)))
    return decisions


def pattern(context: str) -> regex.Pattern:
    """The context as found in the base's text: a character the base's transcription could not
    encode matches whatever the editor writes there, and the other way round."""
    return regex.compile(
        "".join("." if c == UNMAPPED else f"(?:{regex.escape(c)}|{UNMAPPED})" for c in context), regex.S
    )


def unique_context(text: str, t0: int, t1: int, least: int = 4) -> str:
    """The base text around tokens t0:t1, with them in [brackets], as wide as it takes (from
    `least` characters on either side) to be found once."""
    for width in range(least, len(text) + 1):
        before, after = text[max(0, t0 - width) : t0], text[t1 : t1 + width]
        if len(pattern(before + text[t0:t1] + after).findall(text, overlapped=True)) == 1:
            break
    return f"{before}[{text[t0:t1]}]{after}"


def stanza(apparatus: Apparatus, unit: Unit, reading: Reading, reason: str, resp: str) -> str:
    """A `lemma` decision that makes `reading` the lemma at `unit`, ready to paste."""
    layer = LAYER_NAMES[apparatus.base.layer]
    fields = {
        "kind": "lemma",
        **({"layer": layer} if layer != "經" else {}),
        "context": unique_context(apparatus.base.classic.text, unit.t0, unit.t1),
        "reading": reading.source,
        "basis": COLLATION,
        "reason": reason,
        "resp": resp,
    }
    return "[[decision]]\n" + "".join(
        f"{key} = {json.dumps(value, ensure_ascii=False)}\n" for key, value in fields.items()
    )
