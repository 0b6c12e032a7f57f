"""What a queue's task is, without a broker: ids that name the same run for the same file at the
same commit with the same options (and only then), settings a dead worker's task depends on."""

from __future__ import annotations

from pathlib import Path

import pytest

from testmend.config import ConfigError, load_config
from testmend.team.tasks import Options, batch_id_of, queue_of, run_id_of


def test_a_run_id_is_the_same_for_the_same_file_commit_and_options_only() -> None:
    base = run_id_of("git.example.com/app.git", "abc", "src/a.test.tsx", Options())
    assert base == run_id_of("git.example.com/app.git", "abc", "src/a.test.tsx", Options())
    others = {
        run_id_of("git.example.com/app.git", "abd", "src/a.test.tsx", Options()),
        run_id_of("git.example.com/app.git", "abc", "src/b.test.tsx", Options()),
        run_id_of("git.example.com/app.git", "abc", "src/a.test.tsx", Options(offline=True)),
        run_id_of("git.example.com/other.git", "abc", "src/a.test.tsx", Options()),
        run_id_of("git.example.com/app.git", "abc", "src/a.test.tsx", Options(mode="fix")),
    }
    assert base not in others and len(others) == 5
    batch = batch_id_of("p", "abc", ["b", "a"], Options())
    assert batch == batch_id_of("p", "abc", ["a", "b"], Options())  # the files' order is not it
    assert queue_of("p") == queue_of("p") != queue_of("q")


def test_team_settings_refuse_a_visibility_timeout_a_task_can_outlive(tmp_path: Path) -> None:
    environ = {"TESTMEND_TEAM__TASK_TIME_LIMIT_SECONDS": "600",
               "TESTMEND_TEAM__VISIBILITY_TIMEOUT_SECONDS": "300"}  # fmt: skip
    with pytest.raises(ConfigError) as caught:
        load_config(tmp_path, environ=environ)
    assert "visibilityTimeoutSeconds must be longer than team.taskTimeLimitSeconds" in str(
        caught.value
    )
    config = load_config(tmp_path, environ={})
    # A dead worker's task runs again within 10 minutes (restored within 10 s of the timeout).
    assert config.team.visibility_timeout_seconds + 10 < 600
    assert config.team.task_time_limit_seconds < config.team.visibility_timeout_seconds


def test_the_brokers_password_is_redacted(tmp_path: Path) -> None:
    environ = {"TESTMEND_TEAM__BROKER": "redis://:hunter2@queue.internal:6379/0"}
    config = load_config(tmp_path, environ=environ)
    assert config.team.broker_url == "redis://:hunter2@queue.internal:6379/0"
    assert config.redacted()["team"]["broker"] == "redis://:***@queue.internal:6379/0"
    assert "hunter2" not in repr(config) and "hunter2" not in str(config.redacted())
