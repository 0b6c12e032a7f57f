"""The codemod's tables: Enzyme modules and methods, events, implicit roles, attribute queries."""

from __future__ import annotations

import re

SNAPSHOT_NOTE = "the snapshot now records the DOM; re-record it (jest -u)"
"""The note on a root snapshot; a run that records the snapshot itself drops it (the new
snapshot travels with the test)."""

NO_ROOT_NOTE = (
    "the render produced nothing here (the DOM capture saw it): a class its root lacks is "
    "checked as an empty render, since Testing Library has no root element to ask"
)
"""The note on a negated class check of a root that rendered nothing."""


ENZYME_MODULE = re.compile(
    r"^(enzyme|enzyme-adapter-[\w-]+|@[\w.-]+/enzyme-adapter-[\w-]+|enzyme-to-json(/.*)?|"
    r"jest-enzyme|chai-enzyme|enzyme-matchers)$"
)
WRAPPER_TYPES = {"ReactWrapper", "ShallowWrapper", "CommonWrapper", "RenderWrapper"}
DISABLEABLE_TAGS = frozenset(
    {"button", "input", "select", "textarea", "optgroup", "option", "fieldset"}
)
"""Elements with a disabled state of their own (``toBeDisabled`` reads it)."""
NAMES = ("identifier", "shorthand_property_identifier")
"""A name read as a value: an identifier, or a shorthand property (``{ wrapper }``)."""
TEST_FUNCS = {"it", "test", "fit", "xit", "xtest"}
DESCRIBE_FUNCS = {"describe", "fdescribe", "xdescribe"}
HOOKS = {"beforeEach", "afterEach", "beforeAll", "afterAll"}
SELECT_OPS = {
    "find",
    "at",
    "first",
    "last",
    "hostNodes",
    "dive",
    "shallow",
    "filter",
    "children",
    "childAt",
    "parent",
    "parents",
    "closest",
    "findWhere",
    "filterWhere",
    "not",
    "slice",
}
READ_OPS = {"prop", "props", "text", "html", "exists", "hasClass", "isEmptyRender"}
"""What a helper may read of the selection it made (and property reads, ``.length``): its
call reads as the same chain written inline."""
UNTRANSLATABLE = {
    "state": "reads component state (state()); assert on what the user sees instead",
    "setState": "sets component state (setState()); drive the component through its UI instead",
    "instance": "calls the component instance (instance()); drive it through its UI instead",
    "context": "reads the component context (context())",
    "invoke": "calls a prop directly (invoke()); fire the matching user event instead",
    "renderProp": "calls a render prop directly (renderProp())",
    "contains": "checks for a React element (contains()); assert on the rendered DOM instead",
    "containsMatchingElement": "checks for a React element (containsMatchingElement()); "
    "assert on the rendered DOM instead",
    "containsAllMatchingElements": "checks for React elements; assert on the DOM instead",
    "containsAnyMatchingElements": "checks for React elements; assert on the DOM instead",
    "matchesElement": "compares against a React element (matchesElement())",
    "equals": "compares against a React element (equals())",
    "getElement": "reads the React element tree (getElement())",
    "getElements": "reads the React element tree (getElements())",
    "name": "reads the rendered component or tag name (name())",
    "type": "reads the rendered component type (type())",
    "key": "reads a React key (key())",
    "mount": "remounts the wrapper (mount())",
    "setContext": "sets React context (setContext())",
}
EVENTS = {
    "click": "click",
    "dblclick": "dblClick",
    "doubleclick": "dblClick",
    "change": "change",
    "input": "input",
    "submit": "submit",
    "focus": "focus",
    "blur": "blur",
    "keydown": "keyDown",
    "keyup": "keyUp",
    "keypress": "keyPress",
    "mouseenter": "mouseEnter",
    "mouseleave": "mouseLeave",
    "mousedown": "mouseDown",
    "mouseup": "mouseUp",
    "mouseover": "mouseOver",
    "mouseout": "mouseOut",
    "mousemove": "mouseMove",
    "contextmenu": "contextMenu",
    "scroll": "scroll",
    "wheel": "wheel",
    "touchstart": "touchStart",
    "touchend": "touchEnd",
    "touchmove": "touchMove",
    "paste": "paste",
    "copy": "copy",
    "cut": "cut",
    "select": "select",
    "load": "load",
    "error": "error",
    "focusin": "focusIn",
    "focusout": "focusOut",
    "drag": "drag",
    "dragstart": "dragStart",
    "dragend": "dragEnd",
    "drop": "drop",
    "dragover": "dragOver",
    "dragenter": "dragEnter",
    "dragleave": "dragLeave",
    "transitionend": "transitionEnd",
    "animationend": "animationEnd",
    "reset": "reset",
    "invalid": "invalid",
    "pointerdown": "pointerDown",
    "pointerup": "pointerUp",
}
EVENT_METHODS = ("preventDefault", "stopPropagation", "stopImmediatePropagation")
"""Event methods tests replace with mocks in ``simulate(name, {…})``."""
# Tags with an implicit ARIA role (only those whose role does not depend on attributes or
# context), used when no DOM capture is available.
TAG_ROLES = {
    "button": "button",
    "ul": "list",
    "ol": "list",
    "li": "listitem",
    "nav": "navigation",
    "table": "table",
    "tr": "row",
    "textarea": "textbox",
    "select": "combobox",
    "progress": "progressbar",
    "dialog": "dialog",
    "main": "main",
    "article": "article",
    "h1": "heading",
    "h2": "heading",
    "h3": "heading",
    "h4": "heading",
    "h5": "heading",
    "h6": "heading",
    "hr": "separator",
    "output": "status",
    "fieldset": "group",
}
INPUT_ROLES = {
    "checkbox": "checkbox",
    "radio": "radio",
    "text": "textbox",
    "email": "textbox",
    "search": "searchbox",
    "number": "spinbutton",
    "range": "slider",
    "submit": "button",
    "button": "button",
    "tel": "textbox",
    "url": "textbox",
}
ATTRIBUTE_QUERIES = {
    "data-testid": "TestId",
    "placeholder": "PlaceholderText",
    "title": "Title",
    "alt": "AltText",
    "aria-label": "LabelText",
}
PROP_ATTRIBUTES = {
    "className": "class",
    "htmlFor": "for",
    "tabIndex": "tabindex",
    "readOnly": "readonly",
    "maxLength": "maxlength",
    "autoComplete": "autocomplete",
    "autoFocus": "autofocus",
}
# SVG props React writes as hyphenated attributes (ReactDOM's list): strokeLinecap →
# stroke-linecap, shapeRendering → shape-rendering.
SVG_HYPHENATED = frozenset(
    [
        "accent-height",
        "alignment-baseline",
        "arabic-form",
        "baseline-shift",
        "cap-height",
        "clip-path",
        "clip-rule",
        "color-interpolation",
        "color-interpolation-filters",
        "color-profile",
        "color-rendering",
        "dominant-baseline",
        "enable-background",
        "fill-opacity",
        "fill-rule",
        "flood-color",
        "flood-opacity",
        "font-family",
        "font-size",
        "font-size-adjust",
        "font-stretch",
        "font-style",
        "font-variant",
        "font-weight",
        "glyph-name",
        "glyph-orientation-horizontal",
        "glyph-orientation-vertical",
        "horiz-adv-x",
        "horiz-origin-x",
        "image-rendering",
        "letter-spacing",
        "lighting-color",
        "marker-end",
        "marker-mid",
        "marker-start",
        "overline-position",
        "overline-thickness",
        "paint-order",
        "panose-1",
        "pointer-events",
        "rendering-intent",
        "shape-rendering",
        "stop-color",
        "stop-opacity",
        "strikethrough-position",
        "strikethrough-thickness",
        "stroke-dasharray",
        "stroke-dashoffset",
        "stroke-linecap",
        "stroke-linejoin",
        "stroke-miterlimit",
        "stroke-opacity",
        "stroke-width",
        "text-anchor",
        "text-decoration",
        "text-rendering",
        "underline-position",
        "underline-thickness",
        "unicode-bidi",
        "unicode-range",
        "units-per-em",
        "v-alphabetic",
        "v-hanging",
        "v-ideographic",
        "v-mathematical",
        "vector-effect",
        "vert-adv-y",
        "vert-origin-x",
        "vert-origin-y",
        "word-spacing",
        "writing-mode",
        "x-height",
    ]
)
# SVG props React writes unchanged, in camelCase (attribute names are case-insensitive on
# the HTML elements a root render makes, and exact inside <svg>).
SVG_CAMEL = frozenset(
    [
        "viewBox",
        "preserveAspectRatio",
        "gradientTransform",
        "gradientUnits",
        "patternUnits",
        "patternContentUnits",
        "patternTransform",
        "markerWidth",
        "markerHeight",
        "markerUnits",
        "refX",
        "refY",
        "textLength",
        "lengthAdjust",
        "startOffset",
        "stdDeviation",
        "pathLength",
        "spreadMethod",
        "clipPathUnits",
        "maskUnits",
        "maskContentUnits",
        "filterUnits",
        "primitiveUnits",
        "baseFrequency",
        "numOctaves",
        "kernelMatrix",
        "surfaceScale",
        "specularExponent",
        "tableValues",
        "xChannelSelector",
        "yChannelSelector",
    ]
)
# Elements that only exist inside <svg>: a component rendering one of them at its root needs an
# <svg> around it in a real DOM (outside one, React makes an unknown HTML element and warns).
SVG_ONLY_TAGS = frozenset(
    [
        "g",
        "path",
        "line",
        "rect",
        "circle",
        "ellipse",
        "polygon",
        "polyline",
        "text",
        "tspan",
        "textpath",
        "defs",
        "clippath",
        "lineargradient",
        "radialgradient",
        "stop",
        "pattern",
        "mask",
        "marker",
        "symbol",
        "use",
        "image",
        "foreignobject",
        "filter",
        "desc",
        "animate",
        "animatetransform",
        "animatemotion",
    ]
)


