"""The work served to machines as static DTS 1.0 files (edition.publication.dts), as a client finds
them: the site served by Python's http.server, the URLs made from the entry point's and the
resources' URI templates (RFC 6570, by uritemplate). Every sentence of each chapter resolves in both
citation trees, to the sentence the chapter's TEI has, and its document is that sentence."""

import functools
import html
import http.server
import json
import threading
import urllib.error
import urllib.request
from urllib.parse import quote, urljoin

import lxml.html
import pytest
import regex
import uritemplate
from lxml import etree

NS = {"t": "http://www.tei-c.org/ns/1.0", "dts": "https://w3id.org/api/dts#"}
XML_ID = "{http://www.w3.org/XML/1998/namespace}id"


@pytest.fixture(scope="module")
def served(work_sample):
    """The work's site on a local port, as `python -m http.server` serves it; the entry point's URL."""
    _, out, _ = work_sample
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(out / "site"))
    handler.log_message = lambda *args: None
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/dts/index.json", out
    server.shutdown()


def fetch(url: str):
    with urllib.request.urlopen(url) as answer:
        body = answer.read()
    return json.loads(body) if url.endswith(".json") else etree.fromstring(body)


def text_between(anchor) -> str:
    """The text of the TEI from a sentence's anchor to the next one in its section (or the
    section's end), read off the section's markup."""
    markup = etree.tostring(anchor.xpath("ancestor::t:div[@type='section'][1]", namespaces=NS)[0], encoding=str)
    begins = regex.search(rf'<anchor[^>]*\bn="{regex.escape(anchor.get("n"))}"[^>]*/>', markup).start()
    ends = regex.compile(r'<anchor[^>]*type="sentence"[^>]*/>|</div>$').search(markup, begins + 1).start()
    return html.unescape(regex.sub(r"<[^>]+>", "", markup[begins:ends]))


def test_every_sentence_resolves_in_both_trees_to_its_place_in_the_tei(served):
    entry_url, out = served
    entry = fetch(entry_url)
    assert entry["@type"] == "EntryPoint" and entry["dtsVersion"] == "1.0"
    collection = fetch(urljoin(entry_url, uritemplate.expand(entry["collection"])))
    assert collection["totalChildren"] == 2 == len(collection["member"])
    for resource in collection["member"]:
        urn = resource["@id"]
        again = fetch(urljoin(entry_url, uritemplate.expand(entry["collection"], id=urn)))
        assert again["@id"] == urn and again["citationTrees"] == resource["citationTrees"]
        tei = fetch(urljoin(entry_url, uritemplate.expand(entry["document"], resource=urn)))
        assert tei.findtext(".//t:publicationStmt/t:idno[@type='URN']", namespaces=NS) == urn
        folder = next(
            p
            for p in (out / "chapters").iterdir()
            if etree.parse(str(p / "edition.xml")).xpath(
                "//t:publicationStmt/t:idno[@type='URN']/text()", namespaces=NS
            )
            == [urn]
        )
        assert etree.tostring(tei) == etree.tostring(etree.parse(str(folder / "edition.xml")).getroot())
        anchors = tei.xpath("//t:body//t:anchor[@type='sentence']", namespaces=NS)
        breaks = tei.xpath("//t:body//t:pb[@ed='#wSBCK']", namespaces=NS)
        order = {id(e): i for i, e in enumerate(tei.iter())}
        navigate = lambda **query: fetch(urljoin(entry_url, uritemplate.expand(resource["navigation"], **query)))

        sections = navigate(down=-1)["member"]
        leaves = navigate(tree="leaves", down=-1)["member"]
        in_sections = {u["identifier"]: u for u in sections if u["citeType"] == "sentence"}
        in_leaves = {u["identifier"]: u for u in leaves if u["citeType"] == "sentence"}
        assert list(in_sections) == [a.get("n") for a in anchors] == list(in_leaves)
        leaf_of = {u["identifier"]: u for u in leaves if u["citeType"] == "leaf"}
        for anchor in anchors:
            n = anchor.get("n")
            unit = navigate(ref=n)["ref"]
            assert unit == in_sections[n] and unit["parent"] == n.split(".")[0]
            assert unit["@id"] == f"{urn}.{n}"
            leaf = navigate(tree="leaves", ref=n)["ref"]["parent"]
            begun = [pb.get("n") for pb in breaks if order[id(pb)] < order[id(anchor)]]
            assert leaf == begun[-1] and leaf in leaf_of, n
            passage = fetch(urljoin(entry_url, uritemplate.expand(resource["document"], resource=urn, ref=n)))
            (wrapper,) = passage.xpath("//dts:wrapper", namespaces=NS)
            held = wrapper.xpath(".//t:anchor[@type='sentence']/@n", namespaces=NS)
            assert held == [n], (n, held)
            assert "".join(wrapper.itertext()) == text_between(anchor), n
        juan = navigate(tree="leaves", down=1)["member"]
        assert [u["citeType"] for u in juan] == ["juan"] and juan[0]["identifier"].startswith("卷")
        children = navigate(tree="leaves", ref=juan[0]["identifier"], down=1)["member"]
        assert [u["identifier"] for u in children] == list(leaf_of)


def test_a_unit_that_is_not_there_is_not_found(served):
    entry_url, _ = served
    entry = fetch(entry_url)
    (resource, *_) = fetch(urljoin(entry_url, uritemplate.expand(entry["collection"])))["member"]
    with pytest.raises(urllib.error.HTTPError, match="404"):
        fetch(urljoin(entry_url, uritemplate.expand(resource["navigation"], ref="999.1")))


