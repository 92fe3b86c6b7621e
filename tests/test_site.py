"""The static HTML edition, opened from disk in a real headless Chromium (Debian's `chromium`,
driven by Playwright) and checked for accessibility with axe-core."""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import quote

import lxml.html
import pytest
import regex
from conftest import AXE, LANGUAGES, english_words, interface_text, simplified_only, url
from lxml import etree

from edition.publication.chapter_site import build_site
from edition.publication.conventions import Conventions, unsaid
from edition.publication.i18n import Messages
from edition.publication.render import NS, read
from edition.text import CLOSING

ROOT = Path(__file__).resolve().parent.parent
PAGES = [
    "index.html",
    "fanli.html",
    "witness-000.html",
    "synopsis.html",
    "witnesses.html",
    "jinguwen.html",
    "variants.html",
    "intake.html",
    "collation.html",
    "search.html",
    "downloads.html",
]


@pytest.fixture(scope="module")
def site(built) -> Path:
    out = built / "site"
    if not (out / "index.html").exists():  # until the build writes the site itself
        build_site(built / "edition.xml", built, out)
    return out


def sigla(site: Path) -> set[str]:
    """The witnesses' sigla, codes of the data that any page may show."""
    return {p.stem.removeprefix("witness-").removesuffix("-own-order") for p in site.glob("witness-*.html")} | {
        "SHU",
        "SW",
    }


@pytest.fixture(scope="module")
def screenshots(built) -> Path:
    folder = built / "screenshots"
    folder.mkdir(exist_ok=True)
    return folder


def marker(page, lemma: str, tag: str):
    return page.locator(f"button.app[data-tags~='{tag}']", has_text=re.compile(f"^{lemma}$")).first


def test_pages_are_self_contained(site, built):
    for name in PAGES:
        html = (site / name).read_text(encoding="utf-8")
        assert not re.search(r"""(src|href)=["']?(https?:)?//""", html), f"{name} reaches the network"
    css = (site / "fonts" / "fonts.css").read_text(encoding="utf-8")
    fonts = re.findall(r'url\("([^"]+)"\)', css)
    assert fonts and all((site / "fonts" / f).stat().st_size > 0 for f in fonts)
    # every family the style sheet asks for (but the generic) is one the fonts declare
    declared = set(re.findall(r'font-family: "([^"]+)"', css))
    asked = set(re.findall(r'"([^"]+)"', re.search(r"--serif:([^;]+);", (site / "site.css").read_text()).group(1)))
    assert asked and asked <= declared, asked - declared
    assert (site / "downloads" / "edition.xml").read_bytes() == (built / "edition.xml").read_bytes()
    assert (site / "downloads" / "witnesses" / "000.xml").exists()
    for name in PAGES:  # the English pages reach the same files from en/
        html = (site / "en" / name).read_text(encoding="utf-8")
        for target in re.findall(r'(?:src|href)="([^"#?]+)', html):
            assert (site / "en" / target).resolve().is_file(), f"en/{name} links to {target}, missing"


def test_text_keeps_the_tei_ids(site, built):
    """Every section, paragraph and entry that says something keeps its TEI id; an entry that
    says nothing (a stand-in where the witnesses write what it stands for, a web witness's gap or
    spam, a clause a compiler moved) is its text alone."""
    edition = read(built / "edition.xml")
    entries = Conventions(edition.style).entries(edition)
    html = (site / "index.html").read_text(encoding="utf-8")
    for section in edition.sections:
        assert f'id="{section.id}"' in html and f'id="{section.paragraph_id}"' in html
    silent = [app for app in edition.apps if not entries[app.id].clauses]
    assert silent and all(r.type == "gaiji" or unsaid(edition, r) for app in silent for r in app.readings)
    assert any(r.type == "lacuna" and unsaid(edition, r) for app in silent for r in app.readings), "002's ▯"
    assert any(r.type == "transposition" and unsaid(edition, r) for app in silent for r in app.readings), "000's"
    # a regrouped clause's own wording is said where it is moved to, but not the base's emendations there
    regrouped = lambda app: (
        app.within is not None
        and any(
            unsaid(edition, r) and app in r.inner and not any(set(r.wit) & set(own.wit) for own in app.readings)
            for r in app.within.readings
        )
    )
    for app in (app for app in edition.apps if entries[app.id].clauses and not regrouped(app)):
        assert f'id="{app.id}"' in html
        assert f'href="#at-{app.id}"' in html or not app.in_text, (
            "a moved clause's difference is shown in its reading's entry"
        )


