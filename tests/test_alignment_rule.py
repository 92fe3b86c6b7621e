"""An alignment rule's decision where the text it reads has no sure text at all: a 卷 of the 禮記注疏
whose classic text all runs on after its notes (服問), read against the base's chapter (奔喪…)."""

from edition.intake.alignment_rule import Stretches, decide
from edition.intake.rule import Rule

# The real words (simplified, as compared): WYG 禮記注疏 卷五十七's 服問 and SBCK's 奔喪.
READ = "皇君也诸侯妾子之妻为其君姑齐衰与为小君同舅不厌妇也妻齐衰而夫从缌麻不降一等言非服差"
REFERENCE = "奔丧之礼始闻亲丧以哭答使者尽哀问故又哭尽哀遂行日行百里不以夜行唯父母之丧见星而行"


class Unlimited:
    """A time limit that never runs out (the rule's own is the layering's)."""

    def left_from(self, offset):
        return 1.0

    def timed(self, work):
        return work()


def test_a_text_with_no_sure_text_faces_the_whole_reference_and_decides_without_failing():
    n = len(READ)
    read = Stretches(READ, list(range(n)), list(range(1, n + 1)), [0] * n, [0] * n)  # one stretch, nothing sure
    rule = Rule("classic-by-alignment", "alignment", ("commentary",), "classic")
    firms = [(0, REFERENCE, [1] * len(REFERENCE), {}, set())]  # no firm run: nothing sure to anchor it
    decided, _ = decide(firms, read, rule, 4, Unlimited())
    assert decided == {}  # the two texts share no run: nothing of it is classic text
