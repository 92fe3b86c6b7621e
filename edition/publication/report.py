"""Intake reports: what the toolchain found in each witness, as JSON and as a readable summary."""

from __future__ import annotations

from collections import Counter, defaultdict

from .. import __version__
from ..collation import decision_file
from ..collation.apparatus import support
from ..intake.model import Witness
from ..intake.rule import LAYERS
from ..intake.variants import VariantForms
from ..intake.witness import elements
from ..tables import NOT_TEXT, describe_not_text

CONTEXT = 6


def context(witness: Witness, start: int, end: int) -> str:
    text = witness.raw.text
    return (text[max(0, start - CONTEXT) : start] + "[" + text[start:end] + "]" + text[end : end + CONTEXT]).replace(
        "\n", "⏎"
    )


def visible(witness: Witness, segment) -> int:
    """Characters of a segment other than line ends."""
    return segment.end - segment.start - sum(segment.text(witness.raw).count(c) for c in "\r\n")


def layer_counts(witness: Witness) -> dict:
    """Per layer, the elements the transcription makes of it and their characters (a small-column
    break inside a note counts as format)."""
    counts = {layer: {"segments": 0, "characters": 0} for layer in LAYERS}
    for group in elements(witness.segments):
        for segment in group:
            shown = visible(witness, segment)
            counts[segment.layer]["characters"] += shown
            # an element per group, a metamark per format segment that shows
            counts[segment.layer]["segments"] += segment is group[0] if segment.layer != "format" else bool(shown)
    return counts


def rule_counts(witness: Witness) -> list[dict]:
    """How the witness's characters were split: per rule (feature:rule) and layer, in the order
    the rules first claimed something."""
    counts: dict[tuple[str, str], dict] = {}
    for segment in witness.segments:
        entry = counts.setdefault(
            (segment.rule, segment.layer),
            {"rule": segment.rule, "layer": segment.layer, "segments": 0, "characters": 0},
        )
        entry["segments"] += 1
        entry["characters"] += visible(witness, segment)
    return [c for c in counts.values() if c["characters"]]


def witness_report(witness: Witness, variants: VariantForms) -> dict:
    raw, meta = witness.raw, witness.meta
    lacunae = [
        {
            "line": raw.line_of(t.start),
            "column": raw.column_of(t.start),
            "layer": t.layer,
            "marks": t.end - t.start,
            "reason": "lost",
            "context": context(witness, t.start, t.end),
        }
        for t in witness.stream.of_kind("gap")
    ] + [
        {
            "line": s.line,
            "column": raw.column_of(s.start),
            "layer": s.layer,
            "marks": "unknown",
            "reason": s.text(raw),
            "context": context(witness, s.start, s.end),
        }
        for s in witness.lacunae
    ]
    gaiji_lines: dict[str, list[int]] = defaultdict(list)
    gaiji_entries = {}
    for t in witness.stream.of_kind("gaiji"):
        gaiji_lines[t.gaiji.form].append(raw.line_of(t.start))
        gaiji_entries[t.gaiji.form] = t.gaiji
    gaiji = [
        {
            "form": entry.form,
            "id": entry.xml_id,
            "mapping": entry.mapping or None,
            "kind": entry.kind,
            "description": entry.description,
            "count": len(gaiji_lines[form]),
            "lines": sorted(set(gaiji_lines[form])),
        }
        for form, entry in gaiji_entries.items()
    ]
    not_text: dict[str, list[int]] = defaultdict(list)
    for match in NOT_TEXT.finditer(raw.text):
        not_text[match.group()].append(raw.line_of(match.start()))
    intrusions = [
        {
            "line": s.line,
            "column": raw.column_of(s.start),
            "text": s.text(raw),
            "found_by": s.rule,
            "context": context(witness, s.start, s.end),
        }
        for s in witness.segments_of("intrusion")
    ]
    conversions: dict[str, list] = {"variant": [], "opencc": []}
    for (source, target, how), count in sorted(witness.stream.conversions(raw).items(), key=lambda x: (-x[1], x[0])):
        conversion = {"from": source, "to": target, "count": count}
        if how == "variant":
            conversion["folded_by"] = "; ".join(variants.sources(source))
        conversions[how].append(conversion)
    classic = witness.classic  # by its columns: a witness left out of collation never makes its tokens
    return {
        "siglum": meta.siglum,
        "title": meta.title,
        "file": meta.file,
        "sha256": raw.sha256,
        "encoding": meta.encoding,
        "bom": raw.has_bom,
        "newline": raw.newline,
        "characters": len(raw.text),
        "lines": raw.line_count,
        "script": meta.script,
        "profile": meta.profile,
        "layers": layer_counts(witness),
        "split": rule_counts(witness),
        "lacunae": lacunae,
        "gaiji": gaiji,
        "intrusions": intrusions,
        "not_text": [
            {
                "codepoint": f"U+{ord(c):04X}",
                "description": describe_not_text(c),
                "count": len(lines),
                "lines": sorted(set(lines)),
            }
            for c, lines in sorted(not_text.items())
        ],
        "conversions": conversions,
        "extent": {
            "declared": meta.extent,
            "classic_characters": len(classic.starts),
            "incipit": classic.source(raw, 0, 12),
            "explicit": classic.source(raw, -12, None),
            "first_line": raw.line_of(classic.starts[0]) if classic.starts else None,
            "last_line": raw.line_of(classic.starts[-1]) if classic.starts else None,
        },
    }