def test_marker_opens_its_readings(page, site, screenshots):
    page.goto(url(site, "index.html"))
    yi = marker(page, "揖", "jinwen")
    yi.click()
    popover = page.locator("#popover")
    assert popover.is_visible() and yi.get_attribute("aria-expanded") == "true"
    body = page.locator("#popover-body")
    assert body.locator(".rdg.type-jinguwen .rdg-text").inner_text() == "升"
    quotes = body.locator("q").all_inner_texts()
    assert "揖，今文作升" in body.inner_text() and quotes.count("今文揖爲升") == 1 and "今文揖为升" not in quotes, (
        "SBCK's and 000's words, one reading, one wording in the edition's script"
    )
    page.screenshot(path=screenshots / "popover-jinguwen.png")
    page.keyboard.press("Escape")
    assert popover.is_hidden() and yi.get_attribute("aria-expanded") == "false"
    assert page.evaluate("document.activeElement.id") == yi.get_attribute("id")

    tang = marker(page, "堂", "w-001")
    tang.focus()  # focusing a marker shows its entry too
    assert popover.is_visible()
    reading = body.locator(".rdg.type-substantive")
    assert reading.locator(".rdg-text").inner_text() == "常" and reading.locator(".sig").inner_text() == "網絡本"
    assert "原作" not in body.inner_text()  # the base reads 堂

    page.check("#commentary")  # the emendations are in the 注: SBCK's 爾稚曰, against the 注疏本 and the 單疏本
    ya = marker(page, "雅", "emended")
    ya.focus()
    assert "雅，原作稚，據" in body.inner_text() and "單疏本引作" in body.inner_text()
    assert body.locator(".rdg-text").all_inner_texts()[0] == "稚", "the base's reading said in the emendation"


def test_entry_and_marker_link_both_ways(page, site):
    page.goto(url(site, "index.html"))
    first = page.locator("button.app").first
    entry_id = first.get_attribute("data-app")
    assert page.locator(f"#{entry_id} a.entry-no").get_attribute("href") == f"#{first.get_attribute('id')}"
    first.click()
    assert page.locator("#popover-link").get_attribute("href") == f"#{entry_id}"


def test_the_commentary_shows_under_its_passage_with_its_entries(page, site, screenshots):
    """WYG's 枯 for SBCK's 楛 in 肅愼氏貢楛矢, in the 注 after 上握焉 (KR1d0026 line 347, KR1d0028 line 813)."""
    page.goto(url(site, "index.html", "?commentary=on"))
    note = page.locator("span.zhu", has_text="肅愼氏貢")
    assert note.is_visible()
    assert page.evaluate("(note) => note.previousSibling.textContent", note.element_handle()).endswith("。")
    hu = note.locator("button.app", has_text=re.compile("^楛$"))
    hu.click()
    body = page.locator("#popover-body")
    assert body.inner_text() == "注：楛，四庫本作枯。" and page.locator("#popover-title").inner_text().startswith(
        "校記注"
    )
    page.screenshot(path=screenshots / "popover-commentary.png")
    page.keyboard.press("Escape")
    page.uncheck("#commentary")
    assert note.is_hidden() and "commentary" not in page.url


def test_the_proposed_punctuation_is_set_apart_until_the_reader_switches_it_off(page, site):
    """鄉射禮's 注 beyond 002 is punctuated by the model: its marks in their own colour, 002's not."""
    page.goto(url(site, "index.html", "?commentary=on"))
    colour = "(e) => getComputedStyle(e).color"
    proposed = page.locator("span.zhu span.pc-proposed").first
    note = proposed.locator("xpath=ancestor::span[@class='zhu']")
    assert page.evaluate(colour, proposed.element_handle()) != page.evaluate(colour, note.element_handle())
    page.uncheck("#proposed")
    assert page.evaluate(colour, proposed.element_handle()) == page.evaluate(colour, note.element_handle())
    assert "proposed=off" in page.url
    page.reload()
    assert not page.is_checked("#proposed")


