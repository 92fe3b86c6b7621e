"""The manual's generated references cover what they are generated from: every layout feature,
every file and property of the sources' schema; and the architecture page names every module.
`make docs` builds the manual itself (strictly) before the tests run."""

import importlib.util
import json
import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("docs_hooks", ROOT / "docs" / "hooks.py")
hooks = importlib.util.module_from_spec(spec)
spec.loader.exec_module(hooks)


def sections(page: str, level: str) -> dict[str, str]:
    """The page's sections at a heading level, by the name in their heading's code span."""
    parts = re.split(rf"^{level} `([^`]+)`.*$", page, flags=re.M)
    return dict(zip(parts[1::2], parts[2::2]))


def comments(schema) -> list[str]:
    if isinstance(schema, dict):
        own = [schema["$comment"]] if "$comment" in schema else []
        return own + [text for value in schema.values() for text in comments(value)]
    if isinstance(schema, list):
        return [text for value in schema for text in comments(value)]
    return []


def test_features_reference_has_every_feature_with_its_description_and_rules():
    page = hooks.features_reference()
    found = sections(page, "##")
    files = sorted(hooks.FEATURES.glob("*.toml"))
    assert files and sorted(found) == sorted(path.stem for path in files)
    for path in files:
        feature = tomllib.loads(path.read_text(encoding="utf-8"))
        section = found[path.stem]
        assert hooks.escape(feature["description"].strip()) in section, path.stem
        for rule in feature["rule"]:
            assert (f"**{rule['name']}**" if "name" in rule else f"[`{rule['feature']}`]") in section, path.stem
        if "detect" in feature:
            assert hooks.escape(feature["detect"]["words"]) in section, path.stem


def test_sources_reference_has_every_file_property_and_comment_of_the_schema():
    schema = json.loads(hooks.SCHEMA.read_text(encoding="utf-8"))
    page = hooks.sources_reference()
    found = sections(page, "###")
    assert set(schema["properties"]) | set(schema["$defs"]) == set(found)
    for name, sub in schema["properties"].items():
        for key in sub.get("properties", {}):
            assert f"- `{key}`" in found[name], (name, key)
    for name, sub in schema["$defs"].items():
        for key in sub.get("properties", {}):
            assert f"- `{key}`" in found[name], (name, key)
        for value in sub.get("enum", []):
            assert f"`{value}`" in found[name], (name, value)
    for text in comments(schema):
        assert hooks.escape(text) in page, text


def test_the_generated_pages_are_in_the_nav():
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    for path in hooks.pages():
        assert f": {path}" in config, path
        assert not (ROOT / "docs" / path).exists(), f"{path} is generated, not committed"


def test_architecture_names_every_module():
    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    modules = [path for path in (ROOT / "edition").rglob("*.py") if path.name != "__init__.py"]
    assert modules
    for path in modules:
        assert f"- `{path.stem}`:" in page, path.relative_to(ROOT)