def witnesses_report(witnesses: list[Witness], variants: VariantForms) -> dict:
    return {"tool": f"edition {__version__}", "witnesses": [witness_report(w, variants) for w in witnesses]}


def summary_markdown(report: dict) -> str:
    lines = ["# Witnesses: what intake found", "", f"Generated by {report['tool']}.", ""]
    for w in report["witnesses"]:
        lines += [
            f"## {w['siglum']} {w['title']}",
            "",
            f"- File `{w['file']}`: {w['characters']} characters on {w['lines']} lines, {w['encoding']}"
            f"{' with BOM' if w['bom'] else ''}, {w['newline']} line ends; "
            f"script {w['script']}; profile `{w['profile']}`.",
            f"- Extent: {w['extent']['classic_characters']} characters of classic text, lines "
            f"{w['extent']['first_line']}–{w['extent']['last_line']}, "
            f"from 「{w['extent']['incipit']}」 to 「{w['extent']['explicit']}」.",
        ]
        if w["extent"]["declared"]:
            lines.append(f"- Declared extent: {w['extent']['declared']}")
        lines += ["", "| layer | segments | characters |", "|---|---:|---:|"]
        lines += [
            f"| {name} | {c['segments']} | {c['characters']} |" for name, c in w["layers"].items() if c["characters"]
        ]
        lines += [
            "",
            "How its characters were split, rule by rule (feature:rule):",
            "",
            "| rule | layer | segments | characters |",
            "|---|---|---:|---:|",
        ]
        lines += [f"| {c['rule']} | {c['layer']} | {c['segments']} | {c['characters']} |" for c in w["split"]]
        lines.append("")
        lost = [g for g in w["lacunae"] if g["reason"] == "lost"]
        lines.append(
            f"- Lacunae (▯): {len(lost)}" + (f", e.g. {', '.join(g['context'] for g in lost[:3])}" if lost else "")
        )
        remarked = [g for g in w["lacunae"] if g["reason"] != "lost"]
        if remarked:
            lines.append(
                "- Lacunae of unknown extent: " + "; ".join(f"line {g['line']} ({g['reason']})" for g in remarked)
            )
        lines.append(
            f"- Gaiji: {sum(g['count'] for g in w['gaiji'])}"
            + "".join(f"; {g['id']} ×{g['count']} → {g['mapping'] or 'unmapped'} ({g['kind']})" for g in w["gaiji"])
        )
        unresolved = [g for g in w["gaiji"] if not g["mapping"]]
        if unresolved:
            lines.append(
                "- Unresolved stand-ins, kept as `g` and compared as unknown: "
                + "; ".join(
                    f"{g['form']} ({g['description']}; lines {', '.join(map(str, g['lines'][:5]))})" for g in unresolved
                )
            )
        if w["not_text"]:
            lines.append(
                "- Characters that are no text, kept as `g` in the transcription: "
                + "; ".join(
                    f"{c['description']} ×{c['count']} (lines {', '.join(map(str, c['lines'][:5]))})"
                    for c in w["not_text"]
                )
            )
        lines.append(f"- Intrusions: {len(w['intrusions'])}")
        lines += [f"  - line {i['line']}: 「{i['text'].strip()}」 in {i['context']}" for i in w["intrusions"]]
        for how, label in (("variant", "variant characters folded"), ("opencc", "OpenCC conversions")):
            pairs = w["conversions"][how]
            total = sum(p["count"] for p in pairs)
            shown = ", ".join(
                f"{p['from']}→{p['to']} ×{p['count']}" + (f" ({p['folded_by']})" if "folded_by" in p else "")
                for p in pairs[:12]
            )
            lines.append(
                f"- {label.capitalize()}: {total}" + (f" ({shown}{', …' if len(pairs) > 12 else ''})" if pairs else "")
            )
        lines.append("")
    return "\n".join(lines)


