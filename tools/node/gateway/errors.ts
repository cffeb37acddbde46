// The gateway's coded failure, as the vectors expect it: a stable code and optional details.
import type { GatewayErrorCode } from "../../../generated/typescript/src/index";

export class GatewayError extends Error {
  constructor(
    readonly code: GatewayErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(`${code}: ${message}`);
  }
}

/** A short rendering of an untrusted value for a message. */
export function shown(value: unknown, limit = 48): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length <= limit ? text : text.slice(0, limit - 1) + "\u2026";
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Python's truthiness of a JSON value, for `value or default`. */
export function truthy(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  if (isObject(value)) return Object.keys(value).length > 0;
  return !(value === null || value === undefined || value === false || value === 0 || value === "");
}

/** Strings in Unicode code point order (Python's), not UTF-16 unit order. */
export function byCodePoint(a: string, b: string): number {
  const x = Array.from(a, (c) => c.codePointAt(0)!);
  const y = Array.from(b, (c) => c.codePointAt(0)!);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
}

/** JSON as Python's `json.dumps(value, sort_keys=True, separators=(",", ":"))` writes it:
 * keys sorted by code point, every non-ASCII character escaped as `\uXXXX`. */
export function pythonJson(value: unknown): string {
  if (Array.isArray(value)) return "[" + value.map(pythonJson).join(",") + "]";
  if (isObject(value)) {
    const keys = Object.keys(value).sort(byCodePoint);
    return "{" + keys.map((k) => pythonJson(k) + ":" + pythonJson(value[k])).join(",") + "}";
  }
  if (typeof value === "string") {
    return JSON.stringify(value).replace(/[\u0080-\uffff]/g, (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0"));
  }
  return JSON.stringify(value);
}
