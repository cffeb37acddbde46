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
