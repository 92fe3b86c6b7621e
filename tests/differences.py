"""Shared by the tests that compare readings: the minimal difference between two texts."""


def minimal_difference(a: str, b: str) -> tuple[int, str, str]:
    """(offset, a's characters, b's characters) once the common prefix and suffix are gone."""
    prefix = 0
    while prefix < min(len(a), len(b)) and a[prefix] == b[prefix]:
        prefix += 1
    suffix = 0
    while suffix < min(len(a), len(b)) - prefix and a[-1 - suffix] == b[-1 - suffix]:
        suffix += 1
    return prefix, a[prefix : len(a) - suffix], b[prefix : len(b) - suffix]
