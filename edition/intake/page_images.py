"""The photographs of a witness's pages: a table (TSV) of the pages as the witness's layout names
them (Kanripo's page id, KR1d0026_SBCK_005-1a), each with its image, a URL or a file beside the
table, the image's size in pixels, and where the image comes from."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import regex

from ..errors import EditionError
from ..tables import read_tsv

COLUMNS = ("page", "image", "width", "height", "source")
URL = regex.compile(r"https?://\S+")
PIXELS = regex.compile(r"[1-9]\d{0,5}")


@dataclass(frozen=True)
class PageImage:
    page: str  # the page id, as the witness's page breaks give it
    image: str  # a URL, or the file's path relative to the table
    width: int
    height: int
    source: str  # where the image comes from
    file: Path | None = None  # the image's file, where it is one

    def published(self, siglum: str) -> str:
        """Where the edition finds it: the URL, or its copy in images/ beside the TEI and in the site."""
        return self.image if self.file is None else f"images/{siglum}/{self.file.name}"


def read_page_images(path: Path) -> dict[str, PageImage]:
    """The table's images by page id; an error names the line of a row that is not one."""
    images: dict[str, PageImage] = {}
    folder = path.parent.resolve()
    for line, row in read_tsv(path, COLUMNS):
        page, image = row["page"].strip(), row["image"].strip()
        if not page or page in images:
            raise EditionError(path, f"page {page!r} is empty or listed twice", line)
        if not (PIXELS.fullmatch(row["width"]) and PIXELS.fullmatch(row["height"])):
            raise EditionError(path, f"page {page}: width and height are the image's size in pixels", line)
        if not row["source"].strip():
            raise EditionError(path, f"page {page}: the source says where the image comes from", line)
        file = None
        if not URL.fullmatch(image):
            file = (folder / image).resolve()
            if not file.is_relative_to(folder) or not file.is_file():
                raise EditionError(path, f"page {page}: {image!r} is no URL and no file beside the table", line)
        images[page] = PageImage(page, image, int(row["width"]), int(row["height"]), row["source"].strip(), file)
    return images