def test_a_followed_sentence_is_copied_with_its_citation_and_the_urn_the_tei_resolves(browser, site, built):
    """Following a sentence's number shows its citation and URN; 「複製引用」 copies its text (the
    注 in brackets while it shows, the entries marked in it on request) with them. The URN is the
    TEI's idno and the citation, and the TEI's prefixDef leads it to the sentence's anchor."""
    context = browser.new_context(permissions=["clipboard-read", "clipboard-write"])
    page = context.new_page()
    page.goto(url(site, "index.html", "#c3.3"))
    assert page.locator("#cite-bar").is_visible()
    urn = page.locator("#cite-urn").inner_text()
    assert urn == "urn:cts:chineseLit:yili:5.3.3"
    assert page.locator("#cite-label").inner_text() == "《儀禮·鄉射禮第五》3.3"
    page.click("#cite-copy")
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied == f"及門，主人一相出迎于門外，再拜；賔荅再拜。（《儀禮·鄉射禮第五》3.3，{urn}）"
    page.goto(url(site, "index.html", "?commentary=on#c3.3"))
    page.check("#cite-entries")
    page.click("#cite-copy")
    first, *entries = page.evaluate("navigator.clipboard.readText()").split("\n")
    assert first.startswith("及門，主人一相出迎于門外，再拜；賔荅再拜。（相，主人家臣擯賛傳命者。）（《儀禮")
    assert entries and all(regex.match(r"校記注?\d+：", e) for e in entries) and "于" in entries[0]
    page.goto(url(site, "index.html", "#s-主召賓從已"))
    assert page.locator("#cite-bar").is_hidden()
    context.close()
    document = etree.parse(str(built / "edition.xml"))
    (prefix,) = document.xpath("//t:listPrefixDef/t:prefixDef[1]", namespaces=NS)
    scheme, _, rest = urn.partition(":")
    matched = regex.fullmatch(prefix.get("matchPattern"), rest)
    pointer = matched.expand(prefix.get("replacementPattern").replace("$", "\\"))
    assert scheme == prefix.get("ident") and pointer == "#c3.3"
    assert document.xpath("//t:anchor[@xml:id='c3.3']/@n", namespaces=NS) == ["3.3"]


def test_witness_view(page, site, screenshots, sources):
    page.goto(url(site, "witness-000.html"))
    forms = page.locator("a.form")
    assert "答" in forms.all_inner_texts(), "variant forms of the 异体字表 show in the witness's text"  # SBCK: 荅
    assert forms.first.get_attribute("href") == "variants.html"
    first = page.locator("section.section p.text").first
    fold = sources.normalizer().fold
    opening = "".join(fold(c)[0] for c in first.inner_text()[:6])
    assert opening == "".join(fold(c)[0] for c in "賔及众賔皆降"), (
        "000 begins on SBCK's lost leaf 7b, which the edition supplies"
    )
    text = page.locator("main").inner_text()
    assert "升堂，揖" in text and "升常" not in text  # 001 reads 常 here
    page.screenshot(path=screenshots / "witness-000.png", full_page=False)
    page.goto(url(site, "witness-001.html"))
    assert page.locator("a.diff.type-substantive", has_text="常").count() == 1


def test_filters_hide_entries_and_live_in_the_url(page, site, screenshots):
    page.goto(url(site, "index.html"))
    enabled = "document.querySelectorAll('button.app:enabled').length"
    everything = page.evaluate(enabled)
    page.select_option("#show", "major")
    without_minor = page.evaluate(enabled)
    assert 0 < without_minor < everything
    assert "show=major" in page.url
    page.select_option("#wit", "000")
    assert page.locator("span.zhu").first.is_hidden()
    page.check("#commentary")
    assert page.locator("span.zhu").first.is_visible() and page.locator(".commentary-apparatus").first.is_visible()
    page.screenshot(path=screenshots / "filtered-with-commentary.png")
    page.reload()
    assert page.input_value("#show") == "major" and page.input_value("#wit") == "000" and page.is_checked("#commentary")
    assert page.evaluate(enabled) < without_minor
    page.select_option("#show", "jinwen")
    page.select_option("#wit", "")
    jinwen = page.evaluate("Array.from(document.querySelectorAll('button.app:enabled')).map(b => b.dataset.tags)")
    assert jinwen and all("jinwen" in tags.split() for tags in jinwen)


def test_search_folds_variant_forms(page, site, screenshots):
    page.goto(url(site, "search.html", "?q=" + quote("賔")))
    results = page.locator("#results li")
    assert results.count() > 0
    text_hits = page.locator("#results li.result-text")
    assert text_hits.filter(has_text="獻大夫").count() == 1
    assert re.search("[宾賓賔]及[众衆][宾賓賔]皆降", text_hits.filter(has_text="獻大夫").inner_text())
    page.screenshot(path=screenshots / "search.png")
    count = text_hits.count()
    for form in ("賓", "宾"):  # WYG's form, and the simplified one
        page.fill("#q", form)
        assert page.locator("#results li.result-text").count() == count


