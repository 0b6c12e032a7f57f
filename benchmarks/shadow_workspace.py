"""Shadow workspace setup and teardown times.

    .venv/bin/python benchmarks/shadow_workspace.py [--runs N] [--files 20000] [--base-dir DIR]

Cases:
  example app (as is)      examples/react-app in this repository, whatever kind it gets
                           (a filtered copy while the repository has no commits)
  example app (git)        the example app's sources committed in a scratch monorepo at
                           examples/react-app (sparse worktree), node_modules linked
  generated repo           a generated git repository with --files tracked files in nested
                           directories, plus a few modified, deleted, staged and untracked files
  generated repo, subdir   the same, with one package of it as the project (sparse checkout)
  generated tree, no git   the same files without git (filtered copy)

Setup is create_shadow_workspace() with one unsaved buffer, until it returns (ready for jest);
teardown is ShadowWorkspace.remove(). Everything is created in fresh temporary directories and
deleted at the end. Target: example app setup under 1 s.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT / "server"))

from testmend.workspace import create_shadow_workspace  # noqa: E402

EXAMPLE_APP = REPO_ROOT / "examples" / "react-app"
TARGET_SECONDS = 1.0
GIT_ENV = {
    "GIT_AUTHOR_NAME": "bench",
    "GIT_AUTHOR_EMAIL": "bench@example.com",
    "GIT_COMMITTER_NAME": "bench",
    "GIT_COMMITTER_EMAIL": "bench@example.com",
    "GIT_CONFIG_NOSYSTEM": "1",
}


@dataclass
class Result:
    name: str
    kind: str = "-"
    files: int = 0
    setup: list[float] = field(default_factory=list)
    teardown: list[float] = field(default_factory=list)
    note: str = ""


def git(cwd: Path, *args: str) -> None:
    subprocess.run(
        ["git", *args], cwd=cwd, check=True, env={**os.environ, **GIT_ENV}, capture_output=True
    )


def count_files(root: Path) -> int:
    total = 0
    for _dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d not in (".git", "node_modules")]
        total += len(filenames)
    return total


def generate_tree(root: Path, files: int) -> None:
    """A monorepo-like tree: packages/<pkg>/src/<feature>/<component>/<file>."""
    exts = (".tsx", ".test.tsx", ".ts", ".module.css", ".stories.tsx")
    written = 0
    pkg = 0
    while written < files:
        package = root / "packages" / f"pkg{pkg:02d}"
        package.mkdir(parents=True)
        (package / "package.json").write_text(f'{{"name": "@bench/pkg{pkg:02d}"}}\n')
        written += 1
        for feature in range(10):
            for component in range(10):
                folder = package / "src" / f"feature{feature}" / f"Component{component}"
                folder.mkdir(parents=True)
                for ext in exts:
                    if written >= files:
                        break
                    name = f"Component{component}{ext}"
                    (folder / name).write_text(
                        f"// {name}\nexport const value{pkg}_{feature}_{component} = "
                        f"{written};\n" + "// padding\n" * 20
                    )
                    written += 1
        pkg += 1
    (root / "package.json").write_text('{"private": true, "workspaces": ["packages/*"]}\n')
    (root / ".gitignore").write_text("node_modules/\ndist/\n")
    for i in range(20):  # a small node_modules to link
        nm = root / "node_modules" / f"dep{i}"
        nm.mkdir(parents=True)
        (nm / "index.js").write_text("module.exports = 1;\n")


def dirty_tree(root: Path) -> None:
    """A few uncommitted, staged, deleted and untracked files."""
    src = root / "packages" / "pkg00" / "src"
    for i in range(5):
        target = src / "feature0" / f"Component{i}" / f"Component{i}.tsx"
        target.write_text(target.read_text() + "// uncommitted change\n")
        (src / "feature1" / f"New{i}.test.tsx").write_text("it('untracked', () => {});\n")
    (src / "feature2" / "Component0" / "Component0.ts").unlink()
    staged = src / "feature3" / "Staged.ts"
    staged.write_text("export const staged = true;\n")
    git(root, "add", str(staged.relative_to(root)))


def bench(
    name: str, project: Path, base: Path, runs: int, warmup: int, overlay: str | None
) -> Result:
    result = Result(name=name, files=count_files(project))
    buffers = {overlay: "// unsaved editor buffer\n"} if overlay else None
    for index in range(warmup + runs):
        started = time.perf_counter()
        ws = create_shadow_workspace(project, base_dir=base, overlays=buffers)
        ready = time.perf_counter()
        ws.remove()
        done = time.perf_counter()
        result.kind = ws.kind
        if index >= warmup:
            result.setup.append(ready - started)
            result.teardown.append(done - ready)
    return result


def fmt(values: list[float]) -> str:
    if not values:
        return "-"
    return f"{statistics.median(values):7.3f} {min(values):7.3f} {max(values):7.3f}"


def print_table(results: list[Result], runs: int) -> None:
    header = (
        f"{'case':<28} {'kind':<13} {'files':>6}  "
        f"{'setup s (median   min     max)':<30} {'teardown s (median min max)':<28}"
    )
    print()
    print(f"shadow workspace setup/teardown, {runs} run(s) each, after a warm-up run")
    print(header)
    print("-" * len(header))
    for r in results:
        if r.note and not r.setup:
            print(f"{r.name:<28} {r.note}")
            continue
        print(
            f"{r.name:<28} {r.kind:<13} {r.files:>6}  {fmt(r.setup):<30} {fmt(r.teardown):<28}"
            + (f"  {r.note}" if r.note else "")
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="measured runs per case")
    parser.add_argument("--warmup", type=int, default=1, help="unmeasured runs first")
    parser.add_argument("--files", type=int, default=20_000, help="tracked files to generate")
    parser.add_argument("--base-dir", type=Path, help="where workspaces go (default: a temp dir)")
    parser.add_argument("--skip-generated", action="store_true", help="only the example app")
    args = parser.parse_args(argv)

    results: list[Result] = []
    scratch = Path(tempfile.mkdtemp(prefix="testmend-bench-"))
    base = (args.base_dir or scratch / "workspaces").resolve()
    base.mkdir(parents=True, exist_ok=True)
    try:
        # (a) the example app, as it is
        if (EXAMPLE_APP / "package.json").is_file():
            res = bench("example app (as is)", EXAMPLE_APP, base, args.runs, args.warmup, None)
            linked = (EXAMPLE_APP / "node_modules").is_dir()
            res.note = "node_modules linked" if linked else "no node_modules"
            results.append(res)
            # (a') the example app committed in a scratch monorepo
            mono = scratch / "example-mono"
            app = mono / "examples" / "react-app"
            shutil.copytree(
                EXAMPLE_APP,
                app,
                symlinks=True,
                ignore=shutil.ignore_patterns("node_modules", "coverage", ".testmend"),
            )
            (mono / ".gitignore").write_text("node_modules\n")
            git(mono, "init", "-q")
            git(mono, "add", "-A")
            git(mono, "commit", "-q", "-m", "example")
            if (EXAMPLE_APP / "node_modules").is_dir():
                (app / "node_modules").symlink_to(EXAMPLE_APP / "node_modules")
            overlay = next(
                (
                    p.relative_to(app).as_posix()
                    for p in sorted(app.rglob("*.test.[jt]s*"))
                    if "node_modules" not in p.parts
                ),
                None,
            )
            results.append(bench("example app (git)", app, base, args.runs, args.warmup, overlay))
        else:
            results.append(Result("example app", note=f"skipped: {EXAMPLE_APP} is missing"))

        if not args.skip_generated:
            # (b) a generated repository
            gen = scratch / "generated"
            print(f"generating {args.files} files in {gen} ...", flush=True)
            t0 = time.perf_counter()
            generate_tree(gen, args.files)
            git(gen, "init", "-q")
            git(gen, "add", "-A")
            git(gen, "commit", "-q", "-m", "generated")
            dirty_tree(gen)
            print(f"generated and committed in {time.perf_counter() - t0:.1f} s", flush=True)
            overlay = "packages/pkg00/src/feature0/Component0/Component0.test.tsx"
            res = bench("generated repo", gen, base, args.runs, args.warmup, overlay)
            res.files = int(subprocess.check_output(["git", "ls-files"], cwd=gen).count(b"\n"))
            res.note = "tracked files"
            results.append(res)
            sub = gen / "packages" / "pkg00"
            results.append(
                bench(
                    "generated repo, one package",
                    sub,
                    base,
                    args.runs,
                    args.warmup,
                    "src/feature0/Component0/Component0.test.tsx",
                )
            )
            # (c) the same tree without git: the filtered copy
            shutil.rmtree(gen / ".git")
            res = bench("generated tree, no git", gen, base, args.runs, args.warmup, overlay)
            results.append(res)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
        if args.base_dir is not None:
            leftovers = list(base.glob("run-*"))
            if leftovers:
                print(f"warning: left behind {leftovers}", file=sys.stderr)

    print_table(results, args.runs)
    for r in results:
        if r.name.startswith("example app") and r.setup:
            median = statistics.median(r.setup)
            verdict = "OK" if median < TARGET_SECONDS else "OVER TARGET"
            target = f"target < {TARGET_SECONDS:g} s"
            print(f"{r.name}: median setup {median:.3f} s ({target}): {verdict}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
