// Regular expressions from upstream schemas, matched in linear time, as
// src/interlingua/gateway/patterns.py does it: every `pattern` and `patternProperties` key is
// compiled by RE2 (re2js, a pure JavaScript port of it), never by the backtracking RegExp of
// JavaScript; a pattern RE2 cannot run (lookaround, backreferences, `\Z`, a repetition above
// 1000) is refused with the reason `pattern_unsupported`.
import { RE2JS } from "re2js";

import { isObject } from "./json";

// Keywords whose value is one subschema, a list of them, or a map of them (2020-12, and
// draft-07's `definitions` and array `items`): the walk never enters data (`const`, `enum`).
const ONE_SCHEMA = [
  "additionalProperties", "items", "additionalItems", "contains", "propertyNames", "not",
  "if", "then", "else", "unevaluatedItems", "unevaluatedProperties",
];
const SCHEMA_LISTS = ["allOf", "anyOf", "oneOf", "prefixItems", "items"];
const SCHEMA_MAPS = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"];

export class PatternRefused extends Error {
  readonly reason = "pattern_unsupported";
}

const compiled = new Map<string, RE2JS>();

/** `pattern` compiled by RE2, or PatternRefused. */
export function compileLinear(pattern: string): RE2JS {
  let found = compiled.get(pattern);
  if (found === undefined) {
    try {
      found = RE2JS.compile(pattern);
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      throw new PatternRefused(`the pattern ${JSON.stringify(pattern.slice(0, 60))} cannot run in linear time (RE2: ${detail})`);
    }
    if (compiled.size >= 512) compiled.clear();
    compiled.set(pattern, found);
  }
  return found;
}

/** Whether `pattern` matches somewhere in `text` (JSON Schema's unanchored match). */
export function search(pattern: string, text: string): boolean {
  return compileLinear(pattern).matcher(text).find();
}

/** The engine Ajv matches `pattern` and `patternProperties` with (its `code.regExp` option). */
export function linearRegExp(pattern: string): { test: (text: string) => boolean } {
  const re = compileLinear(pattern);
  return { test: (text: string) => re.matcher(text).find() };
}
linearRegExp.code = 'require("re2js").RE2JS.compile';

/** Every object subschema of `schema`, reached through schema keywords only. Iterative. */
export function* subschemas(schema: unknown): Generator<Record<string, unknown>> {
  const stack: unknown[] = [schema];
  while (stack.length > 0) {
    const node = stack.pop();
    if (!isObject(node)) continue;
    yield node;
    for (const key of ONE_SCHEMA) if (key in node) stack.push(node[key]);
    for (const key of SCHEMA_LISTS) if (Array.isArray(node[key])) stack.push(...(node[key] as unknown[]));
    for (const key of SCHEMA_MAPS) if (isObject(node[key])) stack.push(...Object.values(node[key] as object));
  }
}

/** Every regex of `schema`: `pattern` values and `patternProperties` keys. */
export function* schemaPatterns(schema: unknown): Generator<string> {
  for (const node of subschemas(schema)) {
    if (typeof node.pattern === "string") yield node.pattern;
    if (isObject(node.patternProperties)) yield* Object.keys(node.patternProperties);
  }
}
