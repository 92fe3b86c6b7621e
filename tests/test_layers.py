"""Intake by layers on the five seed witnesses: nothing lost, everything where a reader expects it."""

import pytest

from edition.intake.rule import LAYERS

SIGLA = ["000", "001", "002", "003", "004", "SBCK", "WYG"]


def layer_text(witness, layer):
    return [s.text(witness.raw) for s in witness.segments_of(layer)]


@pytest.mark.parametrize("siglum", SIGLA)
def test_segments_rebuild_the_raw_file_byte_for_byte(witnesses, siglum):
    witness = witnesses[siglum]
    rebuilt = "".join(s.text(witness.raw) for s in witness.segments)
    assert rebuilt.encode(witness.meta.encoding) == witness.raw.data


@pytest.mark.parametrize("siglum", SIGLA)
def test_segments_tile_the_file_in_order_with_known_layers(witnesses, siglum):
    witness = witnesses[siglum]
    position = 0
    for segment in witness.segments:
        assert segment.start == position and segment.end > segment.start
        assert segment.layer in LAYERS
        assert segment.line == witness.raw.line_of(segment.start)
        position = segment.end
    assert position == len(witness.raw.text)


def test_line_ends_are_format_and_never_inside_other_layers(witnesses):
    for witness in witnesses.values():
        for segment in witness.segments:
            if segment.layer != "format":
                assert "\n" not in segment.text(witness.raw)


def test_000_commentary_labels_and_jiang_yong(witnesses):
    w = witnesses["000"]
    labels = layer_text(w, "label")
    assert labels[0] == "礼书纲目"
    assert ["右献大夫", "右大夫酢", "右乐賔", "右立司正", "右取矢视算"] == [
        label for label in labels if label in ("右献大夫", "右大夫酢", "右乐賔", "右立司正", "右取矢视算")
    ]
    assert labels.count("记") == 13
    commentary = layer_text(w, "commentary")
    assert commentary[0] == "賔", "the file opens inside a note"
    assert "为已安也今文揖为升" in commentary
    assert "髤赤黒漆也" in commentary
    assert sorted(layer_text(w, "scholia")) == sorted(
        ["奉本作拳朱子正作奉今从之", "刋本一作肤", "子路延射事见后二人举觯章"]
    )
    assert all(s.attrs["resp"] == "江永" for s in w.segments_of("scholia"))
    classic = "".join(layer_text(w, "classic"))
    assert classic.startswith("賔及众賔皆降复初位主人揖譲以大夫升")
    assert "\ueb8e" in classic and "\uf65d" in classic


def test_001_halves_and_title_block(witnesses):
    w = witnesses["001"]
    assert layer_text(w, "label") == ["仪礼", "《仪礼》乡射礼原文及译文", "《仪礼》乡射礼", "原文", "记", "译文"]
    classic = "".join(layer_text(w, "classic"))
    assert classic.startswith("乡射之礼。主人戒宾")
    assert classic.endswith("君在，大夫射，则肉袒。")
    translation = "".join(layer_text(w, "translation"))
    assert "主人与宾相对三揖" in translation
    assert "主人与宾相对三揖" not in classic


