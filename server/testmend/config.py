"""testmend's configuration: one pydantic model, read from layered sources.

Sources, lowest precedence first: built-in defaults, ``testmend.config.json`` at the project
root, the environment (``TESTMEND_*``, ``OPENAI_BASE_URL``), then editor settings (LSP
``initializationOptions`` / ``workspace/configuration``). Keys are camelCase in every source.

The API key is only ever read from an environment variable (``model.apiKeyEnv``, by default
``OPENAI_API_KEY``): a key written into a file or a settings object is refused, so that it never
ends up committed or echoed back.

Longer than 600 lines: every setting's model lives here, one section after another, so that one
file documents them all (docs/configuration.md follows it); the sources are in
``config_sources.py``.
"""

from __future__ import annotations

import logging
import os
import re
import shlex
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SecretStr,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic.alias_generators import to_camel

from .config_sources import CONFIG_FILE_NAME as CONFIG_FILE_NAME
from .config_sources import ENV_PREFIX as ENV_PREFIX
from .config_sources import ConfigError as ConfigError
from .config_sources import (
    _camel_path,
    _deep_merge,
    _flatten_keys,
    _parse_env_value,
    _refuse_secrets,
)
from .config_sources import read_config_file as read_config_file
from .config_sources import redact_url as redact_url

log = logging.getLogger(__name__)


Tier = Literal["nano", "mini", "full"]
DEFAULT_CONTEXT_WINDOW = 32_000
"""Tokens: what small local models and every hosted one offer; prompts stay cheap."""
AgentName = Literal["research", "planning", "migrate", "lint", "typescript", "review"]
Command = list[str]


class _Section(BaseModel):
    model_config = ConfigDict(
        alias_generator=to_camel,
        populate_by_name=True,
        extra="forbid",
        frozen=True,
    )


def _split_command(value: object) -> object:
    """Accept a command as a list of arguments or as one shell-like string."""
    if isinstance(value, str):
        try:
            parts = shlex.split(value)
        except ValueError as exc:
            raise ValueError(f"cannot parse the command {value!r}: {exc}") from exc
        if not parts:
            raise ValueError("a command cannot be empty")
        return parts
    if isinstance(value, list) and not value:
        raise ValueError("a command cannot be empty")
    return value


class Commands(_Section):
    """Command prefixes for the project's own tools. ``None`` means: detect from the project.

    testmend appends its own flags and the file to each prefix (for jest: ``--json
    --outputFile … --testLocationInResults --runTestsByPath FILE``), so a prefix such as
    ``["yarn", "jest"]`` works.
    """

    test: Command | None = None
    lint: Command | None = None
    lint_fix: Command | None = None
    typecheck: Command | None = None
    lint_max_warnings: int | None = Field(None, ge=0)
    """The eslint warnings a file may keep and still be lint-clean. None: as the project's own
    lint scripts say (``eslint … --max-warnings N``); when none says, warnings are reported but
    do not hold a result back (the project's eslint does not fail on them)."""

    _split = field_validator("test", "lint", "lint_fix", "typecheck", mode="before")(_split_command)


class ModelTiers(_Section):
    """Model names for each tier, as the endpoint knows them."""

    nano: str | None = None
    mini: str | None = None
    full: str | None = None


class AgentTiers(_Section):
    """Which tier each agent uses."""

    research: Tier = "mini"
    planning: Tier = "full"
    migrate: Tier = "full"
    lint: Tier = "mini"
    typescript: Tier = "mini"
    review: Tier = "full"


class ContextWindows(_Section):
    """The context window (in tokens) of each tier's model: the prompt's parts are sized from
    it (``workflow.prompts.slot_budgets``)."""

    nano: int = Field(DEFAULT_CONTEXT_WINDOW, ge=2048, le=10_000_000)
    mini: int = Field(DEFAULT_CONTEXT_WINDOW, ge=2048, le=10_000_000)
    full: int = Field(DEFAULT_CONTEXT_WINDOW, ge=2048, le=10_000_000)


