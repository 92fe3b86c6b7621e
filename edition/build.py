"""The build: sources in, `build/` out, all or nothing.

Everything is produced in a staging folder inside the output folder and validated there; only
then does each product replace its predecessor. A failed build leaves the previous output as it
was and no half-written file behind.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

from . import report, tei, validate
from .intake import intake_witness, normalizer_for
from .sources import Sources

Progress = Callable[[str], None]


class Staging:
    def __init__(self, out: Path):
        out.mkdir(parents=True, exist_ok=True)
        self.out = out
        self.root = Path(tempfile.mkdtemp(prefix=".staging-", dir=out))
        self.products: set[str] = set()

    def write(self, relative: str, data: bytes | str) -> Path:
        path = self.root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
        self.products.add(Path(relative).parts[0])
        return path

    def commit(self) -> None:
        for name in sorted(self.products):
            target = self.out / name
            if target.exists():
                retired = self.root / f".retired-{name}"
                os.replace(target, retired)
            os.replace(self.root / name, target)
        shutil.rmtree(self.root)

    def discard(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)


def build(sources_dir: Path, out: Path, progress: Progress = lambda message: None) -> None:
    sources = Sources.load(sources_dir)
    staging = Staging(out)
    try:
        normalizer = normalizer_for(sources)
        witnesses = []
        for meta in sources.witnesses:
            progress(f"intake {meta.siglum} {meta.file}")
            witness = intake_witness(sources, meta, normalizer)
            witnesses.append(witness)
            document = tei.witness_document(sources, witness)
            relative = f"witnesses/{meta.siglum}.xml"
            progress(f"validate {relative}")
            validate.check(document, out / relative)
            staging.write(relative, tei.serialize(document))
        summary = report.witnesses_report(witnesses)
        staging.write("reports/witnesses.json", json.dumps(summary, ensure_ascii=False, indent=1) + "\n")
        staging.write("reports/witnesses.md", report.summary_markdown(summary))
        staging.commit()
    except BaseException:
        staging.discard()
        raise
