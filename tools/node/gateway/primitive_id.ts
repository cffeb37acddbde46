// Ids for the three MCP primitives and the collision policy (seed 002 §9), as
// src/interlingua/gateway/primitive_id.py has them: `resource::` / `prompt::` before a body in
// the tool id grammar; collisions become `id~2`, `id~3` … in catalog order.
import { createHash } from "node:crypto";

import { check } from "../../../generated/typescript/src/index";
import { GatewayError, shown } from "./errors";
import { byCodePoint, isObject, pythonJson } from "./json";
import { type ToolIdParts, formatToolId, makeParts, parseToolId, splitUpstreamName } from "./tool_id";

const KIND_SEPARATOR = "::";
const COLLISION_MARKER = "~";
const PREFIXED = ["resource", "prompt"]; // `tool` is implied and never written

export interface PrimitiveIdParts extends ToolIdParts {
  kind: string;
}

export function formatPrimitiveId(parts: unknown): string {
  if (!isObject(parts) || check("PrimitiveIdParts", parts).length > 0) {
    throw new GatewayError("TOOL_ID_INVALID", `not primitive id parts: ${shown(parts)}`);
  }
  const body = formatToolId(makeParts(parts.namespace, parts.name, parts.version, parts.hash8));
  return parts.kind === "tool" ? body : `${String(parts.kind)}${KIND_SEPARATOR}${body}`;
}

export function parsePrimitiveId(text: unknown): PrimitiveIdParts {
  if (typeof text !== "string") throw new GatewayError("TOOL_ID_INVALID", `a primitive id is a string, not ${shown(text)}`);
  const at = text.indexOf(KIND_SEPARATOR);
  let kind = "tool";
  let body = text;
  if (at >= 0) {
    kind = text.slice(0, at);
    body = text.slice(at + KIND_SEPARATOR.length);
    if (!PREFIXED.includes(kind)) {
      throw new GatewayError(
        "TOOL_ID_INVALID",
        `primitive id ${shown(text)} has the kind prefix ${shown(kind)}; only resource:: and prompt:: are written`,
      );
    }
  }
  return { kind, ...parseToolId(body) };
}

function sha8(canonical: string): string {
  if (/\p{Surrogate}/u.test(canonical)) {
    throw new GatewayError("TOOL_ID_INVALID", "the resource or prompt is not valid Unicode text (it holds a lone surrogate)");
  }
  return createHash("sha256").update(canonical, "utf8").digest("hex").slice(0, 8);
}

export function resourceHash8(uri: unknown): string {
  if (typeof uri !== "string") throw new GatewayError("TOOL_ID_INVALID", `a resource URI is a string, not ${shown(uri)}`);
  return sha8("resource\n" + uri);
}

export function promptHash8(name: unknown, argumentNames: unknown): string {
  if (!Array.isArray(argumentNames) || !argumentNames.every((a) => typeof a === "string")) {
    throw new GatewayError("TOOL_ID_INVALID", `prompt argument names are a list of strings, not ${shown(argumentNames)}`);
  }
  const sorted = [...(argumentNames as string[])].sort(byCodePoint);
  return sha8("prompt\n" + String(name) + "\n" + pythonJson(sorted));
}

function checkedName(kind: string, name: unknown): string {
  if (typeof name !== "string" || name === "") {
    throw new GatewayError("TOOL_ID_INVALID", `a ${kind} name is a non-empty string, not ${shown(name)}`);
  }
  return name;
}

function derive(kind: string, name: string, shapeHash: string, serverName: unknown): string {
  const [namespace, derived] = splitUpstreamName(name, serverName);
  return `${kind}${KIND_SEPARATOR}${formatToolId(makeParts(namespace, derived, undefined, shapeHash))}`;
}

export function deriveResourceId(name: unknown, uri: unknown, serverName?: unknown): string {
  const checked = checkedName("resource", name);
  return derive("resource", checked, resourceHash8(uri), serverName);
}

export function derivePromptId(name: unknown, argumentNames: unknown, serverName?: unknown): string {
  const checked = checkedName("prompt", name);
  return derive("prompt", checked, promptHash8(checked, argumentNames), serverName);
}

/** Catalog keys, unique by a `~N` suffix in catalog order (§9.3). */
export function resolveCollisions(ids: readonly unknown[]): string[] {
  const seen = new Map<string, number>();
  return ids.map((id) => {
    parsePrimitiveId(id);
    const text = id as string;
    const count = (seen.get(text) ?? 0) + 1;
    seen.set(text, count);
    return count === 1 ? text : `${text}${COLLISION_MARKER}${count}`;
  });
}
