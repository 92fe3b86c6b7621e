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


class SourceErrors(EditionError):
    """Several problems of one source file: the first is the error's own line, `check` lists all."""

    def __init__(self, errors: list[EditionError]):
        self.errors = errors
        first = errors[0]
        more = f" (and {len(errors) - 1} more problem(s): run `edition check`)" if len(errors) > 1 else ""
        super().__init__(first.path, first.message + more, first.line)
