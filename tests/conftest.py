import atexit
import re
import shutil
import tempfile
from pathlib import Path
from types import SimpleNamespace

import pytest

from edition.collation import decision_file
from edition.collation.apparatus import collate
from edition.publication import render, tei
from edition.publication.conventions import SERIES, Conventions
from edition.traditions.yili import collation_notes, subcommentary_quotations
from edition.work.chapter_build import build, edit
from edition.work.sources import Sources, decisions_path
from edition.work.work_sources import Work, export_chapter, export_work

ROOT = Path(__file__).resolve().parent.parent
WORK = ROOT / "sources"  # the whole 儀禮
KANRIPO = ROOT / "tests" / "fixtures" / "kanripo"  # Kanripo files byte for byte (see its README.md)


def exported_chapter(number: int) -> Path:
    """A chapter of the work exported as a one-chapter edition, in a folder removed at exit."""
    work = Work.load(WORK)
    folder = Path(tempfile.mkdtemp(prefix=f"chapter{number}-")) / "sources"
    atexit.register(shutil.rmtree, folder.parent, True)
    return export_chapter(work, work.chapter(number), folder)


SOURCES = exported_chapter(5)  # 鄉射禮, with the seed witnesses, SBCK and WYG

# --- the tiers: `make test` runs them in this order and stops at the first that fails -----------

TIERS = ("fast", "build", "typeset", "browser")
# The shared fixtures that put a test in a slower tier (a fixture that uses one of them is slow too:
# pytest lists the fixtures a test needs through others). A test or module whose own code builds,
# typesets or runs a browser says so with `@pytest.mark.tier("build")` and the like.
FIXTURE_TIERS = {
    "built": "build",  # a full build of the chapter
    "work_sample": "build",  # a work of two chapters, built
    "witnesses": "build",  # 鄉射禮's witnesses read by intake
    "apparatus": "build",  # and collated
    "sangfu": "build",  # 喪服 edited
    "guanli_edition": "build",  # 士冠禮 edited
    "guanli": "build",  # 士冠禮's witnesses read
    "shu_guanli": "build",
    "shiwu_guanli": "build",
    "browser": "browser",
    "page": "browser",
}


def tier_of(item: pytest.Item) -> str:
    """The slowest tier among the test's fixtures and its `tier` marks; fast by default."""
    named = [FIXTURE_TIERS[name] for name in item.fixturenames if name in FIXTURE_TIERS]
    marked = [mark.args[0] for mark in item.iter_markers("tier")]
    unknown = [name for name in marked if name not in TIERS]
    if unknown:
        raise pytest.UsageError(f"{item.nodeid}: no tier {unknown[0]!r}; the tiers are {', '.join(TIERS)}")
    return max(["fast", *named, *marked], key=TIERS.index)


def corpus_files() -> set[tuple[str, int]]:
    """The witness files of the real corpus, by name and size: the work's and Kanripo's."""
    folders = [WORK, ROOT.parent / "shared" / "kanripo", ROOT.parent / "shared" / "witnesses"]
    return {(p.name, p.stat().st_size) for folder in folders if folder.is_dir() for p in folder.rglob("*.txt")}


@pytest.fixture(scope="session", autouse=True)
def fast_reads_no_chapter(request):
    """In the fast tier, no witness file of the real corpus is read (a chapter's 卷 read is a
    chapter built): a test that reads one says so with its tier, or reads a fixture cut to the
    passage it needs."""
    if request.config.getoption("-m") != "fast":
        yield
        return
    from edition.intake import raw

    corpus, checked = corpus_files(), raw.check_text_data

    def checking(path, data, encoding):
        if (Path(path).name, len(data)) in corpus:
            raise AssertionError(
                f"the fast tier reads {Path(path).name}, a witness file of the corpus: give the test its tier"
            )
        return checked(path, data, encoding)

    raw.check_text_data = checking
    yield
    raw.check_text_data = checked