def test_the_photographed_leaves_link_to_their_images_through_the_tei_and_a_iiif_manifest(served):
    """Where the base's pages have photographs (the table the witness's stanza names), the TEI's
    breaks point at their surfaces, the site's leaves link to the images, which the site holds,
    and a IIIF Presentation 3 manifest gives a canvas for each, in the order of the text."""
    entry_url, out = served
    folder = out / "chapters" / "03-士相見禮"
    tei = etree.parse(str(folder / "edition.xml"))
    surfaces = tei.xpath("//t:facsimile/t:surface", namespaces=NS)
    assert [s.get("n") for s in surfaces] == ["3-1a", "3-1b", "3-2a"]
    for surface in surfaces:
        (pb,) = tei.xpath("//t:body//t:pb[@facs=$f]", namespaces=NS, f="#" + surface.get(XML_ID))
        assert pb.get("ed") == "#wSBCK" and pb.get("n") == surface.get("n")
        assert surface.xpath("t:graphic/@width", namespaces=NS) == ["48px"]
    assert tei.xpath("//t:body//t:pb[@ed='#wSBCK'][@n='3-2b']/@facs", namespaces=NS) == ["KR1d0026_SBCK_003-2b"]
    site = out / "site" / "03-士相見禮"
    page = lxml.html.parse(str(site / "index.html"))
    links = page.xpath("//span[@class='leaf']/a/@href")
    assert links == ["images/SBCK/003-1a.png", "images/SBCK/003-1b.png", "images/SBCK/003-2a.png"]
    assert all((site / link).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for link in links)
    named = page.xpath("//span[@class='entry-leaves']/a[@class='photograph']")
    assert named and all(a.get("href").startswith("images/SBCK/") for a in named)
    english = lxml.html.parse(str(site / "en" / "index.html")).xpath("//span[@class='leaf']/a/@href")
    assert english == ["../" + link for link in links]
    manifest_url = urljoin(entry_url, f"../{quote('03-士相見禮')}/iiif/SBCK.json")
    manifest = fetch(manifest_url)
    assert manifest["@context"] == "http://iiif.io/api/presentation/3/context.json" and manifest["type"] == "Manifest"
    canvases = manifest["items"]
    assert [c["label"]["none"] for c in canvases] == [["3-1a"], ["3-1b"], ["3-2a"]]
    for canvas in canvases:
        (annotation,) = canvas["items"][0]["items"]
        image = annotation["body"]
        assert annotation["motivation"] == "painting" and annotation["target"] == canvas["id"]
        assert (
            (image["width"], image["height"], image["format"])
            == (48, 72, "image/png")
            == (canvas["width"], canvas["height"], "image/png")
        )
        assert urllib.request.urlopen(urljoin(manifest_url, image["id"])).read()[:4] == b"\x89PNG"
    assert "iiif/SBCK.json" in (site / "downloads.html").read_text(encoding="utf-8")


def test_where_the_site_is_published_the_ids_are_absolute(served, tmp_path):
    """With the address the site is published at (work.toml's url), the DTS templates and ids and
    the IIIF manifest's ids are absolute under it, and lead where the relative ones do."""
    from edition.publication import dts, iiif

    _, out = served
    url = "https://example.org/yili/"
    editions = sorted((out / "chapters").glob("*/edition.xml"))
    dts.write_dts(editions, "儀禮", tmp_path / "dts", f"{url}dts/")
    entry = json.loads((tmp_path / "dts" / "index.json").read_text(encoding="utf-8"))
    assert entry["@id"] == f"{url}dts/index.json" and entry["navigation"].startswith(f"{url}dts/navigation/")
    relative = json.loads((out / "site" / "dts" / "collection.json").read_text(encoding="utf-8"))
    absolute = json.loads((tmp_path / "dts" / "collection.json").read_text(encoding="utf-8"))
    for near, far in zip(relative["member"], absolute["member"]):
        assert far["navigation"] == f"{url}dts/{near['navigation']}" and far["@id"] == near["@id"]
    manifest = tmp_path / "SBCK.json"
    manifest.write_bytes((out / "site" / "03-士相見禮" / "iiif" / "SBCK.json").read_bytes())
    at = f"{url}{quote('03-士相見禮')}/iiif/SBCK.json"
    iiif.published_at(manifest, at)
    document = json.loads(manifest.read_text(encoding="utf-8"))
    canvas = document["items"][0]
    image = canvas["items"][0]["items"][0]["body"]
    assert document["id"] == at and canvas["id"] == f"{at}/canvas/3-1a"
    assert canvas["items"][0]["items"][0]["target"] == canvas["id"]
    assert image["id"] == f"{url}{quote('03-士相見禮')}/images/SBCK/003-1a.png"


def test_a_works_urn_is_its_own_or_made_of_its_name():
    """work.toml's urn; else urn:cts:chineseLit: and the first word of the English title, or the
    letters of the title (no space nor slash, which would break a path of the DTS files)."""
    from edition.settings import EditionConfig, work_urn

    made = lambda **settings: work_urn(EditionConfig(base="SBCK", comparison_script="simplified", **settings))
    assert made(title="儀禮·鄉射禮", urn="urn:cts:chineseLit:yili") == "urn:cts:chineseLit:yili"
    assert made(title="禮記·曲禮", title_en="Liji (Book of Rites)") == "urn:cts:chineseLit:liji"
    assert made(title="纂圖互註 禮記/甲·曲禮") == "urn:cts:chineseLit:纂圖互註禮記甲"
