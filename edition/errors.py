"""The one error type the pipeline raises for bad input: always a single line naming the file."""

from pathlib import Path


class EditionError(Exception):
    def __init__(self, path: str | Path | None, message: str, line: int | None = None):
        self.path = str(path) if path is not None else None
        self.line = line
        self.message = message
        super().__init__(str(self))

    def __str__(self) -> str:
        where = self.path or "edition"
        if self.line is not None:
            where = f"{where}:{self.line}"
        return f"{where}: {self.message}"
