"""The migration state: everything a run knows, checkpointed after every step.

Paths are relative to the project root. The candidate test file lives here (not only on disk in
the shadow workspace), so a run resumed in a new process and a new shadow workspace continues
from exactly the same content.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from ..fidelity.models import FidelityReport
from ..project.dependencies import DependencyNode, ImportInfo

Step = Literal["research", "planning", "migrate", "lint", "typescript", "review", "finish"]
STEPS: tuple[Step, ...] = (
    "research",
    "planning",
    "migrate",
    "lint",
    "typescript",
    "review",
    "finish",
)
RunStatus = Literal[
    "running",
    "finished",
    "succeeded",
    "needs_review",
    "partial",
    "discarded",
    "failed",
    "cancelled",
    "paused",
]
"""``finished``: the workflow is done and the engine's acceptance policy has not yet decided.
``partial``: a person chose to keep the best partial result; ``discarded``: to drop it."""
PlanAction = Literal["migrate", "delete", "keep", "add"]
Verdict = Literal["approved", "changes", "none", "checks"]
"""The review's: the reviewer approved, asked for changes, gave no verdict; or, offline and for
fix runs, the deterministic checks are the review."""
# Part of the state (and so of checkpoints), defined where the dependency tree is built.
STATE_IMPORTS = (DependencyNode, ImportInfo)


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class MockRequirement(_Model):
    module: str
    reason: str
    kind: Literal["module", "api", "timers", "context", "browser-api", "other"] = "module"


class DependencyTest(_Model):
    """A test of one of the dependencies: shows what is already covered elsewhere."""

    path: str
    covers: str


class ResearchContext(_Model):
    dependency_tree: list[DependencyNode] = []
    mocks_required: list[MockRequirement] = []
    mock_patterns: list[str] = []
    """``jest.mock(...)`` and similar lines found in the test and its neighbours."""
    coverage_from_dependencies: list[DependencyTest] = []
    example_tests: list[str] = []
    """Tests of the project that already use Testing Library: the style to imitate."""
    files_to_read: list[str] = []
    render_helper: str | None = None
    """The project's render helper, e.g. ``renderWithProviders from '@/test-utils'``."""
    rendered_html: dict[str, str] = {}
    """Per test (full name): the HTML the original test rendered."""
    scratchpad: list[str] = []
    """Notes the research agent wrote for the later agents."""
    component_under_test: str | None = None
    mutation_targets: list[str] = []
    """Source files the intent check mutates: the component under test, then the project's own
    modules it imports from its folder (hooks, reducers, validation)."""


class TestPlan(_Model):
    __test__ = False

    test_name: str
    """Full name: ``describe`` titles and the test title, space-separated (as jest reports)."""
    action: PlanAction
    gherkin: str | None = None
    """Given/When/Then for ``migrate`` and ``add``."""
    reason: str = ""
    fewer_assertions: str = ""
    """Why the migrated test may make fewer assertions than the original (empty: it may not)."""


class TrackedError(_Model):
    fingerprint: str
    step: Step
    message: str
    attempts: int = 0
    fixes_tried: list[str] = []
    status: Literal["active", "resolved"] = "active"
    kind: Literal["new", "active", "regressed"] = "new"


class StepAttempts(_Model):
    attempts: int = 0


class ErrorTracker(_Model):
    steps: dict[str, StepAttempts] = {}
    errors: dict[str, TrackedError] = {}
    ever_passed: list[str] = []
    """Tests that passed at some point: failing again later is a regression."""


class CandidateSnapshot(_Model):
    content: str
    passed: int
    total: int


class CheckMessage(_Model):
    """One message of the project's eslint or tsc about the candidate."""

    tool: Literal["eslint", "tsc"]
    rule: str | None
    """eslint's rule (None: a parse error), tsc's code (``TS2322``)."""
    severity: Literal["error", "warning", "message"]
    message: str
    line: int
    column: int
    end_line: int | None = None
    end_column: int | None = None


class CodemodFinding(_Model):
    """What the conversion says of a line of its result: left untranslated, kept as node access
    with what would make it queryable, an assertion on internals, … (``codemod.Note``)."""

    kind: str
    line: int
    message: str
    test: str | None = None


