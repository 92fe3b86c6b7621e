"""Intake: raw witness files into layers with exact offsets, and layers into normalized comparison streams."""
