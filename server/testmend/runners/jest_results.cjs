// testmend's jest testResultsProcessor (passed as --testResultsProcessor on every jest run).
// jest writes its --json report with JSON.stringify; a failure's `failureDetails` holds the
// raw error, which can reference React elements and fibers (circular), and then jest crashes
// while writing the report ("Converting circular structure to JSON") and writes none. The
// failure messages (what testmend reads) are kept; only the raw error objects go.
module.exports = function testmendResults(results) {
  for (const suite of results.testResults || []) {
    for (const test of suite.testResults || []) {
      test.failureDetails = [];
    }
  }
  return results;
};
