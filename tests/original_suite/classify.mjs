// Classifies the original suite's results (run.sh): of the cases that ran the CLI, each one
// passes, or fails and is listed in differences.tsv under a row of docs/compatibility.md that
// says why the difference stays. Prints one JSON summary on stdout and exits 1 when a failure
// is not listed, a listed case passes (the row is stale), or a listed row names nothing in
// compatibility.md.
//
//   node classify.mjs --results R --invocations I --differences D --compatibility C
import { readFileSync } from "node:fs";

function options(argv) {
  const wanted = ["--results", "--invocations", "--differences", "--compatibility"];
  const found = {};
  for (let at = 0; at < argv.length; at += 2) {
    if (!wanted.includes(argv[at]) || argv[at + 1] === undefined) {
      process.stderr.write(`classify: usage: node classify.mjs ${wanted.map((o) => `${o} FILE`).join(" ")}\n`);
      process.exit(2);
    }
    found[argv[at].slice(2)] = argv[at + 1];
  }
  for (const option of wanted) {
    if (!found[option.slice(2)]) {
      process.stderr.write(`classify: ${option} is required\n`);
      process.exit(2);
    }
  }
  return found;
}

function jsonLines(path) {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line));
}

const key = (file, name) => `${file}\t${name}`;

// differences.tsv: file, case, the compatibility.md row (its first cell, or a heading), why.
function differences(path) {
  const rows = new Map();
  readFileSync(path, "utf8")
    .split("\n")
    .forEach((line, index) => {
      if (line.trim() === "" || line.startsWith("#")) return;
      const [file, name, row, why] = line.split("\t");
      if (!file || !name || !row || !why) {
        process.stderr.write(`classify: ${path}:${index + 1}: want four tab-separated fields: file, case, row, why\n`);
        process.exit(2);
      }
      rows.set(key(file, name), { file, name, row, why, line: index + 1 });
    });
  return rows;
}

// What a differences.tsv row may name: a table row's first cell or a heading's text.
function compatibilityRows(path) {
  const names = new Set();
  for (const line of readFileSync(path, "utf8").split("\n")) {
    const heading = /^#+\s+(.*)$/.exec(line);
    if (heading) names.add(heading[1].trim());
    const cell = /^\|([^|]*)\|/.exec(line);
    if (cell && !/^\s*-+\s*$/.test(cell[1])) names.add(cell[1].trim());
  }
  return names;
}

const paths = options(process.argv.slice(2));
const results = jsonLines(paths.results);
const ranTheCli = new Set(
  jsonLines(paths.invocations)
    .filter((invocation) => invocation.case !== null)
    .map((invocation) => key(invocation.file, invocation.case)),
);
const listed = differences(paths.differences);
const rowNames = compatibilityRows(paths.compatibility);

const summary = { cases: 0, cliCases: 0, passed: 0, listed: 0, unlisted: [], stale: [], unknownRows: [], byRow: {} };
const seen = new Set();
for (const result of results) {
  if (result.status === "skip" || result.status === "todo") continue;
  summary.cases += 1;
  const id = key(result.file, result.name);
  if (!ranTheCli.has(id)) continue;
  seen.add(id);
  summary.cliCases += 1;
  const difference = listed.get(id);
  if (result.status === "pass") {
    summary.passed += 1;
    if (difference) summary.stale.push({ file: result.file, case: result.name, line: difference.line });
    continue;
  }
  if (!difference) {
    summary.unlisted.push({ file: result.file, case: result.name, error: result.error, actual: result.actual, expected: result.expected });
    continue;
  }
  summary.listed += 1;
  summary.byRow[difference.row] = (summary.byRow[difference.row] ?? 0) + 1;
}
for (const difference of listed.values()) {
  if (!rowNames.has(difference.row)) {
    summary.unknownRows.push({ line: difference.line, row: difference.row });
  }
  if (!seen.has(key(difference.file, difference.name))) {
    summary.stale.push({ file: difference.file, case: difference.name, line: difference.line, why: "did not run the CLI" });
  }
}

process.stdout.write(JSON.stringify(summary, null, 2) + "\n");
process.stderr.write(
  `classify: ${summary.cliCases} cases ran the CLI: ${summary.passed} passed, ${summary.listed} differ as docs/compatibility.md says, ` +
    `${summary.unlisted.length} unlisted failures, ${summary.stale.length} stale rows, ${summary.unknownRows.length} rows naming nothing\n`,
);
const clean = summary.unlisted.length === 0 && summary.stale.length === 0 && summary.unknownRows.length === 0;
process.exit(clean ? 0 : 1);
