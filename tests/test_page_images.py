"""The table of a witness's page photographs (edition.intake.page_images): read from the fixture
image set, and each kind of bad row a one-line error naming the table and the line."""

import shutil
from pathlib import Path

import pytest

from edition.errors import EditionError
from edition.intake.page_images import read_page_images

IMAGES = Path(__file__).resolve().parent / "fixtures" / "images" / "SBCK"


def test_the_fixture_table_reads_with_its_files():
    images = read_page_images(IMAGES / "pages.tsv")
    assert list(images) == ["KR1d0026_SBCK_003-1a", "KR1d0026_SBCK_003-1b", "KR1d0026_SBCK_003-2a"]
    first = images["KR1d0026_SBCK_003-1a"]
    assert (first.width, first.height, first.file) == (48, 72, IMAGES / "003-1a.png")
    assert first.published("SBCK") == "images/SBCK/003-1a.png"


@pytest.mark.parametrize(
    "row, said",
    [
        ("KR1d0026_SBCK_003-1a\t003-1a.png\t48\t72\tsame page", "listed twice"),
        ("KR1d0026_SBCK_003-3a\tmissing.png\t48\t72\tx", "no URL and no file beside the table"),
        ("KR1d0026_SBCK_003-3a\t../pages.tsv\t48\t72\tx", "no URL and no file beside the table"),
        ("KR1d0026_SBCK_003-3a\thttps://example.org/3a.jpg\t48px\t72\tx", "size in pixels"),
        ("KR1d0026_SBCK_003-3a\thttps://example.org/3a.jpg\t48\t72\t ", "where the image comes from"),
        ("KR1d0026_SBCK_003-3a\thttps://example.org/3a.jpg\t48", "tab-separated cells"),
    ],
)
def test_a_bad_row_is_an_error_naming_its_line(tmp_path, row, said):
    folder = tmp_path / "SBCK"
    shutil.copytree(IMAGES, folder)
    table = folder / "pages.tsv"
    lines = table.read_text(encoding="utf-8").splitlines() + [row]
    table.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(EditionError) as error:
        read_page_images(table)
    assert error.value.line == len(lines) and said in error.value.message and error.value.path == str(table)
    assert "\n" not in str(error.value)


def test_a_photograph_on_the_web_is_linked_where_it_is(tmp_path):
    table = tmp_path / "pages.tsv"
    table.write_text("page\timage\twidth\theight\tsource\nP-1a\thttps://example.org/1a.jpg\t800\t1200\tarchive\n")
    (image,) = read_page_images(table).values()
    assert image.file is None and image.published("SBCK") == "https://example.org/1a.jpg"
