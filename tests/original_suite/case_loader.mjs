// A module-resolution hook (registered by case_hooks.mjs): the original's compiled tests that
// import "node:test" get node_test_cases.mjs instead, which names the running case for the CLI
// stand-in. Nothing else is redirected.
const casesModule = new URL("./node_test_cases.mjs", import.meta.url).href;

export async function resolve(specifier, context, nextResolve) {
  const parent = context.parentURL ?? "";
  if ((specifier === "node:test" || specifier === "test") && parent.includes("/dist/test/")) {
    return { url: casesModule, shortCircuit: true };
  }
  return nextResolve(specifier, context);
}
