"""The review notes a recording stub writes above its ``jest.mock`` lines: why the child's
props are recorded, or why a child the shallow test never rendered is stubbed (or cannot be),
worded for one component or several."""

from __future__ import annotations

RECORDING_NOTE = (
    "Enzyme read the props that {names} received; the jest.mock below wraps {them} so "
    "each instance records its props, and {they} still render{s} as before. An assertion on "
    "what {they} render{s} would survive a refactor of those props"
)

COUNTING_NOTE = (
    "Enzyme counted the instances of {names}, and no capture shows what {they} render{s}; the "
    "jest.mock below wraps {them} so each mounted instance is recorded, and {they} still "
    "render{s} as before. An assertion on what {they} render{s} would survive a refactor"
)

RECORDING_STUBBED_NOTE = (
    "Enzyme read the props that {names} received; the jest.mock below wraps {them} so each "
    "instance records its props. An assertion on what {they} render{s} would survive a "
    "refactor of those props"
)
UNRENDERED_NOTE = (
    "The shallow test never rendered {names}; rendered, {they} need{s} what the test never "
    "set up ({error}). The jest.mock below stubs {them} to render only {their} children, as "
    "shallow left {them}; rendering inside the providers {they} need{s} would test what "
    "{they} render{s}"
)
UNSTUBBED_NOTE = (
    "The shallow test never rendered {names}; rendered, {they} need{s} what the test never "
    "set up ({error}). {They} cannot be stubbed ({why}): the tests rendering {them} fail "
    "until {they} get{s} it"
)


def listed(names: list[str]) -> dict[str, str]:
    """The words a note needs for ``names``: ``A, B and C`` and its pronouns and verb
    ending (``it renders`` / ``they render``)."""
    many = len(names) > 1
    return {
        "names": ", ".join(names[:-1]) + (" and " if many else "") + names[-1],
        "them": "them" if many else "it",
        "they": "they" if many else "it",
        "They": "They" if many else "It",
        "their": "their" if many else "its",
        "s": "" if many else "s",
    }
