"""The apparatus as the conventions phrase it, on chapters of the 儀禮 edited in process (士冠禮,
鄉射禮, 喪服): the series by kind, and each slip once found in the print, at its mechanism."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import pytest
import regex
from conftest import WORK, edited_chapter

from edition.publication import pdf, render, tei
from edition.publication.conventions import REMARKS_SERIES, SERIES, Conventions, in_edition_script
from edition.publication.model import App
from edition.work.work_sources import Work

SUPERSCRIPTS = "⁰¹²³⁴⁵⁶⁷⁸⁹"


def phrased(chapter: SimpleNamespace, folder: Path) -> SimpleNamespace:
    """A chapter's TEI read back as the renderers read it, and its entries phrased."""
    path = folder / "edition.xml"
    path.write_bytes(tei.serialize(chapter.document))
    edition = render.read(path)
    conventions = Conventions(edition.style)
    return SimpleNamespace(
        chapter=chapter, edition=edition, conventions=conventions, entries=conventions.entries(edition)
    )


@pytest.fixture(scope="module")
def guanli(tmp_path_factory) -> SimpleNamespace:
    """士冠禮: SBCK and WYG, with WYG's 考證, 音義 and 疏."""
    return phrased(edited_chapter("士冠禮"), tmp_path_factory.mktemp("guanli"))


@pytest.fixture(scope="module")
def xiangshe(tmp_path_factory) -> SimpleNamespace:
    """鄉射禮: SBCK, WYG and the web texts 000–004."""
    return phrased(edited_chapter("鄉射禮"), tmp_path_factory.mktemp("xiangshe"))


@pytest.fixture(scope="module")
def mourning(sangfu, tmp_path_factory) -> SimpleNamespace:
    """喪服, as test_sangfu reads it."""
    return phrased(sangfu, tmp_path_factory.mktemp("sangfu"))


def said(found: SimpleNamespace, app: App, series: str, recurred: bool = False) -> str:
    """One series of an entry as the PDF prints it, or as the HTML shows it (`recurred`)."""
    pieces = found.conventions.sentence(found.entries[app.id].series(series), app, recurred)
    return "".join(part.text for _, parts in pieces for part in parts)


def printed(found: SimpleNamespace) -> list[str]:
    return [text for app in found.edition.all_apps for s in SERIES if (text := said(found, app, s))]


def test_series_a_holds_the_readings_and_the_remarks_that_report_none_are_series_e(guanli, xiangshe):
    """In 士冠禮 most of the 校语 are the 考證's on the 疏 (監本脱…), the 音義's glosses and Zheng
    Xuan's own remarks: none reports a reading at its place, so they are series E; one that
    reports the reading of an edition there (捷石經及敖本作建) stays in A, with the readings."""
    for found in (guanli, xiangshe):
        edition = found.edition
        notes = [(app, note) for app in edition.apps for note in app.textual]
        clauses = [c for app in edition.apps for c in found.entries[app.id].clauses if c.kind == "textual"]
        assert len(clauses) == len(notes) > 20
        for (app, note), clause in zip(notes, clauses, strict=True):
            assert clause.series == ("A" if note.reports else REMARKS_SERIES), (app.id, clause.text)
        assert any(note.reports for _, note in notes) and not all(note.reports for _, note in notes)
        assert "E系列" in next(item for key, item in zip(edition.fanli_keys, edition.fanli) if key == "remarks")
    on_the_subcommentary = [t for app in guanli.edition.apps if "監本脱" in (t := said(guanli, app, "E"))]
    assert len(on_the_subcommentary) >= 5 and not any("監本脱" in said(guanli, app, "A") for app in guanli.edition.apps)


def test_xia_tong_only_where_the_same_lemma_and_reading_recur(guanli):
    """士冠禮's 注: WYG adds 也 after different words (ten in the old section 1, which ran to 1,390
    characters); one 「道下有也，下同」 hid them all. An addition's lemma is its place (X下): each
    place is said, and a later entry said to recur (同上) says what the first says."""
    edition, entries = guanli.edition, guanli.entries
    additions = {
        app.before
        for app in edition.commentary_apps
        if any(r.text == "也" and not app.lemma.text for r in app.readings)
    }
    places = {m for app in edition.commentary_apps for m in re.findall(r"四庫本(.)下有也", said(guanli, app, "D"))}
    assert len(additions) >= 8 and additions <= places
    first = {c.key: c for entry in entries.values() for c in entry.clauses if c.recurs}
    again = [c for entry in entries.values() for c in entry.clauses if c.recurred]
    assert again, "variants that recur"
    bare = lambda text, suffix: re.sub(f"[{SUPERSCRIPTS}]", "", text.split(suffix)[0])
    for clause in again:
        assert bare(clause.text, "，同上") == bare(first[clause.key].text, "，下同")


