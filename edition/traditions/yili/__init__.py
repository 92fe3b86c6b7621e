"""The 儀禮's tradition: besides the notes every work's are read for (`traditions.COMMON`), the
editions the 校语 report (`reported_editions`), the steps of the rite the 疏 names (`steps`), and
the readers of two books of evidence: the 單疏本 of 賈公彥's 疏 (`subcommentary_quotations`, kind
`subcommentary-quotations`) and 張淳's 儀禮識誤 (`collation_notes`, kind `collation-notes`). Their
formulas are data (`data/`)."""

from .. import COMMON, Tradition
from . import collation_notes, reported_editions, steps, subcommentary_quotations

TRADITION = Tradition(
    "yili",
    analyses=(*COMMON, reported_editions, steps),
    readers={"subcommentary-quotations": subcommentary_quotations, "collation-notes": collation_notes},
)