class Summary(_Model):
    """Counted from the result file (tests) and the last checks, never from the plans."""

    tests_created: int = 0
    tests_deleted: int = 0
    tests_migrated: int = 0
    tests_kept: int = 0
    patches_applied: int = 0
    errors_encountered: int = 0
    tokens_used: int = 0
    cost: float | None = None
    """US dollars, estimated from ``budget.prices`` (None: no price configured)."""
    tests_passing: int = 0
    tests_total: int = 0
    """The tests counted: all but those the result skips as the original file does."""
    lint_errors: int = 0
    type_errors: int = 0
    enzyme_free: bool = False
    fidelity: float | None = None
    """Mutants the result catches / mutants the original catches (None: not measured)."""
    mutants_caught_by_original: int = 0
    mutants_lost: int = 0
    findings: int = 0
    review: Verdict | None = None
    """The review's verdict (None: the run ended before its review)."""
    review_rounds: int = 0


class ReviewState(_Model):
    verdict: Verdict | None = None
    """None: not reviewed yet."""
    summary: str = ""
    """What the reviewer checked (approved), or why it gave no verdict."""
    findings: list[str] = []
    """The last review's findings: open unless a later round approves."""
    send_back: bool = False
    """The last review sent the result back to migrate (a round is left)."""
    rounds: int = 0
    """Times the result was sent back (at most ``retry.maxReviewRounds``)."""
    history: list[list[str]] = []
    """The findings of each round sent back, for the reviewer's next look."""


class ExitState(_Model):
    status: RunStatus = "running"
    completed_at: datetime | None = None
    failure_reason: str | None = None
    summary: Summary = Summary()
    left_to_do: list[str] = []
    """What a person (or a later run with a model) still has to do."""
    reasons: list[str] = []
    """Why the engine decided the status it did (filled by the acceptance policy)."""


class MigrationState(_Model):
    run_id: str
    test_file: str
    original_content: str
    mode: Literal["migrate", "fix"] = "migrate"
    research: ResearchContext | None = None
    test_plans: list[TestPlan] = []
    user_instructions: str | None = None
    current_step: Step = "research"
    start_node: Step = "research"
    candidate: str | None = None
    best_candidate: CandidateSnapshot | None = None
    successful_patches: int = 0
    error_tracker: ErrorTracker = ErrorTracker()
    tokens_by_step: dict[str, int] = Field(default_factory=dict)
    cost_by_step: dict[str, float] = Field(default_factory=dict)
    """US dollars, for the models with a price."""
    dom_capture: str | None = None
    """JSON of the DOM captured while the original test ran (codemod ``DomCapture``)."""
    tests_passing: int = 0
    tests_total: int = 0
    last_test_summary: str = ""
    codemod_left: list[str] = []
    lint_errors: int = 0
    lint_summary: str = ""
    lint_messages: list[CheckMessage] = []
    type_errors: int = 0
    type_summary: str = ""
    type_messages: list[CheckMessage] = []
    codemod_findings: list[CodemodFinding] = []
    """What the conversion noted (every kind, ``untranslated`` included)."""
    snapshot_file: str | None = None
    """The test's jest snapshot file, when its Enzyme snapshots must be recorded again."""
    support_files: list[str] = []
    """Modules the candidate imports that the run added (the recording helper): in
    ``extra_files``, put back into every workspace the run works in."""
    extra_files: dict[str, str | None] = {}
    """Other files the result changes (the re-recorded snapshot): content, or None = deleted."""
    extra_originals: dict[str, str | None] = {}
    """Those files as they were when the run started (None = did not exist)."""
    fidelity: FidelityReport | None = None
    """The last inventory and intent check of the candidate."""
    verify_tests: list[str] = []
    """Fix runs: the test files run before and after the fix (the file itself, or the tests
    that cover a source file)."""
    baseline_passing: dict[str, list[str]] = {}
    """Fix runs: per verified test file, the tests that passed before the fix."""
    user_choice: Literal["apply_partial", "discard"] | None = None
    """What a person answered at an escalation, when it decides the outcome."""
    step_results: dict[str, str] = {}
    """One line per finished step: what it did (for the report)."""
    review: ReviewState = ReviewState()
    exit: ExitState = ExitState()
    model_fallback: str | None = None
    """Why the model tier stopped before it produced a candidate, when the run went on with the
    deterministic tier (``model.fallback: codemod``)."""
    host: bool = False
    """A task whose migrate step the host's model does (the MCP face's ``begin_migration``): the
    step converts with the codemod and the run stops there, with that candidate for the brief;
    each ``submission`` then runs the step (its tests), lint, typescript and the review."""
    submission: str | None = None
    """The test file as the host submitted it last (a host task)."""
    submissions: int = 0
    """How many times the host submitted (a host task)."""


def review_left(review: ReviewState) -> list[str]:
    """What the reviewer left open: its findings after the last round, or no verdict."""
    if review.verdict == "changes":
        return [f"the reviewer: {finding}" for finding in review.findings]
    if review.verdict == "none":
        return [f"the reviewer gave no verdict ({review.summary})"]
    return []
