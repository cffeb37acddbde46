// Tolerant argument normalization (seed 002 §4.4), as src/interlingua/gateway/normalize.py
// does it: a stringified object is parsed (as strictly as any document), then top-level
// string values become the integer, number, boolean or null their schema type asks for.
// Every repair is recorded; nothing else changes.
import { byCodePoint, isObject } from "./json";

const INTEGER = /^-?(0|[1-9][0-9]*)$/;
const NUMBER = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$/;
const MAX_DEPTH = 256; // interlingua.conversion.reading.DEFAULT_MAX_DEPTH
const MISSING = Symbol("missing");

export interface ArgRepair {
  rule: string;
  path: string;
  original?: string;
}

/** Whether valid JSON `text` names one key twice in an object (JSON.parse keeps the last). */
function hasDuplicateKeys(text: string): boolean {
  let i = 0;
  const space = (): void => {
    while (i < text.length && " \t\n\r".includes(text[i])) i++;
  };
  const string = (): string => {
    const start = i++;
    while (text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const value = (): boolean => {
    space();
    const opening = text[i];
    if (opening === "{" || opening === "[") {
      i++;
      const keys = new Set<string>();
      space();
      if (text[i] === (opening === "{" ? "}" : "]")) {
        i++;
        return false;
      }
      for (;;) {
        if (opening === "{") {
          space();
          const key = string();
          if (keys.has(key)) return true;
          keys.add(key);
          space();
          i++; // the colon
        }
        if (value()) return true;
        space();
        if (text[i++] !== ",") return false;
      }
    }
    if (opening === '"') string();
    else while (i < text.length && !",]} \t\n\r".includes(text[i])) i++;
    return false;
  };
  return value();
}

/** Whether a parsed value holds what the Python reader refuses: a lone surrogate, a number
 * past what a double carries, nesting deeper than the limit. */
function unreadable(value: unknown, depth = 0): boolean {
  if (typeof value === "string") return /\p{Surrogate}/u.test(value);
  if (typeof value === "number") return !Number.isFinite(value);
  if (Array.isArray(value)) return depth >= MAX_DEPTH || value.some((v) => unreadable(v, depth + 1));
  if (isObject(value)) {
    return depth >= MAX_DEPTH || Object.entries(value).some(([k, v]) => unreadable(k) || unreadable(v, depth + 1));
  }
  return false;
}

function parseStringified(args: string): unknown {
  const text = (args.startsWith("\ufeff") ? args.slice(1) : args).replace(/^[ \t\n\r]+|[ \t\n\r]+$/g, "");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return MISSING;
  }
  if (!isObject(value) || hasDuplicateKeys(text) || unreadable(value)) return MISSING;
  return value;
}

const RULES: readonly [string, string, (value: string) => unknown][] = [
  // Past 2**53 a JavaScript number is not exact (Python's int is); past ~1e308 it is no number.
  ["str_to_integer", "integer", (v) => (INTEGER.test(v) && Number.isFinite(Number(v)) ? Number(v) : MISSING)],
  ["str_to_number", "number", (v) => (NUMBER.test(v) && Number.isFinite(Number(v)) ? Number(v) : MISSING)],
  ["str_to_boolean", "boolean", (v) => (v === "true" ? true : v === "false" ? false : MISSING)],
  ["str_to_null", "null", (v) => (v === "null" ? null : MISSING)],
];

function types(fieldSchema: unknown): Set<string> {
  if (!isObject(fieldSchema)) return new Set();
  const declared = fieldSchema.type;
  if (typeof declared === "string") return new Set([declared]);
  if (Array.isArray(declared)) return new Set(declared.filter((t): t is string => typeof t === "string"));
  return new Set();
}

export function normalizeArguments(args: unknown, inputSchema: unknown): { args: unknown; arg_repairs: ArgRepair[] } {
  const repairs: ArgRepair[] = [];
  if (typeof args === "string") {
    const parsed = parseStringified(args);
    if (parsed === MISSING) return { args, arg_repairs: repairs };
    args = parsed;
    repairs.push({ rule: "parse_stringified_object", path: "" });
  }
  const properties = isObject(inputSchema) ? inputSchema.properties : undefined;
  if (!isObject(args) || !isObject(properties)) return { args, arg_repairs: repairs };
  const repaired: Record<string, unknown> = { ...args };
  for (const name of Object.keys(repaired).sort(byCodePoint)) {
    const value = repaired[name];
    const declared = types(Object.prototype.hasOwnProperty.call(properties, name) ? properties[name] : undefined);
    if (typeof value !== "string" || declared.has("string")) continue;
    for (const [rule, typeName, convert] of RULES) {
      if (!declared.has(typeName)) continue;
      const converted = convert(value);
      if (converted === MISSING) continue;
      repaired[name] = converted;
      repairs.push({ rule, path: "/" + name.replace(/~/g, "~0").replace(/\//g, "~1"), original: value });
      break;
    }
  }
  return { args: repaired, arg_repairs: repairs };
}
