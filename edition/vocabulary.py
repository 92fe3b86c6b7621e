"""The words every stage shares: the types of readings, and how the apparatus orders and divides
them. Listed here once; the Schematron (`schemas/edition.sch`), the site's styles (`site.css`) and
its message catalogue (`messages.toml`) are checked against it (tests/test_vocabulary.py)."""

from __future__ import annotations

from enum import StrEnum


class ReadingType(StrEnum):
    """What a reading is against the lemma (TEI rdg/@type)."""

    SUBSTANTIVE = "substantive"  # a substitution, an omission or an addition: the only kind that emends
    ORTHOGRAPHIC = "orthographic"  # a variant form (异体字)
    GAIJI = "gaiji"  # a stand-in for a character the digitizer could not type
    LACUNA = "lacuna"  # characters lost in the witness
    TRANSPOSITION = "transposition"  # a clause read elsewhere
    INTRUSION = "intrusion"  # web spam, or a word a site's filter replaced
    GRAPHIC = "graphic"  # a member of a graphic family (己已巳)
    USAGE = "usage"  # a classical usage (古今字, 通假)
    TABOO = "taboo"  # a taboo substitution (避諱)
    JINGUWEN = "jinguwen"  # a reading of a tradition a note reports (今文, 古文)
    FRAGMENT = "fragment"  # the lemma, read by a witness that starts or stops here


T = ReadingType
# An app is typed by the first of its readings' types in this order.
APP_ORDER = (
    T.TRANSPOSITION,
    T.INTRUSION,
    T.SUBSTANTIVE,
    T.LACUNA,
    T.USAGE,
    T.TABOO,
    T.GRAPHIC,
    T.GAIJI,
    T.ORTHOGRAPHIC,
)
# The readings of series A of the apparatus: the witnesses' readings that tell.
TELLING = (T.SUBSTANTIVE, T.LACUNA, T.INTRUSION, T.TRANSPOSITION, T.FRAGMENT)
# Of series C: what differs in form only, never an emendation.
FORM_ONLY = (T.ORTHOGRAPHIC, T.GAIJI, T.GRAPHIC, T.USAGE, T.TABOO)
