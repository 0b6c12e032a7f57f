"""Settings: from ``initializationOptions``, ``workspace/configuration`` and
``didChangeConfiguration``; a bad value is reported once, naming its key."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from lsprotocol import types

from ..config import ConfigError, load_config
from ..layout import find_project_root
from .core import SECTION, ServerCore, UserError


def _settings_from(raw: object) -> Mapping[str, Any]:
    """Accept ``{"testmend": {...}}`` or the section itself; None means no settings."""
    if raw is None:
        return {}
    if not isinstance(raw, Mapping):
        raise ConfigError("testmend settings: must be an object of settings", key=SECTION)
    inner = raw.get(SECTION)
    if isinstance(inner, Mapping):
        return dict(inner)
    if inner is None and SECTION in raw:
        return {}
    return dict(raw)


class SettingsServer(ServerCore):
    def _validation_root(self) -> Path:
        root = self.workspace.root_path
        return find_project_root(Path(root)) if root else Path.cwd()

    def apply_settings(self, raw: object) -> bool:
        """Validate and keep new settings; a bad value is reported once, naming its key."""
        try:
            settings = _settings_from(raw)
            load_config(self._validation_root(), editor_settings=settings)
        except ConfigError as exc:
            message = str(exc)
            if message != self.settings_error:
                self.settings_error = message
                self.tell(
                    f"bad setting: {message}",
                    types.MessageType.Error,
                    mistake=f"setting {exc.key or exc.source}",
                )
            return False
        self.settings_error = None
        self.settings = settings
        return True

    def on_initialize(self, params: types.InitializeParams) -> None:
        self._initial_settings = params.initialization_options

    async def on_initialized(self, params: types.InitializedParams) -> None:
        self.apply_settings(getattr(self, "_initial_settings", None))
        await self.pull_configuration()

    def _supports_configuration(self) -> bool:
        workspace = self.client_capabilities.workspace
        return bool(workspace and workspace.configuration)

    async def pull_configuration(self) -> None:
        if not self._supports_configuration():
            return
        request = types.ConfigurationParams(items=[types.ConfigurationItem(section=SECTION)])
        try:
            values = await asyncio.wait_for(self.workspace_configuration_async(request), 10)
        except Exception as exc:  # a client that cannot answer: keep what we have
            self.note(f"workspace/configuration failed: {exc}")
            return
        if values and values[0] is not None:
            self.apply_settings(values[0])

    async def settings_for(self, uri: str, root: Path) -> Mapping[str, Any]:
        """The settings for a file: its workspace folder's (``workspace/configuration`` with the
        file as ``scopeUri``, so that folders of a multi-root workspace may differ), else the
        server's. A bad folder setting refuses the run, naming its key."""
        if not self._supports_configuration():
            return self.settings
        item = types.ConfigurationItem(scope_uri=uri, section=SECTION)
        try:
            values = await asyncio.wait_for(
                self.workspace_configuration_async(types.ConfigurationParams(items=[item])), 10
            )
        except Exception as exc:  # a client that cannot answer: the server's settings
            self.note(f"workspace/configuration failed: {exc}")
            return self.settings
        if not values or values[0] is None:
            return self.settings
        try:
            settings = _settings_from(values[0])
            load_config(root, editor_settings=settings)
        except ConfigError as exc:
            raise UserError(f"bad setting: {exc}", kind=f"setting {exc.key}") from None
        return settings

    async def on_change_configuration(self, params: types.DidChangeConfigurationParams) -> None:
        settings = params.settings
        if isinstance(settings, Mapping) and SECTION in settings:
            self.apply_settings(settings)
        elif self._supports_configuration():
            await self.pull_configuration()
        elif settings is not None:
            self.apply_settings(settings)