def collation_report(
    apparatus, sections, editors: dict[str, str], same_errors=(), lost_leaves=(), commentary=None
) -> dict:
    """What collation found: quality and extent per witness, readings by type, transpositions,
    automatic emendations with their evidence, candidates for the editor, and the other places of
    each emendation's words (`same_errors`, from `collation.same_error`)."""
    base = apparatus.base
    tokens = base.classic.tokens

    def base_text(t0: int, t1: int) -> str:
        return "".join(t.source(base.raw) for t in tokens[t0:t1])

    by_type: dict[str, dict[str, int]] = {}
    for unit in apparatus.all_units():
        for reading in unit.readings:
            for siglum in reading.sigla:
                counts = by_type.setdefault(siglum, {})
                counts[reading.type] = counts.get(reading.type, 0) + 1
    witnesses = []
    for siglum, status in apparatus.statuses.items():
        witnesses.append(
            {
                "siglum": siglum,
                "included": status.included,
                "quality": status.quality,
                "reason": status.reason,
                "extant": [
                    {
                        "from": a + 1,
                        "to": b,
                        "incipit": base_text(a, min(b, a + 8)),
                        "explicit": base_text(max(a, b - 8), b),
                    }
                    for a, b in status.extant
                    if b > a
                ],
                "readings": by_type.get(siglum, {}),
                # where it reads the base's text in other characters: base position, its characters,
                # "script" or "orthographic"
                "own_forms": [
                    [i + 1, form, kind] for i, (form, kind) in sorted(apparatus.own_forms.get(siglum, {}).items())
                ],
            }
        )
    transpositions = [
        {
            "siglum": t.siglum,
            "text": t.display,
            "base_from": t.b0 + 1,
            "base_to": t.b1,
            "base_text": base_text(t.b0, t.b1),
            "placed_after": base_text(max(0, t.at - 8), t.at),
            "differences": t.differences,
            "app_here": f"app-{t.away.index + 1}",  # the clause's place in the base
            "app_there": f"app-{t.arrival.index + 1}",  # where the witness reads it
        }
        for t in apparatus.transpositions
    ]

    def context(t0: int, t1: int) -> str:
        return base_text(max(0, t0 - 6), t0) + "[" + base_text(t0, t1) + "]" + base_text(t1, t1 + 6)

    zhu_units = commentary.apparatus.units if commentary is not None else []

    def place(u) -> dict:
        return {
            "app": f"app-{u.index + 1}",
            "base_reading": next((r.display for r in u.all_readings if base.meta.siglum in r.sigla), ""),
            "context": context(u.t0, u.t1),
        }

    emendations = [place(u) | emended(apparatus, u) for u in apparatus.units if u.emended] + [
        zhu_place(commentary, u) | emended(commentary.apparatus, u) for u in zhu_units if u.emended
    ]
    candidates = [
        candidate(apparatus, u, place(u), editors) for u in apparatus.units if u.candidate and not u.decided
    ] + [
        candidate(commentary.apparatus, u, zhu_place(commentary, u), editors)
        for u in zhu_units
        if u.candidate and not u.decided
    ]
    repeats = [
        {
            "emendation": f"app-{r.origin.index + 1}",
            "base_words": base_text(r.t0, r.t1),
            "emended_to": r.origin.lemma.display,
            "context": context(r.t0, r.t1),
            "app": f"app-{r.unit.index + 1}" if r.unit else None,
            "treated_alike": r.applied,
            "why_not": r.why,
        }
        for r in same_errors
    ]
    return {
        "tool": f"edition {__version__}",
        "base": base.meta.siglum,
        "units": len(apparatus.all_units()),
        "textual_notes": sum(
            type(a).NAME == "textual_notes" for u in apparatus.all_units() for a in u.annotations
        ),  # the witnesses' 校语 in the apparatus (annotations of the analysis textual_notes)
        "sections": [
            {"id": s.xml_id, "title": s.title, "from": s.t0 + 1, "to": s.t1, "source": s.source, "kind": s.kind}
            for s in sections
        ],
        "witnesses": witnesses,
        "transpositions": transpositions,
        "emendations": emendations,
        "candidates": candidates,
        "same_errors": repeats,
        # a witness's words of the 經 among its 注 (into commentary) or of the 注 among its 經
        # (into classic), taken out of both apparatus (collation.layer_slips): the base's as
        # compared, the witness's in its own characters
        "layer_slips": [
            {"siglum": s.siglum, "into": s.into, "words": s.words, "theirs": "".join(r.display for r in s.added)}
            for s in apparatus.slips
        ],
        "lost_leaves": list(lost_leaves),
        "families": dict(apparatus.family),
        "agreements": [
            {
                "witnesses": [p.first, p.second],
                "alike": p.alike,
                "only_first": p.first_only,
                "only_second": p.second_only,
                "share": round(p.share, 3),
                "together": p.together,
            }
            for p in apparatus.agreements
        ],
    }


