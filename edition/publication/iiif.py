"""The photographs of the witnesses' leaves served to image viewers: a static IIIF Presentation 3
manifest for each witness whose leaves have images (iiif/<siglum>.json in the site), a canvas for
each leaf in the order of the text, painted with the image as the TEI's facsimile gives it (a whole
image, no image service: level 0). The ids are relative to the site's folder of the chapter: a
viewer that needs absolute ones reads the manifest where the site is published."""

from __future__ import annotations

import json
import mimetypes
import shutil
from pathlib import Path

from .model import EditionView, Photograph

CONTEXT = "http://iiif.io/api/presentation/3/context.json"


def manifest(edition: EditionView, witness: str, photographs: list[Photograph]) -> dict:
    name = edition.witnesses[witness].label
    here = f"iiif/{edition.witnesses[witness].siglum}.json"

    def canvas(photograph: Photograph) -> dict:
        canvas_id = f"{here}/canvas/{photograph.n}"
        image = {
            "id": photograph.url if not photograph.local else f"../{photograph.url}",
            "type": "Image",
            "format": mimetypes.guess_type(photograph.url)[0] or "image/jpeg",
            "width": photograph.width,
            "height": photograph.height,
        }
        painting = {
            "id": f"{canvas_id}/annotation",
            "type": "Annotation",
            "motivation": "painting",
            "body": image,
            "target": canvas_id,
        }
        return {
            "id": canvas_id,
            "type": "Canvas",
            "label": {"none": [photograph.n]},
            "width": photograph.width,
            "height": photograph.height,
            "items": [{"id": f"{canvas_id}/page", "type": "AnnotationPage", "items": [painting]}],
            "metadata": [{"label": {"en": ["source"]}, "value": {"none": [photograph.source]}}],
        }

    return {
        "@context": CONTEXT,
        "id": here,
        "type": "Manifest",
        "label": {"lzh": [f"{name}·{edition.heading}"]},
        "items": [canvas(p) for p in photographs],
    }


def write_manifests(edition: EditionView, build_dir: Path, out: Path) -> list[str]:
    """Each witness's manifest into `out`/iiif/, and the images the edition keeps beside its TEI
    (images/<siglum>/) copied into `out`/images/. Returns the manifests' paths in the site."""
    written = []
    for witness in dict.fromkeys(p.witness for p in edition.photographs):
        photographs = [p for p in edition.photographs if p.witness == witness]
        for photograph in (p for p in photographs if p.local):
            (out / photograph.url).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(build_dir / photograph.url, out / photograph.url)
        document = manifest(edition, witness, photographs)
        (out / document["id"]).parent.mkdir(parents=True, exist_ok=True)
        (out / document["id"]).write_text(json.dumps(document, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        written.append(document["id"])
    return written
