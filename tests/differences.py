"""Shared by the tests that compare readings: the minimal difference between two texts."""

from edition.text import common_ends


def minimal_difference(a: str, b: str) -> tuple[int, str, str]:
    """(offset, a's characters, b's characters) once the common prefix and suffix are gone."""
    prefix, suffix = common_ends(a, b)
    return prefix, a[prefix : len(a) - suffix], b[prefix : len(b) - suffix]
