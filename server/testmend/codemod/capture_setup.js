/* testmend DOM capture: injected into one jest run of an Enzyme test (setupFilesAfterEnv).
 *
 * For every enzyme find(...) call made from the test file it records the call site (line and
 * column from a stack trace), the host DOM elements matched and, for them, Testing Library
 * queries that return exactly those elements (verified by running them). It also records the
 * last rendered HTML of each test, and the root element's tag at every render call site. The
 * JSON is rewritten after every test, so a run that crashes or times out still leaves what it
 * captured. Nothing here changes what the test does.
 *
 * Longer than 600 lines: jest loads it as one setup file, copied into the workspace for one run;
 * its parts (the find hook, the query builder, the render records) share the run's state.
 */
/* eslint-disable */
'use strict';

const fs = require('fs');
const path = require('path');

const OUT = process.env.TESTMEND_CAPTURE_OUT;
const TEST_FILE = process.env.TESTMEND_CAPTURE_TEST_FILE || '';
const TEST_ID_ATTRIBUTE = process.env.TESTMEND_CAPTURE_TEST_ID || 'data-testid';
const MAX_RECORDS = 5000;
const MAX_HTML = 20000;

const state = { records: [], html: {}, renders: [], errors: [], user_event_ready: userEventReady() };

// Whether the test environment has what user-event 14 calls (jsdom 16 and later have both;
// jest 23's jsdom 11 has neither): where it does not, its calls throw in every test.
function userEventReady() {
  try {
    return (
      typeof document !== 'undefined' &&
      typeof document.getSelection === 'function' &&
      typeof Event !== 'undefined' &&
      typeof Event.prototype.composedPath === 'function'
    );
  } catch (e) {
    return null;
  }
}
const MAX_RENDERS = 2000;

function tryRequire(name, fromPaths) {
  try {
    return require(require.resolve(name, fromPaths ? { paths: fromPaths } : undefined));
  } catch (e) {
    return null;
  }
}

function note(message) {
  if (state.errors.length < 50) state.errors.push(String(message));
}

const enzyme = tryRequire('enzyme');
let dom = tryRequire('@testing-library/dom');
if (!dom) {
  try {
    const rtl = require.resolve('@testing-library/react');
    dom = tryRequire('@testing-library/dom', [path.dirname(rtl)]);
  } catch (e) {
    dom = null;
  }
}
let accessibleName = null;
if (dom) {
  try {
    const domPath = require.resolve('@testing-library/dom');
    const api = tryRequire('dom-accessibility-api', [path.dirname(domPath)]);
    accessibleName = api && api.computeAccessibleName;
  } catch (e) {
    accessibleName = null;
  }
}
if (!enzyme) note('enzyme could not be loaded');
if (!dom) note('@testing-library/dom could not be loaded: no query suggestions');

// Absence checks (`expect(wrapper.find('.error').exists()).toBe(false)`): the selector matched
// nothing here, so there is no element to ask for a query. Its queries where it did match
// (anywhere in the file) are candidates; one is kept when it finds nothing in what was rendered
// at this point either. The markup is kept until the file's records are all in.
const MAX_ABSENT = 300;
const absent = [];

function escapeRegex(value) {
  return value.replace(/[.*+\-?^${}()|[\]\\\/]/g, '\\$&');
}

// The queries (method and arguments) every list holds, in the first list's order.
function sharedQueries(lists) {
  const key = (q) => JSON.stringify([q.method, q.args]);
  const rest = lists.slice(1).map((list) => new Set(list.map(key)));
  const seen = new Set();
  return (lists[0] || [])
    .filter((q) => !seen.has(key(q)) && seen.add(key(q)) && rest.every((keys) => keys.has(key(q))))
    .map((q) => ({ method: q.method, args: q.args }));
}

function absenceCandidates(selector) {
  const positives = state.records.filter((r) => r.selector === selector && r.count > 0);
  if (!positives.length) return [];
  const out = sharedQueries(positives.map((r) => r.queries));
  if (!out.length && positives.every((r) => r.count === 1 && r.indexed && r.indexed.length)) {
    // One element no query selects alone: a query that selected it among a few others finds
    // nothing where it is gone with them (where those others remain, the check drops it).
    out.push(...sharedQueries(positives.map((r) => r.indexed)));
  }
  // One element whose name changes (Start, Pause, Resume): its role and any of those names.
  const named = positives.map((r) =>
    r.count === 1 ? r.queries.find((q) => q.method === 'Role' && q.args[1] && typeof q.args[1].name === 'string') : null,
  );
  if (named.every(Boolean) && new Set(named.map((q) => q.args[0])).size === 1) {
    const names = [...new Set(named.map((q) => q.args[1].name))];
    if (names.length > 1) {
      const source = '^(?:' + names.map(escapeRegex).join('|') + ')$';
      out.push({ method: 'Role', args: [named[0].args[0], { name: { $regex: source, flags: '' } }] });
    }
  }
  return out;
}

// Elements a role and a name can select; the inner queries try only those that have a query
// at all (an empty `role=""`, as kubeapps' grid columns carry, has none), and only the first few
// (each try runs Testing Library's queries over the whole document), among the first
// MAX_INNER_SCAN.
const NAMEABLE =
  'h1,h2,h3,h4,h5,h6,button,a[href],input,select,textarea,img[alt],[role]:not([role=""]),' +
  '[aria-label]:not([aria-label=""]),[aria-labelledby]:not([aria-labelledby=""])';
const MAX_INNER_TRIES = 3;
const MAX_INNER_SCAN = 30;
function namedRole(candidate) {
  return candidate.method === 'Role' && candidate.args[1] && typeof candidate.args[1].name === 'string';
}

// A container no query selects (a `div.user-menu`, a toolbar): its first descendant that a role
// and a name select exactly stands for it, since where the container is gone so is that element
// (and where the test asserts only that the container is there, that element shows it: a
// loading wrapper's spinner). Without one, its first descendant that its own text selects
// exactly (a status line: kubeapps' "No Workload Found").
function innerCandidates(el) {
  let tries = 0;
  for (const d of Array.from(el.querySelectorAll(NAMEABLE)).slice(0, MAX_INNER_SCAN)) {
    if (!candidates(d).some(namedRole)) continue;
    if (tries++ >= MAX_INNER_TRIES) break;
    const q = queriesFor([d]).find(namedRole);
    if (q) return [q];
  }
  tries = 0;
  for (const d of Array.from(el.querySelectorAll('*')).slice(0, MAX_INNER_SCAN)) {
    if (d.matches('script, style') || !ownText(d)) continue;
    if (tries++ >= MAX_INNER_TRIES) break;
    const q = queriesFor([d]).find((c) => c.method === 'Text');
    if (q) return [q];
  }
  return [];
}

// What each test rendered at each of its finds (distinct markup, the first few): where an
// absence check's selector did match, earlier in the same test or in another one. Not written
// out: only the absence checks read it.
const MAX_SNAPSHOTS = 12;
const snapshots = new Map();
function keepSnapshot(test, html) {
  const list = snapshots.get(test) || [];
  if (list.length < MAX_SNAPSHOTS && list[list.length - 1] !== html) list.push(html);
  snapshots.set(test, list);
}

// A CSS selector that never matched where a find used it: the elements it selects in what the
// file's tests rendered (this one earlier, the others), and the queries that select exactly
// those there (or, for one element no query selects, the query of the first element inside it
// that one does).
const MAX_SCOPES = 200;
let snapshotScopes = null;
function parsedSnapshots() {
  if (snapshotScopes) return snapshotScopes;
  snapshotScopes = [];
  const seen = new Set();
  for (const html of [...snapshots.values()].flat()) {
    if (seen.has(html) || snapshotScopes.length >= MAX_SCOPES) continue;
    seen.add(html);
    const scope = document.createElement('div');
    scope.innerHTML = html;
    snapshotScopes.push(scope);
  }
  return snapshotScopes;
}

const renderedMemo = new Map();
function renderedCandidates(selector) {
  if (renderedMemo.has(selector)) return renderedMemo.get(selector);
  const key = (q) => JSON.stringify([q.method, q.args]);
  let common = null;
  for (const scope of parsedSnapshots()) {
    let found;
    try {
      found = Array.from(scope.querySelectorAll(selector));
    } catch (e) {
      common = null;
      break; // Enzyme's own selector syntax, not CSS
    }
    if (!found.length) continue;
    let queries = queriesFor(found, selector);
    if (!queries.length && found.length === 1) queries = innerCandidates(found[0]);
    const keys = new Map(queries.map((q) => [key(q), q]));
    common = common === null ? keys : new Map([...common].filter(([k]) => keys.has(k)));
    if (!common.size) break;
  }
  const out = [...(common || new Map()).values()].map((q) => ({ method: q.method, args: q.args }));
  renderedMemo.set(selector, out);
  return out;
}

function resolveAbsent() {
  if (!dom || typeof document === 'undefined') return;
  for (const item of absent) {
    let candidates = absenceCandidates(item.entry.selector);
    if (!candidates.length && item.css) candidates = renderedCandidates(item.entry.selector);
    if (!candidates.length) continue;
    const scope = document.createElement('div');
    scope.innerHTML = item.html;
    item.entry.absent_queries = candidates
      .filter((c) => {
        const found = runQuery(scope, c.method, c.args);
        return found !== null && found.length === 0;
      })
      .map((c) => ({ method: c.method, args: c.args, all: false }));
  }
}

// After each test the records so far are written (a run that crashes or times out keeps them);
// the absence checks' queries are worked out once, at the end, from everything the file rendered.
function flush(final) {
  if (!OUT) return;
  if (final) {
    try {
      resolveAbsent();
    } catch (e) {
      note(`absence queries failed: ${e && e.message}`);
    }
  }
  try {
    fs.writeFileSync(OUT, JSON.stringify(state));
  } catch (e) {
    // nothing to do: the capture is best effort
  }
}

