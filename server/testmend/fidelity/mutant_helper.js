function __testmendMutant(id) {
  var g = typeof globalThis !== 'undefined' ? globalThis : {};
  if (g.__testmendActiveMutant === undefined) {
    var e = g.expect;
    var p = e && e.getState ? String(e.getState().testPath || '') : '';
    var m = /COPY_MARK_PATTERN(\d+)-/.exec(p);
    g.__testmendActiveMutant = m ? Number(m[1]) : 0;
  }
  return g.__testmendActiveMutant === id;
}
function __testmendLoop() {
  if (__testmendMutant(0)) return;
  var g = typeof globalThis !== 'undefined' ? globalThis : {};
  var e = g.expect;
  var t = e && e.getState ? String(e.getState().currentTestName || '') : '';
  if (g.__testmendLoopTest !== t) {
    g.__testmendLoopTest = t;
    g.__testmendLoopTurns = 0;
  }
  g.__testmendLoopTurns += 1;
  if (g.__testmendLoopTurns > LOOP_LIMIT) {
    throw new Error('testmend: under this mutant a loop turned LOOP_LIMIT times in one test');
  }
}
