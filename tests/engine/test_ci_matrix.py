"""A CI matrix as the distributed engine: ``testmend migrate --shard I/N --json`` in each job,
``testmend apply --from DIR`` in a checkout of the same commit (subprocess, offline tier)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from testmend.cli.targets import shard_of
from tests.engine.test_cli import PAGINATION, PAGINATION_SNAPSHOT, run_testmend
from tests.support.engine import SIMPLE_TEST
from tests.support.git import git


@pytest.mark.parametrize(("files", "count"), [(7, 3), (3500, 50), (2, 4), (10, 1)])
def test_shards_are_disjoint_cover_every_file_and_differ_by_one_at_most(
    files: int, count: int
) -> None:
    root = Path("/p")
    paths = [root / "src" / f"f{n:04d}.test.tsx" for n in range(files)]
    slices = [shard_of(paths, root, (index, count)) for index in range(1, count + 1)]
    assert sorted(p for s in slices for p in s) == sorted(paths)  # each file once
    assert max(map(len, slices)) - min(map(len, slices)) <= 1
    shuffled = random.Random(files).sample(paths, len(paths))  # another job's walk order
    assert [shard_of(shuffled, root, (i, count)) for i in range(1, count + 1)] == slices


def test_a_matrix_of_shards_is_merged_into_another_checkout(
    project: Path, workspaces: Path, tmp_path: Path
) -> None:
    outputs = tmp_path / "outputs"
    outputs.mkdir()
    shards = {}
    for index in (1, 2):
        done = run_testmend(project, workspaces, "migrate", PAGINATION, SIMPLE_TEST,
                            "--offline", "--json", "--shard", f"{index}/2")  # fmt: skip
        assert f"shard {index}/2: 1 of 2 files" in done.stderr
        (outputs / f"shard-{index}.json").write_text(done.stdout, encoding="utf-8")
        shards[index] = {r["file"]: r for r in json.loads(done.stdout)["results"]}
    assert sorted(f for s in shards.values() for f in s) == sorted([PAGINATION, SIMPLE_TEST])
    results = {**shards[1], **shards[2]}
    assert results[PAGINATION]["accepted"] and not results[SIMPLE_TEST]["accepted"]
    assert (project / PAGINATION).read_text() != results[PAGINATION]["content"]  # nothing written

    checkout = tmp_path / "checkout"
    git(tmp_path, "clone", "-q", str(project), str(checkout))
    (outputs / "notes.json").write_text('{"not": "an output"}', encoding="utf-8")
    done = run_testmend(checkout, workspaces, "apply", "--from", str(outputs))
    assert done.returncode == 1  # Seats is not accepted; and an output could not be read
    assert (checkout / PAGINATION).read_text() == results[PAGINATION]["content"]
    assert "<DocumentFragment>" in (checkout / PAGINATION_SNAPSHOT).read_text()  # with its test
    assert (checkout / SIMPLE_TEST).read_text() == (project / SIMPLE_TEST).read_text()
    assert f"{PAGINATION}: succeeded: written (and {PAGINATION_SNAPSHOT})" in done.stderr
    assert f"{SIMPLE_TEST}: failed: not written: failed" in done.stderr
    assert "notes.json: not the output of `testmend migrate --json`" in done.stderr
    assert "wrote 1 of 2 results from 2 outputs" in done.stderr

    (outputs / "notes.json").unlink()
    again = run_testmend(checkout, workspaces, "apply", "--from", str(outputs), "--json")
    rows = {r["file"]: r for r in json.loads(again.stdout)["files"]}
    assert rows[PAGINATION]["message"] == "nothing to write: the file already has this result"
    assert rows[PAGINATION]["done"] and again.returncode == 1  # Seats still is not accepted

    # A checkout whose file changed since the run migrated it is not written over.
    other = tmp_path / "other"
    git(tmp_path, "clone", "-q", str(project), str(other))
    edited = (other / PAGINATION).read_text() + "\n// a colleague's change\n"
    (other / PAGINATION).write_text(edited)
    stale = run_testmend(other, workspaces, "apply", "--from", str(outputs), "--json")
    rows = {r["file"]: r for r in json.loads(stale.stdout)["files"]}
    assert rows[PAGINATION]["message"] == (
        f"not written: {PAGINATION} changed since it was migrated "
        "(not the content the run started from)"
    )
    assert (other / PAGINATION).read_text() == edited and stale.returncode == 1


def test_apply_refuses_a_folder_without_outputs(project: Path, workspaces: Path) -> None:
    missing = run_testmend(project, workspaces, "apply", "--from", "no-such-folder")
    assert missing.returncode == 2
    assert missing.stderr.strip() == "testmend: no-such-folder: no such folder"
    empty = project / "empty"
    empty.mkdir()
    nothing = run_testmend(project, workspaces, "apply", "--from", "empty")
    assert nothing.returncode == 2
    assert nothing.stderr.strip() == "testmend: no `testmend migrate --json` output in empty"