function currentTest() {
  try {
    return sourceTitled(expect.getState().currentTestName || null);
  } catch (e) {
    return null;
  }
}

// `describe(__filename, …)` (Mozilla's suites name every file's tests so): jest's name of a
// test starts with the file's path, the converter's with the `__filename` the source says.
function sourceTitled(name) {
  if (!name) return name;
  for (const path of [TEST_FILE, testFileReal]) {
    if (path && name.startsWith(`${path} `)) return `__filename${name.slice(path.length)}`;
  }
  return name;
}

const testFileReal = TEST_FILE ? safeRealpath(TEST_FILE) : '';
function safeRealpath(p) {
  try {
    return fs.realpathSync(p);
  } catch (e) {
    return p;
  }
}

function frameInTest(line) {
  const m = /\(?((?:[A-Za-z]:)?[^():]+):(\d+):(\d+)\)?\s*$/.exec(line.trim());
  if (!m) return null;
  const file = m[1].replace(/^at\s+/, '');
  if (file === TEST_FILE || file === testFileReal || safeRealpath(file) === testFileReal) {
    return { line: Number(m[2]), column: Number(m[3]) };
  }
  return null;
}

function callSite() {
  const stack = String(new Error().stack || '').split('\n');
  for (const line of stack) {
    const site = frameInTest(line);
    if (site) return site;
  }
  return null;
}

// Whether the root patch of a wrapper method was called by the test file itself, not by Enzyme
// or by this file's own code. By the frame after the patch's own (a transform may rename the
// frames: `ReactWrapper.apply`), or, where that frame is the handler-read patch wrapped around
// it (`prop` is patched twice here), by the caller that patch saw.
const SETUP_FILE = typeof __filename === 'string' ? __filename : null;
// The frame after the one that made `error` (the caller of the function that made it).
const callerOf = (error) => String(error.stack || '').split('\n')[2] || '';
// The Error the handler-read patch made, while that patch runs the root's own `prop`.
let forwardedCaller = null;
function calledByTest() {
  // [Error, calledByTest, the patch, its caller]
  const caller = String(new Error().stack || '').split('\n')[3] || '';
  if (frameInTest(caller) !== null) return true;
  return (
    forwardedCaller !== null &&
    SETUP_FILE !== null &&
    caller.indexOf(SETUP_FILE) >= 0 &&
    frameInTest(callerOf(forwardedCaller)) !== null
  );
}

function describeSelector(selector) {
  if (typeof selector === 'string') return selector;
  if (typeof selector === 'function') return selector.displayName || selector.name || '<function>';
  try {
    return JSON.stringify(selector);
  } catch (e) {
    return String(selector);
  }
}

function normalize(text) {
  return String(text || '').replace(/\s+/g, ' ').trim();
}

function ownText(el) {
  return normalize(
    Array.from(el.childNodes)
      .filter((n) => n.nodeType === 3)
      .map((n) => n.textContent)
      .join(''),
  );
}

function describeElement(el) {
  const attrs = {};
  for (const a of Array.from(el.attributes || [])) {
    if (a.name === 'class' || a.name === 'style') continue;
    attrs[a.name] = a.value.slice(0, 200);
  }
  const described = {
    tag: el.tagName.toLowerCase(),
    attributes: attrs,
    classes: Array.from(el.classList || []),
    text: normalize(el.textContent).slice(0, 200),
  };
  // A custom element's state that its React wrapper set as a property, which no attribute
  // shows (Clarity's `<cds-button>`: `disabled` is the element's property alone).
  if (described.tag.includes('-') && typeof el.disabled === 'boolean' && !el.hasAttribute('disabled')) {
    described.properties = { disabled: el.disabled };
  }
  return described;
}

const METHODS = ['Role', 'LabelText', 'PlaceholderText', 'Text', 'DisplayValue', 'AltText', 'Title', 'TestId'];

function exactArgs(method, el, suggestion) {
  // Suggestions use case-insensitive regular expressions; tests read better (and are
  // stricter) with the exact strings, which are verified below like everything else.
  const args = suggestion.queryArgs;
  if (method === 'Role') {
    const options = {};
    const name = accessibleName ? normalize(accessibleName(el)) : '';
    if (name) options.name = name;
    if (args[1] && args[1].hidden) options.hidden = true;
    return Object.keys(options).length ? [args[0], options] : [args[0]];
  }
  if (method === 'Text') return [ownText(el)];
  if (method === 'DisplayValue') return [normalize(el.value)];
  if (method === 'PlaceholderText') return [el.getAttribute('placeholder')];
  if (method === 'AltText') return [el.getAttribute('alt')];
  if (method === 'Title') return [el.getAttribute('title')];
  if (method === 'TestId') return [el.getAttribute(TEST_ID_ATTRIBUTE)];
  if (method === 'LabelText') {
    const labels = Array.from(el.labels || []).map((l) => normalize(l.textContent));
    const aria = el.getAttribute('aria-label');
    if (labels.length) return [labels.join(' ')];
    if (aria) return [normalize(aria)];
  }
  return null;
}

function sameList(a, b) {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

function revive(value) {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    if (typeof value.$regex === 'string') return new RegExp(value.$regex, value.flags || '');
    const out = {};
    for (const [k, v] of Object.entries(value)) out[k] = revive(v);
    return out;
  }
  return value;
}

function runQuery(scope, method, args) {
  try {
    return Array.from(dom[`queryAllBy${method}`](scope, ...args.map(revive)));
  } catch (e) {
    return null;
  }
}

function candidates(el) {
  const out = [];
  for (const method of METHODS) {
    let s;
    try {
      s = dom.getSuggestedQuery(el, 'get', method);
    } catch (e) {
      s = undefined;
    }
    if (!s) continue;
    if (method === 'Role' && s.queryArgs[0] === 'generic') continue;
    const exact = exactArgs(method, el, s);
    if (exact && exact.every((x) => x !== null && x !== '')) out.push({ method, args: exact });
    if (method === 'Role' && exact && exact[1] && exact[1].name) {
      out.push({ method, args: [exact[0]] }); // the role alone, when it is unique
    }
  }
  return out;
}

function scopeOf(el) {
  if (el.isConnected && el.ownerDocument) return el.ownerDocument.body;
  let top = el;
  while (top.parentNode) top = top.parentNode;
  return top;
}

// The heading level a selector names by its tag (`h1`, `h3.title`), when every element it
// selected is that heading and no `aria-level` changes it: the level, as a role query says it.
function namedLevel(elements, selector) {
  const tag = typeof selector === 'string' ? /^\s*h([1-6])(?![\w-])/i.exec(selector) : null;
  if (!tag) return null;
  const fits = (e) => e.tagName === `H${tag[1]}` && !e.hasAttribute('aria-level');
  return elements.every(fits) ? Number(tag[1]) : null;
}

// The ARIA states a role query can filter by, each as the value the query option takes for an
// element (undefined: the element is not in that state, or the state is off).
// The value an element's ARIA state attribute has when the state is on (`"true"`; any value
// but `"false"` for `aria-current`, `"page"` among them), else undefined.
function ariaOn(e, attribute) {
  const held = e.getAttribute(attribute);
  if (attribute === 'aria-current') return held && held !== 'false' ? held : undefined;
  return held === 'true' ? held : undefined;
}

// The ARIA states a role query can filter by, each as the value the query option takes for an
// element (undefined: the element is not in that state, or the state is off). A native checkbox
// or radio is checked by its property.
const ROLE_STATES = ['selected', 'checked', 'pressed', 'expanded', 'current'].map((option) => [
  option,
  (e) => {
    const held = ariaOn(e, `aria-${option}`);
    if (held !== undefined) return held === 'true' ? true : held;
    const native = option === 'checked' && e.tagName === 'INPUT' && /^(checkbox|radio)$/i.test(e.type);
    return native && e.checked === true ? true : undefined;
  },
]);

// The states a selector picks elements by: the ARIA attribute itself (`[aria-checked=true]`,
// `:checked`), or a class that names a state by the common conventions (Bootstrap's `active`,
// BEM's `tab--active`, SMACSS's `is-selected`), which may stand for any of them. None for a
// selector by what an element is (`input[value="free"]`, `.radio--free`).
const STATE_WORDS = ['active', 'selected', 'current', 'checked', 'on', 'open', 'opened', 'expanded', 'pressed'];
function statesNamed(selector) {
  if (typeof selector !== 'string') return new Set();
  const named = new Set();
  for (const [option] of ROLE_STATES) {
    if (new RegExp(`\\[aria-${option}\\b`).test(selector)) named.add(option);
  }
  if (/:checked\b/.test(selector)) named.add('checked');
  const classes = selector.match(/\.-?[_a-zA-Z][\w-]*/g) || [];
  const stateClass = classes.some((c) => STATE_WORDS.includes(c.slice(1).toLowerCase().split(/-+|_+/).pop()));
  return stateClass ? new Set(ROLE_STATES.map(([option]) => option)) : named;
}

// A selector that picks elements by their state (above) and selected some of the elements of a
// role, exactly those in one ARIA state (the selected tab, the current link, the checked
// radio): the role query with that state, which says what the selector said
// (`getByRole('tab', { selected: true })`), where a query by the element's name would only name
// the element it happened to be (and, read for its text, assert that text of itself). First in
// the order of preference.
function stateQueries(elements, selector, list, scope) {
  const named = statesNamed(selector);
  if (!named.size) return [];
  const role = list.find((c) => c.method === 'Role');
  if (!role) return [];
  const everyOfRole = runQuery(scope, 'Role', [role.args[0]]);
  if (!everyOfRole || everyOfRole.length <= elements.length) return [];
  const out = [];
  for (const [option, valueOf] of ROLE_STATES) {
    if (!named.has(option)) continue;
    const value = valueOf(elements[0]);
    if (value === undefined || elements.some((e) => valueOf(e) !== value)) continue;
    out.push({ method: 'Role', args: [role.args[0], { [option]: value }] });
  }
  return out;
}

