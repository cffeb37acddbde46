// harness.ts: the generated TypeScript package behind the conformance line protocol.
//
//   make node   # tsc: this file and the generated package into build/node
//   python -m conformance run --impl "node build/node/tools/node/harness.js" \
//       --expected-failures conformance/expected-failures/node.txt
//
// One JSON request per line on stdin, one reply per line on stdout (conformance/protocol.py).
// It provides `validate` (the generated package) and the gateway contract (./gateway);
// every other function is answered as skipped (a failure the runner counts, listed in
// node.txt), so the matrix shows what this implementation covers.
import * as fs from "node:fs";
import * as path from "node:path";
import * as readline from "node:readline";

import { type ChoiceCard, type GatewayErrorCode, validate } from "../../generated/typescript/src/index";
import { ArgumentValidator } from "./gateway/arguments";
import { CACHE_BREAKPOINT_ID, CacheStableSession } from "./gateway/cache_stable";
import { type CardLimits, browseBudget, buildCard, cardTokens, normalizeTags, orderCards, renderCard, safetyOf } from "./gateway/cards";
import { errorEnvelope, type EnvelopeLimits } from "./gateway/envelope";
import { GatewayError } from "./gateway/errors";
import { normalizeArguments } from "./gateway/normalize";
import { parseBrowseRequest, parsePath, resolvePath } from "./gateway/paths";
import { redact } from "./gateway/redact";
import { DEFAULT_LIMITS, checkSchemaTrust } from "./gateway/schema_trust";
import { countTokens, truncateDescription } from "./gateway/tokens";
import { selectionSchema, validateSelection } from "./gateway/selection";
import {
  deriveResourceId,
  derivePromptId,
  formatPrimitiveId,
  parsePrimitiveId,
  promptHash8,
  resolveCollisions,
  resourceHash8,
} from "./gateway/primitive_id";
import {
  type ToolIdParts,
  canonicalShape,
  deriveCatalogIds,
  deriveToolId,
  formatToolId,
  hash8,
  inferNamespace,
  makeParts,
  parseToolId,
} from "./gateway/tool_id";

const IMPLEMENTATION = { name: "interlingua (typescript)", language: "typescript", version: "0.1.0" };

type Reply = Record<string, unknown>;

interface Request {
  cmd?: string;
  seq?: number;
  case?: { function?: string; input?: Record<string, unknown> };
}

/** `validate`: findings as {code, path, severity}, sorted by path then code (the contract). */
function validateFindings(input: Record<string, unknown>): unknown {
  const type = typeof input.type === "string" ? input.type : undefined;
  const rows = validate(input.document, type).map(({ code, path, severity }) => ({ code, path, severity }));
  const key = (row: { code: string; path: string }): [string, string] => [row.path, row.code];
  return rows.sort((a, b) => compare(key(a), key(b)));
}

/** Python's order of (path, code) pairs: by UTF-16 code unit matches it for these strings. */
function compare(a: [string, string], b: [string, string]): number {
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  }
  return 0;
}

type Input = Record<string, unknown>;

/** A file of the repository, found from wherever the compiled harness lives. */
function repositoryFile(relative: string): string {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, relative);
    if (fs.existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) throw new Error(`${relative} not found above ${__dirname}`);
  }
}

// The bundle is JSON of a known shape; its bounds are read by name below.
type Defs = Record<string, any>;
let bundleDefs: Defs | undefined;
/** The schema's definitions (the plain bundle), read once: the bounds below are its facts. */
function defs(): Defs {
  bundleDefs ??= (JSON.parse(fs.readFileSync(repositoryFile("generated/schemas/interlingua-v1.plain.json"), "utf8")) as { $defs: Defs }).$defs;
  return bundleDefs;
}

/** The longest redacted message and path: the schema's `maxLength` on GatewayErrorEnvelope. */
function envelopeLimits(): EnvelopeLimits {
  const fields = defs().GatewayErrorEnvelope.properties;
  return { message: fields.message.maxLength as number, path: fields.path.maxLength as number };
}

/** The most tags and the longest name a card has: the schema's bounds on ChoiceCard. */
function cardLimits(): CardLimits {
  const fields = defs().ChoiceCard.properties;
  return { tags: fields.tags.maxItems as number, name: fields.name.maxLength as number };
}

interface CardSummary {
  id: string;
  score?: number;
}

/** Steps `{"hydrate": id, "ok": bool}` or `{"browse": [{"id", "score"?}]}`; the output is
 * each browse's response as `{"id", "score"?}` summaries (src/interlingua/gateway/vectors.py). */
function cacheStableSession(input: Input): unknown {
  const session = new CacheStableSession<CardSummary>(() => ({ id: CACHE_BREAKPOINT_ID }));
  const responses: CardSummary[][] = [];
  for (const step of (input.steps ?? []) as Array<Record<string, unknown>>) {
    if ("hydrate" in step) {
      if (step.ok === true) session.recordHydration(String(step.hydrate));
      continue;
    }
    const cards = (step.browse as CardSummary[]).map((c) => (typeof c.score === "number" ? { id: c.id, score: c.score } : { id: c.id }));
    responses.push(session.order(cards));
  }
  return responses;
}

function envelope(input: Input): unknown {
  const details = input.details as Record<string, unknown> | undefined;
  const path = typeof input.path === "string" ? input.path : "";
  return errorEnvelope(input.code as GatewayErrorCode, String(input.message), path, details, envelopeLimits());
}

