// validate_batch.ts: the generated `validate` over a batch, for the differential test
// (tests/typescript/test_validators.py). stdin: a JSON array of {"type": name or null,
// "document": JSON}; stdout: a JSON array, per document its findings as [code, path, severity].
import * as fs from "node:fs";

import { validate } from "../../generated/typescript/src/index";

interface Item {
  type: string | null;
  document: unknown;
}

const batch = JSON.parse(fs.readFileSync(0, "utf8")) as Item[];
const answers = batch.map(({ type, document }) =>
  validate(document, type ?? undefined).map(({ code, path, severity }) => [code, path, severity]),
);
process.stdout.write(JSON.stringify(answers) + "\n");
