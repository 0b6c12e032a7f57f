"""Configuration: layering of sources, clear errors, and the API key never coming from a file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from testmend.config import (
    CONFIG_FILE_NAME,
    ConfigError,
    environment_layer,
    load_config,
)
from testmend.layout import find_project_root


def write_config(root: Path, data: object) -> None:
    (root / CONFIG_FILE_NAME).write_text(json.dumps(data), encoding="utf-8")


def test_defaults(tmp_path: Path) -> None:
    config = load_config(tmp_path, environ={})
    assert config.project_root == tmp_path.resolve()
    assert config.retry.max_attempts_per_error == 5
    assert config.retry.max_total_attempts == 15
    assert config.commands.test is None
    assert config.max_concurrent_runs == 2
    assert not config.model.configured
    assert config.model.model_for("migrate") is None


def test_sources_override_in_order(tmp_path: Path) -> None:
    write_config(
        tmp_path,
        {
            "retry": {"maxAttemptsPerError": 2, "maxTotalAttempts": 9},
            "timeouts": {"test": 30},
            "maxConcurrentRuns": 3,
        },
    )
    environ = {"TESTMEND_RETRY__MAX_ATTEMPTS_PER_ERROR": "3", "TESTMEND_TIMEOUTS__LINT": "12.5"}
    config = load_config(
        tmp_path, environ=environ, editor_settings={"retry": {"maxAttemptsPerError": 4}}
    )
    assert config.retry.max_attempts_per_error == 4  # editor settings beat the environment
    assert config.retry.max_total_attempts == 9  # file value kept where nothing overrides it
    assert config.timeouts.lint == 12.5  # environment
    assert config.timeouts.test == 30  # file
    assert config.max_concurrent_runs == 3


def test_commands_accept_strings_and_lists(tmp_path: Path) -> None:
    write_config(tmp_path, {"commands": {"test": "yarn jest --silent", "lint": ["npx", "eslint"]}})
    config = load_config(tmp_path, environ={})
    assert config.commands.test == ["yarn", "jest", "--silent"]
    assert config.commands.lint == ["npx", "eslint"]


@pytest.mark.parametrize(
    ("settings", "expected"),
    [
        (
            {"model": {"agents": {"migrate": "huge"}}},
            "editor settings: model.agents.migrate: Input should be 'nano', 'mini' or 'full'; "
            "got 'huge'",
        ),
        (
            {"retry": {"maxAttempts": 3}},
            "editor settings: retry.maxAttempts: unknown key; accepted keys here: "
            "maxAttemptsPerError, maxReviewRounds, maxTotalAttempts",
        ),
        (
            {"retry": {"maxTotalAttempts": 0}},
            "editor settings: retry.maxTotalAttempts: Input should be greater than or equal to 1",
        ),
        ({"commands": {"test": ""}}, "editor settings: commands.test: a command cannot be empty"),
        (
            {"model": {"baseUrl": "localhost:8080"}},
            "editor settings: model.baseUrl: must be an http:// or https:// URL",
        ),
    ],
)
def test_bad_editor_setting_names_key_and_accepted_values(
    tmp_path: Path, settings: dict[str, object], expected: str
) -> None:
    with pytest.raises(ConfigError) as caught:
        load_config(tmp_path, environ={}, editor_settings=settings)
    assert str(caught.value).startswith(expected)
    assert caught.value.source == "editor settings"


def test_bad_file_value_names_the_file(tmp_path: Path) -> None:
    write_config(tmp_path, {"timeouts": {"test": "soon"}})
    with pytest.raises(ConfigError) as caught:
        load_config(tmp_path, environ={})
    message = str(caught.value)
    assert message.startswith(f"{tmp_path / CONFIG_FILE_NAME}: timeouts.test: ")
    assert "'soon'" in message
    assert caught.value.key == "timeouts.test"


def test_bad_environment_value_names_the_environment(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"^environment: maxConcurrentRuns: "):
        load_config(tmp_path, environ={"TESTMEND_MAX_CONCURRENT_RUNS": "many"})


def test_several_problems_are_counted(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"\(and 1 more problem\)$"):
        load_config(tmp_path, environ={}, editor_settings={"timeouts": {"test": -1, "lint": -1}})


@pytest.mark.parametrize("text", ["{not json", "[1, 2]"])
def test_unreadable_config_file(tmp_path: Path, text: str) -> None:
    (tmp_path / CONFIG_FILE_NAME).write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError, match=CONFIG_FILE_NAME):
        load_config(tmp_path, environ={})


def test_settings_must_be_an_object(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="editor settings: must be an object"):
        load_config(tmp_path, environ={}, editor_settings=["x"])  # type: ignore[arg-type]


def test_project_root_is_not_configurable(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="projectRoot"):
        load_config(tmp_path, environ={}, editor_settings={"projectRoot": "/"})


@pytest.mark.parametrize("where", ["file", "settings"])
def test_api_key_is_refused_outside_the_environment(tmp_path: Path, where: str) -> None:
    secret = "sk-do-not-store-me"
    settings = None
    if where == "file":
        write_config(tmp_path, {"model": {"apiKey": secret}})
    else:
        settings = {"model": {"apiKey": secret}}
    with pytest.raises(ConfigError) as caught:
        load_config(tmp_path, environ={}, editor_settings=settings)
    assert "OPENAI_API_KEY" in str(caught.value)
    assert secret not in str(caught.value)


def test_api_key_from_environment_is_kept_secret(tmp_path: Path) -> None:
    secret = "sk-live-123456"
    write_config(tmp_path, {"model": {"tiers": {"full": "gpt-4.1", "mini": "gpt-4.1-mini"}}})
    config = load_config(
        tmp_path, environ={"OPENAI_API_KEY": secret, "OPENAI_BASE_URL": "http://127.0.0.1:9/v1"}
    )
    assert config.model.api_key is not None
    assert config.model.api_key.get_secret_value() == secret
    assert config.model.configured
    assert config.model.base_url == "http://127.0.0.1:9/v1"
    assert config.model.model_for("migrate") == "gpt-4.1"
    assert config.model.model_for("research") == "gpt-4.1-mini"
    assert config.model.model_for("lint") == "gpt-4.1-mini"
    for text in (repr(config), str(config), json.dumps(config.redacted())):
        assert secret not in text
    assert config.redacted()["model"]["apiKeySet"] is True


def test_api_key_env_name_is_configurable(tmp_path: Path) -> None:
    write_config(tmp_path, {"model": {"apiKeyEnv": "MY_LLM_KEY", "tiers": {"nano": "small"}}})
    config = load_config(tmp_path, environ={"MY_LLM_KEY": "k", "OPENAI_API_KEY": "other"})
    assert config.model.api_key is not None
    assert config.model.api_key.get_secret_value() == "k"
    # The nano tier is the only one named, so every agent falls back to it.
    assert config.model.model_for("planning") == "small"


def test_offline_wins_over_a_configured_model(tmp_path: Path) -> None:
    environ = {"OPENAI_API_KEY": "k", "TESTMEND_MODEL__OFFLINE": "true"}
    config = load_config(
        tmp_path, environ=environ, editor_settings={"model": {"tiers": {"full": "m"}}}
    )
    assert config.model.offline
    assert not config.model.configured


def test_environment_layer_parses_json_and_strings() -> None:
    layer = environment_layer(
        {
            "TESTMEND_COMMANDS__TEST": "yarn jest",
            "TESTMEND_COMMANDS__LINT_FIX": '["eslint", "--fix"]',
            "TESTMEND_WORKSPACES_DIR": "/tmp/x",
            "TESTMEND_": "ignored",
            "UNRELATED": "1",
        }
    )
    assert layer == {"commands": {"test": "yarn jest", "lintFix": ["eslint", "--fix"]}}


def test_find_project_root(tmp_path: Path) -> None:
    (tmp_path / "package.json").write_text("{}")
    nested = tmp_path / "src" / "components"
    nested.mkdir(parents=True)
    test_file = nested / "Button.test.tsx"
    test_file.write_text("")
    assert find_project_root(test_file) == tmp_path.resolve()
    assert find_project_root(nested) == tmp_path.resolve()


@pytest.mark.parametrize(
    ("sandbox", "key"),
    [
        ({"mode": "off"}, "sandbox.mode"),
        ({"writable": ["/home/me"]}, "sandbox.writable"),
        ({"readable": ["/home/me/.ssh"]}, "sandbox.readable"),
        ({"env": ["GITHUB_TOKEN"]}, "sandbox.env"),
        ({"network": ["evil.example"]}, "sandbox.network"),
    ],
)
def test_the_projects_file_cannot_loosen_the_sandbox(
    tmp_path: Path, sandbox: dict[str, object], key: str
) -> None:
    write_config(tmp_path, {"sandbox": sandbox})
    with pytest.raises(ConfigError) as refused:
        load_config(tmp_path, environ={})
    assert refused.value.key == key
    assert "cannot loosen the sandbox" in str(refused.value)
    assert f"TESTMEND_SANDBOX__{key.split('.')[1].upper()}" in str(refused.value)
    # The same from the user's own settings or environment is accepted.
    (tmp_path / CONFIG_FILE_NAME).unlink()
    assert load_config(tmp_path, environ={}, editor_settings={"sandbox": sandbox}).sandbox
    field = key.split(".")[1]
    variable = f"TESTMEND_SANDBOX__{field.upper()}"
    value = sandbox[field]
    environ = {variable: value if isinstance(value, str) else json.dumps(value)}
    assert load_config(tmp_path, environ=environ).sandbox


def test_the_projects_file_may_tighten_the_sandbox(tmp_path: Path) -> None:
    write_config(tmp_path, {"sandbox": {"mode": "landlock", "deny": ["/srv/secrets"]}})
    config = load_config(tmp_path, environ={})
    assert config.sandbox.mode == "landlock" and config.sandbox.deny == ["/srv/secrets"]


@pytest.mark.parametrize(
    ("setting", "message"),
    [
        ({"writable": ["relative/path"]}, "is not an absolute path"),
        ({"network": ["http://example.com"]}, "is not a host"),
        ({"env": ["NOT-A-NAME"]}, "is not an environment variable name"),
        ({"mode": "docker"}, "'auto', 'bubblewrap', 'landlock', 'seatbelt' or 'off'"),
    ],
)
def test_bad_sandbox_settings_are_named(
    tmp_path: Path, setting: dict[str, object], message: str
) -> None:
    with pytest.raises(ConfigError, match=message):
        load_config(tmp_path, environ={}, editor_settings={"sandbox": setting})


def test_unknown_testmend_variables_are_ignored_with_one_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    environ = {
        "TESTMEND_MAIN": "/opt/ci/main.sh",  # a wrapper script's own variable
        "TESTMEND_RETRY__MAX_ATTEMPTS": "3",  # a typo of a real key
        "TESTMEND_TIMEOUTS__LINT__DEEP": "1",  # below a plain setting
        "TESTMEND_TIMEOUTS__LINT": "12.5",
    }
    with caplog.at_level("WARNING", logger="testmend.config"):
        config = load_config(tmp_path, environ=environ)
        load_config(tmp_path, environ=environ)
    assert config.timeouts.lint == 12.5
    warnings = [r.getMessage() for r in caplog.records]
    assert sorted(warnings) == [
        "ignoring TESTMEND_MAIN: it is not a testmend setting",
        "ignoring TESTMEND_RETRY__MAX_ATTEMPTS: it is not a testmend setting",
        "ignoring TESTMEND_TIMEOUTS__LINT__DEEP: it is not a testmend setting",
    ]
    # A bad value of a real setting is still an error.
    with pytest.raises(ConfigError, match=r"environment: timeouts\.lint"):
        load_config(tmp_path, environ={"TESTMEND_TIMEOUTS__LINT": "soon"})
    # A whole section as JSON is a setting too.
    sections = load_config(tmp_path, environ={"TESTMEND_RETRY": '{"maxTotalAttempts": 4}'})
    assert sections.retry.max_total_attempts == 4


def test_the_store_url_is_a_secret_and_the_teams_not_the_editors(tmp_path: Path) -> None:
    url = "postgresql://team:hunter2@db.example.com:5432/testmend?sslmode=require"
    config = load_config(tmp_path, environ={"TESTMEND_STORE__URL": url})
    assert config.store.location == url
    for text in (repr(config), str(config), json.dumps(config.redacted())):
        assert "hunter2" not in text
    assert config.redacted()["store"]["url"] == (
        "postgresql://team:***@db.example.com:5432/testmend?sslmode=require"
    )
    with pytest.raises(ConfigError) as refused:
        load_config(tmp_path, environ={}, editor_settings={"store": {"url": url}})
    assert "TESTMEND_STORE__URL" in str(refused.value) and "hunter2" not in str(refused.value)
    with pytest.raises(ConfigError) as wrong:
        load_config(tmp_path, environ={"TESTMEND_STORE__URL": "mysql://me:hunter2@db/x"})
    assert "postgresql://" in str(wrong.value) and "mysql://me:***@db/x" in str(wrong.value)
