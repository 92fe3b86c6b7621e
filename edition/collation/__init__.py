"""Collation: alignment against the base, the apparatus of typed readings, sections, Zheng Xuan's
今文/古文 notes and the editors' decisions."""
