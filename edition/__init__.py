"""edition: raw witnesses of a classical Chinese text into a critical edition."""

__version__ = "0.1.0"
