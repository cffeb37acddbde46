// Choice cards (seed 002 §2), as src/interlingua/gateway/cards.py builds them: tags and
// safety, the rendered line the token bounds apply to, building within those bounds, order.
// The choices where the seed is silent are Python's (see that module's docstring).
import { type ChoiceCard, validate } from "../../../generated/typescript/src/index";
import { GatewayError } from "./errors";
import { byCodePoint, isObject } from "./json";
import { cap, singleLine } from "./redact";
import { countTokens, truncateDescription } from "./tokens";
import { deriveToolId, parseToolId } from "./tool_id";

export const CARD_TARGET_TOKENS = 60;
export const CARD_HARD_CAP_TOKENS = 80;
const BROWSE_PREAMBLE_TOKENS = 32;
/** Safety tag -> the card's safety value; the first present wins (destructive over read-only). */
const SAFETY_TAGS: Array<[string, ChoiceCard["safety"]]> = [
  ["destructive", "destructive"],
  ["read-only", "read_only"],
];
const MUTATING = new Set(["write", "execute", "network"]);

/** The schema's bounds on a card: `maxItems` of `tags` and `maxLength` of `name`. */
export interface CardLimits {
  tags: number;
  name: number;
}

type Annotations = Record<string, unknown> | undefined;

function isCardTag(tag: unknown): tag is string {
  return typeof tag === "string" && !tag.includes("://") && validate(tag, "CardTag").every((f) => f.severity !== "error");
}

/** Valid tags, the safety tags from the hints added, deduplicated, at most `limit` with the
 * safety tags reserved first, sorted by code point. */
export function normalizeTags(tags: readonly unknown[], annotations: Annotations, limit: number): string[] {
  const kept = new Set<string>(tags.filter(isCardTag));
  if (annotations?.readOnlyHint === true) kept.add("read-only");
  if (annotations?.destructiveHint === true) kept.add("destructive");
  const isSafety = (t: string): boolean => SAFETY_TAGS.some(([tag]) => tag === t);
  const safety = [...kept].filter(isSafety).sort(byCodePoint);
  const others = [...kept].filter((t) => !isSafety(t)).sort(byCodePoint);
  return [...safety, ...others.slice(0, Math.max(limit - safety.length, 0))].sort(byCodePoint);
}

export function safetyOf(tags: readonly string[]): ChoiceCard["safety"] {
  return SAFETY_TAGS.find(([tag]) => tags.includes(tag))?.[1] ?? "";
}

/** Python's `format(value, "g")`: 6 significant digits, trailing zeros dropped, an exponent
 * (at least two digits) below 1e-4 and from 1e6. */
export function formatG(value: number): string {
  if (value === 0) return "0";
  const [mantissa, exponentText] = value.toExponential(5).split("e");
  const exponent = Number(exponentText);
  const trim = (s: string): string => (s.includes(".") ? s.replace(/0+$/, "").replace(/\.$/, "") : s);
  if (exponent < -4 || exponent >= 6) {
    const sign = exponent < 0 ? "-" : "+";
    return `${trim(mantissa)}e${sign}${String(Math.abs(exponent)).padStart(2, "0")}`;
  }
  return trim(value.toFixed(5 - exponent));
}

/** The prompt-facing line of `card`, the form its token bounds apply to. */
export function renderCard(card: ChoiceCard): string {
  const meta: string[] = [card.kind];
  if (card.tags.length > 0) meta.push("tags: " + card.tags.join(", "));
  if (card.safety) meta.push("safety: " + card.safety);
  if (card.cost_hint > 0) meta.push("cost: " + formatG(card.cost_hint));
  if (card.side_effects) meta.push("side effects");
  const head = `${card.id} (${meta.join("; ")})`;
  return card.description ? `${head}: ${card.description}` : head;
}

export function cardTokens(card: ChoiceCard): number {
  return countTokens(renderCard(card));
}

function isBareSchema(schema: unknown): boolean {
  if (!isObject(schema)) return false;
  const keys = Object.keys(schema);
  return keys.length === 0 || (keys.length === 1 && schema.type === "object");
}

/** The choice card of a catalogued tool (a GatewayTool as JSON), within its token bounds. */
export function buildCard(tool: Record<string, unknown>, score: number | undefined, limits: CardLimits): ChoiceCard {
  if (score !== undefined && !Number.isFinite(score)) {
    throw new GatewayError("ARGS_INVALID", `a card score is a finite number, not ${score}`);
  }
  const definition = (tool.definition ?? {}) as Record<string, unknown>;
  const annotations = isObject(tool.annotations) ? tool.annotations : undefined;
  const toolId = deriveToolId(definition.name, definition.input_schema, tool.version, definition.namespace);
  const title = typeof annotations?.title === "string" ? singleLine(annotations.title) : "";
  const tags = normalizeTags(Array.isArray(tool.tags) ? tool.tags : [], annotations, limits.tags);
  const declared = definition.side_effects;
  const card: ChoiceCard = {
    id: toolId,
    name: cap(title || singleLine(String(definition.name)), limits.name),
    description: "",
    tags,
    kind: "tool",
    namespace: parseToolId(toolId).namespace,
    has_schema: !isBareSchema(definition.input_schema),
    cost_hint: typeof tool.cost_hint === "number" ? tool.cost_hint : 0,
    side_effects: typeof declared === "string" ? MUTATING.has(declared) : annotations?.readOnlyHint !== true,
    safety: safetyOf(tags),
  };
  if (score !== undefined) card.score = score;
  const budget = Math.max(CARD_TARGET_TOKENS - cardTokens(card), 1);
  const description = typeof definition.description === "string" ? definition.description : "";
  card.description = truncateDescription(singleLine(description), budget);
  const tokens = cardTokens(card);
  if (tokens > CARD_HARD_CAP_TOKENS) {
    throw new GatewayError(
      "CARD_TOO_LARGE",
      `the card of ${toolId} renders to ${tokens} tokens after truncation; the hard cap is ${CARD_HARD_CAP_TOKENS}`,
      { tool_id: toolId, tokens, hard_cap: CARD_HARD_CAP_TOKENS },
    );
  }
  return card;
}

/** Browse order (§2.5): score descending (unscored last), then id ascending. */
export function orderCards<T extends { id: string; score?: number | null }>(cards: readonly T[]): T[] {
  const unscored = (c: T): boolean => c.score === undefined || c.score === null;
  return [...cards].sort(
    (a, b) =>
      Number(unscored(a)) - Number(unscored(b)) || (b.score ?? 0) - (a.score ?? 0) || byCodePoint(a.id, b.id),
  );
}

/** Token bounds of a tool_browse response of `n` cards (§2.3). */
export function browseBudget(n: number): { target: number; hard_cap: number } {
  if (n < 0) throw new GatewayError("ARGS_INVALID", `a card count is at least 0, not ${n}`);
  return { target: CARD_TARGET_TOKENS * n, hard_cap: CARD_HARD_CAP_TOKENS * n + BROWSE_PREAMBLE_TOKENS };
}
