"""A render made at each turn of a loop inside a test (kubeapps' ``params.forEach((param) => {
const wrapper = shallow(…); … })``), under the example app's real jest. Each of Enzyme's wrappers
saw its own render alone; Testing Library's renders stay in the document until the test ends,
so the next turn's screen queries would find two. Each turn's render is unmounted at its end."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.codemod import migrated, write_components

SOURCES = {
    "Badge.tsx": """
        export function Badge({ count }: { count: number }) {
          return <span role="status">{`${count} new`}</span>;
        }
    """,
}

SUITE = """
import { mount } from 'enzyme';
import { Badge } from './Badge';

describe('Badge', () => {
  it('shows each count', () => {
    [1, 2].forEach((count) => {
      const wrapper = mount(<Badge count={count} />);
      expect(wrapper.find('span').text()).toBe(`${count} new`);
    });
  });

  it('shows each count of a list', () => {
    for (const count of [3, 4]) {
      const wrapper = mount(<Badge count={count} />);
      expect(wrapper.find('span').text()).toBe(`${count} new`);
    }
  });
});
"""


@pytest.fixture(scope="module")
def badge(app_copy: Path) -> Path:
    return write_components(app_copy / "src/components/Badge", SOURCES)


async def test_each_turns_render_is_unmounted_at_its_end(app_copy: Path, badge: Path) -> None:
    file = "src/components/Badge/Badge.test.tsx"
    result = await migrated(app_copy, file, SUITE)
    content = result.content
    assert content.count("const { unmount } = render(<Badge count={count} />);") == 2, content
    assert content.count("      unmount();\n    }") == 2, content
