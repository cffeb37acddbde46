// Browse requests and the path grammar (seed 002 §3), as src/interlingua/gateway/paths.py
// has them: the grammar is the schema's (BrowsePath, BrowseRequest), checked with the
// generated validators; PATH_INVALID names why, PATH_NOT_FOUND where.
import { check, validate } from "../../../generated/typescript/src/index";
import { GatewayError, shown } from "./errors";
import { isObject } from "./json";

const WILDCARD = "*";

function why(path: string): [string, string] {
  if (!path.startsWith("/")) return ["leading_slash", "a path starts with '/'"];
  if (path.endsWith("/")) return ["trailing_slash", "a trailing '/' is not allowed"];
  const segments = path.slice(1).split("/");
  if (segments.includes("")) return ["empty_segment", "empty segments ('//') are not allowed"];
  if (segments.slice(0, -1).includes(WILDCARD)) return ["misplaced_wildcard", "'*' may only be the last segment"];
  return ["bad_segment", "segments are lower-case letters, digits, '_' and '-' (the first, a namespace, starting with a letter)"];
}

/** The segments of a browse path, a trailing `*` removed; PATH_INVALID if malformed. */
export function parsePath(path: unknown): string[] {
  if (typeof path !== "string") throw new GatewayError("PATH_INVALID", `a path is a string, not ${shown(path)}`);
  if (check("BrowsePath", path).length > 0) {
    const [reason, sentence] = why(path);
    throw new GatewayError("PATH_INVALID", `path ${shown(path)} is malformed: ${sentence}`, { reason });
  }
  const segments = path.split("/").filter((s) => s !== "");
  return segments.length > 0 && segments[segments.length - 1] === WILDCARD ? segments.slice(0, -1) : segments;
}

/** What `path` addresses in the choice graph (a leaf is null). */
export function resolvePath(path: unknown, graph: unknown): { path: string; leaf: boolean; children: string[] } {
  const segments = parsePath(path);
  let node: unknown = graph;
  segments.forEach((segment, depth) => {
    if (!isObject(node) || !Object.prototype.hasOwnProperty.call(node, segment)) {
      const where = "/" + segments.slice(0, depth + 1).join("/");
      throw new GatewayError("PATH_NOT_FOUND", `no node at ${shown(where)}`);
    }
    node = node[segment];
  });
  const children = isObject(node) ? Object.keys(node).sort() : [];
  return { path: "/" + segments.join("/"), leaf: !isObject(node), children };
}

/** Checked tool_browse arguments: ARGS_INVALID unless exactly one of query and path;
 * PATH_INVALID for a path outside the grammar. */
export function parseBrowseRequest(args: unknown): Record<string, unknown> {
  const errors = validate(args, "BrowseRequest").filter((f) => f.severity === "error");
  if (errors.length > 0) {
    const message = errors.map((f) => `${f.path || "/"}: ${f.message}`).join("; ");
    throw new GatewayError("ARGS_INVALID", message, { findings: errors });
  }
  const request = args as Record<string, unknown>;
  if (request.path !== undefined) parsePath(request.path);
  return request;
}
