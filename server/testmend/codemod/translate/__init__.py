"""The parts of the Enzyme → RTL converter (``codemod.convert``), one concern per module. Each
is a class built on the one below it, so a part calls only itself and the parts below:

1. ``state.py`` — the parsed file, edits and notes so far (``ConverterState``)
2. ``imports.py`` — Enzyme imports, the project's helpers, other imports, tests (``ImportScanner``)
3. ``bindings.py`` — the variables holding wrappers (``WrapperBindings``)
4. ``scan.py`` — render calls, wrapper bindings, setup functions returning them (``Scanner``)
5. ``class_refs.py`` — refs to rendered class instances (``ClassRefs``)
6. ``render_calls.py`` — the ``render`` calls that replace Enzyme's (``RenderCalls``)
7. ``chains.py`` — ``base.find(a).at(1).text()`` read into a base and operations (``Chains``)
8. ``captured.py`` — the DOM capture's verified queries for a selection (``CapturedQueries``)
9. ``target_code.py`` — the code that reads a target (``TargetCode``)
10. ``targets.py`` — selectors and chains → targets (``Targets``)
11. ``recording.py`` — recording stubs for children's props (``Recordings``)
12. ``settable.py`` — the file's render helpers that return a ``setProps`` (``SettableRenders``)
13. ``helper_roots.py`` — ``setProps`` on the root a project helper mounts (``HelperRoots``)
14. ``earlier_renders.py`` — renders Enzyme's next wrapper hid, unmounted (``EarlierRenders``)
15. ``rerender.py`` — ``setProps`` → ``rerender`` (``Rerenders``)
16. ``awaiting.py`` — functions made async where a user-event call is awaited (``Awaiting``)
17. ``events.py`` — simulated events and called handlers as user events (``Events``)
18. ``interactions.py`` — ``simulate``, class internals, helpers taking a wrapper (``Interactions``)
19. ``prop_assertions.py`` — assertions on props and attributes (``PropAssertions``)
20. ``assertions.py`` — ``expect(…)`` on wrappers (``Assertions``)
21. ``statements.py`` — the walk over statements (``Statements``)
22. ``finishing.py`` — unused bindings, wrapper types, the imports (``Finishing``)

Beside the chain: ``tables.py`` (Enzyme's methods, events, roles: data) and
``helper_modules.py`` (selection helpers the tests' own modules export).
"""
