"""The HTML edition of the whole work, built from a small real work of two chapters (士相見禮 and
覲禮 on SBCK and WYG), opened from disk in headless Chromium and checked with axe-core."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from urllib.parse import quote

import lxml.html
import pytest
from conftest import AXE, LANGUAGES, english_words, interface_text, simplified_only, url
from lxml import etree

from edition.publication.i18n import Messages
from edition.publication.render import NS, read
from edition.text import chinese_number

ROOT = Path(__file__).resolve().parent.parent
CHAPTERS = [(3, "士相見禮", "士相見禮第三"), (10, "覲禮", "覲禮第十")]


@pytest.fixture(scope="session")
def work_build(work_sample) -> Path:
    """The build of a work of two chapters (conftest's work_sample)."""
    return work_sample[1]


@pytest.fixture(scope="module")
def work_site(work_build) -> Path:
    """The site the work build wrote (edition.publication.work_site.build_work_site)."""
    return work_build / "site"


FOLDERS = [f"{n:02d}-{t}" for n, t, _ in CHAPTERS]
PAGES = ["index.html", "search.html", "jinguwen.html", "coverage.html", "heatmap.html", "fanli.html"]


def test_pages_are_self_contained(work_site):
    for name in [folder + page for folder in LANGUAGES.values() for page in PAGES]:
        html = (work_site / name).read_text(encoding="utf-8")
        assert not re.search(r"""(src|href)=["']?(https?:)?//""", html), f"{name} reaches the network"
        for target in re.findall(r'(?:src|href)="([^"#?]+)', html):
            assert (work_site / name).parent.joinpath(target).resolve().is_file(), f"{name} links to {target}, missing"
    css = (work_site / "fonts" / "fonts.css").read_text(encoding="utf-8")
    assert all((work_site / "fonts" / f).stat().st_size > 0 for f in re.findall(r'url\("([^"]+)"\)', css))


def test_chapter_sites_are_copied_with_a_way_back(work_build, work_site):
    for folder in FOLDERS:
        copied = work_site / folder
        assert (copied / "search-data.js").read_bytes() == (
            work_build / "chapters" / folder / "site" / "search-data.js"
        ).read_bytes()
        for page in copied.glob("*.html"):
            assert '<p class="work-link"><a href="../index.html">' in page.read_text(encoding="utf-8"), (
                f"{page.name} has no link to the contents"
            )
        for page in copied.glob("en/*.html"):
            assert '<p class="work-link"><a href="../../en/index.html">' in page.read_text(encoding="utf-8"), (
                f"en/{page.name} has no link to the English contents"
            )
            assert '<a href="../../en/fanli.html">' in page.read_text(encoding="utf-8"), f"en/{page.name}"
    single = (work_build / "chapters" / FOLDERS[0] / "site" / "index.html").read_text(encoding="utf-8")
    assert "../index.html" not in single, "a chapter's own build does not know of the work"


def test_jinguwen_index_lists_every_chapters_readings(work_build, work_site):
    html = (work_site / "jinguwen.html").read_text(encoding="utf-8")
    for folder in FOLDERS:
        edition = read(work_build / "chapters" / folder / "edition.xml")
        readings = [(app, r) for app in edition.apps if app.in_text for r in app.of_types(("jinguwen",))]
        assert readings, f"{folder} has 今文/古文 readings"
        for app, r in readings:
            assert f'href="{folder}/index.html#{app.id}"' in html
            for _, words in r.quotes:
                assert f'<q lang="lzh">{words}</q>' in html
    assert "今文頭爲脰" in html  # 士相見禮: 左頭奉之


def test_coverage_and_heat_map_span_each_chapter(work_build, work_site):
    heatmap = (work_site / "heatmap.html").read_text(encoding="utf-8")
    coverage = (work_site / "coverage.html").read_text(encoding="utf-8")
    for folder in FOLDERS:
        collation = json.loads(
            (work_build / "chapters" / folder / "reports" / "collation.json").read_text(encoding="utf-8")
        )
        length = max(r["to"] for w in collation["witnesses"] for r in w["extant"])
        cells = re.findall(
            rf'<a href="{folder}/index.html#s-[^"]*" aria-label="[^"]* (\d+)–(\d+)：校記(\d+)條">', heatmap
        )
        assert [int(first) for first, _, _ in cells] == list(range(1, length + 1, 100)) and int(cells[-1][1]) == length
        units = {w["siglum"]: w for w in collation["witnesses"]}
        for siglum in ("SBCK", "WYG"):
            share = sum(r["to"] - r["from"] + 1 for r in units[siglum]["extant"]) * 100 // length
            assert f'aria-label="{siglum}於{folder.split("-")[1]}：{share}%"' in coverage


def test_the_works_fanli_says_once_what_its_chapters_say_alike(work_build, work_site):
    """The work's 凡例 page: an item every chapter words alike once; one the chapters word
    otherwise, each wording with its chapters; one whose figures are each chapter's own, linked to
    the chapters' pages. Every chapter's page links to it."""
    items = {}
    for folder in FOLDERS:
        document = etree.parse(str(work_build / "chapters" / folder / "edition.xml"))
        for p in document.xpath("//t:front/t:div[@type='fanli']/t:p", namespaces=NS):
            items.setdefault(p.get("n"), {})[folder] = "".join(p.itertext())
    page = lxml.html.parse(str(work_site / "fanli.html"))
    said = [p.text_content() for p in page.iterfind(".//section[@class='fanli']/p")]
    alike = [texts[FOLDERS[0]] for texts in items.values() if len(set(texts.values())) == 1 and len(texts) == 2]
    assert len(alike) >= 8 and all(said.count(text) == 1 for text in alike)
    own = [key for key, texts in items.items() if len(set(texts.values())) == len(texts) == 2]
    assert own and all(
        any(s.startswith(texts[f]) for s in said) for key, texts in items.items() if key in own for f in FOLDERS
    )
    for folder in FOLDERS:
        assert '<a href="../index.html">' in (work_site / folder / "fanli.html").read_text(encoding="utf-8")
        assert '<a href="../fanli.html">' in (work_site / folder / "index.html").read_text(encoding="utf-8")
    assert '<a href="fanli.html"' in (work_site / "index.html").read_text(encoding="utf-8")


def test_search_index_is_one_script_a_chapter(work_site):
    html = (work_site / "search.html").read_text(encoding="utf-8")
    scripts = re.findall(r'<script src="([^"]+)"', html)
    assert scripts == [f"search-{f}.js" for f in FOLDERS] + ["search.js"]
    for folder in FOLDERS:
        script = (work_site / f"search-{folder}.js").read_text(encoding="utf-8")
        assert script.startswith("(window.EDITION_SEARCH = window.EDITION_SEARCH || []).push(")
        assert f'"base":"{folder}/"' in script


def test_contents_links_each_chapters_reading_view(page, work_site):
    page.goto(url(work_site, "index.html"))
    rows = page.locator("table.contents tbody tr")
    assert rows.count() == len(CHAPTERS)
    assert rows.first.locator("td").first.inner_text() == "3" and "士相見禮第三" in rows.first.inner_text()
    assert "四部叢刊本、四庫本" in rows.nth(1).inner_text()
    rows.nth(1).get_by_role("link", name="覲禮第十").click()
    assert page.url.endswith("10-%E8%A6%B2%E7%A6%AE/index.html")
    assert "覲禮" in page.locator("h1").inner_text()
    page.locator(".work-link a").first.click()
    assert page.url.endswith("/site/index.html")


def test_search_finds_each_chapter_with_variant_forms_folded(page, work_site):
    # 士相見禮: 士相見之禮摯冬用雉; 覲禮: 覲禮至于郊王使人皮弁用璧勞, in simplified characters.
    for query, chapter in (("冬用雉", "士相見禮"), ("王使人皮弁", "覲禮")):
        page.goto(url(work_site, "search.html", "?q=" + quote(query)))
        hits = page.locator("#results li.result-text")
        assert hits.count() == 1 and hits.first.locator("a").first.inner_text().startswith(chapter)
    link = hits.first.locator("a").first
    assert link.get_attribute("href").startswith("10-覲禮/index.html#s-")
    cite = hits.first.locator("a.snippet-cite")
    assert re.fullmatch(r"10-覲禮/index.html#c\d+\.\d+", cite.get_attribute("href")), "a place is cited by its unit"
    page.fill("#q", "礼")  # in both chapters, as 禮
    labels = page.locator("#results li a").all_inner_texts()
    assert any(s.startswith("士相見禮") for s in labels) and any(s.startswith("覲禮") for s in labels)
    page.locator("#results li.result-text a.snippet-cite").last.click()
    assert re.search(r"10-%E8%A6%B2%E7%A6%AE/index.html#c\d+\.\d+$", page.url)
    assert page.locator(":target").get_attribute("class") == "cite"


@pytest.mark.parametrize("language", LANGUAGES)
def test_jinguwen_filters(page, work_site, language):
    page.goto(url(work_site, LANGUAGES[language] + "jinguwen.html"))
    rows = page.locator("tr.jinguwen-row")
    total = rows.count()
    visible = lambda: page.evaluate(
        "Array.from(document.querySelectorAll('tr.jinguwen-row')).filter(r => !r.hidden).map(r => r.dataset)"
    )
    assert total > 0 and len(visible()) == total
    page.select_option("select[name=tradition]", "guwen")
    guwen = visible()
    assert 0 < len(guwen) < total and all(r["tradition"] == "guwen" for r in guwen)
    shown = Messages(language).template("script.readings_shown").replace("{n}", str(len(guwen)))
    assert page.locator("#shown").inner_text() == shown.replace("{all}", str(total))
    page.select_option("select[name=effect]", "substitution")
    both = visible()
    assert 0 < len(both) <= len(guwen) and all(r["effect"] == "substitution" for r in both)
    assert "tradition=guwen" in page.url and "effect=substitution" in page.url
    page.reload()
    assert len(visible()) == len(both)
    page.select_option("select[name=tradition]", "")
    page.select_option("select[name=effect]", "")
    page.select_option("select[name=formula]", "omission")
    omissions = visible()
    assert omissions and all(r["formula"] == "omission" for r in omissions)


def test_the_works_pages_speak_its_language_and_english(work_build, work_site):
    """The work's pages are in the work's language (work.toml: zh-Hant) with no simplified
    character and no English word in the interface (the contents had some 140), the same pages
    in English under en/, each linking to the other."""
    assert json.loads((work_build / "work.json").read_text(encoding="utf-8"))["language"] == "zh-Hant"
    for name in PAGES:
        chinese = (work_site / name).read_text(encoding="utf-8")
        english = (work_site / "en" / name).read_text(encoding="utf-8")
        language, text, labels = interface_text(chinese)
        assert language == "zh-Hant" and interface_text(english)[0] == "en", name
        assert not simplified_only(text), f"{name}: {sorted(simplified_only(text))}"
        assert not english_words(text + labels, {"SBCK", "WYG"}), (
            f"{name}: {english_words(text + labels, {'SBCK', 'WYG'})}"
        )
        assert f'<a href="en/{name}" hreflang="en" lang="en"' in chinese
        assert f'<a href="../{name}" hreflang="zh-Hant" lang="zh-Hant"' in english
    _, text, _ = interface_text((work_site / "en" / "index.html").read_text(encoding="utf-8"))
    assert "Yili (Ceremonies and Rites)" in text and len(english_words(text)) > 50, "the English contents in English"


def test_the_english_work_leads_to_the_english_chapters(page, work_site):
    page.goto(url(work_site, "index.html"))
    page.get_by_role("link", name="English").click()
    assert page.url.endswith("/site/en/index.html") and page.locator("html").get_attribute("lang") == "en"
    page.locator("table.contents").get_by_role("link", name="覲禮第十").click()
    assert page.url.endswith("/10-%E8%A6%B2%E7%A6%AE/en/index.html")
    assert page.locator("html").get_attribute("lang") == "en" and page.locator("#controls label").first.inner_text()
    page.locator(".work-link a").first.click()
    assert page.url.endswith("/site/en/index.html")
    page.goto(url(work_site, "en/search.html", "?q=" + quote("王使人皮弁")))
    link = page.locator("#results li.result-text a").first
    assert link.get_attribute("href").startswith("../10-覲禮/en/index.html#s-")
    link.click()
    assert "/10-%E8%A6%B2%E7%A6%AE/en/index.html#s-" in page.url
    page.get_by_role("link", name="中文").click()
    assert "/10-%E8%A6%B2%E7%A6%AE/index.html" in page.url and page.locator("html").get_attribute("lang") == "zh-Hant"


@pytest.mark.parametrize("folder", LANGUAGES.values(), ids=LANGUAGES.keys())
@pytest.mark.parametrize("name", PAGES)
def test_accessibility(page, work_site, name, folder):
    if not AXE.exists():
        pytest.fail(f"axe-core is missing: npm install --prefix {ROOT / '.cache' / 'axe'} axe-core")
    page.goto(url(work_site, folder + name, "?q=" + quote("禮") if name == "search.html" else ""))
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("axe.run(document, {resultTypes: ['violations'], preload: false})")
    serious = [
        f"{v['id']} ({v['impact']}): {v['help']} at {v['nodes'][0]['target']}"
        for v in result["violations"]
        if v["impact"] in ("serious", "critical")
    ]
    assert not serious, serious


def test_the_works_fonts_are_made_again_when_their_families_change(tmp_path, monkeypatch):
    """The work's fonts are taken over from the previous site only if they were made for the same
    characters, the same families and the same face: fonts made under other family names, or of
    another face of Noto Serif CJK, are made again."""
    from edition.publication import chapter_site

    chapter = tmp_path / "chapter"
    (chapter / "fonts").mkdir(parents=True)
    needed = {"shown": "禮", "matched": "", "text": "禮", "face": "Noto Serif CJK TC"}
    (chapter / "fonts" / "characters.json").write_text(json.dumps(needed))
    first, second, third = tmp_path / "first", tmp_path / "second", tmp_path / "third"
    with monkeypatch.context() as patched:
        patched.setattr(chapter_site, "FAMILIES", ("Old Serif", "Old A", "Old B"))
        chapter_site.write_shared_fonts([chapter], first)
        chapter_site.write_shared_fonts([chapter], second, previous=first / "fonts")
    assert (second / "fonts" / "fonts.css").stat().st_ino == (first / "fonts" / "fonts.css").stat().st_ino
    chapter_site.write_shared_fonts([chapter], third, previous=first / "fonts")
    css = (third / "fonts" / "fonts.css").read_text(encoding="utf-8")
    assert f'"{chapter_site.FAMILIES[0]}"' in css and "Old Serif" not in css
    (chapter / "fonts" / "characters.json").write_text(json.dumps(needed | {"face": "Noto Serif CJK SC"}))
    chapter_site.write_shared_fonts([chapter], tmp_path / "fourth", previous=third / "fonts")
    fourth = tmp_path / "fourth" / "fonts" / "fonts.css"
    assert fourth.stat().st_ino != (third / "fonts" / "fonts.css").stat().st_ino


def test_the_counts_of_entries_agree_on_the_contents_the_chapters_page_and_its_volume(work_build, work_site):
    """A chapter's entries: the work's contents, the chapter's page and its PDF's 校記統計 give one
    number, the entries of the 經 the apparatus lists (`conventions.listed`)."""
    contents = lxml.html.parse(str(work_site / "index.html"))
    header = [th.text_content() for th in contents.iterfind(".//table[@class='report contents']/thead/tr/th")]
    column = header.index("校記")
    for (number, _, heading), folder in zip(CHAPTERS, FOLDERS):
        row = contents.find(f".//tr[@id='chapter-{number}']")
        listed = int([cell.text_content() for cell in row][column])
        lede = (work_site / folder / "index.html").read_text(encoding="utf-8")
        assert f"出校記{listed}條" in lede, heading
        pdf = subprocess.run(
            ["pdftotext", str(work_build / "chapters" / folder / "edition.pdf"), "-"], capture_output=True, text=True
        ).stdout
        assert re.search(rf"校記條數（經／注）\s*{chinese_number(listed)}\s*/", pdf), heading


def test_the_works_pages_carry_the_citation_metadata_of_the_work(work_build, work_site):
    """The work's own pages: its title, and the editors and the day its chapters name."""
    edition = read(work_build / "chapters" / FOLDERS[0] / "edition.xml")
    for name in PAGES:
        head = lxml.html.parse(str(work_site / name)).find(".//head")
        meta = {}
        for tag in head.iterfind("meta[@name]"):
            meta.setdefault(tag.get("name"), []).append(tag.get("content"))
        assert meta["citation_title"] == meta["DC.title"] == ["儀禮"], name
        assert meta["citation_author"] == edition.editors and meta["DC.date"] == [edition.date], name
