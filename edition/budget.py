"""Time budgets counted in CPU time, so that a busy machine does not fail work that an idle one
passes; a runaway pattern is still stopped once it has spent its budget.

Regex's own `timeout` is wall time: a match is tried with the wall time that the CPU time left
takes at the load last measured, and tried again (from where it stood) when the machine was busier.
"""

from __future__ import annotations

import time

ATTEMPTS = 3  # tries of one match before its budget counts as spent
MAX_LOAD = 20  # wall seconds per CPU second at most allowed a try


class Budget:
    def __init__(self, seconds: float):
        self.seconds = seconds
        self.spent = 0.0  # CPU seconds
        self.load = 1.0  # wall seconds per CPU second of this thread, as last measured

    def left(self) -> float:
        return self.seconds - self.spent

    def timed(self, call):
        began = time.thread_time()
        try:
            return call()
        finally:
            self.spent += time.thread_time() - began

    def run(self, attempt):
        """attempt(timeout): a regex call given a wall-clock timeout. TimeoutError once the CPU
        time is spent."""
        for _ in range(ATTEMPTS):
            if self.left() <= 0:
                break
            wall, cpu = time.perf_counter(), time.thread_time()
            try:
                return attempt(self.left() * self.load)
            except TimeoutError:
                wall, cpu = time.perf_counter() - wall, time.thread_time() - cpu
                self.spent += cpu
                self.load = min(MAX_LOAD, wall / max(cpu, wall / MAX_LOAD))
        raise TimeoutError("budget spent")

    def finditer(self, pattern, text: str, start: int, end: int):
        """pattern.finditer(text, start, end) within the CPU time left. A search whose wall-clock
        timeout passes first (a busy machine, or a slow reader of its matches) is taken up again
        from its last match, with the load measured; TimeoutError once the CPU time is spent, or
        after ATTEMPTS tries in a row that found nothing. `position`: where the search stands."""
        self.position, last, barren = start, None, 0
        while self.left() > 0 and barren < ATTEMPTS:
            wall, cpu = time.perf_counter(), time.thread_time()
            matches = pattern.finditer(text, self.position, end, timeout=self.left() * self.load)
            found = False
            try:
                while (match := self.timed(lambda: next(matches, None))) is not None:
                    if match.span() == last:  # a match of no length, yielded before the search was taken up
                        continue
                    found, last, self.position = True, match.span(), match.end()
                    yield match
                return
            except TimeoutError:
                wall, cpu = time.perf_counter() - wall, time.thread_time() - cpu
                self.load = min(MAX_LOAD, max(2 * self.load, wall / max(cpu, wall / MAX_LOAD)))
                barren = 0 if found else barren + 1
        raise TimeoutError("budget spent")