def test_no_entry_says_only_tong_shang(guanli, mourning):
    """The HTML shows a variant that recurs in full, then where it was first said: 14 entries of
    士冠禮 and 50 of 喪服 once said only 「同上（1.1）」."""
    for found in (guanli, mourning):
        shown = [said(found, app, s, recurred=True) for app in found.edition.all_apps if app.in_text for s in SERIES]
        recurred = [text for text in shown if "同上（" in text]
        assert recurred
        for text in recurred:
            assert not re.match(r"(注：)?同上（", text), text
            assert re.search(r"[^，；]+，同上（[\d.]+）", text)


@pytest.mark.tier("build")  # reads a chapter of the corpus
def test_an_emendation_that_takes_the_bases_words_out_says_where(xiangshe):
    """SBCK's 注 reads 刊本一作膚, the others 刊本一膚: the lemma is empty, once printed
    「注：，原作作，據…改」; the place is the word before it: 「一下原有作，據…刪」."""
    edition = xiangshe.edition
    deleted = [app for app in edition.commentary_apps if app.emended and not app.lemma.text]
    assert deleted
    for app in deleted:
        assert re.match(rf"注：{app.before}下原有[^，]+，據[^，]+刪", said(xiangshe, app, "D")), app.id
    assert not [text for text in printed(xiangshe) if re.match(r"(注：)?，", text)], "no empty lemma"


@pytest.mark.tier("build")  # reads a chapter of the corpus
def test_a_reading_that_lacks_a_word_of_the_lemma_says_it_lacking(xiangshe):
    """賔與大夫坐，反奠于其所: WYG reads 反 for the entry 坐，反 (widened for the 古文's 反坐),
    once 「坐，反，四庫本作反」: it lacks 坐. Not where the words lacked repeat those beside them
    (作相爲司正司正禮辭, 000 司正 once): which of the two is lacked is no fact, 「司正。司正，禮書綱目作司正」."""
    edition = xiangshe.edition
    partial = [
        (app, r)
        for app in edition.all_apps
        for r in app.readings
        if r.type == "substantive"
        and r.text
        and (own := "".join(regex.findall(r"\p{Han}", app.lemma.text))) != r.text
        and (own.startswith(r.text) or own.endswith(r.text))
    ]
    assert partial
    repeated = 0
    for app, r in partial:
        own = "".join(regex.findall(r"\p{Han}", app.lemma.text))
        lacking = own.replace(r.text, "", 1)
        series = "D" if app.gloss else "A"
        if own in (r.text + r.text[-len(lacking) :], r.text[: len(lacking)] + r.text):
            repeated += 1
            assert f"{app.lemma.text}，{edition.sigla(r.wit, '、')}作{r.text}" in said(xiangshe, app, series), app.id
        else:
            assert f"{edition.sigla(r.wit, '、')}無{lacking}" in said(xiangshe, app, series), app.id
    assert repeated
    assert any(text.startswith("四庫本無坐") for text in printed(xiangshe))


def test_a_stand_in_is_compared_by_what_it_stands_for(guanli, xiangshe):
    """SBCK's &KR0123; stands for 吉, where WYG writes 吉, once 「吉¹，四庫本作吉（造字）」; 000's
    private-use U+EB8E is 弦. A stand-in for a known character is no entry; one for no known
    character is said with what it is."""
    for found in (guanli, xiangshe):
        stand_ins = [(app, r) for app in found.edition.all_apps for r in app.readings if r.type == "gaiji"]
        assert len(stand_ins) > 5
        for app, r in stand_ins:
            text = said(found, app, "D" if app.gloss else "C")
            assert not re.search(
                rf"{re.escape(app.lemma.text)}[{SUPERSCRIPTS}]*，[^，；]*作{re.escape(app.lemma.text)}（", text
            )
            if "（造字）" in text:
                assert r.unmapped or app.lemma.unmapped, text


