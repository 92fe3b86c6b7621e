"""Reading the edition's TSV data files: a header row, '#' comment lines, a line number per row."""

from __future__ import annotations

from pathlib import Path

from .errors import EditionError


def read_tsv(path: Path, columns: tuple[str, ...]) -> list[tuple[int, dict[str, str]]]:
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise EditionError(path, f"cannot read table ({exc})") from None
    rows: list[tuple[int, dict[str, str]]] = []
    header: list[str] | None = None
    for number, text in enumerate(lines, 1):
        if not text.strip() or text.startswith("#"):
            continue
        cells = text.split("\t")
        if header is None:
            header = cells
            missing = [c for c in columns if c not in header]
            if missing:
                raise EditionError(path, f"table lacks column(s) {', '.join(missing)}", number)
            continue
        if len(cells) != len(header):
            raise EditionError(path, f"expected {len(header)} tab-separated cells, found {len(cells)}", number)
        rows.append((number, dict(zip(header, cells))))
    return rows
