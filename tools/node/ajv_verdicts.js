// ajv_verdicts.js: Ajv's verdicts on a batch of documents, for tests/typescript/test_ajv.py.
//
//   node tools/node/ajv_verdicts.js SCHEMA < batch.json
//
// The batch is a JSON array of {"type": "<$defs name>" or null, "document": <JSON>}; the answer, one
// JSON array on stdout, gives each document's verdict: {"valid": bool, "errors": [...]}.
// The schema is compiled by Ajv 2020 in strict mode with its discriminator option, as-is (no
// plugin): a schema strict mode refuses fails the whole batch (exit 1).
"use strict";
const fs = require("node:fs");
const Ajv2020 = require("ajv/dist/2020").default;

const schema = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const batch = JSON.parse(fs.readFileSync(0, "utf8"));
const ajv = new Ajv2020({ strict: true, discriminator: true, allErrors: true });
ajv.addSchema(schema);
const verdicts = batch.map(({ type, document }) => {
  // No type: the root, which takes any top-level document.
  const check = ajv.getSchema(type ? `${schema.$id}#/$defs/${type}` : schema.$id);
  const valid = check(document);
  const errors = (check.errors || []).map((e) => ({ path: e.instancePath, message: e.message }));
  return { valid, errors };
});
process.stdout.write(JSON.stringify(verdicts) + "\n");
