// The gateway's wire error shape (seed 002 §3.4), as src/interlingua/gateway/errors.py builds
// it: the code, the redacted message and path, `retryable` from the generated table (the
// schema's `x-retryable`), and the details when there are any.
import { RETRYABLE, type GatewayErrorCode, type GatewayErrorEnvelope } from "../../../generated/typescript/src/index";
import { redact } from "./redact";

/** The longest message and path: the schema's `maxLength` on each (passed in, read once). */
export interface EnvelopeLimits {
  message: number;
  path: number;
}

export function errorEnvelope(
  code: GatewayErrorCode,
  message: string,
  path: string,
  details: Record<string, unknown> | undefined,
  limits: EnvelopeLimits,
): GatewayErrorEnvelope {
  const envelope: GatewayErrorEnvelope = {
    error: code,
    message: redact(message, limits.message),
    path: redact(path, limits.path),
    retryable: RETRYABLE[code],
  };
  if (details !== undefined && details !== null) envelope.details = details;
  return envelope;
}