@pytest.hookimpl(tryfirst=True)  # before `-m` selects by the markers
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Each test in exactly one tier: its marker added here, never written by hand."""
    for item in items:
        written = [mark.name for mark in item.iter_markers() if mark.name in TIERS]
        if written:
            raise pytest.UsageError(f"{item.nodeid}: marked {written[0]!r} by hand; mark it tier({written[0]!r})")
        item.add_marker(tier_of(item))


@pytest.fixture(scope="session")
def sources() -> Sources:
    return Sources.load(SOURCES)


@pytest.fixture(scope="session")
def witnesses(sources):
    return {w.meta.siglum: w for w in sources.intake_all()}


@pytest.fixture(scope="session")
def built(tmp_path_factory) -> Path:
    """One full build of the seed sources, shared by the tests that read build output."""
    out = tmp_path_factory.mktemp("build")
    build(SOURCES, out)
    return out


SAMPLE_CHAPTERS = (3, 10)  # 士相見禮 and 覲禮, the two shortest chapters


@pytest.fixture(scope="session")
def work_sample(tmp_path_factory) -> tuple[Path, Path, list[str]]:
    """A work of two chapters of the 儀禮 built once as `make edition` builds a work: its
    sources, its build, and the chapters built."""
    from edition.work.work_build import build_work

    root = tmp_path_factory.mktemp("work")
    sources = with_photographs(sample_work(root / "sources", SAMPLE_CHAPTERS))
    out = root / "build"
    return sources, out, build_work(sources, out, jobs=2)


@pytest.fixture(scope="session")
def apparatus(witnesses, sources):
    """The seed sources collated as the build collates them, the editors' witness decisions applied."""
    return collated(witnesses, sources, decision_file.load(decisions_path(SOURCES)))


def collated(witnesses, sources, choices, collating=collate):
    """The witnesses collated as the build collates them (`collating`: the 經's collation, or the
    注's), with the editors' witness decisions."""
    arguments = (sources.config.base, sources.orthography(), sources.config.min_quality)
    return collating(list(witnesses.values()), *arguments, choices.witnesses(True), choices.witnesses(False))


def printed_entries(edition_xml: Path) -> str:
    """The apparatus as the PDF prints it, an entry a line: each series of each entry as the
    conventions phrase it from the TEI (what pdf.Notes sets in LaTeX, without the LaTeX)."""
    edition = render.read(edition_xml)
    conventions = Conventions(edition.style)
    entries = conventions.entries(edition)
    phrased = (
        "".join(part.text for _, parts in conventions.sentence(entries[app.id].series(name), app) for part in parts)
        for app in edition.all_apps
        for name in SERIES
    )
    return "\n".join(entry for entry in phrased if entry)


@pytest.fixture(scope="session")
def printed(built) -> str:
    """The seed edition's apparatus as the PDF prints it (see printed_entries)."""
    return printed_entries(built / "edition.xml")


def with_photographs(sources: Path) -> Path:
    """The sources with the photographs of three leaves of the base (tests/fixtures/images: stand-ins
    drawn for 四部叢刊本 卷三 1a, 1b and 2a), as the base's stanza names their table."""
    import tomlkit

    shutil.copytree(ROOT / "tests" / "fixtures" / "images", sources / "images")
    stanzas = tomlkit.parse((sources / "witnesses.toml").read_text(encoding="utf-8"))
    next(w for w in stanzas["witness"] if w["siglum"] == "SBCK")["images"] = "images/SBCK/pages.tsv"
    (sources / "witnesses.toml").write_text(tomlkit.dumps(stanzas), encoding="utf-8")
    return sources


def sample_work(folder: Path, numbers: tuple[int, ...]) -> Path:
    """A work of some chapters of the 儀禮, as `sources/` describes them."""
    return export_work(WORK, numbers, folder)


# --- 喪服, edited in process --------------------------------------------------------------------


def edited_chapter(title: str) -> SimpleNamespace:
    """A chapter of the work as its chapter build edits it, and its TEI edition in memory."""
    work = Work.load(WORK)
    sources = work.sources(work.chapter(title))
    choices = decision_file.load(sources.decisions)
    edited = edit(sources, sources.intake_all(), choices)
    paragraphs = edited.paragraphs
    document = tei.edition_document(
        sources, edited.apparatus, edited.sections, choices.editors, paragraphs, edited.commentary
    )
    return SimpleNamespace(sources=sources, edited=edited, document=document)


@pytest.fixture(scope="session")
def sangfu() -> SimpleNamespace:
    """喪服 (卷十一) as its chapter build edits it (SBCK the base, WYG), and its TEI edition in
    memory (the 經 with its 傳, the 注 after each passage)."""
    return edited_chapter("喪服")


@pytest.fixture(scope="session")
def guanli_edition() -> SimpleNamespace:
    """士冠禮 as its chapter build edits it (SBCK the base, WYG; the 單疏本 and the 識誤 as evidence),
    and its TEI edition in memory."""
    return edited_chapter("士冠禮")


# --- the evidence of the 單疏本 and the 識誤, on 士冠禮 -----------------------------------------------


