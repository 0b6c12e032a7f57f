"""The VS Code extension's settings mirror the server's configuration model.

Every configurable key of ``Config`` has a ``testmend.*`` setting in vscode-client/package.json
with the same default, choices and bounds, and the extension declares no server setting that
``Config`` would refuse.
"""

from __future__ import annotations

import json
import typing
from pathlib import Path
from typing import Any

import annotated_types
import pytest
from pydantic import BaseModel
from pydantic.fields import FieldInfo

from testmend.config import Config

MANIFEST = Path(__file__).resolve().parents[1] / "vscode-client" / "package.json"
CLIENT_ONLY = ("testmend.server.", "testmend.trace.")
NOT_SETTINGS = {
    "projectRoot",
    "model.apiKey",
    "store.url",
    "team.broker",
    "team.taskTimeLimitSeconds",
    "team.visibilityTimeoutSeconds",
    "team.maxRetries",
}
"""Not the editor's: the key comes from the environment; the store is the team's (the server
refuses it in editor settings); the queue's settings are its workers' (`testmend worker`)."""


def _properties() -> dict[str, dict[str, Any]]:
    manifest = json.loads(MANIFEST.read_text(encoding="utf-8"))
    properties: dict[str, dict[str, Any]] = manifest["contributes"]["configuration"]["properties"]
    return properties


def _fields(model: type[BaseModel], prefix: str = "") -> dict[str, FieldInfo]:
    found: dict[str, FieldInfo] = {}
    for name, field in model.model_fields.items():
        key = f"{prefix}{field.alias or name}"
        annotation = field.annotation
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            found.update(_fields(annotation, key + "."))
        elif key not in NOT_SETTINGS:
            found[key] = field
    return found


FIELDS = _fields(Config)


def test_every_configurable_key_has_a_setting_and_no_more() -> None:
    declared = {
        key.removeprefix("testmend.") for key in _properties() if not key.startswith(CLIENT_ONLY)
    }
    assert declared == set(FIELDS)


def _choices(annotation: Any) -> list[Any] | None:
    if typing.get_origin(annotation) is typing.Literal:
        return list(typing.get_args(annotation))
    return None


@pytest.mark.parametrize("key", sorted(FIELDS))
def test_setting_matches_the_field(key: str) -> None:
    field = FIELDS[key]
    spec = _properties()[f"testmend.{key}"]
    assert spec["default"] == field.get_default(call_default_factory=True), "default"
    assert spec.get("enum") == _choices(field.annotation), "choices"
    bounds = {
        "minimum": next((m.ge for m in field.metadata if isinstance(m, annotated_types.Ge)), None),
        "exclusiveMinimum": next(
            (m.gt for m in field.metadata if isinstance(m, annotated_types.Gt)), None
        ),
        "maximum": next((m.le for m in field.metadata if isinstance(m, annotated_types.Le)), None),
    }
    for name, bound in bounds.items():
        assert spec.get(name) == bound, name
    kinds = spec["type"] if isinstance(spec["type"], list) else [spec["type"]]
    if field.default is None:
        assert "null" in kinds, "an unset value must be allowed"
