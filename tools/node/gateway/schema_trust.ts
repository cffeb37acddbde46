// Trust limits on upstream input schemas, checked at catalog ingest (seed 002 §4.4), as
// src/interlingua/gateway/schema_trust.py checks them and in the same order (the first failure
// is reported): an object, depth, UTF-8 size of its compact JSON, property count, pattern
// length, draft 2020-12 meta-validation (Ajv, and the `regex` format: what RE2 or JavaScript's
// parser accepts), and every pattern compiled by RE2.
import Ajv2020 from "ajv/dist/2020";

import { GatewayError } from "./errors";
import { isObject } from "./json";
import { PatternRefused, compileLinear, schemaPatterns, subschemas } from "./patterns";

export interface SchemaLimits {
  max_depth: number;
  max_bytes: number;
  max_properties: number;
  max_pattern_length: number;
}

export const DEFAULT_LIMITS: SchemaLimits = {
  max_depth: 64,
  max_bytes: 256 * 1024,
  max_properties: 1024,
  max_pattern_length: 1000,
};

const META_SCHEMA = "https://json-schema.org/draft/2020-12/schema";

/** A regex for meta-validation: RE2 compiles it, or (valid but not runnable) RegExp parses it. */
export function isRegex(pattern: string): boolean {
  try {
    compileLinear(pattern);
    return true;
  } catch {
    try {
      new RegExp(pattern, "u"); // only to parse: never to match
      return true;
    } catch {
      return false;
    }
  }
}

// Ajv leaves formats in its meta-schemas unchecked, so the `regex` format of `pattern` and
// `patternProperties` keys is checked beside it (the same findings: meta_invalid).
let meta: Ajv2020 | undefined;
function metaValidator(): Ajv2020 {
  if (meta === undefined) meta = new Ajv2020({ strict: false });
  return meta;
}

/** Nesting depth of objects and arrays (iterative: any depth is safe). */
export function jsonDepth(value: unknown): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (typeof node !== "object" || node === null) continue;
    deepest = Math.max(deepest, depth + 1);
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return deepest;
}

export function propertyCount(schema: unknown): number {
  let count = 0;
  for (const node of subschemas(schema)) if (isObject(node.properties)) count += Object.keys(node.properties).length;
  return count;
}

function fail(reason: string, message: string): GatewayError {
  return new GatewayError("SCHEMA_INVALID", message, { reason });
}

export function checkSchemaTrust(schema: unknown, limits: SchemaLimits = DEFAULT_LIMITS): void {
  if (!isObject(schema)) throw fail("not_an_object", `an input schema is a JSON object, not ${JSON.stringify(schema)}`);
  const depth = jsonDepth(schema);
  if (depth > limits.max_depth) throw fail("too_deep", `the schema nests ${depth} levels; the limit is ${limits.max_depth}`);
  const size = Buffer.byteLength(JSON.stringify(schema), "utf8");
  if (size > limits.max_bytes) throw fail("too_large", `the schema is ${size} bytes; the limit is ${limits.max_bytes}`);
  const count = propertyCount(schema);
  if (count > limits.max_properties) {
    throw fail("too_many_properties", `the schema declares ${count} properties; the limit is ${limits.max_properties}`);
  }
  for (const pattern of schemaPatterns(schema)) {
    const length = Array.from(pattern).length; // characters are code points, as in Python
    if (length > limits.max_pattern_length) {
      throw fail("pattern_too_long", `a pattern has ${length} characters; the limit is ${limits.max_pattern_length}`);
    }
  }
  const ajv = metaValidator();
  if (!ajv.validate(META_SCHEMA, schema)) {
    const first = ajv.errors?.[0];
    throw fail("meta_invalid", `not a valid JSON Schema at ${first?.instancePath || "/"}: ${first?.message ?? "invalid"}`);
  }
  for (const pattern of schemaPatterns(schema)) {
    if (!isRegex(pattern)) throw fail("meta_invalid", `not a valid JSON Schema: ${JSON.stringify(pattern)} is not a regex`);
  }
  for (const pattern of schemaPatterns(schema)) {
    try {
      compileLinear(pattern);
    } catch (error) {
      if (error instanceof PatternRefused) throw fail(error.reason, error.message);
      throw error;
    }
  }
}
