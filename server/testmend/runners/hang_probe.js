// testmend's hang probe: which test of the file never finishes. Added as a setup file to one
// jest run after a run of the file timed out; writes a line when each test starts and ends,
// synchronously (a test stuck in an endless loop blocks everything after its start).
const fs = require('fs');

const OUT = process.env.TESTMEND_PROGRESS_OUT;

function mark(kind) {
  if (!OUT) return;
  let name = null;
  try {
    name = expect.getState().currentTestName;
  } catch (e) {
    name = null;
  }
  try {
    fs.appendFileSync(OUT, `${kind}\t${name || ''}\n`);
  } catch (e) {
    // nothing to do: the probe is best effort
  }
}

beforeEach(() => mark('start'));
afterEach(() => mark('end'));
