"""The 儀禮's tradition: Zheng Xuan's 今文/古文 notes (`jinguwen`), the 校语 of the witnesses
(`textual_note`) and the editions they report (`reported_editions`), the steps of the rite the
疏 names (`steps`), and the readers of two books of evidence: the 單疏本 of 賈公彥's 疏
(`subcommentary_quotations`, kind `subcommentary-quotations`) and 張淳's 儀禮識誤
(`collation_notes`, kind `collation-notes`). Their formulas are data (`data/`)."""

from .. import Tradition
from . import collation_notes, jinguwen, reported_editions, steps, subcommentary_quotations, textual_note

TRADITION = Tradition(
    "yili",
    analyses=(jinguwen, textual_note, reported_editions, steps),
    readers={"subcommentary-quotations": subcommentary_quotations, "collation-notes": collation_notes},
)
