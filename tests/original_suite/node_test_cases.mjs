// node:test as the original's tests import it, with one difference: while a case runs, the
// environment variable CLAWPERATOR_SUITE_CASE holds its full name ("suite > case"), which the
// CLI it spawns inherits and cli_stand_in.mjs records. The names are the ones reporter.mjs
// prints, so the two can be joined.
import * as real from "node:test";

const suites = [];
const separator = " > ";

function splitArguments(args) {
  let name;
  let options;
  let body;
  for (const argument of args) {
    if (typeof argument === "string") name = argument;
    else if (typeof argument === "function") body = argument;
    else if (argument && typeof argument === "object") options = argument;
  }
  return { name: name ?? body?.name ?? "<anonymous>", options, body };
}

function withArguments(name, options, body) {
  const args = [name];
  if (options) args.push(options);
  if (body) args.push(body);
  return args;
}

function namingCase(fullName, body) {
  if (!body) return body;
  const enter = () => {
    process.env.CLAWPERATOR_SUITE_CASE = fullName;
  };
  // node:test treats a body with two parameters as callback-style: keep the arity.
  if (body.length >= 2) {
    return function (context, done) {
      enter();
      return body.call(this, context, done);
    };
  }
  return function (context) {
    enter();
    return body.call(this, context);
  };
}

function caseFunction(realCase) {
  const wrapped = (...args) => {
    const { name, options, body } = splitArguments(args);
    const fullName = [...suites, name].join(separator);
    return realCase(...withArguments(name, options, namingCase(fullName, body)));
  };
  for (const variant of ["skip", "todo", "only"]) {
    if (typeof realCase[variant] === "function") wrapped[variant] = realCase[variant].bind(realCase);
  }
  return wrapped;
}

function suiteFunction(realSuite) {
  const wrapped = (...args) => {
    const { name, options, body } = splitArguments(args);
    // A suite's body runs when it is declared: the cases it declares see its name.
    const declaring = body
      ? function (...inner) {
          suites.push(name);
          try {
            return body.apply(this, inner);
          } finally {
            suites.pop();
          }
        }
      : body;
    return realSuite(...withArguments(name, options, declaring));
  };
  for (const variant of ["skip", "todo", "only"]) {
    if (typeof realSuite[variant] === "function") wrapped[variant] = realSuite[variant].bind(realSuite);
  }
  return wrapped;
}

export const it = caseFunction(real.it);
export const test = caseFunction(real.test);
export const describe = suiteFunction(real.describe);
export const suite = real.suite ? suiteFunction(real.suite) : describe;
export const { before, after, beforeEach, afterEach, mock, run } = real;
export default test;
