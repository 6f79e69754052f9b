// A node:test reporter: one JSON line per case, {file, name, status, error}, the name built as
// node_test_cases.mjs builds it ("suite > case").
const separator = " > ";

export default async function* report(source) {
  // run.sh runs one test file per process and names it: node:test would name the file of
  // node_test_cases.mjs, where every case is declared.
  const file = process.env.CLAWPERATOR_SUITE_FILE ?? "";
  const stack = [];
  for await (const event of source) {
    const data = event.data ?? {};
    if (event.type === "test:start") {
      stack.length = data.nesting;
      stack[data.nesting] = data.name;
      continue;
    }
    if (event.type !== "test:pass" && event.type !== "test:fail") continue;
    if (data.details?.type === "suite") continue;
    const name = [...stack.slice(0, data.nesting), data.name].join(separator);
    let status = event.type === "test:pass" ? "pass" : "fail";
    if (data.skip !== undefined) status = "skip";
    else if (data.todo !== undefined) status = "todo";
    const error = data.details?.error;
    const cause = error?.cause ?? error;
    const result = { file, name, status };
    if (cause) {
      result.error = String(cause.message ?? cause).split("\n")[0].slice(0, 600);
      if ("actual" in cause) result.actual = cause.actual;
      if ("expected" in cause) result.expected = cause.expected;
    }
    yield JSON.stringify(result) + "\n";
  }
}
