// JSON values as the Python implementation treats them: truthiness, code point order, and
// `json.dumps` output (the hashes of ids are taken over it).

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