def is_svg_only_tag(tag: str) -> bool:
    tag = tag.lower()
    return tag in SVG_ONLY_TAGS or (tag.startswith("fe") and len(tag) > 2)


FORM_CONTROLS = {
    "input": "HTMLInputElement",
    "textarea": "HTMLTextAreaElement",
    "select": "HTMLSelectElement",
}
"""The elements whose ``value`` React sets as a property, and their DOM types."""
BOOLEAN_ATTRIBUTES = {"required", "readonly", "multiple", "hidden", "open", "selected"}
DOM_STATE_PROPS = {
    "checked": "HTMLInputElement",
    "disabled": "HTMLInputElement",
    "readOnly": "HTMLInputElement",
    "required": "HTMLInputElement",
    "multiple": "HTMLSelectElement",
    "selected": "HTMLOptionElement",
}
"""Boolean props React sets as the element's properties, and the element type that has them."""
LAST = -1
"""The index ``last()`` selects, until the capture's count says which element that is."""
# Preference of captured queries when the assertion reads the element's text: a query that
# does not itself contain the asserted text keeps the assertion meaningful.
# The options of a role query that filter by an ARIA state (capture_setup.js' ROLE_STATES).
STATE_OPTIONS = frozenset({"selected", "checked", "pressed", "expanded", "current"})

TEXT_CONTEXT_ORDER = [
    "TestId",
    "LabelText",
    "PlaceholderText",
    "Role-",
    "Title",
    "AltText",
    "Role",
    "DisplayValue",
    "Text",
]
THROW = "throw new Error('testmend: untranslated Enzyme code (see the // testmend: comments)');"
