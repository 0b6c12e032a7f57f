"""Where settings come from, before they are checked against the model (``config.py``): the
configuration file, the environment's values, merging the layers, refusing secrets in them; and
the one error every bad setting raises. Also how a URL's password is hidden wherever a setting
is shown."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic.alias_generators import to_camel

CONFIG_FILE_NAME = "testmend.config.json"
ENV_PREFIX = "TESTMEND_"


class ConfigError(ValueError):
    """A bad configuration value; the message names the source, the key and what is accepted."""

    def __init__(self, message: str, *, key: str | None = None, source: str | None = None):
        super().__init__(message)
        self.key = key
        self.source = source


_SECRET_KEYS = {"apiKey", "api_key", "openaiApiKey"}


def _deep_merge(base: dict[str, Any], overlay: Mapping[str, Any]) -> dict[str, Any]:
    merged = dict(base)
    for key, value in overlay.items():
        if isinstance(value, Mapping) and isinstance(merged.get(key), dict):
            merged[key] = _deep_merge(merged[key], value)
        else:
            merged[key] = value
    return merged


def _flatten_keys(data: Mapping[str, Any], prefix: str = "") -> list[str]:
    keys = []
    for key, value in data.items():
        dotted = f"{prefix}{key}"
        keys.append(dotted)
        if isinstance(value, Mapping):
            keys.extend(_flatten_keys(value, dotted + "."))
    return keys


def _refuse_secrets(data: Mapping[str, Any], source: str, prefix: str = "") -> None:
    for key, value in data.items():
        if key in _SECRET_KEYS:
            dotted = f"{prefix}{key}"
            raise ConfigError(
                f"{source}: {dotted}: API keys are not read from {source}; set the "
                "OPENAI_API_KEY environment variable (or the variable named by "
                "model.apiKeyEnv) instead",
                key=dotted,
                source=source,
            )
        if isinstance(value, Mapping):
            _refuse_secrets(value, source, f"{prefix}{key}.")


def _camel_path(env_suffix: str) -> list[str]:
    return [to_camel(part.lower()) for part in env_suffix.split("__")]


def _parse_env_value(raw: str) -> Any:
    try:
        return json.loads(raw)
    except json.JSONDecodeError:
        return raw


def read_config_file(project_root: Path) -> dict[str, Any]:
    path = project_root / CONFIG_FILE_NAME
    if not path.is_file():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise ConfigError(
            f"{path}: not valid JSON (line {exc.lineno}, column {exc.colno}): {exc.msg}",
            source=str(path),
        ) from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot be read: {exc}", source=str(path)) from exc
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: must hold a JSON object", source=str(path))
    return data


def redact_url(url: str) -> str:
    """A URL without its password (``postgresql://me:***@host/db``)."""
    url = re.sub(r"^([a-z][a-z0-9+.-]*://[^:/@]*):[^@]*@", r"\1:***@", url)
    return re.sub(r"([?&]password=)[^&]*", r"\1***", url)
