// usage.ts: what the generated types allow and refuse, checked by `tsc --strict` (never run).
// Each `@ts-expect-error` line must fail to type-check: tsc reports an unused one.
import {
  type Conversation,
  type Message,
  type Part,
  type StreamEvent,
  isKnownPart,
  unknownPart,
  validate,
} from "../../generated/typescript/src/index";

const message: Message = {
  role: "assistant",
  content: [
    { type: "text", text: "Let me look." },
    { type: "tool_call", id: "call_1", name: "search", arguments: { q: "weather" } },
  ],
};

// @ts-expect-error a misspelt field of a known part (closed object)
const misspeltField: Part = { type: "text", txet: "hi" };
// @ts-expect-error a misspelt tag is not an unknown part
const misspeltTag: Part = { type: "txt", text: "hi" };
// @ts-expect-error a role outside the enum
const badRole: Message = { role: "function", content: [] };
// @ts-expect-error an unknown part cannot take a known tag
const knownAsUnknown = unknownPart("text");

const chart: Part = unknownPart("chart", { spec: { kind: "bar" } });

/** Narrowing: a known part by its tag; an unknown one keeps its fields as unknown values. */
export function describe(part: Part): string {
  if (!isKnownPart(part)) return `unknown ${part.type}`;
  switch (part.type) {
    case "text":
      return part.text;
    case "tool_call":
      return `${part.name}(${JSON.stringify(part.arguments)})`;
    default:
      return part.type;
  }
}

export function firstDelta(events: readonly StreamEvent[]): string | undefined {
  for (const event of events) if (event.type === "text_delta") return event.text;
  return undefined;
}

const conversation: Conversation = { schema_version: 1, messages: [message] };
export const findings = validate(conversation);
export const examples = [misspeltField, misspeltTag, badRole, knownAsUnknown, chart];
