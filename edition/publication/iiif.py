"""The photographs of the witnesses' leaves served to image viewers: a static IIIF Presentation 3
manifest for each witness whose leaves have images (iiif/<siglum>.json in the site), a canvas for
each leaf in the order of the text, painted with the image as the TEI's facsimile gives it (a whole
image, no image service: level 0). The ids are relative to the manifest, and absolute where the
work says where its site is published (`url`), as viewers need them."""

from __future__ import annotations

import json
import mimetypes
import shutil
from pathlib import Path
from urllib.parse import urljoin

from .model import EditionView, Photograph

CONTEXT = "http://iiif.io/api/presentation/3/context.json"


def manifest(edition: EditionView, witness: str, photographs: list[Photograph]) -> dict:
    name = edition.witnesses[witness].label
    here = f"{edition.witnesses[witness].siglum}.json"

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
        path = out / "iiif" / document["id"]
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(document, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        written.append(f"iiif/{document['id']}")
    return written


def published_at(path: Path, url: str) -> None:
    """The manifest at `path`, its ids made absolute: `url` is where the manifest is published."""
    document = json.loads(path.read_text(encoding="utf-8"))

    def absolute(node):
        if isinstance(node, dict):
            return {
                k: urljoin(url, v) if k in ("id", "target") and isinstance(v, str) else absolute(v)
                for k, v in node.items()
            }
        return [absolute(v) for v in node] if isinstance(node, list) else node

    path.write_text(json.dumps(absolute(document), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
