"""The one error type the pipeline raises for bad input: always a single line naming the file."""

import signal
import sys
from collections.abc import Iterator
from contextlib import contextmanager
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


@contextmanager
def interrupts_as_errors(path: str | Path, outcome: str) -> Iterator[None]:
    """SIGTERM, SIGHUP and SIGINT raise an error naming `path` and the `outcome`, so that the
    work in hand is undone on the way out."""

    def stop(signum, frame):
        raise EditionError(path, f"interrupted by {signal.Signals(signum).name}; {outcome}")

    handlers = {s: signal.signal(s, stop) for s in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)}
    try:
        yield
    finally:
        for s, handler in handlers.items():
            signal.signal(s, handler)


def warn(error: EditionError) -> None:
    """What went wrong without stopping the command: one line on stderr."""
    print(f"edition: warning: {error}", file=sys.stderr, flush=True)