function queriesFor(elements, selector) {
  // Queries (get for one element, getAll for several) returning exactly `elements`, in
  // Testing Library's order of preference (a heading the selector names by its tag, with its
  // level; a role in the state the selector picked, see stateQueries).
  if (!dom || elements.length === 0) return [];
  const scope = scopeOf(elements[0]);
  if (elements.some((e) => scopeOf(e) !== scope)) return [];
  const out = [];
  const list = candidates(elements[0]);
  const states = stateQueries(elements, selector, list, scope);
  const level = namedLevel(elements, selector);
  if (level !== null) {
    for (const c of list) {
      if (c.method === 'Role' && c.args[0] === 'heading') c.args = [c.args[0], { ...(c.args[1] || {}), level }];
    }
  }
  if (elements.length > 1 && accessibleName) {
    // Several elements: the shared role, narrowed by the common start of their names.
    const first = list.find((c) => c.method === 'Role');
    if (first) {
      const names = elements.map((e) => normalize(accessibleName(e)));
      let prefix = names[0];
      for (const n of names) {
        while (prefix && !n.startsWith(prefix)) prefix = prefix.slice(0, -1);
      }
      if (prefix.trim().length >= 3) {
        const source = '^' + prefix.replace(/[.*+\-?^${}()|[\]\\\/]/g, '\\$&');
        list.unshift({ method: 'Role', args: [first.args[0], { name: { $regex: source, flags: '' } }] });
      }
    }
  }
  list.unshift(...states);
  if (elements.length > 1 && typeof dom.isInaccessible === 'function' && elements.some((e) => dom.isInaccessible(e))) {
    // Some of them are out of the accessibility tree (the tab panels not shown, aria-hidden):
    // a role query reaches them with `hidden: true`, as Testing Library suggests for one.
    for (const c of list) {
      if (c.method === 'Role') c.args = [c.args[0], { ...(c.args[1] || {}), hidden: true }];
    }
  }
  for (const c of list) {
    const found = runQuery(scope, c.method, c.args);
    if (found && sameList(found, elements)) out.push({ method: c.method, args: c.args, all: elements.length > 1 });
  }
  return out;
}

// For an element no query selects alone (a dialog's "Delete" button beside the "Delete" button
// that opened it): the queries by its accessible name or text that select it among a few
// others, with its position in their result. A role without a name is left out for a callback's
// holder (a position among every button of the page says nothing a reader can check); for what
// a find selected (`roleAlone`), a landmark or widget role that at most MAX_ROLE_ALONE elements
// of the page have comes last (Clarity's `<cds-alert-group>`, a region with no name, holding a
// `<cds-alert>` that is one too: the first of two regions).
// Only where every element the query selects is in the element's own render: a render an
// earlier hook mounted and the converted test unmounts (typeahead's Token, mounted in the outer
// and again in the inner `beforeEach`) would leave the position pointing past the end.
const INDEXED_METHODS = ['Role', 'LabelText', 'Text'];
const MAX_INDEXED = 5;
const MAX_ROLE_ALONE = 3;
function renderOf(el) {
  // The child of <body> that holds it (its render's container, or a portal's), or its root.
  let node = el;
  const body = el.ownerDocument && el.ownerDocument.body;
  while (node.parentElement && node.parentElement !== body) node = node.parentElement;
  return node;
}
function indexedQueries(el, roleAlone = false) {
  if (!dom) return [];
  const scope = scopeOf(el);
  const out = [];
  const last = [];
  for (const c of candidates(el)) {
    if (!INDEXED_METHODS.includes(c.method)) continue;
    const named = c.method !== 'Role' || Boolean(c.args[1] && c.args[1].name);
    if (!named && !roleAlone) continue;
    const found = runQuery(scope, c.method, c.args);
    if (!found || found.length < 2 || found.length > (named ? MAX_INDEXED : MAX_ROLE_ALONE)) continue;
    const home = renderOf(el);
    if (found.some((other) => renderOf(other) !== home)) continue;
    const index = found.indexOf(el);
    if (index >= 0) (named ? out : last).push({ method: c.method, args: c.args, all: true, index });
  }
  return out.concat(last);
}

// A find of one element no query selects alone: the queries that select it among a few others
// with its position (`FindRecord.indexed`), and the element inside it one selects (`.inner`).
function aloneQueries(queries, elements) {
  if (queries.length || elements.length !== 1) return { indexed: [], inner: [] };
  return { indexed: indexedQueries(elements[0], true), inner: innerCandidates(elements[0]) };
}

function hostElements(wrapper, isShallow) {
  const elements = [];
  if (isShallow) return elements;
  for (let i = 0; i < wrapper.length; i += 1) {
    let node = null;
    try {
      node = wrapper.at(i).getDOMNode();
    } catch (e) {
      node = null;
    }
    if (node && node.nodeType === 1 && !elements.includes(node)) elements.push(node);
  }
  return elements;
}

// A shallow render's whole tree (what Testing Library's render would render) may not render
// at all: a child component needs what the shallow test never set up (a provider, a store, a
// router). Those children are found by rendering each child element of the shallow output on
// its own; the converter stubs them (they render only their children, as shallow left them),
// and the HTML read here is the tree with the same stubs, so that the queries found fit it.
const React = tryRequire('react');
let server;
function reactDomServer() {
  if (server === undefined) server = tryRequire('react-dom/server');
  return server;
}

function quietly(fn) {
  // React's warnings about elements rendered here (keys of a list) are ours, not the test's:
  // a project failing its tests on console.error must not see them.
  const saved = console.error;
  console.error = () => {};
  try {
    return fn();
  } finally {
    console.error = saved;
  }
}

function isComponent(type) {
  // Function and class components, forwardRef and memo; not context providers or consumers.
  if (typeof type === 'function') return true;
  return Boolean(type && typeof type === 'object' && !type._context && (type.render || type.type));
}

function typeName(type) {
  if (typeof type === 'function') return type.displayName || type.name || null;
  if (!type || typeof type !== 'object') return null;
  return type.displayName || typeName(type.render) || typeName(type.type);
}

function firstLine(error) {
  return String((error && error.message) || error).split('\n')[0].slice(0, 300);
}

// What only React's server renderer (which probes here) refuses; Testing Library's render,
// in jsdom, renders it.
const SERVER_ONLY = /server renderer|ReactDOMServer|getServerSnapshot/i;

function throws(element) {
  try {
    quietly(() => reactDomServer().renderToStaticMarkup(element));
    return null;
  } catch (e) {
    return e;
  }
}

function unrenderedChildren(output) {
  // The component types in `output` (a shallow render's output) that do not render on their
  // own. A component whose element children throw is not itself blamed when it renders
  // without them. Below a context provider a child may get what it needs: not looked at.
  const found = new Map();
  (function visit(node) {
    if (Array.isArray(node)) {
      node.forEach(visit);
      return;
    }
    if (!node || typeof node !== 'object' || !node.props || node.type === undefined) return;
    if (node.type && typeof node.type === 'object' && node.type._context) return;
    if (!isComponent(node.type) || found.has(node.type)) {
      visit(node.props.children);
      return;
    }
    const error = throws(node);
    if (!error) return;
    if (SERVER_ONLY.test(firstLine(error))) {
      // Only the server renderer refuses it (a portal, Suspense): render does not.
      visit(node.props.children);
      return;
    }
    const before = found.size;
    visit(node.props.children);
    const alone = found.size > before && !throws(React.cloneElement(node, { children: null }));
    if (!alone) found.set(node.type, { type: node.type, name: typeName(node.type), error: firstLine(error) });
  })(output);
  return Array.from(found.values());
}

const unrenderedOf = new WeakMap();
function unrendered(root) {
  // The children of the shallow render `root` that do not render (none when its tree does).
  if (unrenderedOf.has(root)) return unrenderedOf.get(root);
  let found = [];
  try {
    root.html();
  } catch (e) {
    try {
      found = React && reactDomServer() ? unrenderedChildren(root.getElement()) : [];
    } catch (err) {
      found = [];
    }
  }
  unrenderedOf.set(root, found);
  return found;
}

function Unrendered(props) {
  return typeof props.children === 'function' ? null : props.children === undefined ? null : props.children;
}

function stubbed(node, types) {
  // `node` with the elements of `types` replaced by Unrendered (their children stay).
  if (Array.isArray(node)) return node.map((n) => stubbed(n, types));
  if (!node || typeof node !== 'object' || !node.props || node.type === undefined) return node;
  const children = stubbed(node.props.children, types);
  if (types.has(node.type)) return React.createElement(Unrendered, { key: node.key }, children);
  return children === node.props.children ? node : React.cloneElement(node, { children });
}

function markup(wrapper, root) {
  // The HTML of `wrapper` (a node of the shallow render `root`) as render would give it.
  const failing = unrendered(root);
  if (!failing.length) return wrapper.html();
  const types = new Set(failing.map((f) => f.type));
  return quietly(() => reactDomServer().renderToStaticMarkup(stubbed(wrapper.getElement(), types)));
}

// Elements that only exist inside <svg> (the converter's SVG_ONLY_TAGS).
const SVG_ONLY = /^(g|path|line|rect|circle|ellipse|polygon|polyline|text|tspan|textpath|defs|clippath|lineargradient|radialgradient|stop|pattern|mask|marker|symbol|use|image|foreignobject|filter|desc|animate|animatetransform|animatemotion|fe[a-z]+)$/i;