class ModelConfig(_Section):
    base_url: str | None = None
    api_key_env: str = Field("OPENAI_API_KEY", pattern=r"^[A-Za-z_][A-Za-z0-9_]*$")
    tiers: ModelTiers = ModelTiers()
    agents: AgentTiers = AgentTiers()
    context_window: ContextWindows = ContextWindows()
    timeout_seconds: float = Field(120.0, gt=0, le=3600)
    max_retries: int = Field(2, ge=0, le=10)
    streaming: bool = False
    """Ask the endpoint for server-sent events instead of one response body."""
    offline: bool = False
    """Force the deterministic tier even when a model is configured."""
    fallback: Literal["codemod", "fail"] = "codemod"
    """When the model fails before producing a candidate (unreachable, a refused key, an unknown
    model): go on with the deterministic tier (``codemod``), or stop the run (``fail``)."""

    # Filled from the environment only (see load_config); never serialised.
    api_key: SecretStr | None = Field(None, exclude=True, repr=False)

    @field_validator("base_url")
    @classmethod
    def _http_url(cls, value: str | None) -> str | None:
        if value is not None and not value.startswith(("http://", "https://")):
            raise ValueError("must be an http:// or https:// URL")
        return value

    def tier_for(self, agent: AgentName) -> Tier:
        """The tier an agent uses: its own, else the nearest tier that names a model."""
        order: dict[Tier, tuple[Tier, ...]] = {
            "nano": ("nano", "mini", "full"),
            "mini": ("mini", "full", "nano"),
            "full": ("full", "mini", "nano"),
        }
        wanted: Tier = getattr(self.agents, agent)
        return next((t for t in order[wanted] if getattr(self.tiers, t)), wanted)

    def model_for(self, agent: AgentName) -> str | None:
        """The model name an agent should use, falling back to the nearest configured tier."""
        name: str | None = getattr(self.tiers, self.tier_for(agent))
        return name or None

    def context_window_for(self, agent: AgentName) -> int:
        return int(getattr(self.context_window, self.tier_for(agent)))

    @property
    def configured(self) -> bool:
        """True when a run would call a model (not offline, a model named, a key or endpoint)."""
        has_model = any((self.tiers.nano, self.tiers.mini, self.tiers.full))
        has_credentials = self.api_key is not None or self.base_url is not None
        return not self.offline and has_model and has_credentials


class Price(_Section):
    """US dollars per million tokens."""

    input: float = Field(ge=0)
    output: float = Field(ge=0)


class Budget(_Section):
    """What one run may spend on the model. The run stops at the limit, keeping its best
    candidate."""

    max_tokens: int | None = Field(None, ge=1)
    max_cost: float | None = Field(None, gt=0)
    """US dollars; needs the models' prices."""
    prices: dict[str, Price] = {}
    """Model name → price; a run's cost is estimated for the models listed here."""

    @model_validator(mode="after")
    def _cost_needs_prices(self) -> Budget:
        if self.max_cost is not None and not self.prices:
            raise ValueError("maxCost needs prices: budget.prices.<model> = {input, output}")
        return self


class RetryLimits(_Section):
    max_attempts_per_error: int = Field(5, ge=1, le=100)
    max_total_attempts: int = Field(15, ge=1, le=1000)
    max_review_rounds: int = Field(2, ge=0, le=10)
    """Times the reviewer may send a result back to migrate (0: its findings go to a person)."""


class Timeouts(_Section):
    """Seconds before a command's whole process group is killed."""

    test: float = Field(120.0, gt=0, le=3600)
    lint: float = Field(60.0, gt=0, le=3600)
    typecheck: float = Field(180.0, gt=0, le=3600)
    retry_slow_tests: bool = False
    """A test run that timed out is tried once more with twice the time (for a loaded
    machine); off: a test that hangs is named after one run."""