def test_search_pages_its_results(page, site):
    """A search with more results than a page holds shows them fifty at a time, numbered on, with
    links to every page; the page lives in the URL, and a new query starts again at the first."""
    page.goto(url(site, "search.html", "?q=" + quote("賔")))
    status = page.locator("#search-status").inner_text()
    total = int(re.search(r"凡(\d+)條", status).group(1))
    assert total > 100 and "此列其第1至50條" in status
    assert page.locator("#results > li").count() == 50
    pages = page.locator("#pager a:not([rel])")
    assert pages.count() == -(-total // 50) and page.locator("#pager a[aria-current]").inner_text() == "1"
    first = page.locator("#results > li").first.inner_text()
    page.locator("#pager a[rel='next']").click()
    search = lambda: page.evaluate("location.search")  # history.replaceState, read where it is written
    assert "page=2" in search() and page.locator("#results").get_attribute("start") == "51"
    assert (
        page.locator("#results > li").first.inner_text() != first
        and "此列其第51至100條" in page.locator("#search-status").inner_text()
    )
    page.reload()
    assert page.locator("#pager a[aria-current]").inner_text() == "2"
    page.fill("#q", "賓")
    assert "page=" not in search() and page.locator("#pager a[aria-current]").inner_text() == "1"
    assert page.locator("#pager a").evaluate_all("(links) => links.every((a) => a.offsetWidth >= 24)")


def test_the_pages_speak_the_configured_language_and_english(site, sources):
    """The site's own language is the config's (zh-Hant, the base's traditional script): its
    interface has no simplified character and no English word but the data's codes; every page is
    also in English under en/, each linking to the other with hreflang and lang."""
    assert sources.language == "zh-Hant" == sources.config.language
    known = sigla(site)
    for name in [p.name for p in site.glob("*.html")]:
        chinese, english = (site / name).read_text(encoding="utf-8"), (site / "en" / name).read_text(encoding="utf-8")
        language, text, labels = interface_text(chinese)
        assert language == "zh-Hant", name
        assert not simplified_only(text), f"{name}: {sorted(simplified_only(text))}"
        assert not english_words(text + labels, known), f"{name}: {sorted(english_words(text + labels, known))}"
        assert f'<a href="en/{name}" hreflang="en" lang="en"' in chinese, name
        assert interface_text(english)[0] == "en", name
        assert f'<a href="../{name}" hreflang="zh-Hant" lang="zh-Hant"' in english, name
    for name in ("index.html", "witnesses.html", "search.html"):  # English prose on the English pages
        _, text, _ = interface_text((site / "en" / name).read_text(encoding="utf-8"))
        assert len(english_words(text, known)) > 10, name
    script = (site / "search-data.js").read_text(encoding="utf-8")
    assert '"y":"substantive"' in script, "the search's data names no type in a language: the page does"


def test_the_language_switch_leads_to_english_and_back(page, site):
    page.goto(url(site, "witnesses.html"))
    assert page.locator("html").get_attribute("lang") == "zh-Hant"
    assert page.locator("h1").inner_text() == "傳本目錄"
    page.get_by_role("link", name="English").click()
    assert page.url.endswith("/site/en/witnesses.html")
    assert (
        page.locator("html").get_attribute("lang") == "en" and page.locator("h1").inner_text() == "Conspectus siglorum"
    )
    assert page.locator("link[rel=stylesheet]").last.get_attribute("href") == "../site.css"
    assert page.evaluate("getComputedStyle(document.querySelector('.masthead')).display") == "flex", "styled"
    page.get_by_role("link", name="Synopsis").click()  # the English pages link to each other
    assert page.url.endswith("/site/en/synopsis.html") and page.locator("html").get_attribute("lang") == "en"
    page.get_by_role("link", name="中文").click()
    assert page.url.endswith("/site/synopsis.html") and page.locator("html").get_attribute("lang") == "zh-Hant"


def test_the_english_pages_work(page, site):
    """The reading view's script and the search speak English on the English pages, and their
    links and data reach the files at the site's root."""
    english = Messages("en")
    page.goto(url(site, "en/index.html"))
    marker(page, "揖", "jinwen").click()
    assert page.locator("#popover-title").inner_text().startswith("Entry ")
    assert "揖，今文作升" in page.locator("#popover-body").inner_text(), "the apparatus is the edition's, untranslated"
    total = page.evaluate(
        "new Set([...document.querySelectorAll('button.app:not(.zhu button.app)')].map(b => b.dataset.app)).size"
    )
    assert page.locator("#shown").inner_text() == english.template("script.entries").replace("{n}", str(total))
    page.goto(url(site, "en/search.html", "?q=" + quote("賔")))
    hits = page.locator("#results li.result-text")
    assert hits.count() > 0 and "in the text" in page.locator("#search-status").inner_text()
    hits.first.locator("a").first.click()
    assert "/site/en/index.html#s-" in page.url
    page.goto(url(site, "en/downloads.html"))
    assert page.locator("ul.downloads a").first.get_attribute("href").startswith("../downloads/")


@pytest.mark.parametrize("folder", LANGUAGES.values(), ids=LANGUAGES.keys())
@pytest.mark.parametrize("name", PAGES)
def test_accessibility(page, site, screenshots, name, folder):
    if not AXE.exists():
        pytest.fail(f"axe-core is missing: npm install --prefix {ROOT / '.cache' / 'axe'} axe-core")
    page.goto(url(site, folder + name))
    page.add_script_tag(path=str(AXE))
    # preload off: axe would fetch the stylesheets again by XHR, which file:// refuses.
    result = page.evaluate("axe.run(document, {resultTypes: ['violations'], preload: false})")
    serious = [
        f"{v['id']} ({v['impact']}): {v['help']} at {v['nodes'][0]['target']}"
        for v in result["violations"]
        if v["impact"] in ("serious", "critical")
    ]
    assert not serious, serious
    page.screenshot(path=screenshots / f"{folder.replace('/', '-')}{name[:-5]}.png")


def test_on_a_phone_every_marker_is_a_target_a_finger_can_hit_and_no_page_scrolls_sideways(browser, site, screenshots):
    """At 390 px (a phone), the chapter opens on its text (the 凡例 is a page of its own), each
    marker of the text shown is 24 px wide and high at least (WCAG 2.5.8), an entry with no lemma
    shows its sign (＋ or ↷), not a bare dot, and the reading page keeps within the screen's width."""
    page = browser.new_page(viewport={"width": 390, "height": 844})
    try:
        page.goto(url(site, "index.html"))
        assert page.evaluate("document.querySelector('p.text').getBoundingClientRect().top") < 1.5 * 844
        sizes = page.evaluate(
            "[...document.querySelectorAll('p.text button.app')].filter(b => b.offsetParent)"
            ".map(b => { const r = b.getBoundingClientRect(); return [b.id, r.width, r.height]; })"
        )
        assert len(sizes) > 150
        small = [(i, round(w, 1), round(h, 1)) for i, w, h in sizes if w < 24 or h < 24]
        assert not small, small[:5]
        signs = set(page.locator("p.text button.app.empty").all_inner_texts())
        assert signs and signs <= {"＋", "↷"}
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        page.screenshot(path=screenshots / "phone-index.png")
    finally:
        page.close()


def test_on_a_phone_the_synopsis_sets_the_base_beside_one_witness_the_reader_picks(browser, site, screenshots):
    """At 390 px the synopsis shows the base and one witness (six columns set one character to a
    line were some 240,000 px tall), the reader picks the other from a list; no page of the chapter
    scrolls sideways. At 1280 px every witness stands side by side."""
    page = browser.new_page(viewport={"width": 390, "height": 844})
    visible = (
        "[...document.querySelectorAll('table.synopsis td')].filter(c => c.offsetParent).map(c => c.dataset.witness)"
    )
    try:
        for name in PAGES:
            page.goto(url(site, name))
            assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), name
        page.goto(url(site, "synopsis.html"))
        assert page.evaluate("document.documentElement.scrollHeight") < 100_000
        options = page.eval_on_selector_all("#pair option", "options => options.map(o => o.value)")
        assert len(options) >= 3
        base = page.evaluate("document.querySelector('table.synopsis thead th[data-witness]').dataset.witness")
        assert set(page.evaluate(visible)) == {base, options[0]}
        page.select_option("#pair", options[-1])
        assert set(page.evaluate(visible)) == {base, options[-1]}
        page.screenshot(path=screenshots / "phone-synopsis.png")
        page.set_viewport_size({"width": 1280, "height": 900})
        assert not page.locator("#pair").is_visible()
        assert len(set(page.evaluate(visible))) == len(options) + 1
    finally:
        page.close()