// `html` parsed into a detached container. An SVG element at the root (<g>, <defs>) is parsed
// inside an <svg>, as it renders: in HTML its attribute names would lose their case
// (markerWidth) and never match.
// A table's parts parse only inside a table (the parser drops a `<tr>` a `<div>` holds, which
// React, building the DOM node by node, renders): each is parsed in the element that holds it
// (parsing reads that element's tag alone, so it stays the only one around them).
const TABLE_HOLDER = {
  caption: 'table',
  colgroup: 'table',
  thead: 'table',
  tbody: 'table',
  tfoot: 'table',
  tr: 'tbody',
  td: 'tr',
  th: 'tr',
};
function parsed(html) {
  const first = /^\s*<([A-Za-z][\w:-]*)/.exec(html);
  const holder = first ? TABLE_HOLDER[first[1].toLowerCase()] : undefined;
  if (holder) {
    const container = document.createElement(holder);
    container.innerHTML = html;
    return container;
  }
  const container =
    first && SVG_ONLY.test(first[1])
      ? document.createElementNS('http://www.w3.org/2000/svg', 'svg')
      : document.createElement('div');
  container.innerHTML = html;
  return container;
}

function shallowElements(wrapper, root) {
  // Shallow renders have no DOM: render the root's HTML into a detached container and find
  // the matched nodes in it by their HTML (the k-th node with the same markup). Each node's
  // markup is parsed and serialized again before it is compared: React writes `<input/>`,
  // the DOM serializes `<input>`.
  if (typeof document === 'undefined') return [];
  let container;
  try {
    const html = markup(root, root);
    if (!html) return [];
    container = parsed(html);
  } catch (e) {
    return [];
  }
  const all = Array.from(container.querySelectorAll('*'));
  const used = new Set();
  const elements = [];
  for (let i = 0; i < wrapper.length; i += 1) {
    let node;
    try {
      const own = markup(wrapper.at(i), root);
      node = own ? parsed(own).firstElementChild : null;
    } catch (e) {
      return [];
    }
    if (!node) return [];
    const html = node.outerHTML;
    const match =
      all.find((el) => !used.has(el) && el.outerHTML === html) || inContext(node, all, used);
    if (!match) return [];
    used.add(match);
    elements.push(match);
  }
  return elements;
}

// A component rendered alone misses what its parents give it through context: a form group's
// `controlId` becomes its label's `for` and its control's `id` (react-bootstrap's Form.Group;
// UI kits' FormControl contexts also add `aria-describedby` and the like). The one element
// of the tree that has the same tag, content and attributes plus only such ones is the node.
const CONTEXT_ATTRIBUTE = /^(id|for|aria-[a-z]+)$/;
function inContext(alone, all, used) {
  const own = Array.from(alone.attributes);
  const found = all.filter(
    (el) =>
      !used.has(el) &&
      el.tagName === alone.tagName &&
      el.innerHTML === alone.innerHTML &&
      own.every((a) => el.getAttribute(a.name) === a.value) &&
      Array.from(el.attributes).every((a) => alone.hasAttribute(a.name) || CONTEXT_ATTRIBUTE.test(a.name)),
  );
  return found.length === 1 ? found[0] : null;
}

// CSS.escape, which older jsdom versions (jest 25 and before) lack.
function cssEscape(value) {
  if (typeof CSS !== 'undefined' && CSS.escape) return CSS.escape(value);
  return String(value)
    .replace(/[^\w-]/g, (c) => `\\${c}`)
    .replace(/^(-?)(\d)/, (_m, dash, digit) => `${dash}\\3${digit} `);
}

function cssFor(elements) {
  // A CSS selector matching exactly `elements` (used for component selectors when no
  // Testing Library query fits): an id, or the tag with the classes they share.
  if (elements.length === 0) return null;
  const scope = scopeOf(elements[0]);
  const tries = [];
  if (elements.length === 1 && elements[0].id) tries.push(`#${cssEscape(elements[0].id)}`);
  const tag = elements[0].tagName.toLowerCase();
  if (elements.every((e) => e.tagName.toLowerCase() === tag)) {
    const shared = Array.from(elements[0].classList).filter((c) => elements.every((e) => e.classList.contains(c)));
    for (const c of shared) tries.push(`${tag}.${cssEscape(c)}`);
    if (shared.length > 1) tries.push(`${tag}.${shared.map((c) => cssEscape(c)).join('.')}`);
  }
  if (elements.every((e) => e.tagName.toLowerCase() === tag)) tries.push(tag);
  for (const sel of tries) {
    try {
      if (sameList(Array.from(scope.querySelectorAll(sel)), elements)) return sel;
    } catch (e) {
      // invalid selector
    }
  }
  return null;
}

// children() or childAt(i) of one element whose element children all have one role, which
// selects exactly them inside it (a table row's cells, a list's items): that role inside the
// element (`within(row).getAllByRole('cell')`, `[i]` whatever `i` is). A shallow render's nodes
// are matched by their markup (each is parsed on its own), a full render's are the same nodes.
const MAX_SIBLINGS = 50;
function siblingQueries(parentWrapper, result, index, isShallow) {
  if (!dom || (index !== null && typeof index !== 'number')) return [];
  let root = null;
  try {
    root = parentWrapper.root();
  } catch (e) {
    root = null;
  }
  const elementsOf = (w) => (isShallow ? (root ? shallowElements(w, root) : []) : hostElements(w, false));
  const parents = elementsOf(parentWrapper);
  const picked = elementsOf(result);
  if (parents.length !== 1) return [];
  const children = Array.from(parents[0].children);
  if (!children.length || children.length > MAX_SIBLINGS) return [];
  const meant = index === null ? children : [children[index]];
  const same = (a, b) => a !== undefined && (isShallow ? a.outerHTML === b.outerHTML : a === b);
  if (picked.length !== meant.length || !picked.every((el, k) => same(meant[k], el))) return [];
  const roles = new Set(
    children.map((c) => {
      const role = candidates(c).find((q) => q.method === 'Role');
      return role ? role.args[0] : null;
    }),
  );
  if (roles.size !== 1 || roles.has(null)) return [];
  const role = [...roles][0];
  for (const args of [[role], [role, { hidden: true }]]) {
    const found = runQuery(parents[0], 'Role', args);
    if (found && sameList(found, children)) return [{ method: 'Role', args }];
  }
  return [];
}

// Several elements no query selects (the items of a list, `find(AccordionItem)`): for counting
// them, or showing they are there, the element at the same place inside each (same tag in all)
// when a query selects exactly that set, such as each item's heading, or the same text in each
// (kubeapps' two pagination bars, each with its `<<` button). Only a count or a presence may use
// it (the items' classes or attributes are not their headings'): the converter decides.
const MAX_INNER_DEPTH = 30;
function innerListQueries(elements) {
  if (elements.length < 2) return [];
  const lists = elements.map((el) => Array.from(el.querySelectorAll('*')));
  const first = lists[0];
  let tries = 0;
  for (let k = 0; k < Math.min(first.length, MAX_INNER_DEPTH); k++) {
    const set = lists.map((list) => list[k]);
    if (set.some((d) => !d || d.tagName !== first[k].tagName)) break; // the items differ from here
    const named = first[k].matches(NAMEABLE) && candidates(first[k]).length > 0;
    const own = ownText(first[k]);
    const sameText = !!own && !first[k].matches('script, style') && set.every((d) => ownText(d) === own);
    if (!named && !sameText) continue;
    if (tries++ >= MAX_INNER_TRIES) break;
    const found = queriesFor(set);
    if (found.length) return found;
  }
  return [];
}

// Several <label>s no query selects (a list of labelled items, `find('label.text')`), each the
// only label of a form control of its own, whose accessible name is exactly the label's text:
// the queries that select those controls, in the labels' order. A test that reads the labels'
// texts then asserts the controls' names, as a screen reader announces them.
function labelledControls(elements) {
  if (elements.length < 2 || !accessibleName || elements.some((e) => e.tagName !== 'LABEL')) return [];
  const controls = elements.map((label) => label.control);
  if (controls.some((c) => !c) || new Set(controls).size !== controls.length) return [];
  const named = (c, i) => (c.labels || []).length === 1 && accessibleName(c) === elements[i].textContent;
  if (!controls.every(named)) return [];
  return queriesFor(controls).filter((q) => q.method === 'Role');
}

// Elements no query selects, whose text a test asserts (`expect(find(Notice)).toIncludeText(t)`):
// every element of the page with text of its own, as Testing Library's text queries read it
// (script and style left out), whether it is inside them, and all of its text (null when too
// long). Which elements a text query selects is then known for whatever text the test names,
// and the converter picks the query (`getByText(t)`) only where it selects one element, inside
// them. Nothing where a page has too many texts to keep, or one too long to keep whole (a text
// cut short could hide a match).
const MAX_TEXTS = 400;
const MAX_TEXT_LENGTH = 1000;
const MAX_TEXT_TARGETS = 5;
function pageTexts(elements) {
  if (!elements.length || elements.length > MAX_TEXT_TARGETS) return null;
  const scope = scopeOf(elements[0]);
  if (elements.some((e) => scopeOf(e) !== scope)) return null;
  const out = [];
  for (const el of Array.from(scope.querySelectorAll('*'))) {
    if (el.matches('script, style')) continue;
    const own = ownText(el);
    if (!own) continue;
    if (out.length >= MAX_TEXTS || own.length > MAX_TEXT_LENGTH) return null;
    const all = normalize(el.textContent);
    const inside = elements.some((found) => found.contains(el));
    out.push([own, inside, all.length > MAX_TEXT_LENGTH ? null : all]);
  }
  return out;
}