class FidelityConfig(_Section):
    """What a result must keep of the original test before the engine accepts it."""

    intent: bool = True
    """Run the intent check (mutants of the component under test)."""
    max_mutants: int = Field(6, ge=0, le=200)
    """Mutants per intent check: each costs two test files in one jest run."""
    timeout_seconds: float = Field(180.0, gt=0, le=3600)
    """Seconds before the intent check's jest run is stopped (the check is then reported as
    not done, and the result needs review)."""
    threshold: float = Field(0.9, ge=0, le=1)
    """Mutants the result catches / mutants the original catches, at least this to succeed."""


SandboxMode = Literal["auto", "bubblewrap", "landlock", "seatbelt", "off"]


class SandboxConfig(_Section):
    """Where the project's tools run on candidate code (see docs/sandbox.md)."""

    mode: SandboxMode = "auto"
    """``auto``: bubblewrap, else Landlock (Linux), Seatbelt (macOS); ``off``: no sandbox."""
    writable: list[str] = []
    """Extra paths the tools may write (absolute, or ``~/…``)."""
    readable: list[str] = []
    """Paths the deny list hides that the tools may read anyway."""
    deny: list[str] = []
    """Extra paths the tools may not read (added to the built-in list of secrets)."""
    network: list[str] = []
    """Hosts the tools may reach through testmend's proxy (``host``: ports 80 and 443,
    ``host:port``, ``*.domain``); empty: no network at all."""
    env: list[str] = []
    """Extra environment variables passed to the tools (the rest is reduced to what they need;
    the model's API key is never passed)."""

    @field_validator("writable", "readable", "deny", "network", "env")
    @classmethod
    def _well_formed(cls, values: list[str], info: ValidationInfo) -> list[str]:
        shape, what = _SANDBOX_SHAPES[str(info.field_name)]
        for value in values:
            if not shape(value):
                raise ValueError(f"{value!r} is not {what}")
        return values


def _is_absolute(value: str) -> bool:
    return os.path.isabs(os.path.expanduser(value))


