// validate.mjs: check a JSON document against the plain bundled interlingua schema with Ajv
// (strict mode, discriminator option: the plain bundle compiles as-is).
import { readFileSync } from "node:fs";
import Ajv2020 from "ajv/dist/2020.js";

const [schemaPath, documentPath, type] = process.argv.slice(2);
const schema = JSON.parse(readFileSync(schemaPath, "utf8"));
const ajv = new Ajv2020({ strict: true, discriminator: true, allErrors: true });
ajv.addSchema(schema);
const ref = type ? `${schema.$id}#/$defs/${type}` : schema.$id;
const check = ajv.getSchema(ref);
const document = JSON.parse(readFileSync(documentPath, "utf8"));
if (check(document)) {
  console.log("valid");
} else {
  for (const e of check.errors) console.log(`${e.instancePath || "/"}: ${e.message}`);
  process.exitCode = 1;
}