function formatParts(input: Input): string {
  const parts = (input.parts ?? {}) as Partial<ToolIdParts>;
  return formatToolId(makeParts(parts.namespace, parts.name, parts.version, parts.hash8));
}

/** The tool id the argument vectors register their schema under. */
const VECTOR_TOOL_ID = "vector:tool@1";

function validateArguments(input: Input): unknown {
  const validator = new ArgumentValidator();
  validator.register(VECTOR_TOOL_ID, "tool", input.input_schema);
  return validator.validate(VECTOR_TOOL_ID, input.args, input.tolerant === true);
}

function dryRun(input: Input): unknown {
  const validator = new ArgumentValidator();
  const toolId = validator.registerTool((input.tool ?? {}) as Record<string, unknown>);
  return validator.dryRun(toolId, input.args, input.tolerant === true);
}

const FUNCTIONS: Record<string, (input: Input) => unknown> = {
  validate: validateFindings,
  // tool ids (seed 002 §1)
  canonical_shape: (i) => canonicalShape(i.input_schema),
  hash8: (i) => hash8(i.upstream_name, i.input_schema),
  infer_namespace: (i) => inferNamespace(String(i.upstream_name)),
  derive_tool_id: (i) => deriveToolId(i.upstream_name, i.input_schema, i.version, i.server_name),
  parse_tool_id: (i) => parseToolId(i.tool_id),
  format_tool_id: formatParts,
  derive_catalog_ids: (i) => deriveCatalogIds(Array.isArray(i.tools) ? i.tools : []),
  // primitive ids (§9)
  parse_primitive_id: (i) => parsePrimitiveId(i.id),
  format_primitive_id: (i) => formatPrimitiveId(i.parts),
  resource_hash8: (i) => resourceHash8(i.uri),
  prompt_hash8: (i) => promptHash8(i.name, i.argument_names),
  derive_resource_id: (i) => deriveResourceId(i.name, i.uri, i.server_name),
  derive_prompt_id: (i) => derivePromptId(i.name, i.argument_names, i.server_name),
  resolve_collisions: (i) => resolveCollisions(Array.isArray(i.ids) ? i.ids : []),
  // cards (§2, §5)
  count_tokens: (i) => countTokens(String(i.text)),
  truncate_description: (i) => truncateDescription(String(i.text), Number(i.budget)),
  normalize_tags: (i) => normalizeTags(Array.isArray(i.tags) ? i.tags : [], i.annotations as Record<string, unknown> | undefined, cardLimits().tags),
  safety_of: (i) => safetyOf(i.tags as string[]),
  build_card: (i) => buildCard((i.tool ?? {}) as Record<string, unknown>, i.score as number | undefined, cardLimits()),
  render_card: (i) => renderCard(i.card as ChoiceCard),
  card_tokens: (i) => cardTokens(i.card as ChoiceCard),
  order_cards: (i) => orderCards(i.cards as CardSummary[]).map((c) => c.id),
  browse_budget: (i) => browseBudget(Number(i.n)),
  cache_stable_session: cacheStableSession,
  // paths (§3)
  parse_path: (i) => parsePath(i.path),
  resolve_path: (i) => resolvePath(i.path, i.graph),
  parse_browse_request: (i) => parseBrowseRequest(i.args),
  // arguments (§4.4, §4.5): schema trust, tolerant repairs, validation, dry run
  check_schema_trust: (i) => checkSchemaTrust(i.schema, { ...DEFAULT_LIMITS, ...(i.limits as object) }) ?? null,
  normalize_arguments: (i) => normalizeArguments(i.args, i.input_schema),
  validate_arguments: validateArguments,
  dry_run: dryRun,
  // selection (§2.6)
  selection_schema: (i) => selectionSchema(i.candidates, i.variant ?? "json_schema"),
  validate_selection: (i) => validateSelection(i.value, i.candidates),
  // errors (§3.4): the envelope and its redaction
  error_envelope: envelope,
  redact: (i) => redact(String(i.text), typeof i.limit === "number" ? i.limit : envelopeLimits().message),
};

export function answer(request: Request): Reply | null {
  if (request.cmd === "start") return { version: 1, implementation: IMPLEMENTATION };
  if (request.cmd === "stop") return null;
  const name = request.case?.function ?? "";
  const seq = request.seq;
  const fn = Object.prototype.hasOwnProperty.call(FUNCTIONS, name) ? FUNCTIONS[name] : undefined;
  if (fn === undefined) return { seq, skipped: true, message: `no function ${JSON.stringify(name)}` };
  try {
    return { seq, output: fn(request.case?.input ?? {}) };
  } catch (error) {
    if (error instanceof GatewayError) return { seq, error: { code: error.code, details: error.details } };
    // Any other failure is this case's alone: reported, and the harness goes on.
    return { seq, error: { code: "UNCODED", details: { message: String(error) } } };
  }
}

const lines = readline.createInterface({ input: process.stdin, terminal: false });
lines.on("line", (line) => {
  if (line.trim() === "") return;
  const reply = answer(JSON.parse(line) as Request);
  if (reply === null) {
    lines.close();
    return;
  }
  process.stdout.write(JSON.stringify(reply) + "\n");
});
