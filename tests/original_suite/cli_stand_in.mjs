// Stands in for the original's dist/cli/index.js (tests/original_suite/run.sh copies it there):
// the original's tests spawn `node dist/cli/index.js ARGS…`, and this runs the binary under test
// with the same words, streams and exit status, so the tests judge our CLI instead of theirs.
import { spawn } from "node:child_process";
import { appendFileSync } from "node:fs";

const binary = process.env.CLAWPERATOR_UNDER_TEST;
const args = process.argv.slice(2);

// One line per run, naming the test case that ran it (node_test_cases.mjs sets the variable):
// the classification counts only the cases that ran the CLI.
const invocations = process.env.CLAWPERATOR_SUITE_INVOCATIONS;
if (invocations) {
  const file = process.env.CLAWPERATOR_SUITE_FILE ?? null;
  const testCase = process.env.CLAWPERATOR_SUITE_CASE ?? null;
  appendFileSync(invocations, JSON.stringify({ file, case: testCase, args }) + "\n");
}

if (!binary) {
  process.stderr.write("cli_stand_in: CLAWPERATOR_UNDER_TEST is not set\n");
  process.exit(127);
}

const child = spawn(binary, args, { stdio: "inherit" });
// A test that gives up on the CLI signals this process; the binary must get the signal too,
// or it would outlive the test.
for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"]) {
  process.on(signal, () => child.kill(signal));
}
child.on("error", (error) => {
  process.stderr.write(`cli_stand_in: cannot run ${binary}: ${error.message}\n`);
  process.exit(127);
});
child.on("exit", (code, signal) => {
  if (signal) {
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code ?? 1);
});