def test_002_translation_blocks_and_commentary(witnesses):
    w = witnesses["002"]
    assert layer_text(w, "label") == ["卷十三乡射礼第五", "记"]
    classic = "".join(layer_text(w, "classic"))
    assert classic.startswith("司正升，立于序端。宾降席，北面。")
    # modern Chinese never reaches the classic layer
    for modern in ("宾客", "的", "站在", "没有", "〇"):
        assert modern not in classic, modern
    # the copy of the original inside a translation block is not classic text twice
    assert classic.count("众宾不与射者不降") == 1
    commentary = layer_text(w, "commentary")
    assert "复奠之者，燕以饮酒为欢，醉乃止，主人之意也。今文无执觯及宾觯、大夫之觯皆为爵。" in "".join(
        commentary
    ) or any(c.startswith("复奠之者") for c in commentary)
    assert "旌，总名也。杂帛为物，大夫士之所建也。言各者，乡射或於庠，或於谢。" in commentary, "line 444 repair"
    assert any(c.startswith("《陔》，《陔夏》，其诗亡") for c in commentary), "unclosed bracket of line 94"
    translation = "".join(layer_text(w, "translation"))
    assert "司正登堂，站在序的东端" in translation
    other = "".join(layer_text(w, "other-chapter"))
    assert other.startswith("●卷十四燕礼第六") and "君主在场" not in other
    assert "君主在场，大夫射箭时就要裸露上身" in translation, "the last block's translation follows 燕礼"
    subcommentary = layer_text(w, "subcommentary")
    assert "命”至“彻俎”。" in subcommentary
    assert any(s.startswith("[疏]“司正”至“南面”") for s in subcommentary)
    markers = [s for s in w.segments_of("format") if s.attrs.get("marker") == "译"]
    assert len(markers) == w.raw.text.count("\n译") + w.raw.text.startswith("译")


def test_003_notes_scholars_labels_chrome(witnesses):
    w = witnesses["003"]
    labels = layer_text(w, "label")
    assert "蕙田案以上旅酬" in labels and "又案以上记遵者诸公大夫之差" in labels and "记" in labels
    scholia = layer_text(w, "scholia")
    for start in (
        "盛氏世佐曰上文及此两言卒受者",
        "敖氏继公曰用狗者",
        "张氏尔岐曰乡射无介",
        "郝氏敬曰物长如笴",
        "蕙田案郑注以和为笙小者",
    ):
        assert any(s.startswith(start) for s in scholia), start
    assert any(s.startswith("盛氏世佐曰公士乡人之为命士者") for s in scholia), "scholar inside Zheng's brackets"
    assert "于贱者礼畧" in layer_text(w, "commentary")
    assert "司马自在己位遥命之" in layer_text(w, "subcommentary")
    assert layer_text(w, "chrome") == ["【打 印】 【来源：读书之家-dushuzhijia.com】"]
    assert layer_text(w, "commentary")[0] == "阶礼杀也"
    classic = "".join(layer_text(w, "classic"))
    assert "蕙田" not in classic and "【" not in classic and "曰公士" not in classic


def test_004_chrome_and_junk(witnesses):
    w = witnesses["004"]
    chrome = "".join(layer_text(w, "chrome"))
    assert "繁體版" in chrome and "更新时间" in chrome and "小提示" in chrome
    assert layer_text(w, "label") == ["乡射礼"]
    junk = layer_text(w, "intrusion")
    assert "xu" in junk and "41" in junk
    classic = "".join(layer_text(w, "classic"))
    assert not any(c.isascii() and c.isalnum() for c in classic)


def test_a_reader_sites_page_of_another_title_has_its_header_and_footer_as_chrome(tmp_path, sources):
    """The scrambled-web profile reads the site's template, not one page's strings: another
    chapter's page, with another box in its footer, has its title as label and its frame as chrome."""
    from edition.intake.model import WitnessMeta
    from edition.intake.profile import load_profile
    from edition.intake.witness import intake_witness

    page = (
        "繁體版\n字体\n默认 特大\n\n燕礼\n\n作者: 某   更新时间: 1970-01-01   字数:10字\n\n"
        "燕礼小臣戒与者。\n\n燕礼说:\n\n小提示:按【Enter回车键】返回目录\n"
    )
    path = tmp_path / "page.txt"
    path.write_text(page, encoding="utf-8")
    meta = WitnessMeta("X", path.name, "page", "simplified", "scrambled-web")
    witness = intake_witness(meta, path, load_profile("scrambled-web"), (), sources.normalizer())
    assert layer_text(witness, "label") == ["燕礼"]
    assert layer_text(witness, "classic") == ["燕礼小臣戒与者。"]
    chrome = "".join(layer_text(witness, "chrome"))
    assert "作者: 某" in chrome and "燕礼说:" in chrome and "小提示:" in chrome