def emended(apparatus, unit) -> dict:
    """An automatic emendation: its lemma, its witnesses, its basis, the quotations for it and its
    independent sources (the families of its witnesses and of the books that quote it)."""
    return {
        "lemma": unit.lemma.display,
        "witnesses": unit.lemma.sigla,
        "basis": unit.basis,
        "sources": sorted(support([unit.lemma], unit.evidence.get(unit.lemma.norm, []), apparatus.family)),
        "evidence": quotations(unit, unit.lemma),
        "same_as": f"app-{unit.same_as.index + 1}" if unit.same_as else None,
    }


def zhu_place(commentary, unit) -> dict:
    """Where an entry of the 注 is: its id, the base's reading, the 注 around it."""
    base = commentary.apparatus.base
    text = "".join(t.source(base.raw) for t in base.classic.tokens[max(0, unit.t0 - 6) : unit.t1 + 6])
    own = next((r.display for r in unit.all_readings if base.meta.siglum in r.sigla), "")
    return {"app": f"zhu-app-{unit.index + 1}", "base_reading": own, "context": text, "layer": "注"}


def quotations(unit, reading) -> list[dict]:
    """The commentary's quotations that attest a reading of the unit."""
    return [
        {
            "witness": q.siglum,
            "layer": q.layer,
            "found_by": q.rule,
            "quote": q.text,
            "line": q.line,
            "offsets": [q.start, q.end],
        }
        for q in unit.evidence.get(reading.norm, ())
    ]


def candidate(apparatus, unit, where: dict, editors: dict) -> dict:
    """A place for the editor: its readings with the witnesses and the quotations for each, and a
    decision that takes the best attested reading other than the base's, ready to paste."""
    base = apparatus.base.meta.siglum
    readings = [r for r in unit.all_readings if not r.moves]
    others = [r for r in readings if base not in r.sigla and r.type in (None, "substantive")]
    others = others or [
        r for r in readings if base not in r.sigla and r.type == "graphic"
    ]  # 己已巳 the words leave open
    best = max(others, key=lambda r: (bool(unit.evidence.get(r.norm)), len(r.sigla)), default=None)
    entry = where | {
        "readings": [
            {"reading": r.display, "witnesses": r.sigla, "type": r.type or "lemma", "evidence": quotations(unit, r)}
            for r in readings
        ]
    }
    if best is not None:
        attested = "; ".join(map(quoted, quotations(unit, best)))
        reason = f"read by {', '.join(best.sigla)}" + (f"; {attested}" if attested else "")
        entry["decision"] = decision_file.stanza(apparatus, unit, best, reason, next(iter(editors), "ed"))
    return entry


