"""The engine stays readable: no function of collation or intake longer than a screenful and a
half (ruff's C901 and PLR0915 in `make lint` hold the branches and the statements)."""

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "edition"
ENGINE = ("collation", "intake")
MAX_LINES = 80


def functions(folder: Path):
    for path in sorted(folder.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                yield path.relative_to(PACKAGE.parent), node


@pytest.mark.parametrize("stage", ENGINE)
def test_no_engine_function_is_over_80_lines(stage):
    long = [
        f"{path}:{node.lineno} {node.name} ({node.end_lineno - node.lineno + 1} lines)"
        for path, node in functions(PACKAGE / stage)
        if node.end_lineno - node.lineno + 1 > MAX_LINES
    ]
    assert long == []