// A form the test submits (`simulate('submit')`): its one submit button, which a user clicks
// to submit it (a click on it submits the form in jsdom as in a browser), and whether it was
// disabled (no user could click it: the test submits the form as only a script could). A design
// system's button element (Clarity's `<cds-button type="submit">`, Shoelace's `<sl-button>`)
// is not one of the form's `elements`: it takes `type` as a property and submits its form
// itself when clicked; the result's own test run checks that it does.
function submitterQueries(form) {
  const native = Array.from(form.elements || []).filter(
    (el) => (el.tagName === 'BUTTON' || el.tagName === 'INPUT') && (el.type === 'submit' || el.type === 'image'),
  );
  const custom = Array.from(form.querySelectorAll('*')).filter(
    (el) => el.localName.includes('-') && el.type === 'submit',
  );
  const submitters = native.concat(custom);
  if (submitters.length !== 1) return { queries: [], disabled: false };
  return { queries: queriesFor([submitters[0]]), disabled: isDisabled(submitters[0]) };
}

function isDisabled(el) {
  if (el.localName.includes('-')) {
    return el.disabled === true || el.hasAttribute('disabled') || el.getAttribute('aria-disabled') === 'true';
  }
  try {
    return el.matches(':disabled');
  } catch (e) {
    return true;
  }
}

// What `find(…).hostNodes()` selects, where it is not what the find selects: a class name
// that a component takes as a prop (`<Input className="form-control">`) matches the component
// too, and its DOM node may be another element than the one with the class.
function hostVariant(result, elements) {
  let hosts;
  const wasCounting = counting;
  counting = true; // hostNodes() runs filterWhere, which is no filter of the test's
  try {
    hosts = result.hostNodes();
  } catch (e) {
    return null;
  } finally {
    counting = wasCounting;
  }
  const hostEls = hostElements(hosts, false);
  if (hosts.length === result.length && sameList(hostEls, elements)) return null;
  const queries = queriesFor(hostEls);
  return {
    count: hosts.length,
    elements: hostEls.slice(0, 20).map(describeElement),
    queries,
    ...aloneQueries(queries, hostEls),
    element_queries: hostEls.slice(0, 20).map((el) => queriesFor([el])),
    css: cssFor(hostEls),
  };
}

// The display name of a node's component (null for an element): a prop read on that node is
// the component's, which the DOM it renders may not show.
function componentOf(element) {
  const type = element && element.type;
  if (!type || typeof type === 'string') return null;
  const inner = type.render || type.type || type; // forwardRef, memo
  return type.displayName || (inner && (inner.displayName || inner.name)) || null;
}

// What component each node of a find is, and when it is one component's node, how many of that
// component the render holds and which of them it is, in the render's order (its props come from
// the recording, whose instances are in the same order).
let counting = false; // recordComponents' own findWhere, which is no find of the test's
function recordComponents(entry, result, root, selector) {
  const elements = result.getElements().slice(0, 20);
  entry.components = elements.map(componentOf);
  if (elements.length === 1 && entry.components[0] && root) {
    const type = elements[0].type;
    counting = true;
    try {
      const all = root.findWhere((n) => n.type() === type);
      entry.component_total = all.length;
      if (all.length > 1 && typeof selector === 'string') {
        const matching = [];
        all.forEach((node, index) => {
          if (node.is(selector)) matching.push(index);
        });
        if (matching.length === 1) entry.component_index = matching[0];
      }
    } finally {
      counting = false;
    }
  }
}

// An element no query selects, whose class a test may read for its state (a dropdown's
// `open`, an accordion item's `--open`): the one element in it (itself included) carrying an
// ARIA state, when a query selects that one alone, with the state's value now. Where every
// capture of the class check saw the class and that state agree, the converter asserts the
// state (`aria-expanded`), which a user's assistive technology reads, instead of the class.
const STATE_ATTRIBUTES = ['aria-expanded', 'aria-selected', 'aria-pressed', 'aria-checked'];
const MAX_STATE_SCAN = 200;
function stateHolder(el) {
  const inside = [el, ...Array.from(el.querySelectorAll('*')).slice(0, MAX_STATE_SCAN)];
  const holders = inside.filter((e) => STATE_ATTRIBUTES.some((a) => e.hasAttribute(a)));
  if (holders.length !== 1) return null;
  const attributes = STATE_ATTRIBUTES.filter((a) => holders[0].hasAttribute(a));
  const queries = attributes.length === 1 ? queriesFor([holders[0]]) : [];
  if (!queries.length) return null;
  return { attribute: attributes[0], value: holders[0].getAttribute(attributes[0]), queries };
}

// Custom elements (Clarity's `<cds-progress-circle>`) set their role and name when they are
// connected to the document, which Testing Library's render does and Enzyme's does not
// (`mount` renders into a detached element; a shallow render's markup is parsed here, apart).
// Where what was selected holds such an element never connected, the queries are worked out
// on a connected view: the detached tree itself when it is the capture's own parsed markup, a
// copy of it otherwise (the test's tree stays as it is), removed again after. What they set
// only in a later update (a microtask on) is not waited for.
function customDisconnected(el) {
  const own = (e) => e.localName.includes('-') && !e.isConnected && customElements.get(e.localName);
  return own(el) || Array.from(el.querySelectorAll('*')).some(own);
}
function connectedView(elements, isShallow) {
  const same = { elements, done() {} };
  if (typeof document === 'undefined' || !document.body || typeof customElements === 'undefined') return same;
  if (!elements.length || !elements.some(customDisconnected)) return same;
  let top = elements[0];
  while (top.parentNode) top = top.parentNode;
  if (elements.some((e) => { let t = e; while (t.parentNode) t = t.parentNode; return t !== top; })) return same;
  if (top.nodeType !== 1) return same;
  const path = (e) => {
    const steps = [];
    for (let n = e; n !== top; n = n.parentNode) steps.unshift(Array.prototype.indexOf.call(n.parentNode.children, n));
    return steps;
  };
  const view = isShallow ? top : top.cloneNode(true);
  const follow = (steps) => steps.reduce((n, i) => (n ? n.children[i] : null), view);
  const mapped = elements.map((e) => follow(path(e)));
  if (mapped.some((e) => !e)) return same;
  try {
    document.body.appendChild(view);
  } catch (e) {
    return same;
  }
  return {
    elements: mapped,
    done() {
      view.remove();
    },
  };
}

// A component's prop that the element it rendered shows as an attribute of another name (a
// router Link's `to` as the anchor's `href`, an icon's `icon` as the svg's `data-icon`): for
// each node of the find that is a component, each prop with a string or number value that
// exactly one attribute of its element equals, and no other prop does (`title={label}
// label={label}`: which of the two the title shows, the DOM cannot say). The converter asserts
// that attribute, which the user sees, instead of recording the component's props.
const SHOWN_PROPS_SKIPPED = new Set(['children', 'className', 'style']);
const scalar = (value) => typeof value === 'string' || typeof value === 'number';
// The text an attribute would show of `props[key]`: a non-empty string or number that no other
// prop has (which of two equal props an attribute shows, the DOM cannot say); null otherwise.
function shownValue(props, key) {
  return SHOWN_PROPS_SKIPPED.has(key) ? null : shownText(props, key);
}
// The same for any key, `children` included (text children are what the element shows).
function shownText(props, key) {
  const value = props[key];
  if (!scalar(value) || String(value) === '') return null;
  const text = String(value);
  const same = Object.keys(props).filter((k) => scalar(props[k]) && String(props[k]) === text);
  return same.length === 1 ? text : null;
}
// A prop no attribute shows may be the element's whole text (`<Tooltip>{children}</Tooltip>`
// rendering `<div class="tooltip">…</div>`, a badge's `label`): `#text`, where the text is the
// value exactly and no other prop has it.
function addShownProps(described, result, elements) {
  for (let i = 0; i < described.length; i += 1) {
    const node = result.at(i);
    if (!componentOf(node.getElement())) continue;
    const attributes = Object.entries(described[i].attributes);
    const props = node.props();
    const shown = {};
    for (const key of Object.keys(props)) {
      const value = key === 'children' ? shownText(props, key) : shownValue(props, key);
      if (value === null) continue;
      const same = key === 'children' ? [] : attributes.filter(([, v]) => v === value);
      if (same.length === 1) shown[key] = same[0][0];
      else if (!same.length && elements[i] && elements[i].textContent === value) shown[key] = '#text';
    }
    if (Object.keys(shown).length) described[i].shown_props = shown;
  }
}

// What a full render shows: its markup, and what renders put in the page's body outside their
// containers (a portal's menu or dialog, which a selector on the render finds too).
function withPortals(root, html) {
  const body = typeof document !== 'undefined' ? document.body : null;
  if (!body || !body.children.length) return html;
  let node = null;
  try {
    node = root.getDOMNode();
  } catch (e) {
    node = null; // a render of several nodes, or of none
  }
  const containers = new Set(attached.map((a) => a.container));
  const portals = Array.from(body.children).filter((c) => !containers.has(c) && !(node && c.contains(node)));
  if (!portals.length) return html;
  return `${html === null || html === undefined ? '' : html}${portals.map((c) => c.outerHTML).join('')}`;
}

