"""Mutants from the syntax tree, and the schemata file that holds them all behind switches."""

from __future__ import annotations

from itertools import pairwise

from testmend.fidelity.mutants import (
    asserted_classes,
    body_name,
    copy_name,
    generate_mutants,
    mutated_source,
    schemata_source,
)
from testmend.js_syntax import parse

COMPONENT = """\
'use client';
import { useState } from 'react';
import './Stepper.css';

type Limit = 1 | 2;
enum Mode { Fast = 3 }

export function Stepper({ max, onDone }: { max: number; onDone: () => void }) {
  const [count, setCount] = useState(0);
  const next = () => {
    if (count + 1 >= max) {
      onDone();
    }
    setCount(count + 1);
  };
  console.log('rendering the stepper', 1);
  return (
    <div className={count > 0 ? 'stepper stepper--active' : 'stepper'}>
      <button type="button" onClick={next} disabled={count === max}>
        Next step
      </button>
      <p>{count === max ? 'All done here' : `Step ${count}`}</p>
    </div>
  );
}
"""
PATH = "src/Stepper.tsx"


def test_mutants_cover_the_operators_and_spare_types_imports_and_logs() -> None:
    mutants = generate_mutants(COMPONENT, PATH, 50, classes={"stepper--active"})
    operators = {m.operator for m in mutants}
    assert {
        "comparison",
        "arithmetic",
        "number",
        "negate-condition",
        "remove-call",
        "remove-handler",
        "jsx-text",
        "string",
        "class-name",
    } <= operators
    lines = {m.line for m in mutants}
    assert not lines & {1, 2, 3, 5, 6, 16}  # directive, imports, types, enum, console.log
    by_text = {(m.original, m.replacement) for m in mutants}
    assert ("count + 1 >= max", "count + 1 > max") in by_text
    assert ("Next step", "next step") in by_text
    assert ("'stepper stepper--active'", "'stepper stepper--active-mutant'") in by_text
    # Ranges never overlap, so every mutant can sit behind its own switch.
    spans = sorted((m.start, m.end) for m in mutants)
    assert all(a_end <= b_start for (_, a_end), (b_start, _) in pairwise(spans))


def test_classes_a_test_only_selects_by_are_not_mutated() -> None:
    mutants = generate_mutants(COMPONENT, PATH, 50, classes=set())
    assert "class-name" not in {m.operator for m in mutants}
    assert asserted_classes(
        "expect(w.find('.stepper').hasClass('stepper--active')).toBe(true);"
        "expect(el).toHaveClass(\"done\"); w.find('.other')"
    ) == {"stepper--active", "done"}


def test_the_choice_is_bounded_deterministic_and_spread_over_operators() -> None:
    first = generate_mutants(COMPONENT, PATH, 5)
    assert first == generate_mutants(COMPONENT, PATH, 5)
    assert len(first) == 5
    assert len({m.operator for m in first}) == 5
    assert [m.id for m in generate_mutants(COMPONENT, PATH, 3, first_id=7)] == [7, 8, 9]
    assert generate_mutants("const broken = (;", PATH, 5) == []


def test_the_schemata_file_parses_and_switches_on_the_test_file_name() -> None:
    mutants = generate_mutants(COMPONENT, PATH, 50, classes={"stepper--active"})
    schemata = schemata_source(COMPONENT, PATH, mutants)
    assert not parse(schemata, PATH).root_node.has_error
    assert schemata.startswith("// @ts-nocheck\n'use client';")
    # The switches, the helper and the loop guard's own check.
    assert schemata.count("__testmendMutant(") == len(mutants) + 2
    assert "testmend-m(\\d+)-" in schemata


def test_one_mutant_alone_and_the_copies_names() -> None:
    [mutant] = [m for m in generate_mutants(COMPONENT, PATH, 50) if m.operator == "remove-call"][:1]
    alone = mutated_source(COMPONENT, mutant)
    assert mutant.original not in alone and not parse(alone, PATH).root_node.has_error
    assert copy_name("src/A.test.tsx", 3, "o") == "src/A.testmend-m3-o.test.tsx"
    assert copy_name("src/__tests__/A.tsx", 0, "c") == "src/__tests__/A.testmend-m0-c.tsx"
    assert copy_name("A.spec.js", 12, "c") == "A.testmend-m12-c.spec.js"
    # The copies import the original (o) or the candidate (c), written once beside them.
    assert body_name("src/A.test.tsx", "o") == "src/A.testmend-o.test.tsx"
    assert "testmend-m" not in body_name("A.spec.js", "c")


