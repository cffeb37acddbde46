// Redaction of gateway error text (seed 002 §3.4), as src/interlingua/gateway/_text.py does
// it: one line, no control characters, capped (a longer text ends in `…`).
const BREAKING = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

export function singleLine(text: string): string {
  return text.replace(BREAKING, " ").replace(/ {2,}/g, " ").replace(/^ +| +$/g, "");
}

/** `text` if it has at most `limit` characters (code points), else its first `limit - 1` and `…`. */
export function cap(text: string, limit: number): string {
  const points = Array.from(text);
  return points.length <= limit ? text : points.slice(0, limit - 1).join("") + "\u2026";
}

export function redact(text: string, limit: number): string {
  return cap(singleLine(text), limit);
}