@pytest.fixture(scope="session")
def guanli() -> SimpleNamespace:
    """士冠禮 as its chapter build reads it: the work, the chapter's sources and normalizer, and
    its witnesses SBCK (the base) and WYG, read by intake."""
    work = Work.load(WORK)
    chapter = work.chapter(1)
    sources = work.sources(chapter)
    normalizer = sources.normalizer()
    read = {m.siglum: sources.intake(m, normalizer) for m in sources.witnesses if m.siglum in ("SBCK", "WYG")}
    return SimpleNamespace(work=work, sources=sources, normalizer=normalizer, base=read["SBCK"], wyg=read["WYG"])


@pytest.fixture(scope="session")
def shu_guanli(guanli) -> SimpleNamespace:
    """卷一–三 of the 單疏本 (the fixture's copy) read, and 士冠禮's quotations placed on SBCK."""
    edition = subcommentary_quotations.read_edition(KANRIPO / "KR1d0027-SBCK", guanli.normalizer, guanli.work.chapters)
    placement = subcommentary_quotations.place(edition.chapters[1], guanli.base)
    return SimpleNamespace(edition=edition, placement=placement, base=guanli.base)


@pytest.fixture(scope="session")
def shiwu_guanli(guanli) -> SimpleNamespace:
    """卷一 of the 識誤 (the fixture's copy) read, and 士冠禮's entries placed on SBCK and on WYG."""
    edition = collation_notes.read_edition(KANRIPO / "KR1d0029-WYG", guanli.normalizer, guanli.work.chapters)
    chapter = edition.chapters[1]
    return SimpleNamespace(
        edition=edition,
        placement=collation_notes.place(chapter, guanli.base),
        on_wyg=collation_notes.place(chapter, guanli.wyg),
    )


# --- the browser tests: Chromium through playwright -------------------------------------------

CHROMIUM = Path("/usr/bin/chromium")
AXE = ROOT / ".cache" / "axe" / "node_modules" / "axe-core" / "axe.min.js"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="module")
def browser():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail("the Python package playwright is missing: .venv/bin/pip install playwright")
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install -y --no-install-recommends chromium")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    # A request cut short by leaving the page (net::ERR_ABORTED) is no failure of the site.
    page.on(
        "requestfailed",
        lambda request: "ERR_ABORTED" in (request.failure or "") or errors.append(f"{request.url}: {request.failure}"),
    )
    yield page
    page.close()
    assert not errors, errors


def url(site: Path, name: str, query: str = "") -> str:
    return (site / name).as_uri() + query


# --- the languages of the HTML edition ------------------------------------------------------------

# The pages of a site in its own language (the root) and in English (en/).
LANGUAGES = {"zh-Hant": "", "en": "en/"}
# Words of the Latin alphabet a Chinese page may show outside an element of another language:
# codes of the data (sigla, file names, rule names) and the names of formats and tools.
CODES = {"TEI", "P5", "PDF", "KB", "OpenCC", "LF", "CRLF", "edition", "URN", "DTS", "API", "IIIF"}


def interface_text(html: str) -> tuple[str, str, str]:
    """The page's language, the text its interface says in it (the page without its scripts and the
    elements of another language: the edition's classical text, lang="lzh"; its data in Chinese,
    lang="zh"; the name of the other language in the switch; the program's names, <code>) and its
    titles and labels (which
    may quote the data: a section's title)."""
    from lxml import html as parser

    document = parser.fromstring(html)
    language = document.get("lang")
    titles = [title.text_content() for title in document.xpath("//svg//title")]  # a bar's tooltip
    for title in document.xpath("//svg//title"):
        title.drop_tree()
    for element in document.xpath("//script | //style | //code | //*[@lang]"):
        if element is not document and (element.tag in ("script", "style", "code") or element.get("lang") != language):
            element.drop_tree()
    labels = [
        value
        for element in document.iter()
        if isinstance(element.tag, str)
        for value in (element.get("title"), element.get("aria-label"), element.get("placeholder"))
        if value
    ]
    return language, " ".join(document.itertext()), "\n".join([*titles, *labels])


def english_words(text: str, sigla: set[str] = frozenset()) -> set[str]:
    """The words of the Latin alphabet in `text` that are no code: not a siglum, a file name or
    a rule's name (with a dot, hyphen, colon, slash or digit), the X and Y of a formula (X為Y), nor
    one of CODES."""
    tokens = re.findall(r"[A-Za-z][A-Za-z0-9.:_/-]*", text)
    return {
        t
        for t in tokens
        if t not in CODES | set(sigla) and not re.search(r"[.:\d_/-]", t) and not re.fullmatch("[XY]", t)
    }


def simplified_only(text: str) -> set[str]:
    """The characters of `text` that OpenCC's s2t writes otherwise: simplified forms (学, 录), which
    a traditional interface never uses."""
    import opencc

    converter = opencc.OpenCC("s2t")
    return {c for c in set(text) if converter.convert(c) != c}
