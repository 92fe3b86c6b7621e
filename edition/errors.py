"""The one error type the pipeline raises for bad input: always a single line naming the file."""

import errno
import shutil
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
        return one_line(f"{where}: {self.message}")


LONGEST = 1000  # characters of a message, at most


def one_line(text: str) -> str:
    """Text as one short line: line ends and other control characters (in a file's name, say)
    written as escapes, and what is longer than LONGEST cut."""
    text = "".join(ascii(c)[1:-1] if c < " " or c == "\x7f" or c in "\u2028\u2029\x85" else c for c in text)
    return text if len(text) <= LONGEST else text[: LONGEST - 1] + "…"


def os_error_parts(error: OSError) -> tuple[str | None, str]:
    """An operating system's error in a few words: its file, and what went wrong (a full disk said
    so); of a failed copy of many files (shutil.Error, whose text lists them all), the first."""
    if isinstance(error, shutil.Error) and error.args and isinstance(error.args[0], list) and error.args[0]:
        _, target, why = error.args[0][0]
        more = f" (and {len(error.args[0]) - 1} more file(s))" if len(error.args[0]) > 1 else ""
        return str(target), f"{why}{more}"
    what = "no space left on the device" if error.errno == errno.ENOSPC else error.strerror or str(error)
    return (str(error.filename) if error.filename else None), what


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
