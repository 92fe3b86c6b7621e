"""The base's markers where a leaf of the base is lost and another entry holds its text."""

from collections import defaultdict

from edition.collation.apparatus import base_leaf_markers


def markers_of(lost, n):
    markers = defaultdict(lambda: defaultdict(list))
    return markers, base_leaf_markers(markers, "SBCK", lost, n)


def test_a_leaf_lost_inside_the_text_moves_its_lacuna_markers_to_the_edge_entries():
    markers, leaf = markers_of([(10, 20, None, False), (8, 10, None, True), (20, 22, None, True)], 40)
    assert leaf == {(8, 10): {"SBCK": ["lacunaStart"]}, (20, 22): {"SBCK": ["lacunaEnd"]}}
    assert "SBCK" not in markers[9] and "SBCK" not in markers[20]


def test_a_leaf_lost_at_the_start_of_the_text_is_where_the_base_starts():
    # 樂記: the base's first leaf is lost, the 注 at its edge is an entry of its own
    markers, leaf = markers_of([(0, 109, None, False), (109, 110, None, True)], 500)
    assert leaf == {(109, 110): {"SBCK": ["witStart"]}}
    assert "SBCK" not in markers[109]


def test_a_leaf_lost_at_the_end_of_the_text_is_where_the_base_ends():
    markers, leaf = markers_of([(480, 500, None, False), (470, 480, None, True)], 500)
    assert leaf == {(470, 480): {"SBCK": ["witEnd"]}}
    assert "SBCK" not in markers[479]
