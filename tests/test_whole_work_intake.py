"""The whole 儀禮 of Kanripo through intake: the 17 卷 of the 四部叢刊 (SBCK) and the 卷首 and 17 卷 of
the 四庫全書 (WYG) in sources/, each read by its edition's general profile, every character in one
layer; 子夏's 傳 of 喪服 as a layer of its own, collated with the classic text; the 卷首's 序, 提要 and
原目, and each 卷's 考證."""

from pathlib import Path

import pytest
import regex
from texts import NS, intake_kanripo, runs

from edition.collation import decision_file
from edition.intake.align import align
from edition.publication import chapter_site, pdf, render, report, tei, validate
from edition.publication.model import LayerMark
from edition.work.chapter_build import edit
from edition.work.sources import Sources, decisions_path

ROOT = Path(__file__).resolve().parent.parent
SANGFU = 11


@pytest.fixture(scope="module")
def whole(sources):
    """(siglum, 卷) -> the witness, the two of a 卷 read against each other as intake_all reads them (how long
    the 35 files take, < 60 s: bench/whole_work_intake)."""
    return intake_kanripo(sources.normalizer())


def characters(witness) -> dict[str, int]:
    """Per layer, the characters of the witness's segments (line ends too)."""
    out: dict[str, int] = {}
    for segment in witness.segments:
        out[segment.layer] = out.get(segment.layer, 0) + segment.end - segment.start
    return out


@pytest.mark.tier("build")  # reads a chapter of the corpus
def test_every_character_of_the_35_files_is_in_one_layer(whole):
    read = whole
    assert len(read) == 35
    for (siglum, juan), witness in read.items():
        ends = [0] + [s.end for s in witness.segments]
        assert [s.start for s in witness.segments] == ends[:-1] and ends[-1] == len(witness.raw.text), (siglum, juan)
        counts = characters(witness)
        assert "unassigned" not in counts and sum(counts.values()) == len(witness.raw.text), (siglum, juan)
        layers = report.layer_counts(witness)
        line_ends = sum(witness.raw.text.count(c) for c in "\r\n")
        assert sum(c["characters"] for c in layers.values()) + line_ends == len(witness.raw.text), (
            "the report counts every character"
        )


@pytest.mark.tier("build")  # reads a chapter of the corpus
def test_every_juan_has_classic_text_and_commentary(whole):
    read = whole
    for (siglum, juan), witness in read.items():
        if juan:
            counts = characters(witness)
            assert counts.get("classic", 0) > 500 and counts.get("commentary", 0) > 1000, (siglum, juan)
            assert regex.fullmatch(r"[\p{Han}&;KR\d■□]+", witness.classic.source(witness.raw, 0, None)), (
                "no marker, bracket or indentation in the text collated"
            )


@pytest.mark.tier("build")  # reads a chapter of the corpus
def test_only_sangfu_has_a_tradition(whole):
    read = whole
    for (siglum, juan), witness in read.items():
        tradition = characters(witness).get("tradition", 0)
        assert (tradition > 2500) if juan == SANGFU else (tradition == 0), (siglum, juan)


@pytest.mark.tier("build")  # reads a chapter of the corpus
def test_the_tradition_is_collated_with_the_classic_in_reading_order(whole):
    sbck = whole[("SBCK", SANGFU)]
    layers = {token.layer for token in sbck.classic.tokens}
    assert layers == {"classic", "tradition"}
    assert sbck.classic.source(sbck.raw, 0, 30) == "䘮服斬衰裳苴絰杖絞帶冠繩纓菅屨者傳曰斬者何不緝也苴絰者麻之有"
    assert sbck.layer_view("commentary").classic.source(sbck.raw, 0, 6) == "者者明爲下出"


@pytest.mark.tier("build")  # reads a chapter of the corpus
def test_both_witnesses_read_the_same_tradition_but_for_a_few_passages(whole):
    """WYG's 傳 is told by its layout (傳曰 up to the next ○, through its 注 and notes), SBCK's by its
    notes and, where none stands between a 傳 and the next passage of the classic, by the 也 that
    ends the 傳; where SBCK's layout cannot tell where a 傳 ends, WYG's decides
    (`tradition-by-alignment`, tests/test_tradition_by_alignment.py). They differ in one passage
    only, which SBCK's layout tells and WYG sets apart with a ○ (出妻之子爲父後者則爲出母無服)."""
    read = whole
    sbck, wyg = (read[(siglum, SANGFU)].stream.only(("tradition",)).text for siglum in ("SBCK", "WYG"))
    alignment = align(sbck, wyg)
    assert alignment.in_order > 0.99 * max(len(sbck), len(wyg))
    assert len(sbck) - len(wyg) == len("出妻之子爲父後者則爲出母無服")