function record(self, selector, result, isShallow, structural = false) {
  if (counting || state.records.length >= MAX_RECORDS) return;
  const site = callSite();
  if (!site) return;
  const test = currentTest();
  const entry = {
    line: site.line,
    column: site.column,
    selector: describeSelector(selector),
    test,
    count: result.length,
    shallow: isShallow,
    elements: [],
    queries: [],
    element_queries: [],
    css: null,
  };
  try {
    let root = null;
    try {
      root = self.root();
    } catch (e) {
      root = null;
    }
    const found = isShallow ? (root ? shallowElements(result, root) : []) : hostElements(result, false);
    const view = connectedView(found, isShallow);
    const elements = view.elements;
    try {
      entry.elements = elements.slice(0, 20).map(describeElement);
      if (found.length === result.length) addShownProps(entry.elements, result, elements);
      entry.queries = queriesFor(elements, selector);
      entry.css = cssFor(elements);
      entry.element_queries = elements.slice(0, 20).map((el) => queriesFor([el], selector));
      Object.assign(entry, aloneQueries(entry.queries, elements));
      if (!entry.queries.length) entry.inner_queries = innerListQueries(elements);
      if (!entry.queries.length) entry.labelled = labelledControls(elements);
      if (!entry.queries.length && !isShallow) entry.texts = pageTexts(elements);
      if (!entry.queries.length) entry.states = elements.slice(0, 20).map(stateHolder);
      if (elements.length === 1 && elements[0].tagName === 'FORM') {
        const submitter = submitterQueries(elements[0]);
        entry.submit_queries = submitter.queries;
        entry.submit_disabled = submitter.disabled;
      }
    } finally {
      view.done();
    }
    if (!isShallow) entry.host = hostVariant(result, found);
    try {
      recordComponents(entry, result, root, selector);
    } catch (e) {
      // a wrapper of no nodes
    }
    if (root && test) {
      try {
        const html = isShallow ? markup(root, root) : root.html();
        if (html !== null && html !== undefined) state.html[test] = String(html).slice(0, MAX_HTML);
        const shown = isShallow ? html : withPortals(root, html);
        if (shown !== null && shown !== undefined) keepSnapshot(test, String(shown).slice(0, MAX_HTML));
        if (result.length === 0 && absent.length < MAX_ABSENT && !structural) {
          absent.push({
            entry,
            html: shown === null || shown === undefined ? '' : String(shown),
            css: typeof selector === 'string',
          });
        }
      } catch (e) {
        // unmounted or empty render
      }
    }
  } catch (e) {
    note(`capture failed at ${site.line}:${site.column}: ${e && e.message}`);
  }
  state.records.push(entry);
}

function patch(Wrapper, isShallow) {
  if (!Wrapper || !Wrapper.prototype || Wrapper.prototype.__testmendPatched) return;
  const original = Wrapper.prototype.find;
  Wrapper.prototype.__testmendPatched = true;
  Wrapper.prototype.find = function find(selector) {
    const result = original.apply(this, arguments);
    try {
      record(this, selector, result, isShallow);
    } catch (e) {
      note(e && e.message);
    }
    return result;
  };
  // children() and childAt(i) the test calls (not those Enzyme calls for it): what they
  // selected, under the selectors ':children' and ':childAt', so that a query verified to
  // select the same DOM elements can stand for them (whether a component's children are
  // another component's or elements, the capture saw).
  for (const name of ['children', 'childAt']) {
    const originalStructural = Wrapper.prototype[name];
    if (typeof originalStructural !== 'function') continue;
    Wrapper.prototype[name] = function () {
      // Its caller: the frame after this function's own (V8 may name frames after the
      // property called, so searching the stack for a name is not reliable here).
      const caller = String(new Error().stack || '').split('\n')[2] || '';
      const result = originalStructural.apply(this, arguments);
      try {
        if (frameInTest(caller)) {
          const before = state.records.length;
          record(this, ':' + name, result, isShallow, true);
          if (state.records.length > before) {
            const index = name === 'childAt' ? arguments[0] : null;
            state.records[state.records.length - 1].sibling_queries = siblingQueries(this, result, index, isShallow);
          }
        }
      } catch (e) {
        note(e && e.message);
      }
      return result;
    };
  }
  // findWhere(predicate), filterWhere(predicate): what the predicate selected, recorded at its
  // call site like a find (`find('img').filterWhere((i) => i.prop('alt') === 'icon')`). The
  // capture's own hostNodes() (which runs filterWhere) records nothing (`counting`).
  let inWhere = false;
  for (const method of ['findWhere', 'filterWhere']) {
    const originalWhere = Wrapper.prototype[method];
    if (typeof originalWhere !== 'function') continue;
    Wrapper.prototype[method] = function where(predicate) {
      if (inWhere) return originalWhere.apply(this, arguments);
      inWhere = true;
      let result;
      try {
        result = originalWhere.apply(this, arguments);
      } finally {
        inWhere = false;
      }
      try {
        record(this, predicate, result, isShallow);
      } catch (e) {
        note(e && e.message);
      }
      return result;
    };
  }
}

// The root wrapper's own element where a test reads or acts on it (`wrapper.hasClass(…)`,
// `wrapper.simulate(…)`): queries for that element, as for a find, recorded at the call site
// under the selector ':root'.
const ROOT_METHODS = ['hasClass', 'simulate', 'prop', 'props', 'text', 'getDOMNode', 'is', 'exists'];
const ROOT_RECORDED = (name, isShallow) => name === 'prop' && !isShallow;
let inRootRecord = false;

// A prop of a full render's root element, read by the test (`mount(<Progress value={10} />)
// .prop('value')`): Enzyme hands back what the element was given, defaults included. What the
// user sees of it: the one attribute in the rendered DOM that equals its value (a string or a
// number no other prop has), with queries for the element that holds it (`aria-valuenow="10"`
// on the progressbar). And whether the value is the component's default (`defaultProps`).
function rootProp(self, key) {
  const element = self.getElement();
  const type = element && element.type;
  const props = self.props();
  const value = props[key];
  const defaults = type && typeof type !== 'string' ? type.defaultProps : null;
  const described = {
    key,
    defaulted: Boolean(defaults) && Object.prototype.hasOwnProperty.call(defaults, key) && defaults[key] === value,
    attribute: null,
    value: null,
    queries: [],
  };
  const root = self.getDOMNode();
  const shown = shownValue(props, key);
  if (shown === null || !root || root.nodeType !== 1) return described;
  const holders = [];
  for (const el of [root, ...root.querySelectorAll('*')]) {
    for (const attribute of Array.from(el.attributes)) {
      if (attribute.name !== 'class' && attribute.name !== 'style' && attribute.value === shown) {
        holders.push([el, attribute.name]);
      }
    }
  }
  if (holders.length !== 1) return described;
  described.attribute = holders[0][1];
  described.value = shown;
  described.queries = queriesFor([holders[0][0]]);
  return described;
}

function recordRoot(self, isShallow, method, args) {
  if (inRootRecord || state.records.length >= MAX_RECORDS) return;
  const site = callSite();
  if (!site) return;
  inRootRecord = true;
  try {
    let element = null;
    if (isShallow) {
      element = shallowElements(self, self)[0] || null;
    } else {
      const node = self.getDOMNode();
      element = node && node.nodeType === 1 ? node : null;
    }
    const elements = element ? [element] : [];
    const entry = {
      line: site.line,
      column: site.column,
      selector: ':root',
      test: currentTest(),
      count: elements.length,
      shallow: isShallow,
      elements: elements.map(describeElement),
      queries: queriesFor(elements),
      element_queries: [],
      css: null,
    };
    if (!isShallow && method === 'prop' && typeof args[0] === 'string') {
      try {
        entry.root_prop = rootProp(self, args[0]);
      } catch (e) {
        // a root Enzyme cannot read: no prop recorded
      }
    }
    state.records.push(entry);
  } catch (e) {
    // an unmounted or empty render: nothing to record
  } finally {
    inRootRecord = false;
  }
}

function patchRoot(Wrapper, isShallow) {
  if (!Wrapper || !Wrapper.prototype || Wrapper.prototype.__testmendRootPatched) return;
  Wrapper.prototype.__testmendRootPatched = true;
  for (const name of ROOT_METHODS) {
    const original = Wrapper.prototype[name];
    if (typeof original !== 'function') continue;
    Wrapper.prototype[name] = function rootMethod() {
      if (!inRootRecord) {
        try {
          // Only a full render's `prop(k)` for now: the call-site queries of the other methods
          // (a shallow root's from its parsed HTML, which the render's own record checks
          // first) are not what the render's records give yet.
          if (ROOT_RECORDED(name, isShallow) && this === this.root() && calledByTest()) {
            recordRoot(this, isShallow, name, arguments);
          }
        } catch (e) {
          // not a wrapper with a root
        }
      }
      return original.apply(this, arguments);
    };
  }
}

// A class component's state that the test reads (`wrapper.state('count')`, `wrapper.state()
// .isOpen`), recorded at the read under the selector ':state': for each value read (each of
// `state()`'s first keys), the one element of the rendered DOM that shows it as the user sees
// it, with the queries that select that element alone. A number or a text: the innermost
// element whose whole text it is, or the one `aria-valuenow` or `aria-valuetext` that equals
// it; a boolean: the one ARIA state (`aria-expanded`, …) with that value. `value` null where not
// exactly one element does, or the value is of another kind. The converter asserts that
// element instead of the state where every read of a key in the file saw the same element
// show it, and saw it show more than one value.
const SHOWN_ATTRIBUTES = ['aria-valuenow', 'aria-valuetext'];
const MAX_STATE_KEYS = 20;

function shownAs(value) {
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'string' && value && normalize(value) === value) return value;
  return null;
}

