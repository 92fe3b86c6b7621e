"""TEI P5 output, in parts by what each writes: the elements and text (`markup`), the header
(`header`), a witness's transcription (`transcription`), the edition's text and apparatus
(`apparatus`), its witnesses (`witnesses`), its front and back matter (`front`), and the edition
as one document (`edition`)."""

from .apparatus import APP_PREFIX, COMMENTARY_APP_PREFIX, WitnessPlaces, app_id
from .edition import edition_document
from .header import char_decl
from .markup import TEI_NS, XML_ID, XML_LANG, el, in_edition_script, mark_stand_ins, serialize
from .transcription import witness_document

__all__ = [
    "APP_PREFIX",
    "COMMENTARY_APP_PREFIX",
    "TEI_NS",
    "XML_ID",
    "XML_LANG",
    "WitnessPlaces",
    "app_id",
    "char_decl",
    "edition_document",
    "el",
    "in_edition_script",
    "mark_stand_ins",
    "serialize",
    "witness_document",
]