@pytest.mark.tier("build")  # reads a chapter of the corpus
def test_the_wyg_juanshou_is_front_matter(whole):
    witness = whole[("WYG", 0)]
    counts = characters(witness)
    assert counts.get("classic", 0) == 0 and counts.get("commentary", 0) == 0
    assert (
        counts["preface"] > 1000
        and counts["contents"] > 500
        and counts["subcommentary"] > 5000
        and counts["kaozheng"] > 500
    )
    labels = [s.text(witness.raw) for s in witness.segments_of("label")]
    assert labels[:2] == [
        "\u3000儀禮疏序\u3000\u3000\u3000\u3000\u3000\u3000禮類二(儀禮之屬/)",
        "\u3000唐朝散大夫行太學博士𢎞文館學士臣賈公彦撰",
    ]
    titles = [t for t in labels if regex.fullmatch(r"\p{Han}+第[一二三四五六七八九十]+(?:○\p{Han}+)?", t)]
    assert len(titles) == 17 and titles[10] == "喪服第十一○子夏𫝊"
    contents = [s.text(witness.raw) for s in witness.segments_of("contents")]
    assert contents[0].startswith("童子任職居士位年二十而冠"), "Zheng's 目錄 of 士冠禮, after the word 注"


@pytest.mark.tier("build")  # reads a chapter of the corpus
def test_every_wyg_juan_ends_with_its_kaozheng(whole):
    read = whole
    for juan in range(0, 18):
        witness = read[("WYG", juan)]
        kaozheng = witness.segments_of("kaozheng")
        assert kaozheng and all(s.start > c.end for c in witness.segments_of("classic") for s in kaozheng[:1]), juan
        heading = next(
            s
            for s in witness.segments
            if s.layer == "label" and s.end <= kaozheng[0].start and s.text(witness.raw).endswith("考證")
        )
        assert heading.rule == "kaozheng:kaozheng"


SBCK_SANGFU_8_36 = [
    ("classic", "䘮服斬衰裳苴絰杖絞帶冠繩纓菅屨者"),
    (
        "commentary",
        "者者明爲下出也凢服上曰衰下曰裳麻在首在要皆曰絰絰之言實也明孝子有忠實之心故爲制此服焉首絰象緇布冠之缺項要絰象大帶又有絞帶象革帶齊衰以下用布",
    ),
    (
        "tradition",
        "傳曰斬者何不緝也苴絰者麻之有蕡者也苴絰大搹左夲在下去五分一以爲帶齊衰之絰斬衰之帶也去五分一以爲帶大功之絰齊衰之帶也去五分一以爲帶小功之絰大功之帶也去五分一以爲帶緦麻之絰小功之帶也去五分一以爲帶苴杖竹也削杖桐也杖各分其心皆下本杖者何爵也無爵而杖者何擔主也非主而杖者何輔病也童子何以不杖不能病也婦人何以不杖亦不能病也絞帶者繩帶也冠纓纓條屬右縫冠六升外畢鍜而勿&KR0069;衰三升菅屨者菅菲也外納居倚廬寢苫枕塊哭晝夜無時歠粥朝一溢米夕一溢米寢不&KR0003;絰帶旣虞翦屏柱楣寢有席食䟽食水飲朝一哭夕一哭而巳旣練舎外寢始食菜果飯素食哭無時",
    ),
    (
        "commentary",
        "盈手曰搹搹扼也中人之扼圍九寸以五分一爲殺者象五服之數也爵謂天子諸侯&KR0056;大夫士也無爵謂庻人也擔猶假也無爵者假之以杖尊其爲主也非主謂衆子也屬猶著也通屈一條繩爲武垂下爲纓著之冠也布八十縷爲升升字當爲登登成也今之禮皆以登爲升俗誤巳行久矣雜記曰䘮冠條屬以別吉凶三年之練冠亦條屬右縫小功以下左縫外畢者冠前後屈而出縫於武也二十兩曰溢爲米一升二十四分升之一楣謂之梁柱楣所謂梁闇䟽猶麤也舎外寢於中門之外屋下壘墼爲之不𡍼墍所謂堊室也素猶故也謂復平生時食也斬衰不書受月者天子諸侯卿大夫士虞卒哭異數",
    ),
    ("classic", "父"),
    ("tradition", "傳曰爲父何以斬衰也父至尊也"),
    ("classic", "諸侯爲天子"),
    ("tradition", "傳"),
]


@pytest.mark.tier("build")  # reads a chapter of the corpus
def test_sbck_sangfu_hand_checked_passage(whole):
    """Lines 8–36 of SBCK 卷十一, read by hand: the first passage of 喪服 and its 注, the long 傳 on
    the mourning dress with its 注 after it, then 父, 諸侯爲天子, 君 each with its 傳, no note between
    them (the classic text runs from the 也 that ends a 傳 to the next 傳曰)."""
    assert runs(whole[("SBCK", SANGFU)], range(8, 37)) == SBCK_SANGFU_8_36
    assert sum(len(text) for _, text in SBCK_SANGFU_8_36) >= 300