function stateShown(elements, value) {
  const shown = shownAs(value);
  const none = { value: null, attribute: null, queries: [] };
  if (shown === null) return none;
  const holders = [];
  for (const el of elements) {
    if (typeof value === 'boolean') {
      for (const a of STATE_ATTRIBUTES) if (el.getAttribute(a) === shown) holders.push([el, a]);
      continue;
    }
    for (const a of SHOWN_ATTRIBUTES) if (el.getAttribute(a) === shown) holders.push([el, a]);
    const whole = (e) => normalize(e.textContent) === shown;
    if (whole(el) && !Array.from(el.children).some(whole)) holders.push([el, null]);
  }
  if (!holders.length && Number.isInteger(value)) return shownPosition(elements, value) || none;
  if (holders.length !== 1) return none;
  const queries = queriesFor([holders[0][0]]).filter((q) => !q.all);
  return queries.length ? { value: shown, attribute: holders[0][1], queries } : none;
}

// An index (`activeIndex`, `selectedIndex`, a tab's `active`) the page shows as which element of
// a role is in an ARIA state: the one element of the render in that state is at that position
// among the render's elements of its role (the second tab selected for 1). The role's elements
// as one query (`position`), the attribute and the value it holds (`holds`).
const POSITION_STATES = ['aria-selected', 'aria-checked', 'aria-pressed', 'aria-current'];
function shownPosition(elements, value) {
  if (value < 0) return null;
  for (const attribute of POSITION_STATES) {
    const holders = elements.filter((e) => ariaOn(e, attribute) !== undefined);
    if (holders.length !== 1) continue;
    const role = candidates(holders[0]).find((c) => c.method === 'Role');
    const list = role ? runQuery(scopeOf(holders[0]), 'Role', [role.args[0]]) : null;
    if (!list || list.indexOf(holders[0]) !== value || list.some((e) => !elements.includes(e))) continue;
    const position = { method: 'Role', args: [role.args[0]], all: true };
    return { value: String(value), attribute, queries: [], position, holds: holders[0].getAttribute(attribute) };
  }
  return null;
}

function recordState(self, isShallow, key, result) {
  const site = callSite();
  if (!site) return;
  let elements;
  if (isShallow) {
    const html = markup(self, self);
    elements = html ? Array.from(parsed(html).querySelectorAll('*')) : [];
  } else {
    const root = self.getDOMNode();
    elements = root && root.nodeType === 1 ? [root, ...Array.from(root.querySelectorAll('*'))] : [];
  }
  if (!elements.length || elements.length > MAX_HOSTS) return;
  const read = typeof key === 'string' ? { [key]: result } : result;
  if (!read || typeof read !== 'object') return;
  const shown = {};
  for (const k of Object.keys(read).slice(0, MAX_STATE_KEYS)) shown[k] = stateShown(elements, read[k]);
  state.records.push({
    line: site.line,
    column: site.column,
    selector: ':state',
    test: currentTest(),
    count: 0,
    shallow: isShallow,
    state_shown: shown,
  });
}

// A root method whose result the test reads (`state()`, `instance()`), patched to record
// (`recordRead(wrapper, isShallow, its argument, its result)`) after the call, where the test
// itself made it on the root.
let inRootRead = false;
function patchRootRead(Wrapper, name, isShallow, recordRead) {
  const original = Wrapper && Wrapper.prototype && Wrapper.prototype[name];
  const flag = `__testmendRead_${name}`;
  if (typeof original !== 'function' || Wrapper.prototype[flag]) return;
  Wrapper.prototype[flag] = true;
  Wrapper.prototype[name] = function rootRead(arg) {
    const result = original.apply(this, arguments);
    if (!inRootRead && state.records.length < MAX_RECORDS && calledByTest()) {
      inRootRead = true;
      try {
        if (this === this.root()) recordRead(this, isShallow, arg, result);
      } catch (e) {
        note(e && e.message);
      } finally {
        inRootRead = false;
      }
    }
    return result;
  };
}

// A child component's callback prop the test reads to call it (`find(Button).prop('onClick')`,
// `invoke('onClick')`, `props().onClick`): the element the child rendered that holds the very
// same function as its own event handler (`<button onClick={props.onClick}>`), whose event
// React answers by calling it, and the queries that select that element; recorded at the read
// under the selector ':handler'. Found in the React tree (portals included) by identity, so a
// child that wraps the callback in a handler of its own is never taken for one that passes it.
const MAX_HOSTS = 500;
const MAX_HOLDERS = 20;
const HANDLER_PROP = /^on[A-Z]/;
// Every element holding `fn` as the same handler prop, in document order: one, or the items of
// a list that share the callback (`<input onChange={onChange} value={opt} />` for each option),
// of which the test's event data tells the one it meant.
function handlerHosts(self, fn) {
  const hosts = self.findWhere((n) => typeof n.type() === 'string');
  const found = [];
  let key = null;
  for (let i = 0; i < hosts.length && i < MAX_HOSTS && found.length < MAX_HOLDERS; i += 1) {
    const node = hosts.at(i);
    const own = node.props();
    const held = key !== null
      ? (own[key] === fn ? key : undefined)
      : Object.keys(own).find((k) => HANDLER_PROP.test(k) && own[k] === fn);
    if (!held) continue;
    const element = node.getDOMNode();
    if (!element || element.nodeType !== 1) return [];
    key = held;
    found.push({ key, element });
  }
  return found;
}

// `handlerHosts` for several functions in one walk over the render's host nodes: each
// function's holders, by the first handler prop found holding it (none where one of them has no
// element).
function heldFunctions(self, fns, locate) {
  const wanted = new Set(fns);
  const found = new Map();
  const hosts = self.findWhere((n) => typeof n.type() === 'string');
  for (let i = 0; i < hosts.length && i < MAX_HOSTS; i += 1) {
    const node = hosts.at(i);
    const own = node.props();
    let element;
    for (const k of Object.keys(own)) {
      const fn = own[k];
      if (!HANDLER_PROP.test(k) || !wanted.has(fn)) continue;
      const entry = found.get(fn);
      if (entry === null || (entry && (entry[0].key !== k || entry.length >= MAX_HOLDERS))) continue;
      if (element === undefined) element = locate(node);
      if (!element || element.nodeType !== 1) {
        found.set(fn, null);
        continue;
      }
      if (entry) entry.push({ key: k, element });
      else found.set(fn, [{ key: k, element }]);
    }
  }
  return found;
}

// The elements holding a handler (`handlerHosts`), described with the queries that select each.
function heldBy(hosts) {
  return {
    event: hosts[0].key,
    holders: hosts.map((host) => {
      const queries = queriesFor([host.element]);
      return {
        element: describeElement(host.element),
        queries,
        indexed: queries.length ? [] : indexedQueries(host.element),
      };
    }),
  };
}

let inHandlerRecord = false;
function recordHandlers(self, name) {
  if (inHandlerRecord || state.records.length >= MAX_RECORDS || self.length !== 1) return;
  if (self === self.root() || !componentOf(self.getElement())) return;
  const site = callSite();
  if (!site) return;
  inHandlerRecord = true;
  counting = true; // the findWhere below is no find of the test's
  try {
    const props = self.props();
    const names = name ? [name] : Object.keys(props);
    const handlers = {};
    for (const key of names) {
      if (!HANDLER_PROP.test(key) || typeof props[key] !== 'function') continue;
      const hosts = handlerHosts(self, props[key]);
      if (hosts.length) handlers[key] = heldBy(hosts);
    }
    state.records.push({
      line: site.line,
      column: site.column,
      selector: ':handler',
      test: currentTest(),
      count: Object.keys(handlers).length,
      shallow: false,
      elements: [],
      queries: [],
      element_queries: [],
      css: null,
      handlers,
    });
  } catch (e) {
    // an unmounted render: nothing to record
  } finally {
    counting = false;
    inHandlerRecord = false;
  }
}

function patchHandlerReads(Wrapper) {
  if (!Wrapper || !Wrapper.prototype || Wrapper.prototype.__testmendHandlersPatched) return;
  Wrapper.prototype.__testmendHandlersPatched = true;
  for (const method of ['prop', 'invoke', 'props']) {
    const original = Wrapper.prototype[method];
    if (typeof original !== 'function') continue;
    Wrapper.prototype[method] = function handlerRead(key) {
      const name = method === 'props' ? null : key;
      // Its caller: the frame after this function's own (see `children` above), read from the
      // stack only where it is needed (V8 formats a stack when it is read).
      const here = new Error();
      if (!inHandlerRecord && (name === null || (typeof name === 'string' && HANDLER_PROP.test(name)))) {
        try {
          if (frameInTest(callerOf(here))) recordHandlers(this, name);
        } catch (e) {
          // not a wrapper of one node
        }
      }
      const outer = forwardedCaller;
      forwardedCaller = here;
      try {
        return original.apply(this, arguments);
      } finally {
        forwardedCaller = outer;
      }
    };
  }
}

// A class component's method that a test calls through the root's instance (`wrapper.instance()
// .handleClick()`): the elements its render holds that very function on as their own event
// handler (`onClick={this.handleClick}`: an arrow field, or a method bound in the
// constructor), recorded at the `instance()` call under the selector ':instance', for each of
// the instance's own functions, as ':handler' records a child's callback props. A shallow
// render's elements are found in its parsed markup. The converter makes the call that element's
// event, as a user makes it.
const MAX_INSTANCE_METHODS = 30;
function recordInstance(self, isShallow, _arg, instance) {
  const site = callSite();
  if (!site || !instance || typeof instance !== 'object') return;
  counting = true; // the findWhere below is no find of the test's
  try {
    const locate = isShallow ? (node) => shallowElements(node, self)[0] : (node) => node.getDOMNode();
    const methods = Object.keys(instance).filter((k) => typeof instance[k] === 'function');
    const held = heldFunctions(self, methods.slice(0, MAX_INSTANCE_METHODS).map((k) => instance[k]), locate);
    const handlers = {};
    for (const key of methods.slice(0, MAX_INSTANCE_METHODS)) {
      const hosts = held.get(instance[key]);
      if (hosts && hosts.length) handlers[key] = heldBy(hosts);
    }
    state.records.push({
      line: site.line,
      column: site.column,
      selector: ':instance',
      test: currentTest(),
      count: Object.keys(handlers).length,
      shallow: isShallow,
      handlers,
    });
  } finally {
    counting = false;
  }
}

