// harness.ts: the generated TypeScript package behind the conformance line protocol.
//
//   python -m conformance run --impl "node build/node/tools/node/harness.js" --group canonical
//
// One JSON request per line on stdin, one reply per line on stdout (conformance/protocol.py).
// It provides `validate`; every other function is answered as skipped (a failure the runner
// counts), so the matrix shows what this implementation covers.
import * as readline from "node:readline";

import { validate } from "../../generated/typescript/src/index";

const IMPLEMENTATION = { name: "interlingua (typescript)", language: "typescript", version: "0.1.0" };

type Reply = Record<string, unknown>;

interface Request {
  cmd?: string;
  seq?: number;
  case?: { function?: string; input?: Record<string, unknown> };
}

/** `validate`: findings as {code, path, severity}, sorted by path then code (the contract). */
function validateFindings(input: Record<string, unknown>): unknown {
  const type = typeof input.type === "string" ? input.type : undefined;
  const rows = validate(input.document, type).map(({ code, path, severity }) => ({ code, path, severity }));
  const key = (row: { code: string; path: string }): [string, string] => [row.path, row.code];
  return rows.sort((a, b) => compare(key(a), key(b)));
}

/** Python's order of (path, code) pairs: by UTF-16 code unit matches it for these strings. */
function compare(a: [string, string], b: [string, string]): number {
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  }
  return 0;
}

const FUNCTIONS: Record<string, (input: Record<string, unknown>) => unknown> = {
  validate: validateFindings,
};

export function answer(request: Request): Reply | null {
  if (request.cmd === "start") return { version: 1, implementation: IMPLEMENTATION };
  if (request.cmd === "stop") return null;
  const name = request.case?.function ?? "";
  const seq = request.seq;
  const fn = Object.prototype.hasOwnProperty.call(FUNCTIONS, name) ? FUNCTIONS[name] : undefined;
  if (fn === undefined) return { seq, skipped: true, message: `no function ${JSON.stringify(name)}` };
  return { seq, output: fn(request.case?.input ?? {}) };
}

const lines = readline.createInterface({ input: process.stdin, terminal: false });
lines.on("line", (line) => {
  if (line.trim() === "") return;
  const reply = answer(JSON.parse(line) as Request);
  if (reply === null) {
    lines.close();
    return;
  }
  process.stdout.write(JSON.stringify(reply) + "\n");
});
