"""What one run holds while its graph runs, and gives back in the reverse order, whatever
happens: a workspace (a warm slot or a new shadow copy), the sandbox its commands run in, and
the project's runners (with the kept results and, in a warm slot, the jest a run before left
running). One ``AsyncExitStack`` holds them."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path

from ..config import Config
from ..runners import ProjectRunners
from ..runners.kept import KeptResults, ResultCache
from ..runners.warm import KeptWarmJests
from ..sandbox import Sandbox, SandboxChoice, sandbox_for
from ..workspace.pool import acquire_workspace_async
from ..workspace.shadow import ShadowWorkspace

RunnersFactory = Callable[[Config, Path, Sandbox], ProjectRunners]


@dataclass
class RunResources:
    workspace: ShadowWorkspace
    sandbox: Sandbox
    runners: ProjectRunners
    kept_originals: KeptResults | None
    """The original test's runs kept across runs (``workspace.keepOriginalResults``)."""


@dataclass
class ResourceSource:
    """Where a run's resources come from: the engine's configuration and what it shares
    between runs (the results cache, the jests kept running in warm slots)."""

    config: Config
    project_root: Path
    workspaces_dir: Path | None
    sandbox_choice: SandboxChoice
    runners_factory: RunnersFactory
    results_cache: Path
    kept_jests: KeptWarmJests

    def _sandbox(self, workspace: ShadowWorkspace) -> Sandbox:
        """Writable: the workspace's checkout and its temp dir (a run's own, or a warm slot's)."""
        return sandbox_for(
            self.config,
            workspace.root,
            writable=[workspace.tree or workspace.root],
            temp_dir=workspace.container / "tmp",
            repo_root=workspace.repo_root,
            choice=self.sandbox_choice,
        )

    def _kept_results(
        self, workspace: ShadowWorkspace, runners: ProjectRunners, enabled: bool
    ) -> KeptResults | None:
        """Where results are kept across runs (a git workspace only: its state is known from
        git): the original test's runs, and eslint's and tsc's results (``enabled``: the
        setting of the one or the other)."""
        if not enabled or workspace.kind != "git-worktree":
            return None
        return KeptResults(
            ResultCache(self.results_cache),
            workspace_root=workspace.root,
            tools=runners.identity(),
            linked=workspace.link_targets,
        )

    @contextlib.asynccontextmanager
    async def open(self, run_id: str, file: str, original: str) -> AsyncIterator[RunResources]:
        """The run's workspace (``file`` holding ``original``), sandbox and runners; each is
        given back when the block ends, the last taken first."""
        async with contextlib.AsyncExitStack() as stack:
            workspace = await acquire_workspace_async(
                self.project_root,
                run_id=run_id,
                slots=self.config.workspace.warm_slots,
                overlays={file: original},
                base_dir=self.workspaces_dir,
            )
            stack.push_async_callback(asyncio.to_thread, workspace.release)
            sandbox = self._sandbox(workspace)
            stack.push_async_callback(sandbox.aclose)
            runners = self.runners_factory(self.config, workspace.root, sandbox)
            keep_key = runners.warm_key() if workspace.pooled and self.kept_jests.keeps else None
            stack.push_async_callback(self._give_back, runners, keep_key)
            runners.keep_checks_in(
                self._kept_results(workspace, runners, self.config.workspace.keep_check_results)
            )
            if keep_key is not None and (kept := self.kept_jests.take(keep_key)) is not None:
                runners.adopt_warm(kept)
            yield RunResources(
                workspace,
                sandbox,
                runners,
                self._kept_results(workspace, runners, self.config.workspace.keep_original_results),
            )

    async def _give_back(self, runners: ProjectRunners, keep_key: object | None) -> None:
        """The runners closed; a warm slot's jest stays up for the slot's next run
        (``keep_key``: what a later run must match to be handed it)."""
        warm = runners.release_warm() if keep_key is not None else None
        await runners.aclose()
        if warm is not None:
            self.kept_jests.give_back(keep_key, warm)