CLASSES_BUILT = """\
import classNames from 'classnames';

export function CardBody({ className, active, tag: Tag = 'div', ...attributes }) {
  const classes = classNames(className, 'card-body', { 'card-active': active });
  return <Tag {...attributes} className={classes} data-role="card-body" />;
}

export const Loader = ({ label }) => (
  <div className="rbt-loader spinner-border" role="status">{label}</div>
);
"""


def test_an_asserted_class_is_mutated_where_it_is_built_and_in_a_plain_attribute_string() -> None:
    """reactstrap builds every component's classes with ``classNames(…)`` before ``className``;
    a plain ``className="a b"`` is wrapped in braces in the schemata (JSX takes no parentheses
    there), an object's key becomes a computed key (typeahead's ``cx({ 'rbt-close-lg': … })``
    had a parenthesised key, a syntax error)."""
    path = "src/Card.jsx"
    classes = {"card-body", "card-active", "rbt-loader"}
    mutants = generate_mutants(CLASSES_BUILT, path, 20, classes=classes)
    renamed = {(m.original, m.replacement, m.kind) for m in mutants if m.operator == "class-name"}
    assert renamed == {
        ("'card-body'", "'card-body-mutant'", "expression"),
        ("'card-active'", "'card-active-mutant'", "property-key"),
        ('"rbt-loader spinner-border"', '"rbt-loader-mutant spinner-border"', "jsx-attribute"),
    }  # not the data-role attribute
    schemata = schemata_source(CLASSES_BUILT, path, mutants)
    assert not parse(schemata, path).root_node.has_error
    [key] = [m for m in mutants if m.kind == "property-key"]
    assert f"{{ [__testmendMutant({key.id}) ? 'card-active-mutant' : 'card-active']: active }}" in (
        schemata
    )
    [attribute] = [m for m in mutants if m.kind == "jsx-attribute"]
    assert (
        f'className={{__testmendMutant({attribute.id}) ? "rbt-loader-mutant spinner-border" '
        ': "rbt-loader spinner-border"}'
    ) in schemata
    alone = mutated_source(CLASSES_BUILT, attribute)
    assert 'className="rbt-loader-mutant spinner-border"' in alone


def test_the_helper_goes_after_the_leading_pragmas() -> None:
    """Babel parses Flow's call type arguments (``useRef<?HTMLElement>(null)``, typeahead's
    components) only when ``// @flow`` precedes the first token: the helper goes after it."""
    source = (
        "// @flow\n/* eslint-disable react/prop-types */\n\n"
        "import React, { useRef } from 'react';\n\n"
        "export const Item = ({ active }: { active: boolean }) => {\n"
        "  const ref = useRef<?HTMLElement>(null);\n"
        "  return active ? <li ref={ref} /> : null;\n};\n"
    )
    path = "src/components/Item.js"
    mutants = generate_mutants(source, path, 5)
    assert mutants  # the TSX reading of a Flow file finds the sites
    schemata = schemata_source(source, path, mutants)
    assert schemata.startswith(
        "// @ts-nocheck\n// @flow\n/* eslint-disable react/prop-types */\n"
        "function __testmendMutant("
    )


LOOPING = """\
export function Highlighter({ children, search }) {
  const parts = [];
  let remaining = children;
  while (remaining) {
    const start = remaining.indexOf(search);
    if (start < 0) break;
    parts.push(<mark key={parts.length}>{search}</mark>);
    remaining = remaining.slice(start + search.length);
  }
  for (let i = 0; i < 2; i += 1) parts.push(<span key={i}>Padding text</span>);
  const seen = new Set();
  return <p onClick={() => { for (const part of parts) seen.add(part.key); }}>{parts}</p>;
}
"""


def test_every_loop_of_the_schemata_file_is_guarded_also_inside_a_switch() -> None:
    """A mutant can make a loop never end, which jest cannot stop: every loop body starts with
    the guard (a body that was one statement becomes a block), also a loop inside a mutated
    span (the handler a `remove-handler` mutant takes away), on its original side."""
    mutants = generate_mutants(LOOPING, "src/Highlighter.jsx", 100)
    handler = [m for m in mutants if m.operator == "remove-handler"]
    assert handler and "for (const part of parts)" in handler[0].original
    schemata = schemata_source(LOOPING, "src/Highlighter.jsx", mutants)
    assert not parse(schemata, "src/Highlighter.jsx").root_node.has_error
    assert (
        "while ((__testmendMutant(1) ? (!(remaining)) : (remaining))) { __testmendLoop();"
        in schemata
    )
    assert "{ __testmendLoop(); parts.push(<span" in schemata
    assert (
        "(__testmendMutant(9) ? (undefined) : (() => { "
        "for (const part of parts) { __testmendLoop(); seen.add(part.key); } }))"
    ) in schemata
    assert schemata.count("__testmendLoop();") == 3