def test_the_page_and_its_filter_count_the_entries_the_apparatus_lists(page, site):
    """The lede's count of entries, the filter's and the apparatus's list are one number: the
    entries of the 經 that say something; with the 注 shown the filter counts its entries too."""
    page.goto(url(site, "index.html"))
    lede = int(re.search(r"出校記(\d+)條", page.locator("p.lede").inner_text()).group(1))
    classic = page.locator("section.section > ol.apparatus > li.entry").count()
    commentary = page.locator(".commentary-apparatus li.entry").count()
    shown = lambda: int(re.search(r"校記(\d+)條", page.locator("#shown").inner_text()).group(1))
    assert lede == classic == shown() and commentary > 100
    page.locator("#commentary").check()
    assert shown() == classic + commentary


def test_the_entries_are_numbered_in_order_with_none_skipped(site):
    """The apparatus numbers the entries it lists, 1, 2, 3… and 注1, 注2…, on the page and in its
    markers' entries alike, none skipped for an entry that says nothing."""
    html = lxml.html.parse(str(site / "index.html"))
    numbers = [a.text_content() for a in html.iterfind(".//li[@class]/a[@class='entry-no']")]
    classic = [n for n in numbers if not n.startswith("注")]
    notes = [n for n in numbers if n.startswith("注")]
    assert classic == [str(i) for i in range(1, len(classic) + 1)] and len(classic) > 120
    assert notes == [f"注{i}" for i in range(1, len(notes) + 1)] and len(notes) > 140
    listed = {li.get("id") for li in html.iterfind(".//li[@class]") if li.find("a[@class='entry-no']") is not None}
    assert {b.get("data-app") for b in html.iterfind(".//button[@data-app]")} <= listed


