// Stable tool ids (seed 002 §1), as src/interlingua/gateway/tool_id.py derives them: the
// grammar of each field and of the whole id is the schema's (ToolIdParts, ToolId), checked
// with the generated validators.
import { createHash } from "node:crypto";

import { check } from "../../../generated/typescript/src/index";
import { GatewayError, shown } from "./errors";
import { byCodePoint, isObject, pythonJson, truthy } from "./json";

export const FALLBACK_NAMESPACE = "mcp";

export interface ToolIdParts {
  namespace: string;
  name: string;
  version?: string;
  hash8?: string;
}

/** Sorted top-level property names and sorted `required`, as compact sorted JSON (§1.3). */
export function canonicalShape(inputSchema: unknown): string {
  if (!isObject(inputSchema)) throw new GatewayError("SCHEMA_INVALID", "the input schema is not a JSON object");
  const properties = truthy(inputSchema.properties) ? inputSchema.properties : {};
  const required = truthy(inputSchema.required) ? inputSchema.required : [];
  if (!isObject(properties)) {
    throw new GatewayError("SCHEMA_INVALID", "the input schema's `properties` is not an object");
  }
  if (!Array.isArray(required) || !required.every((r) => typeof r === "string")) {
    throw new GatewayError("SCHEMA_INVALID", "the input schema's `required` is not a list of strings");
  }
  return pythonJson({
    properties: Object.keys(properties).sort(byCodePoint),
    required: [...(required as string[])].sort(byCodePoint),
  });
}

function checkText(text: string, what: string): void {
  if (/\p{Surrogate}/u.test(text)) {
    throw new GatewayError("TOOL_ID_INVALID", `${what} ${shown(text)} is not valid Unicode text (it holds a lone surrogate)`);
  }
}

/** First 8 hex digits of sha256 over `upstream_name + "\n" + canonical shape` (§1.3). */
export function hash8(upstreamName: unknown, inputSchema: unknown): string {
  if (typeof upstreamName !== "string") {
    throw new GatewayError("TOOL_ID_INVALID", `an upstream tool name is a string, not ${shown(upstreamName)}`);
  }
  checkText(upstreamName, "the upstream tool name");
  const shape = canonicalShape(inputSchema);
  return createHash("sha256").update(upstreamName + "\n" + shape, "utf8").digest("hex").slice(0, 8);
}

function lowerNamespace(prefix: string): string {
  return prefix.replace(/[A-Z]/g, (c) => c.toLowerCase());
}

/** `[namespace, name]` by the rules of §1.4 (not yet checked against the grammar). */
export function splitUpstreamName(upstreamName: string, serverName?: unknown): [string, string] {
  if (serverName !== undefined) {
    if (typeof serverName !== "string") {
      throw new GatewayError("TOOL_ID_INVALID", `a server name is a string, not ${shown(serverName)}`);
    }
    return [lowerNamespace(serverName), upstreamName];
  }
  const cuts = [upstreamName.indexOf("."), upstreamName.indexOf("/")].filter((i) => i >= 0);
  const cut = cuts.length > 0 ? Math.min(...cuts) : 0;
  if (cut > 0) return [lowerNamespace(upstreamName.slice(0, cut)), upstreamName.slice(cut + 1)];
  const segments = upstreamName.split("_");
  if (segments.length >= 3 && segments[0] !== "") return [lowerNamespace(segments[0]), upstreamName];
  return [FALLBACK_NAMESPACE, upstreamName];
}

export function inferNamespace(upstreamName: string): string {
  return splitUpstreamName(upstreamName)[0];
}

/** Checked parts; a field outside the grammar is TOOL_ID_INVALID naming the fields. */
export function makeParts(namespace: unknown, name: unknown, version?: unknown, hash?: unknown): ToolIdParts {
  const fields: Record<string, unknown> = { namespace, name, version, hash8: hash };
  const given = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined && v !== null));
  const bad: string[] = [];
  for (const [, path] of check("ToolIdParts", given)) {
    const field = path.split("/")[1] ?? "";
    if (!bad.includes(field)) bad.push(field);
  }
  if (bad.length > 0) {
    const detail = bad.map((f) => `${f} ${shown(fields[f])}`).join(", ");
    throw new GatewayError("TOOL_ID_INVALID", `outside the tool id grammar: ${detail}`, { fields: bad });
  }
  return given as unknown as ToolIdParts;
}

/** `namespace:name[@version][#hash8]` (§1.6). */
export function formatToolId(parts: ToolIdParts): string {
  if (parts.version === undefined && parts.hash8 === undefined) {
    throw new GatewayError("TOOL_ID_INVALID", "a tool id needs hash8 when it has no version");
  }
  let text = `${parts.namespace}:${parts.name}`;
  if (parts.version !== undefined) text += `@${parts.version}`;
  if (parts.hash8 !== undefined) text += `#${parts.hash8}`;
  if (check("ToolId", text).length > 0) {
    throw new GatewayError("TOOL_ID_INVALID", `tool id ${shown(text)} is outside the grammar or longer than 240 characters`);
  }
  return text;
}

function partition(text: string, separator: string): [string, boolean, string] {
  const at = text.indexOf(separator);
  return at < 0 ? [text, false, ""] : [text.slice(0, at), true, text.slice(at + separator.length)];
}

/** The fields of a canonical tool id (§1.6); the inverse of formatToolId. */
export function parseToolId(text: unknown): ToolIdParts {
  if (typeof text !== "string") throw new GatewayError("TOOL_ID_INVALID", `a tool id is a string, not ${shown(text)}`);
  const [namespace, colon, rest] = partition(text, ":");
  if (!colon) throw new GatewayError("TOOL_ID_INVALID", `tool id ${shown(text)} has no ':'`);
  const [body, hashSign, hashPart] = partition(rest, "#");
  const [name, at, version] = partition(body, "@");
  const parts = makeParts(namespace, name, at ? version : undefined, hashSign ? hashPart : undefined);
  formatToolId(parts);
  return parts;
}

/** The canonical id of an upstream tool (§1.2-§1.4). */
export function deriveToolId(upstreamName: unknown, inputSchema: unknown, version?: unknown, serverName?: unknown): string {
  if (typeof upstreamName !== "string" || upstreamName === "") {
    throw new GatewayError("TOOL_ID_INVALID", `an upstream tool name is a non-empty string, not ${shown(upstreamName)}`);
  }
  const shapeHash = hash8(upstreamName, inputSchema);
  const [namespace, name] = splitUpstreamName(upstreamName, serverName);
  return formatToolId(makeParts(namespace, name, version, version !== undefined ? undefined : shapeHash));
}

/** Every tool's id, in order; two tools with one id are TOOL_ID_COLLISION (§1.5). */
export function deriveCatalogIds(tools: readonly unknown[]): string[] {
  const ids: string[] = [];
  const first = new Map<string, number>();
  tools.forEach((tool, index) => {
    const entry = isObject(tool) ? tool : {};
    const definition = isObject(entry.definition) ? entry.definition : {};
    const id = deriveToolId(definition.name, definition.input_schema, entry.version, definition.namespace);
    const earlier = first.get(id);
    if (earlier !== undefined) {
      throw new GatewayError("TOOL_ID_COLLISION", `tools ${earlier} and ${index} both have the id ${id}`, {
        tool_id: id,
        indexes: [earlier, index],
      });
    }
    first.set(id, index);
    ids.push(id);
  });
  return ids;
}