@pytest.mark.tier("build")  # reads a chapter of the corpus
def test_each_witness_is_said_in_its_own_characters(xiangshe):
    """The 注's 孤人 at 23.7: 五禮通考 writes 于人, WYG 於人 (its file: 尊於人也其末), once
    「孤，五禮通考、四庫本作于」; the reading first in the characters of the witness that writes the
    edition's script (traditional), once 「孤，五禮通考作于，四庫本作於」. A witness that writes the other
    script is said in the edition's, each character only that script writes converted (五禮通考's 虽
    is 雖, one wording with WYG's), one both write kept (于)."""
    edition, witnesses = xiangshe.edition, xiangshe.chapter.edited.apparatus.witnesses
    written = [(app, r) for app in edition.all_apps for r in app.readings if r.forms and r.type != "gaiji"]
    assert written
    for app, r in written:
        text = said(xiangshe, app, "D" if app.gloss else "A" if r.type == "substantive" else "C", recurred=True)
        for wit, own in r.forms.items():
            siglum = wit.removeprefix("#w")
            assert own in witnesses[siglum].raw.text
            name, shown = edition.sigla([wit]), in_edition_script(edition, [wit], own)
            clauses = re.split(r"[；。]", text)  # its name and its words in one statement (X作Y, X下有Y)
            assert any(name in c and shown in c.split(name, 1)[1] for c in clauses), (app.id, text)
    assert "注：孤，四庫本作於，五禮通考作于。" in printed(xiangshe)
    assert {"注：進，四庫本、五禮通考作雖。", "注：進，五禮通考、四庫本作雖。"} & set(printed(xiangshe))
    assert "尊於人也其末" in witnesses["WYG"].raw.text


def test_a_quotation_that_confirms_the_base_is_not_a_variant(guanli):
    """WYG's 注 reads 其 where SBCK reads 及, and WYG's own 疏 quotes 及: once 「四庫本疏引作「…及…」」,
    as if a variant; a quotation of the base's reading says so, and the base's own words elsewhere
    are said as such (「四部叢刊本他處作「帶博二寸」」)."""
    edition = guanli.edition
    base = f"#{edition.base.id}"
    quotations = [
        (app, q) for app in edition.all_apps if not app.graphic for q in app.evidence if q.layer != "collation-notes"
    ]
    assert len(quotations) > 30
    for app, q in quotations:
        reading = next(r for r in (app.lemma, *app.readings) if r.id == q.target)
        text = said(guanli, app, "D" if app.gloss else "A", recurred=True)
        if q.layer == "elsewhere":  # the base's own words elsewhere (本校)
            assert f"{edition.sigla([base])}他處作「{q.words}」" in text, (app.id, text)
        elif base in reading.wit:
            assert f"引「{q.words}」，與{edition.sigla([base])}同" in text, (app.id, text)
        else:
            assert f"引作「{q.words}」" in text, (app.id, text)


@pytest.mark.tier("build")  # reads a chapter of the corpus
def test_numbers_are_written_in_one_style(xiangshe):
    """The apparatus in numbers once read 「155 / 四十六 / 二十七 / 262」: every count in words."""
    edition = xiangshe.edition
    counts = pdf.counts(edition)
    assert max(counts.values()) >= 100
    latex = pdf.latex(edition)
    head = latex.index("校記統計")
    table = latex[
        latex.index(r"\begin{tabular}{lr}", head) + len(r"\begin{tabular}{lr}") : latex.index(r"\end{tabular}", head)
    ]
    assert "A / B / C / D" in table and not re.search(r"\d", table), table


def test_a_witness_is_named_for_what_it_is():
    """A witness's name is not its family's: 002, a web transcription of the 注疏, was called
    注疏本, the name of the whole 注疏 tradition (WYG among it)."""
    work = Work.load(WORK)
    metas = [m for chapter in work.chapters for m in work.sources(chapter).witnesses]
    families = {m.family for m in metas if m.family}
    assert "注疏本" in families
    assert not [m.siglum for m in metas if m.name in families]