_PATH = (_is_absolute, "an absolute path (or ~/…)")
_SANDBOX_SHAPES: dict[str, tuple[Callable[[str], bool], str]] = {
    "writable": _PATH,
    "readable": _PATH,
    "deny": _PATH,
    "network": (
        lambda v: bool(re.fullmatch(r"(\*\.)?[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*(:[0-9]{1,5})?", v)),
        "a host, host:port or *.domain",
    ),
    "env": (
        lambda v: bool(re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", v)),
        "an environment variable name",
    ),
}


class TracingConfig(_Section):
    """LangSmith tracing is on when its own environment variables say so
    (``LANGSMITH_TRACING=true``); see ``llm/tracing.py``."""

    contents: bool = False
    """Send prompts, answers and tool results (they hold the user's files) with the traces."""


class WorkspaceConfig(_Section):
    """Where runs work (see docs/architecture.md, "Shadow workspace")."""

    warm_slots: int = Field(4, ge=0, le=32)
    """Shadow workspaces per project kept between runs, so the tools' caches stay warm (each
    is a checkout of the project outside it); 0: a new workspace for every run."""
    warm_jest: bool = True
    """A run's jest runs go through one long-lived jest process when the project's test
    command is jest itself (jest 27 and later); off: the plain command every time."""
    warm_jest_idle_minutes: float = Field(10, ge=0, le=24 * 60)
    """How long a warm slot's jest stays up after its run, for the next run in that slot
    (within one testmend process: the editor's server, a batch); 0: stopped with its run."""
    keep_original_results: bool = True
    """The original test's runs (its DOM capture, its runs against the intent check's mutants)
    are kept in ``.testmend/cache/results/`` and reused while nothing they depend on changed
    (the project's files, installed packages, test command and environment); off: run again
    every time."""
    keep_check_results: bool = True
    """eslint's and tsc's results on the test file (the migration's content included: they run
    no test code) are kept in ``.testmend/cache/results/`` and reused while the file and
    everything else they depend on are unchanged; off: they run again every time."""
    narrow_type_check: bool = True
    """tsc checks the files the test file needs (it, what it imports, the project's
    declarations and files that add globals) instead of the whole project, when the project's
    type check is ``tsc --noEmit -p``; an error is confirmed by the project's whole tsc unless
    that reported it already (``runners/tsc_scope.py``). Off: the project's tsc every time."""


EventsSetting = Literal["auto", "userEvent", "fireEvent"]


class CodemodConfig(_Section):
    """How the deterministic tier writes Testing Library code."""

    events: EventsSetting = "auto"
    """How simulated events are written: ``userEvent`` (awaited user-event calls, the tests made
    async), ``fireEvent``, or ``auto``: userEvent where the project has
    ``@testing-library/user-event`` 14 or newer. A payload no user action makes stays
    ``fireEvent`` either way."""


class BatchConfig(_Section):
    """Many files at once from an editor (Migrate folder to RTL)."""

    apply_accepted: bool = False
    """Apply each result the engine accepted as soon as its run ends; off: every result of the
    batch is kept for review (the results view lists them), nothing is written until a person
    accepts it."""


class StoreConfig(_Section):
    """Where runs are kept: records, events, reports and LangGraph's checkpoints."""

    url: SecretStr | None = None
    """None: SQLite and files under the project's ``.testmend/``; ``postgresql://…``: a team's
    shared Postgres (``pip install 'testmend[team]'``). From the config file or
    ``TESTMEND_STORE__URL``; a secret (its password): shown only through ``redact_url``."""

    @field_validator("url")
    @classmethod
    def _known_scheme(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None and not value.get_secret_value().startswith(
            ("postgresql://", "postgres://")
        ):
            raise ValueError("store.url must be a postgresql:// URL (or unset: .testmend/)")
        return value

    @property
    def location(self) -> str | None:
        """The URL to connect to (None: ``.testmend/``)."""
        return self.url.get_secret_value() if self.url is not None else None


class TeamConfig(_Section):
    """Workers on a queue (``testmend worker``, ``migrate --broker``: docs/scale.md)."""

    broker: SecretStr | None = None
    """The Celery broker's URL (``redis://``, ``amqp://``); ``--broker`` names it for one
    command. A secret (its password): shown only through ``redact_url``."""
    task_time_limit_seconds: int = Field(420, ge=10, le=86_400)
    """A file's task is stopped (and ends ``failed``) after this long on a worker."""
    visibility_timeout_seconds: int = Field(480, ge=20, le=86_400)
    """A task a worker took and never acknowledged (the worker died) is delivered again after
    this long (Redis); longer than the time limit, so a slow task is never run twice."""
    max_retries: int = Field(2, ge=0, le=10)
    """Deliveries after the first of a task that fails (its worker died, an error): then the
    run ends ``failed`` with its reason."""

    @model_validator(mode="after")
    def _visible_after_the_limit(self) -> TeamConfig:
        if self.visibility_timeout_seconds <= self.task_time_limit_seconds:
            raise ValueError(
                "team.visibilityTimeoutSeconds must be longer than team.taskTimeLimitSeconds "
                "(else a task still running is delivered to a second worker)"
            )
        return self

    @property
    def broker_url(self) -> str | None:
        return self.broker.get_secret_value() if self.broker is not None else None


class Config(_Section):
    project_root: Path
    commands: Commands = Commands()
    model: ModelConfig = ModelConfig()
    retry: RetryLimits = RetryLimits()
    budget: Budget = Budget()
    timeouts: Timeouts = Timeouts()
    fidelity: FidelityConfig = FidelityConfig()
    sandbox: SandboxConfig = SandboxConfig()
    tracing: TracingConfig = TracingConfig()
    workspace: WorkspaceConfig = WorkspaceConfig()
    codemod: CodemodConfig = CodemodConfig()
    batch: BatchConfig = BatchConfig()
    store: StoreConfig = StoreConfig()
    team: TeamConfig = TeamConfig()
    max_concurrent_runs: int = Field(2, ge=1, le=32)

    def redacted(self) -> dict[str, Any]:
        """A JSON-able view without the secret, saying whether one is set."""
        data = self.model_dump(mode="json", by_alias=True)
        data["model"]["apiKeySet"] = self.model.api_key is not None
        if self.store.location is not None:
            data["store"]["url"] = redact_url(self.store.location)
        if self.team.broker_url is not None:
            data["team"]["broker"] = redact_url(self.team.broker_url)
        return data


# --- loading -------------------------------------------------------------------------------

#: Unknown ``TESTMEND_*`` variables already warned about (once per process each).
_WARNED: set[str] = set()


def _is_setting(path: list[str]) -> bool:
    """Whether ``path`` (camelCase parts) names a key or a section of :class:`Config`."""
    model: type[BaseModel] = Config
    for depth, part in enumerate(path):
        field = next(
            (f for n, f in model.model_fields.items() if part in (n, f.alias, to_camel(n))),
            None,
        )
        if field is None:
            return False
        annotation = field.annotation
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            model = annotation
        elif depth != len(path) - 1:
            return False
    return True


def environment_layer(environ: Mapping[str, str]) -> dict[str, Any]:
    """``TESTMEND_SECTION__KEY=value`` (JSON or plain string) and ``OPENAI_BASE_URL``.

    A ``TESTMEND_*`` variable that names no setting (a CI system's ``TESTMEND_MAIN``, say) is
    ignored, with one warning in the log; a bad value of a real setting stays an error.
    """
    layer: dict[str, Any] = {}
    if environ.get("OPENAI_BASE_URL"):
        layer = _deep_merge(layer, {"model": {"baseUrl": environ["OPENAI_BASE_URL"]}})
    for name, raw in environ.items():
        if not name.startswith(ENV_PREFIX) or name == "TESTMEND_WORKSPACES_DIR":
            continue
        path = _camel_path(name[len(ENV_PREFIX) :])
        if not all(path) or not _is_setting(path):
            if name not in _WARNED:
                _WARNED.add(name)
                log.warning("ignoring %s: it is not a testmend setting", name)
            continue
        nested: Any = _parse_env_value(raw)
        for part in reversed(path):
            nested = {part: nested}
        layer = _deep_merge(layer, nested)
    return layer


def _accepted_keys(model: type[BaseModel]) -> list[str]:
    return sorted(
        (field.alias or name) for name, field in model.model_fields.items() if not field.exclude
    )


def _section_at(loc: tuple[int | str, ...]) -> type[BaseModel]:
    """The pydantic model that owns the key at ``loc`` (for 'accepted keys' hints)."""
    model: type[BaseModel] = Config
    for part in loc[:-1]:
        field = next(
            (f for n, f in model.model_fields.items() if part in (n, f.alias)),
            None,
        )
        annotation = getattr(field, "annotation", None)
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            model = annotation
        else:
            break
    return model


def _describe(error: Mapping[str, Any]) -> str:
    loc = tuple(error["loc"])
    kind = error["type"]
    if kind == "extra_forbidden":
        accepted = ", ".join(_accepted_keys(_section_at(loc)))
        return f"unknown key; accepted keys here: {accepted}"
    message = str(error["msg"])
    if message.startswith("Value error, "):
        message = message[len("Value error, ") :]
    shown = error["input"]
    if isinstance(shown, str):  # a URL's password is not shown back
        shown = redact_url(shown)
    return f"{message}; got {shown!r}"


def _format_validation_error(exc: ValidationError, provenance: Mapping[str, str]) -> ConfigError:
    first = exc.errors()[0]
    dotted = ".".join(str(part) for part in first["loc"])
    source = "defaults"
    for candidate in (dotted, *(dotted.rsplit(".", n)[0] for n in range(1, dotted.count(".") + 1))):
        if candidate in provenance:
            source = provenance[candidate]
            break
    message = f"{source}: {dotted}: {_describe(first)}"
    others = len(exc.errors()) - 1
    if others:
        message += f" (and {others} more problem{'s' if others > 1 else ''})"
    return ConfigError(message, key=dotted, source=source)


#: Sandbox keys that would loosen it: a project's own file may not set them (see load_config).
_LOOSENING = ("writable", "readable", "env", "network")


def _refuse_loosening(layer: Mapping[str, Any], source: str) -> None:
    """The project's file comes with the code the sandbox runs: it may tighten the sandbox
    (``mode`` other than off, ``deny``), never loosen it."""
    sandbox = layer.get("sandbox")
    if not isinstance(sandbox, Mapping):
        return
    loosened = [k for k in _LOOSENING if sandbox.get(k)]
    if sandbox.get("mode") == "off":
        loosened.insert(0, "mode")
    if loosened:
        key = f"sandbox.{loosened[0]}"
        raise ConfigError(
            f"{source}: {key}: a project's own {CONFIG_FILE_NAME} cannot loosen the sandbox "
            "(it comes with the code the sandbox protects you from); set it in your editor "
            f"settings or the environment (TESTMEND_SANDBOX__{loosened[0].upper()})",
            key=key,
            source=source,
        )


def store_location(project_root: Path, environ: Mapping[str, str] | None = None) -> str | None:
    """``store.url`` alone (from the file and the environment, as ``load_config`` layers them),
    so that listing runs works while another setting is bad; ConfigError when it is bad itself
    (or the file is not JSON)."""
    environ = os.environ if environ is None else environ
    root = Path(project_root).expanduser().resolve()
    merged = _deep_merge(read_config_file(root), environment_layer(environ))
    section = merged.get("store")
    if section is None:
        return None
    try:
        return StoreConfig.model_validate(section).location
    except ValidationError as exc:
        source = str(root / CONFIG_FILE_NAME)
        if environ.get(f"{ENV_PREFIX}STORE__URL"):
            source = "environment"
        first = exc.errors()[0]
        raise ConfigError(f"{source}: store.{first['loc'][0]}: {_describe(first)}") from None


def load_config(
    project_root: Path,
    *,
    editor_settings: Mapping[str, Any] | None = None,
    environ: Mapping[str, str] | None = None,
) -> Config:
    """Build the configuration for a project from every source; raise ConfigError on bad input."""
    environ = os.environ if environ is None else environ
    root = Path(project_root).expanduser().resolve()
    file_source = str(root / CONFIG_FILE_NAME)
    layers: list[tuple[str, Mapping[str, Any]]] = [
        (file_source, read_config_file(root)),
        ("environment", environment_layer(environ)),
        ("editor settings", editor_settings or {}),
    ]
    merged: dict[str, Any] = {}
    provenance: dict[str, str] = {}
    for source, layer in layers:
        if not isinstance(layer, Mapping):
            raise ConfigError(f"{source}: must be an object of settings", source=source)
        _refuse_secrets(layer, source)
        if source == file_source:
            _refuse_loosening(layer, source)
        if source == "editor settings" and "store" in layer:
            raise ConfigError(
                f"{source}: store: where a project's runs are kept is the same for every face "
                f"and every person: set it in {CONFIG_FILE_NAME} or TESTMEND_STORE__URL",
                key="store",
                source=source,
            )
        if "projectRoot" in layer or "project_root" in layer:
            raise ConfigError(
                f"{source}: projectRoot: set by testmend from the workspace, not configurable",
                key="projectRoot",
                source=source,
            )
        merged = _deep_merge(merged, layer)
        provenance.update(dict.fromkeys(_flatten_keys(layer), source))
    try:
        config = Config.model_validate({**merged, "projectRoot": root})
    except ValidationError as exc:
        raise _format_validation_error(exc, provenance) from None
    key = environ.get(config.model.api_key_env)
    if key:
        model = config.model.model_copy(update={"api_key": SecretStr(key)})
        config = config.model_copy(update={"model": model})
    return config