def collation_markdown(report: dict) -> str:
    lines = [
        "# Collation",
        "",
        f"Generated by {report['tool']}. Base text: {report['base']}. "
        f"{report['units']} variation units in {len(report['sections'])} sections; "
        f"{report['textual_notes']} of the witnesses' 校语 with their entries (reports/textual_notes.md).",
        "",
    ]
    lines += [
        "| witness | in apparatus | quality | readings by type | other script, other forms | reason |",
        "|---|---|---:|---|---:|---|",
    ]
    for w in report["witnesses"]:
        readings = ", ".join(f"{k} {v}" for k, v in sorted(w["readings"].items()))
        forms = Counter(kind for _, _, kind in w["own_forms"])
        lines.append(
            f"| {w['siglum']} | {'yes' if w['included'] else 'no'} | {w['quality']:.3f} | {readings or '–'} | "
            f"{forms['script']}, {forms['orthographic']} | {w['reason']} |"
        )
    lines += ["", "## Which witnesses go together", ""]
    lines += [
        "Of the places where either of two witnesses differs from the base (both extant), those where "
        "they differ alike; witnesses of one family are one source for an emendation.",
        "",
    ]
    families: dict[str, list[str]] = {}
    for siglum, family in report["families"].items():
        families.setdefault(family, []).append(siglum)
    lines += [f"- family {family}: {', '.join(members)}" for family, members in families.items()]
    lines += ["", "| witnesses | alike | only the first | only the second | share |", "|---|---:|---:|---:|---:|"]
    for a in report["agreements"]:
        lines.append(
            f"| {' and '.join(a['witnesses'])} | {a['alike']} | {a['only_first']} | {a['only_second']} | "
            f"{a['share']:.0%}{' (together)' if a['together'] else ''} |"
        )
    lines += ["", "## Extent against the base", ""]
    for w in report["witnesses"]:
        spans = "; ".join(f"{e['from']}–{e['to']} (「{e['incipit']}…{e['explicit']}」)" for e in w["extant"])
        lines.append(f"- {w['siglum']}: {spans or 'nowhere'}")
    lines += ["", f"## Layer slips ({len(report['layer_slips'])})", ""]
    lines += [
        f"- {s['siglum']}: 「{s['theirs']}」 read as {'注' if s['into'] == 'commentary' else '經'} "
        f"(the base's 「{s['words']}」); no reading"
        for s in report["layer_slips"]
    ]
    lines += ["", f"## Transpositions ({len(report['transpositions'])})", ""]
    for t in report["transpositions"]:
        lines.append(
            f"- {t['siglum']} reads 「{t['text']}」 (base {t['base_from']}–{t['base_to']}) "
            f"after 「…{t['placed_after']}」"
            + (f", with {t['differences']} character(s) different" if t["differences"] else "")
        )
    lines += [
        "",
        f"## Automatic emendations ({len(report['emendations'])})",
        "",
        "A reading has at least two independent sources for it (the families of the witnesses that read it, "
        "of those whose commentary quotes it, and books of evidence such as the 單疏本 and the 識誤), more than "
        "the base's reading and than any other; or the base has the words of an emendation elsewhere, "
        "and a witness reads the emendation here too (本校). Entries of the 注 are zhu-app.",
        "",
    ]
    for e in report["emendations"]:
        lines.append(
            f"- {e['app']} ({e['basis']}): {e['context']}: "
            f"base 「{e['base_reading'] or '∅'}」 → 「{e['lemma'] or '∅'}」 with {', '.join(e['witnesses'])}"
            + f" (sources: {', '.join(e['sources'])})"
            + evidence_words(e["evidence"])
            + (f"; the same error as {e['same_as']}" if e["same_as"] else "")
        )
    lines += [
        "",
        f"## Candidates for emendation ({len(report['candidates'])})",
        "",
        "The base may be wrong, but the rule of automatic emendation does not apply: "
        "the base stands alone and the others disagree or are one, or the commentary quotes another reading. "
        "The editor decides in decisions.toml: "
        "paste the decision and correct it, or give the base's reading to keep it.",
        "",
    ]
    for c in report["candidates"]:
        readings = "; ".join(
            f"「{r['reading'] or '∅'}」 {', '.join(r['witnesses']) or 'no witness'}" + evidence_words(r["evidence"])
            for r in c["readings"]
        )
        lines.append(f"- {c['app']}: {c['context']}: {readings}")
        if "decision" in c:
            lines += ["", "  ```toml", *(f"  {line}" for line in c["decision"].splitlines()), "  ```", ""]
    lines += [
        "",
        f"## The same words elsewhere ({len(report['same_errors'])})",
        "",
        "Where the base has the words of an emendation again, with the same neighbours: "
        "emended alike where a witness reads the emendation, listed here either way.",
        "",
    ]
    for r in report["same_errors"]:
        done = "emended alike" if r["treated_alike"] else f"not emended: {r['why_not']}"
        lines.append(
            f"- {r['context']} ({r['app'] or 'no entry'}), "
            f"as at {r['emendation']} 「{r['base_words']}」 → 「{r['emended_to']}」: {done}"
        )
    return "\n".join(lines) + "\n"


def quoted(quotation: dict) -> str:
    return f"{quotation['witness']} {quotation['layer']} quotes 「{quotation['quote']}」 (line {quotation['line']})"


def evidence_words(evidence: list[dict]) -> str:
    return "".join(f", {quoted(q)}" for q in evidence)