if (enzyme) {
  patch(enzyme.ReactWrapper, false);
  patch(enzyme.ShallowWrapper, true);
  patchRoot(enzyme.ReactWrapper, false);
  patchRoot(enzyme.ShallowWrapper, true);
  for (const [Wrapper, isShallow] of [[enzyme.ReactWrapper, false], [enzyme.ShallowWrapper, true]]) {
    patchRootRead(Wrapper, 'state', isShallow, recordState);
    patchRootRead(Wrapper, 'instance', isShallow, recordInstance);
  }
  patchHandlerReads(enzyme.ReactWrapper);
}

// Each render call site: the tag of the root element the component rendered (an SVG element
// such as <g> or <line> needs an <svg> around it in a real DOM).
const renderSeen = new Set();
const pendingRenders = [];
const shallowRenders = [];

// A shallow render the test (or a helper such as shallowUntilTarget) dives into or renders
// again (`root.dive()`, `root.shallow()`): the component it renders then did render, and the
// children that never rendered are also those of the new wrapper. Followed from the recorded
// render through each wrapper made from it.
function followRenders(Wrapper) {
  if (!Wrapper || !Wrapper.prototype || Wrapper.prototype.__testmendFollowed) return;
  Wrapper.prototype.__testmendFollowed = true;
  for (const name of ['dive', 'shallow']) {
    const original = Wrapper.prototype[name];
    if (typeof original !== 'function') continue;
    Wrapper.prototype[name] = function () {
      const next = original.apply(this, arguments);
      try {
        const entry = shallowRenders.find((r) => r.wrapper === this || r.chain.includes(this));
        if (entry && entry.chain.length < 10) {
          const element = this.getElement();
          if (element && element.type) entry.rendered.push(element.type);
          entry.chain.push(next);
        }
      } catch (e) {
        // not one of the recorded renders
      }
      return next;
    };
  }
}
if (enzyme) followRenders(enzyme.ShallowWrapper);

// A render the test unmounted (`afterEach(() => wrapper.unmount())`) renders nothing once it
// has: whether it rendered anything is then not read at the end of its test.
function markUnmounts(Wrapper) {
  if (!Wrapper || !Wrapper.prototype || typeof Wrapper.prototype.unmount !== 'function') return;
  const original = Wrapper.prototype.unmount;
  Wrapper.prototype.unmount = function () {
    try {
      this.__testmendUnmounted = true;
    } catch (e) {
      // a frozen wrapper: nothing to mark
    }
    return original.apply(this, arguments);
  };
}
if (enzyme) {
  markUnmounts(enzyme.ShallowWrapper);
  markUnmounts(enzyme.ReactWrapper);
}
function recordRender(wrapper, kind) {
  if (state.renders.length >= MAX_RENDERS) return;
  const site = callSite();
  if (!site) return;
  const test = currentTest();
  const key = `${site.line}:${site.column}:${test}`;
  if (renderSeen.has(key)) return;
  renderSeen.add(key);
  let tag = null;
  let host = null;
  let component = null;
  try {
    if (kind === 'shallow') {
      shallowRenders.push({ wrapper, index: state.renders.length, chain: [], rendered: [] });
      // The element's own type when it is a host element (no rendering); the HTML otherwise.
      const element = wrapper.getElement();
      host = Boolean(element && typeof element.type === 'string');
      if (host) {
        tag = element.type;
      } else {
        // Another component at the root (its name: the converter records its props). What it
        // renders shows in the HTML, which renders the whole tree (render props run again),
        // so it is read after the test's own code ran.
        if (element && element.type) component = element.type.displayName || element.type.name || null;
        pendingRenders.push({ wrapper, index: state.renders.length });
      }
    } else if (kind === 'static') {
      // enzyme's render(): cheerio nodes of the static HTML.
      const node = wrapper && wrapper[0];
      tag = node ? node.tagName || node.name || null : null;
    } else if (wrapper.getDOMNode && wrapper.getDOMNode()) {
      tag = wrapper.getDOMNode().tagName.toLowerCase();
    }
  } catch (e) {
    tag = null;
  }
  state.renders.push({ line: site.line, column: site.column, test, tag, host, component });
  if (kind === 'shallow') shallowRoots.push({ wrapper, index: state.renders.length - 1 });
  return state.renders.length - 1;
}

// The queries that select a render's root element alone (what the converter would otherwise
// reach as `container.firstElementChild`): for a full render, those that select it both when it
// rendered and at the end of its test, in the document; for a shallow render, at the end of
// its test, in its HTML (no DOM of its own), when parsing that HTML keeps it as it is.
const shallowRoots = [];
function rootQueries(element) {
  return element && element.nodeType === 1 ? queriesFor([element]) : [];
}
function sameQuery(a, b) {
  return a.method === b.method && JSON.stringify(a.args) === JSON.stringify(b.args);
}
function keepRootQueries(index, element, before) {
  if (index === undefined || !state.renders[index]) return;
  let found = [];
  try {
    found = rootQueries(element);
  } catch (e) {
    found = [];
  }
  if (before) found = found.filter((q) => before.some((b) => sameQuery(q, b)));
  state.renders[index].root_queries = found;
}

function rootTag(wrapper) {
  // The first tag of the whole tree's HTML; when that cannot render (a hook needing a real
  // DOM), the components at the root dived into one by one until a host element.
  try {
    const m = /^\s*<([A-Za-z][\w:-]*)/.exec(String(markup(wrapper, wrapper) || ''));
    return m ? m[1] : null;
  } catch (e) {
    // fall through
  }
  let current = wrapper;
  for (let depth = 0; depth < 8 && current; depth += 1) {
    try {
      const element = current.getElement();
      if (!element) return null;
      if (typeof element.type === 'string') return element.type;
      current = current.dive();
    } catch (e) {
      return null;
    }
  }
  return null;
}

function recordRenders(name, kind) {
  if (!enzyme || typeof enzyme[name] !== 'function') return;
  const original = enzyme[name];
  try {
    enzyme[name] = function () {
      const wrapper = original.apply(this, arguments);
      recordRender(wrapper, kind);
      return wrapper;
    };
  } catch (e) {
    note(`could not record ${name} renders`);
  }
}
recordRenders('render', 'static');
recordRenders('shallow', 'shallow');

// Full renders are attached to document.body, as Testing Library's are: accessible names
// that refer to other elements (aria-labelledby, <label for>) only resolve in a document.
const attached = [];
if (enzyme && typeof document !== 'undefined' && typeof enzyme.mount === 'function') {
  const originalMount = enzyme.mount;
  try {
    enzyme.mount = function mount(node, options) {
      if (options && (options.attachTo || options.hydrateIn)) {
        const own = originalMount.apply(this, arguments);
        recordRender(own, 'mount');
        return own;
      }
      const container = document.createElement('div');
      document.body.appendChild(container);
      const wrapper = originalMount.call(this, node, Object.assign({}, options || {}, { attachTo: container }));
      const index = recordRender(wrapper, 'mount');
      const emptyAtFirst = !container.hasChildNodes();
      let before = null;
      try {
        before = index === undefined ? null : rootQueries(container.firstElementChild);
      } catch (e) {
        before = null;
      }
      attached.push({ wrapper, container, index, before, emptyAtFirst });
      return wrapper;
    };
  } catch (e) {
    note('could not attach full renders to the document');
  }
}

afterEach(() => {
  for (const { wrapper, container, index, before, emptyAtFirst } of attached.splice(0)) {
    if (before) keepRootQueries(index, container.firstElementChild, before);
    // Rendered nothing when it rendered and still nothing at the end of its test.
    if (index !== undefined && state.renders[index]) {
      state.renders[index].empty =
        emptyAtFirst && !wrapper.__testmendUnmounted && !container.hasChildNodes();
    }
    try {
      wrapper.detach();
    } catch (e) {
      // already unmounted by the test
    }
    try {
      container.remove();
    } catch (e) {
      // gone
    }
  }
});

afterEach(() => {
  for (const { wrapper, index } of pendingRenders.splice(0)) {
    state.renders[index].tag = rootTag(wrapper);
  }
  for (const { wrapper, index } of shallowRoots.splice(0)) {
    try {
      // Only HTML the parser keeps as it is: it moves what HTML does not allow (text inside a
      // <table> goes before it), which React's DOM keeps where it was.
      const html = String(markup(wrapper, wrapper) || '');
      // The whole tree rendered nothing at the end of its test (read then: rendering it when
      // the test rendered would call its render props once more than the test expects), as
      // it is: with children stubbed, what they would have rendered is not in the HTML.
      state.renders[index].empty =
        !wrapper.__testmendUnmounted && !unrendered(wrapper).length && html.trim() === '';
      const container = parsed(html);
      if (container.innerHTML === html) keepRootQueries(index, container.firstElementChild, null);
    } catch (e) {
      // what it renders cannot be read (a hook needing a real DOM)
    }
  }
  for (const { wrapper, index, chain, rendered } of shallowRenders.splice(0)) {
    const dived = new Set(rendered);
    const seen = new Set();
    const found = [];
    for (const each of [wrapper, ...chain]) {
      for (const child of unrendered(each)) {
        if (seen.has(child.type)) continue;
        seen.add(child.type);
        found.push({ name: child.name, error: child.error, dived: dived.has(child.type) });
      }
    }
    state.renders[index].unrendered = found;
  }
});
afterEach(() => flush(false));
afterAll(() => flush(true));
flush(false);
