"""The parts of the Enzyme → RTL converter (``codemod.convert``), one concern per module. Each
is a class built on the one below it, so a part calls only itself and the parts below:

1. ``state.py`` — the parsed file, edits and notes so far (``ConverterState``)
2. ``imports.py`` — Enzyme imports, the project's helpers, other imports, tests (``ImportScanner``)
3. ``scan.py`` — render calls, wrapper bindings, setup functions returning them (``Scanner``)
4. ``class_refs.py`` — refs to rendered class instances (``ClassRefs``)
5. ``render_calls.py`` — the ``render`` calls that replace Enzyme's (``RenderCalls``)
6. ``chains.py`` — ``base.find(a).at(1).text()`` read into a base and operations (``Chains``)
7. ``captured.py`` — the DOM capture's verified queries for a selection (``CapturedQueries``)
8. ``targets.py`` — selectors and chains → targets, and the code that reads them (``Targets``)
9. ``recording.py`` — recording stubs for children's props (``Recordings``)
10. ``rerender.py`` — ``setProps`` → ``rerender`` (``Rerenders``)
11. ``awaiting.py`` — functions made async where a user-event call is awaited (``Awaiting``)
12. ``interactions.py`` — ``simulate``, class internals, helpers taking a wrapper (``Interactions``)
13. ``assertions.py`` — ``expect(…)`` on wrappers (``Assertions``)
14. ``statements.py`` — the walk over statements (``Statements``)
15. ``finishing.py`` — unused bindings, wrapper types, the imports (``Finishing``)

Beside the chain: ``tables.py`` (Enzyme's methods, events, roles: data) and
``helper_modules.py`` (selection helpers the tests' own modules export).
"""
