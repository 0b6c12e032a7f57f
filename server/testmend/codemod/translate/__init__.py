"""The parts of the Enzyme → RTL converter (``codemod.convert``), one concern per module,
each class building on the one below: state → scan → targets → interactions → assertions →
statements → finishing."""