def test_no_row_of_the_synopsis_begins_with_punctuation(site):
    """The punctuation right after an entry ends the entry's row (禁則): no witness's cell of the
    synopsis begins with 。，、；：？！ or a closing quotation mark."""
    html = lxml.html.parse(str(site / "synopsis.html"))
    cells = [td.text_content().strip() for td in html.iterfind(".//table[@class='synopsis']//td")]
    assert len(cells) > 500 and sum(1 for c in cells if c and c[-1] in CLOSING) > 100
    assert [c for c in cells if c and c[0] in CLOSING] == []


def test_every_reading_the_search_finds_leads_to_its_entry_titled_in_the_editions_words(site):
    """A reading found by the search is a reading of an entry the apparatus lists (a compiler's
    regrouping, counted in the conspectus, is no hit), linked to it, titled by the entry, its lemma
    or its place (X下) and its witnesses, not in Latin signs (「80. ∅] 禮書綱目」)."""
    script = (site / "search-data.js").read_text(encoding="utf-8")
    data = json.loads(script[script.index(".push(") + len(".push(") : script.rindex(");")])
    readings = [e for e in data["entries"] if e["k"] == "reading"]
    html = (site / "index.html").read_text(encoding="utf-8")
    listed = set(re.findall(r'<li id="((?:zhu-)?app-\d+)" class="entry', html))
    assert len(readings) > 300
    assert {e["h"].rsplit("#", 1)[1] for e in readings} <= listed
    assert not [e["s"] for e in readings if "∅" in e["s"] or "]" in e["s"]]
    assert any("下：" in e["s"] for e in readings), "an addition by its place"


def test_each_page_carries_the_citation_metadata_a_reference_manager_reads(site, built):
    """Highwire's and Dublin Core's tags, from the TEI's titleStmt and publicationStmt: the title,
    the editors, the day of the build and the place, on every page of the chapter."""
    edition = read(built / "edition.xml")
    assert edition.editors and edition.date
    for name in PAGES:
        head = lxml.html.parse(str(site / name)).find(".//head")
        meta = {}
        for tag in head.iterfind("meta[@name]"):
            meta.setdefault(tag.get("name"), []).append(tag.get("content"))
        assert meta["citation_title"] == meta["DC.title"] == [edition.title], name
        assert meta["citation_author"] == meta["DC.creator"] == edition.editors, name
        assert meta["citation_publication_date"] == [edition.date.replace("-", "/")], name
        assert meta["DC.date"] == [edition.date] and meta["citation_language"] == ["lzh"], name
