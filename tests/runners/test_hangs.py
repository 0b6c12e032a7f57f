"""A test that never finishes is named after one run at the timeout, not retried: the probe
(``runners/hangs.py``) tells which test started and never ended."""

from __future__ import annotations

from pathlib import Path

import pytest

from testmend.runners import HangingTestError
from testmend.runners.hangs import stuck
from tests.support.runners import runners_for, write

HANGING = """
import React from 'react';

describe('Clock', () => {
  it('ticks', () => {
    expect(1 + 1).toBe(2);
  });

  it('spins forever', () => {
    while (true) {
      // a bug: the loop never ends
    }
  });

  it('never runs', () => {
    expect(true).toBe(true);
  });
});
"""


async def test_a_test_stuck_in_a_loop_is_named(example_copy: Path) -> None:
    file = write(example_copy, "src/components/Clock/Clock.test.tsx", HANGING)
    runners = runners_for(example_copy, timeouts={"test": 15})
    with pytest.raises(HangingTestError) as raised:
        await runners.run_tests(file)
    assert raised.value.tests == ["Clock spins forever"]
    assert "the test 'Clock spins forever' never finished" in raised.value.message
    assert "timeouts.test" in raised.value.hint
    # The probe's files are gone.
    assert not [p for p in example_copy.iterdir() if p.name.startswith(".testmend-probe")]


def test_the_probe_lines_give_the_tests_that_started_and_did_not_end() -> None:
    lines = "start\tA one\nend\tA one\nstart\tA two\nstart\tA two\nend\tA two\nstart\t\n"
    assert stuck(lines) == ["A two", "(a hook outside any test)"]
    assert stuck("") == []


async def test_the_dom_capture_names_the_hanging_test_from_its_own_run(example_copy: Path) -> None:
    """Research's run of the original carries the probe's marks: the test is named from that run
    (no probe run after it), and the capture says the file hangs."""
    from testmend.codemod.capture import capture_dom

    source = HANGING.replace("import React from 'react';", "import React from 'react';\n"
                             "import { mount } from 'enzyme';")  # fmt: skip
    file = write(example_copy, "src/components/Clock/Clock.test.tsx", source)
    runners = runners_for(example_copy, timeouts={"test": 15})
    capture = await capture_dom(runners, file, workspace_root=example_copy)
    assert capture.hangs
    assert capture.error is not None
    assert "the test 'Clock spins forever' never finished" in capture.error
    assert not [p for p in example_copy.iterdir() if p.name.startswith(".testmend-")]
