"""Components a shallow render holds inside a group that gives them attributes through context,
under the example app's real jest. react-bootstrap's ``Form.Group controlId`` becomes its
``Form.Label``'s ``for`` and its ``Form.Control``'s ``id`` (addons-code-manager's
``VersionSelect``); UI kits' form-control contexts do the same with ids and ``aria-*``. The
capture finds such a component's node in the render's HTML by rendering it alone, where the
context is missing: it is still the one element with its tag, content and attributes, plus
only those a context gives."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.codemod import broken_tests, migrate, write_components

SOURCES = {
    "Field.tsx": """
        import { createContext, ReactNode, useContext } from 'react';

        const FieldContext = createContext<{ controlId?: string }>({});

        export function Field({ controlId, children }: { controlId: string; children: ReactNode }) {
          return (
            <FieldContext.Provider value={{ controlId }}>
              <div className="field">{children}</div>
            </FieldContext.Provider>
          );
        }

        export function FieldLabel({ children }: { children: ReactNode }) {
          const { controlId } = useContext(FieldContext);
          return <label htmlFor={controlId}>{children}</label>;
        }

        export function FieldInput(props: {
          value: string;
          onChange: (event: { target: { value: string } }) => void;
        }) {
          const { controlId } = useContext(FieldContext);
          return <input id={controlId} className="field__input" {...props} />;
        }
    """,
    "Search.tsx": """
        import { Field, FieldInput, FieldLabel } from './Field';

        export interface SearchProps {
          query: string;
          onSearch: (query: string) => void;
        }

        export function Search({ query, onSearch }: SearchProps) {
          return (
            <Field controlId="search-query">
              <FieldLabel>Query</FieldLabel>
              <FieldInput value={query} onChange={(event) => onSearch(event.target.value)} />
            </Field>
          );
        }
    """,
}

SUITE = """
import { shallow } from 'enzyme';
import { FieldInput, FieldLabel } from './Field';
import { Search } from './Search';

describe('Search', () => {
  const render = (query = 'cats', onSearch = jest.fn()) =>
    shallow(<Search query={query} onSearch={onSearch} />);

  it('labels its input', () => {
    const root = render();
    expect(root.find(FieldLabel)).toHaveLength(1);
    expect(root.find(FieldLabel).text()).toBe('Query');
  });

  it('shows the query', () => {
    const root = render('dogs');
    expect(root.find(FieldInput).prop('value')).toBe('dogs');
  });

  it('searches what is typed', () => {
    const onSearch = jest.fn();
    const root = render('cats', onSearch);
    root.find(FieldInput).simulate('change', { target: { value: 'birds' } });
    expect(onSearch).toHaveBeenCalledWith('birds');
  });
});
"""


@pytest.fixture
def search(app_copy: Path) -> Path:
    return write_components(app_copy / "src/components/Search", SOURCES)


async def test_components_given_ids_by_their_group_are_queried_as_they_render_in_it(
    app_copy: Path, search: Path
) -> None:
    file = "src/components/Search/Search.test.tsx"
    content = await migrate(app_copy, file, SUITE)
    # The label is found by its text, the input by the name its group's label gives it.
    assert "expect(screen.getAllByText('Query')).toHaveLength(1);" in content, content
    textbox = "screen.getByRole('textbox', { name: 'Query' })"
    typed = content.split("searches what is typed")[1]
    # Typed key by key, an input the test controls with a mock keeps 'cats' under each
    # keystroke: the test that failed so is converted again with the change fired at once.
    assert f"fireEvent.change({textbox}, {{ target: {{ value: 'birds' }} }});" in typed, content
    assert "querySelector" not in content, content

    # An input that ignores what is typed fails the test that types, only it.
    failing = await broken_tests(
        app_copy,
        file,
        search / "Search.tsx",
        "onChange={(event) => onSearch(event.target.value)}",
        "onChange={() => onSearch(query)}",
    )
    assert failing == ["Search searches what is typed"], failing
