// The harness of run.sh without the original (CI reaches neither GitHub nor it): a test file
// written as the original's are, its CLI replaced by cli_stand_in.mjs, run through
// node_test_cases.mjs and reporter.mjs; then classify.mjs on what they wrote, with each way a
// classification can fail.
//   CLAWPERATOR_BINARY=build/src/clawperator node tests/original_suite/harness_test.mjs
import assert from "node:assert";
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const binary = process.env.CLAWPERATOR_BINARY;
assert.ok(binary, "CLAWPERATOR_BINARY names the clawperator under test");

const work = mkdtempSync(join(tmpdir(), "clawperator-original-harness-"));
const packageRoot = join(work, "apps", "node");
mkdirSync(join(packageRoot, "dist", "cli"), { recursive: true });
mkdirSync(join(packageRoot, "dist", "test", "unit"), { recursive: true });
copyFileSync(join(here, "cli_stand_in.mjs"), join(packageRoot, "dist", "cli", "index.js"));
// As the original's tests call their CLI: node dist/cli/index.js ARGS, env inherited.
writeFileSync(
  join(packageRoot, "dist", "test", "unit", "sample.test.js"),
  `import { describe, it } from "node:test";
import assert from "node:assert";
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
const cli = join(dirname(fileURLToPath(import.meta.url)), "../../cli/index.js");
const run = (...args) => spawnSync(process.execPath, [cli, ...args], { encoding: "utf8" });
describe("sample", () => {
  it("prints its version", () => {
    const result = run("--version");
    assert.strictEqual(result.status, 0);
    assert.match(result.stdout, /\\d+\\.\\d+/);
  });
  it("exits 1 on an unknown word", () => {
    assert.strictEqual(run("frobnicate").status, 1);
  });
  describe("nested", () => {
    it("fails in process", () => assert.fail("never runs the CLI"));
  });
});
`,
);

const results = join(work, "results.jsonl");
const invocations = join(work, "invocations.jsonl");
writeFileSync(invocations, "");
const test = spawnSync(
  process.execPath,
  ["--import", join(here, "case_hooks.mjs"), "--test", `--test-reporter=${join(here, "reporter.mjs")}`,
    join("dist", "test", "unit", "sample.test.js")],
  {
    cwd: packageRoot,
    encoding: "utf8",
    env: {
      ...process.env,
      CLAWPERATOR_SUITE_FILE: "unit/sample",
      CLAWPERATOR_UNDER_TEST: binary,
      CLAWPERATOR_SUITE_INVOCATIONS: invocations,
    },
  },
);
writeFileSync(results, test.stdout);

// The reporter: one line per case, named "suite > case", the file as run.sh names it.
const reported = test.stdout.trim().split("\n").map((line) => JSON.parse(line));
assert.deepStrictEqual(
  reported.map(({ file, name, status }) => ({ file, name, status })),
  [
    { file: "unit/sample", name: "sample > prints its version", status: "pass" },
    { file: "unit/sample", name: "sample > exits 1 on an unknown word", status: "fail" },
    { file: "unit/sample", name: "sample > nested > fails in process", status: "fail" },
  ],
  test.stderr,
);
// The failure carries what was compared: our exit code 2 against the original's 1.
assert.strictEqual(reported[1].actual, 2);
assert.strictEqual(reported[1].expected, 1);

// The stand-in: one line per run, naming the case that ran it; the in-process case ran none.
const ran = readFileSync(invocations, "utf8").trim().split("\n").map((line) => JSON.parse(line));
assert.deepStrictEqual(ran, [
  { file: "unit/sample", case: "sample > prints its version", args: ["--version"] },
  { file: "unit/sample", case: "sample > exits 1 on an unknown word", args: ["frobnicate"] },
]);

// Without a binary the stand-in says so and exits 127, rather than passing a case.
const unset = spawnSync(process.execPath, [join(packageRoot, "dist", "cli", "index.js"), "--version"], {
  encoding: "utf8",
  env: { PATH: process.env.PATH },
});
assert.strictEqual(unset.status, 127);
assert.match(unset.stderr, /CLAWPERATOR_UNDER_TEST is not set/);

const compatibility = join(work, "compatibility.md");
writeFileSync(compatibility, "# Compatibility\n\n| | there | here |\n| --- | --- | --- |\n| exit codes | 0 or 1 | 2 |\n");
const header = "# file\tcase\trow\twhy\n";
function classify(rows) {
  const differences = join(work, "differences.tsv");
  writeFileSync(differences, header + rows.map((row) => row.join("\t") + "\n").join(""));
  const result = spawnSync(
    process.execPath,
    [join(here, "classify.mjs"), "--results", results, "--invocations", invocations,
      "--differences", differences, "--compatibility", compatibility],
    { encoding: "utf8" },
  );
  return { status: result.status, summary: result.status === 2 ? null : JSON.parse(result.stdout), stderr: result.stderr };
}
const unknownWord = ["unit/sample", "sample > exits 1 on an unknown word"];

// Listed under a row that exists: clean. The in-process failure is not ours to classify.
let verdict = classify([[...unknownWord, "exit codes", "exits 2 here"]]);
assert.strictEqual(verdict.status, 0, verdict.stderr);
assert.strictEqual(verdict.summary.cliCases, 2);
assert.strictEqual(verdict.summary.passed, 1);
assert.strictEqual(verdict.summary.listed, 1);
assert.deepStrictEqual(verdict.summary.byRow, { "exit codes": 1 });

// Not listed: the run fails and names the case.
verdict = classify([]);
assert.strictEqual(verdict.status, 1);
assert.deepStrictEqual(verdict.summary.unlisted.map((failure) => failure.case), [unknownWord[1]]);

// A listed case that passes, or that never ran the CLI: the list is stale.
verdict = classify([
  [...unknownWord, "exit codes", "exits 2 here"],
  ["unit/sample", "sample > prints its version", "exit codes", "no longer differs"],
  ["unit/sample", "sample > nested > fails in process", "exit codes", "not a CLI case"],
]);
assert.strictEqual(verdict.status, 1);
assert.deepStrictEqual(verdict.summary.stale.map((entry) => entry.case), [
  "sample > prints its version",
  "sample > nested > fails in process",
]);

// A row that names nothing in compatibility.md.
verdict = classify([[...unknownWord, "exit status", "exits 2 here"]]);
assert.strictEqual(verdict.status, 1);
assert.deepStrictEqual(verdict.summary.unknownRows, [{ line: 2, row: "exit status" }]);

// A malformed list is a usage error, not a verdict.
verdict = classify([["unit/sample", "only two fields"]]);
assert.strictEqual(verdict.status, 2);
assert.match(verdict.stderr, /want four tab-separated fields/);

rmSync(work, { recursive: true, force: true });
process.stdout.write("original_suite harness: ok\n");