@pytest.mark.tier("build")  # reads a chapter of the corpus
def test_the_tradition_in_the_transcriptions(whole, sources):
    for siglum in ("SBCK", "WYG"):
        witness = whole[(siglum, SANGFU)]
        document = tei.witness_document(sources, witness)
        segs = document.xpath("//t:body//t:seg[@type='tradition']", namespaces=NS)
        assert segs and "".join(segs[0].itertext()).startswith("傳曰斬者何")
    front = tei.witness_document(sources, whole[("WYG", 0)])
    assert validate.problems(front) == []
    assert front.xpath("//t:body//t:seg[@type='contents']", namespaces=NS) and front.xpath(
        "//t:body//t:seg[@type='preface']", namespaces=NS
    )


@pytest.mark.tier("build")  # reads a chapter of the corpus
def test_the_report_counts_each_layer_of_each_witness(whole, sources):
    read = whole
    witnesses = [read[("SBCK", SANGFU)], read[("WYG", SANGFU)], read[("WYG", 0)]]
    found = report.witnesses_report(witnesses, sources.variants)["witnesses"]
    for entry, witness in zip(found, witnesses):
        layers = entry["layers"]
        assert {"tradition", "preface", "contents"} <= set(layers)
        assert {layer: c["characters"] for layer, c in layers.items() if c["characters"]} == {
            layer: c["characters"] for layer, c in report.layer_counts(witness).items() if c["characters"]
        }
    assert found[0]["layers"]["tradition"]["characters"] > 2500 and found[2]["layers"]["preface"]["characters"] > 1000


SANGFU_SAMPLE = (
    "父傳曰爲父何以斬衰也父至尊也諸侯爲天子傳曰天子至尊也君傳曰君至尊也(天子諸侯/及卿大夫)¶\n"
    "(有地者/皆曰君)父爲長子(不言適子/通上下也)¶\n"
)


def test_the_tradition_in_the_edition_and_its_views(tmp_path):
    """Two witnesses of a 傳: the edition collates it with the classic text, a milestone where each
    傳 begins and where the classic text takes up again; the PDF boxes a 傳 there, and so does the
    HTML (index.html.j2, class layer-mark; seen in a build of 喪服)."""
    root = tmp_path / "sources"
    root.mkdir()
    for name in ("variants.tsv", "gaiji.tsv", "persons.tsv"):
        (root / name).write_bytes((ROOT / "sources" / name).read_bytes())
    (root / "edition.toml").write_text(
        '[edition]\ntitle = "喪服"\nbase = "S"\ncomparison_script = "simplified"\n', encoding="utf-8"
    )
    (root / "s.txt").write_text(SANGFU_SAMPLE, encoding="utf-8")
    (root / "t.txt").write_text(SANGFU_SAMPLE.replace("斬衰", "斬縗"), encoding="utf-8")
    stanza = (
        '[[witness]]\nsiglum = "{}"\nfile = "{}"\ntitle = "sample"\n'
        'script = "traditional"\nprofile = "mandoku-notes"\n\n'
    )
    (root / "witnesses.toml").write_text(stanza.format("S", "s.txt") + stanza.format("T", "t.txt"), encoding="utf-8")
    sources = Sources.load(root)
    edited = edit(sources, sources.intake_all(), decision_file.load(decisions_path(root)))
    document = tei.edition_document(sources, edited.apparatus, edited.sections, {}, commentary=edited.commentary)
    assert validate.problems(document) == []
    units = [m.get("unit") for m in document.xpath("//t:body//t:milestone", namespaces=NS)]
    assert units == ["tradition", "classic"] * 3
    assert document.xpath("//t:app//t:rdg[@wit='#wT']/text()", namespaces=NS) == ["縗"], "the 傳 is collated"
    path = tmp_path / "edition.xml"
    path.write_bytes(tei.serialize(document))
    edition = render.read(path)
    section = edition.sections[0]
    assert [i.unit for i in section.items if isinstance(i, LayerMark)] == units
    # the 傳 marked where it begins, not counting the text a note of the 注 measures its line by
    printed = regex.sub(r"\\zhu\{(?:[^{}]|\{\})*\}", "", pdf.paragraph(section, pdf.Notes(edition)))
    assert printed.count(r"\chuan{}") == 3
    mark = chapter_site.environment().from_string("{% for i in items if i is layer_mark %}{{ i.unit }} {% endfor %}")
    assert mark.render(items=section.items).split() == units, "the site's templates tell the marks"
