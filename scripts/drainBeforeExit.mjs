// Loaded into every node test process, the runner's and each file's (`node --import
// ./scripts/drainBeforeExit.mjs --test --test-force-exit …`): `--test-force-exit` ends a process with
// `process.exit()` while the last test results may still be on their way out through stdout. A file's
// results then never reach the runner, which counts fewer tests than ran and still exits 0, and a failed
// test's name and error can be lost with them (nodejs/node#64833; measured here: 4 files of 400 tests,
// 3 to 14 results lost in every run of five). So `process.exit` waits until stdout has been empty for
// ten checks 10 ms apart (the reporter's pipeline has nothing left to hand it; three were not enough
// for the runner's own summary on a loaded machine), at most 10 s, and
// exits then with the code it was given. A process that leaves a server open still exits.
const exit = process.exit.bind(process);
const QUIET_CHECKS = 10;
const CHECK_MS = 10;
const MAX_WAIT_MS = 10_000;
let exiting = false;

process.exit = function drainThenExit(code) {
  if (code !== undefined) process.exitCode = code;
  if (exiting) return;
  exiting = true;
  const out = process.stdout;
  let quiet = 0;
  setInterval(() => {
    quiet = out.writableLength === 0 && !out.writableNeedDrain ? quiet + 1 : 0;
    if (quiet >= QUIET_CHECKS) exit();
  }, CHECK_MS);
  setTimeout(exit, MAX_WAIT_MS);
};
