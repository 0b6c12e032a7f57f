// testmend's hang probe: which test never finishes. Added as a setup file to one jest run
// (after a run of the file timed out; the intent check's runs of its mutants); writes a line
// when each test starts and ends, with its file, synchronously (a test stuck in an endless
// loop blocks everything after its start).
const fs = require('fs');

const OUT = process.env.TESTMEND_PROGRESS_OUT;

function mark(kind) {
  if (!OUT) return;
  let name = null;
  let path = null;
  try {
    const state = expect.getState();
    name = state.currentTestName;
    path = state.testPath;
  } catch (e) {
    name = null;
  }
  try {
    fs.appendFileSync(OUT, `${kind}\t${name || ''}\t${path || ''}\n`);
  } catch (e) {
    // nothing to do: the probe is best effort
  }
}

beforeEach(() => mark('start'));
afterEach(() => mark('end'));
