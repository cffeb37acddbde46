// The structured selection contract (seed 002 §2.6), as src/interlingua/gateway/selection.py
// has it: constrain the model to the candidate ids before, check and repair its answer after.
import { GatewayError, shown } from "./errors";

const SELECTION_NAME = "tool_selection";
const DESCRIPTION = "Select exactly one of the offered tool ids.";

function candidateIds(candidates: unknown): string[] {
  const unique: string[] = [];
  for (const candidate of Array.isArray(candidates) ? candidates : []) {
    if (typeof candidate !== "string" || candidate === "") {
      throw new GatewayError("ARGS_INVALID", `a candidate is a non-empty string, not ${shown(candidate)}`);
    }
    if (!unique.includes(candidate)) unique.push(candidate);
  }
  return unique;
}

export function selectionSchema(candidates: unknown, variant: unknown = "json_schema"): Record<string, unknown> {
  const ids = candidateIds(candidates);
  if (ids.length === 0) throw new GatewayError("NO_CANDIDATES", "there are no candidates to select from");
  const schema = {
    type: "object",
    properties: { selection: { type: "string", enum: ids } },
    required: ["selection"],
    additionalProperties: false,
  };
  if (variant === "json_schema") return schema;
  if (variant === "openai") return { type: "json_schema", json_schema: { name: SELECTION_NAME, strict: true, schema } };
  if (variant === "anthropic") return { name: SELECTION_NAME, description: DESCRIPTION, input_schema: schema };
  throw new GatewayError("ARGS_INVALID", `unknown selection schema variant ${shown(variant)}`);
}

/** accepted / repaired / rejected: exact, then the unique case-insensitive match, then the
 * unique case-insensitive prefix, each on the whitespace-stripped value; never a guess. */
export function validateSelection(value: unknown, candidates: unknown): Record<string, unknown> {
  const ids = candidateIds(candidates);
  const input = value;
  if (typeof value !== "string") return { status: "rejected", input, reason: "not_a_string" };
  if (ids.includes(value)) return { status: "accepted", input, selected_id: value };
  const stripped = value.trim();
  if (stripped === "") return { status: "rejected", input, reason: "empty" };
  if (ids.includes(stripped)) return { status: "repaired", input, selected_id: stripped, repair: "strip_whitespace" };
  const folded = stripped.toLowerCase();
  const same = ids.filter((c) => c.toLowerCase() === folded);
  if (same.length > 1) return { status: "rejected", input, reason: "ambiguous_case_fold" };
  if (same.length === 1) return { status: "repaired", input, selected_id: same[0], repair: "case_insensitive" };
  const extended = ids.filter((c) => c.toLowerCase().startsWith(folded));
  if (extended.length > 1) return { status: "rejected", input, reason: "ambiguous_prefix" };
  if (extended.length === 1) return { status: "repaired", input, selected_id: extended[0], repair: "prefix" };
  return { status: "rejected", input, reason: "no_match" };
}
