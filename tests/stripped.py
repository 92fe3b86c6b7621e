"""Shared by the tests of the 經's apparatus: the edition's TEI without Zheng Xuan's 注, whose
notes stand in the 經 after the passages they comment on."""

import copy

from lxml import etree

NS = {"t": "http://www.tei-c.org/ns/1.0"}
COMMENTARY = "//t:body//t:note[@type='commentary']"


def without(doc: etree._ElementTree, path: str = COMMENTARY) -> etree._ElementTree:
    """A copy of `doc` without the elements `path` finds, the text after each kept."""
    out = copy.deepcopy(doc)
    for node in out.xpath(path, namespaces=NS):
        parent, previous = node.getparent(), node.getprevious()
        if node.tail:
            if previous is not None:
                previous.tail = (previous.tail or "") + node.tail
            else:
                parent.text = (parent.text or "") + node.tail
        parent.remove(node)
    return out


def quoted_words(quote) -> str:
    """A quoted note's words as its witness has them: its heading, without the marks of 句讀 the
    edition adds (`pc`)."""
    return "".join(quote.xpath(".//text()[not(parent::t:pc)]", namespaces=NS))


def quoting(document, words: str, path: str = "//t:app/t:note[@type='textual']") -> list:
    """The notes at `path` whose quotation holds `words`, as its witness has them."""
    notes = document.xpath(path, namespaces=NS)
    return [n for n in notes if any(words in quoted_words(q) for q in n.iterfind("t:quote", NS))]
