"""The HTML edition of the whole work: the chapters' sites side by side under one contents page,
with a search, a 今文/古文 index, a conspectus of the witnesses and a heat map across the work.

Like a chapter's site it is written from build outputs alone: `work.json`, and each chapter's
`edition.xml` and reports (read as the chapter's site reads them, `chapter_site.load_site`); each
chapter's own site is copied into a folder of its own. It works from file:// with no server:
the search index is one script a chapter, each adding itself to `window.EDITION_SEARCH`. Its
pages are in the work's language and in English (en/), each linking to the chapters' pages in the
same language.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from urllib.parse import quote

from markupsafe import Markup, escape

from . import dts, iiif
from .chapter_site import Site, copy_static, environment, load_site, search_script, write_shared_fonts
from .i18n import Language, site_languages
from .manifest import BuiltChapter, BuiltWork, read_work

BIN = 100  # characters of the base a cell of the heat map stands for
WORK_ASSETS = ("search.js", "site.css", "work-filter.js")
# Where a chapter's pages (base.html.j2) take the link to the work's contents.
WORK_SLOT = "<!-- work-contents -->"
# What a tradition's reading does to the base (the reading's subtype in the TEI), and the formula
# of the note that reports it (jinguwen.json): the two ways the 今文/古文 index is filtered (each
# named by messages.toml, effect.* and formula.*).
EFFECTS = ("substitution", "omission", "addition", "transposition")
FORMULAS = ("substitution", "omission", "phrase")
# The work's pages: template and the message that names it in the navigation.
PAGES = {
    "index.html": ("work-index.html.j2", "work.contents"),
    "search.html": ("work-search.html.j2", "work.search"),
    "jinguwen.html": ("work-jinguwen.html.j2", "work.jinguwen"),
    "coverage.html": ("work-coverage.html.j2", "work.coverage"),
    "heatmap.html": ("work-heatmap.html.j2", "work.heatmap"),
    "fanli.html": ("work-fanli.html.j2", "nav.fanli"),
}
# An item of the 凡例 that more chapters than this say each in words of its own (its counts) is
# left to the chapters' pages, which the work's page links.
OWN_WORDS = 3


@dataclass
class FanliItem:
    """An item of the chapters' 凡例 (its key in conventions.toml), as the work's page gives it:
    each wording with the chapters that have it, or (each chapter saying it in its own words, its
    counts) the chapters that have it."""

    key: str
    wordings: list[tuple[str, list[ChapterView]]]

    @property
    def own(self) -> bool:
        return len(self.wordings) > OWN_WORDS and all(len(c) == 1 for _, c in self.wordings)

    @property
    def chapters(self) -> list[ChapterView]:
        return [c for _, group in self.wordings for c in group]


def fanli_items(chapters: list[ChapterView]) -> list[FanliItem]:
    """The chapters' 凡例 item by item, in the order the chapters give them."""
    items: dict[str, dict[str, list[ChapterView]]] = {}
    for view in chapters:
        edition = view.site.edition
        for key, text in zip(edition.fanli_keys, edition.fanli, strict=True):
            items.setdefault(key, {}).setdefault(text, []).append(view)
    return [FanliItem(key, list(wordings.items())) for key, wordings in items.items()]


@dataclass
class Tradition:
    """A reading of the 今文 or 古文 as Zheng Xuan's note reports it, at its place in a chapter."""

    tradition: str  # jinwen or guwen
    effect: str  # substitution, omission, addition, transposition
    formula: str  # substitution, omission, phrase
    lemma: str  # the base's words it is anchored on
    reading: str
    quotes: list[tuple[str, str]]  # (witness's name, the note's words)
    citation: str  # section.sentence
    href: str  # the entry in the chapter's reading view, from the chapter's folder


@dataclass
class Bin:
    """A stretch of a chapter's base text in the heat map."""

    first: int  # base characters, from 1
    last: int
    count: int  # substantive entries
    density: float  # per 100 characters
    section: str  # the section it begins in, as cited
    href: str  # from the chapter's folder


@dataclass
class ChapterView:
    """A chapter as the work's pages show it."""

    chapter: BuiltChapter
    site: Site

    @cached_property
    def traditions(self) -> list[Tradition]:
        site = self.site
        formulas = {  # the first note that reports the tradition at the entry
            (app_id, reading["tradition"]): reading["formula"]
            for note in reversed(site.reports["jinguwen"]["notes"])
            for app_id in note["apps"]
            for reading in note["readings"]
        }
        return [
            Tradition(
                r.wit[0].lstrip("#"),
                r.subtype,
                formulas.get((app.id, r.wit[0].lstrip("#")), ""),
                app.lemma.text,
                r.text,
                [(site.sigla(["#" + source]), words) for source, words in r.quotes],
                app.citation,
                f"index.html#{app.id}",
            )
            for app in site.edition.apps
            if app.in_text
            for r in app.of_types(("jinguwen",))
        ]

    @property
    def unplaced(self) -> int:
        """Notes of Zheng Xuan's found in a witness that the edition could not place at a reading."""
        return sum(1 for note in self.site.reports["jinguwen"]["notes"] if not note["apps"])

    def density(self) -> tuple[int, float]:
        """Substantive entries of the chapter, and per 100 characters."""
        count = sum(len(self.site.substantive(section)) for section in self.site.edition.sections)
        return count, 100 * count / max(1, self.site.length)

    def bins(self) -> list[Bin]:
        """The chapter's base text in stretches of BIN characters, with their substantive entries;
        each links to the section it begins in."""
        site = self.site
        starts = [
            (site.section_span(section)[0], number, section) for number, section in enumerate(site.edition.sections, 1)
        ]
        places = [at + 1 for section in site.edition.sections for at in site.substantive(section)]
        out = []
        for first in range(1, site.length + 1, BIN):
            last = min(first + BIN - 1, site.length)
            _, number, section = max((s for s in starts if s[0] <= first), key=lambda s: s[0])
            count = sum(1 for at in places if first <= at <= last)
            out.append(
                Bin(
                    first,
                    last,
                    count,
                    100 * count / (last - first + 1),
                    f"§{number} {section.title}",
                    f"index.html#{section.id}",
                )
            )
        return out

    def coverage(self, siglum: str) -> dict | None:
        """The witness's entry in the chapter's collation report, None where it has none."""
        return self.site.collated.get(siglum)

    def witness(self, siglum: str):
        return next(w for w in self.site.edition.witnesses.values() if w.siglum == siglum)

    def extant(self, siglum: str) -> list[tuple[int, int]]:
        """The ranges of base characters where the witness is extant."""
        return [(r["from"], r["to"]) for r in self.coverage(siglum)["extant"]]

    def extant_share(self, siglum: str) -> float:
        return sum(last - first + 1 for first, last in self.extant(siglum)) / max(1, self.site.length)


def build_work_site(build_root: Path, site_dir: Path, previous_fonts: Path | None = None) -> None:
    """Write the work's site into `site_dir` from the work build in `build_root` (work.json and
    chapters/<folder>/ as a chapter build writes it): each chapter's site copied into
    `site_dir/<folder>/` with a link back to the contents, the work's own pages in the work's two
    languages (its own at the root, the other in en/), and the fonts of all (those in
    `previous_fonts` if they were made for the same characters)."""
    work = read_work(build_root)
    languages = site_languages(work.language)
    chapters = []
    site_dir.mkdir(parents=True, exist_ok=True)
    for chapter in work.chapters:
        built = build_root / "chapters" / chapter.folder
        chapters.append(ChapterView(chapter, load_site(built / "edition.xml", built)))
        copy_chapter_site(built / "site", site_dir / chapter.folder, work, languages)
        if work.url:  # the manifests' ids under the address the site is published at
            for manifest in (site_dir / chapter.folder / "iiif").glob("*.json"):
                iiif.published_at(manifest, f"{work.url}{quote(chapter.folder)}/iiif/{manifest.name}")
    copy_static(site_dir, WORK_ASSETS)
    scripts = []
    for view in chapters:
        script = search_script(view.site, base=f"{view.chapter.folder}/", label=view.chapter.title)
        name = f"search-{view.chapter.folder}.js"
        (site_dir / name).write_text(script, encoding="utf-8")
        scripts.append((name, script))
    env = environment({k: v for view in chapters for k, v in view.site.edition.gaiji.items()})
    jinguwen = any(view.site.jinguwen for view in chapters)  # Zheng Xuan's notes name traditions
    reported = {f"#{r.tradition}" for view in chapters for r in view.traditions}
    named = {ident: name for view in chapters for ident, name in view.site.edition.traditions.items()}
    traditions = {ident: name for ident, name in named.items() if ident in reported}
    fanli = fanli_items(chapters)
    pages = {
        name: page
        for name, page in PAGES.items()
        if (jinguwen or name != "jinguwen.html") and (fanli or name != "fanli.html")
    }
    nav = [(name, key) for name, (_, key) in pages.items()]
    written = []
    for lang in languages:
        folder = site_dir / lang.folder if lang.folder else site_dir
        folder.mkdir(exist_ok=True)
        for name, (template, _) in pages.items():
            html = env.get_template(template).render(
                work=work,
                chapters=chapters,
                fanli=fanli,
                jinguwen=jinguwen,
                page=name,
                nav=nav,
                scripts=[s for s, _ in scripts],
                traditions=traditions,
                EFFECTS=EFFECTS,
                FORMULAS=FORMULAS,
                bin=BIN,
                t=lang.messages,
                lang=lang,
                root=lang.root,
                chapter_href=chapter_link(lang),
            )
            (folder / name).write_text(html, encoding="utf-8")
            written.append(html)
    editions = [build_root / "chapters" / c.folder / "edition.xml" for c in work.chapters]
    dts.write_dts(editions, work.title, site_dir / "dts", f"{work.url}dts/" if work.url else "")
    chapter_sites = [build_root / "chapters" / c.folder / "site" for c in work.chapters]
    write_shared_fonts(chapter_sites, site_dir, {c for text in written for c in text}, previous_fonts)


def chapter_link(lang: Language):
    """From a work's page in `lang` to a chapter's page in the same language: (view, page) -> href."""
    return lambda view, page: f"{lang.root}{view.chapter.folder}/{lang.folder + '/' if lang.folder else ''}{page}"


def copy_chapter_site(source: Path, out: Path, work: BuiltWork, languages: list[Language]) -> None:
    """A chapter's site as it was built, each of its pages linking back to the work's contents
    in the page's language."""
    if out.exists():
        shutil.rmtree(out)
    shutil.copytree(source, out)
    for lang in languages:
        folder = out / lang.folder if lang.folder else out
        work_page = lambda name: f"../{lang.root}{lang.folder + '/' if lang.folder else ''}{name}"
        title = f'<span lang="lzh">{escape(work.title)}</span>'
        link = (
            f'<p class="work-link"><a href="{work_page("index.html")}">'
            f"{lang.messages('site.work_link', title=Markup(title))}</a>"
            f' · <a href="{work_page("fanli.html")}">{lang.messages("site.work_fanli")}</a></p>'
        )
        for page in folder.glob("*.html"):
            page.write_text(page.read_text(encoding="utf-8").replace(WORK_SLOT, link, 1), encoding="utf-8")
