// Exact cl100k_base token counts, offline, and §2.4's deterministic description truncation,
// as src/interlingua/gateway/tokens.py does them. The encoder is js-tiktoken (pinned in
// tools/node/package.json), whose cl100k_base ranks ship in the package and give the same
// token ids as tiktoken and Python's bpe-openai. Text is encoded as ordinary text: a
// special-token string such as `<|endoftext|>` counts as the plain characters it is.
import { Tiktoken } from "js-tiktoken/lite";

import { GatewayError } from "./errors";

interface Ranks {
  pat_str: string;
  special_tokens: Record<string, number>;
  bpe_ranks: string;
}
// The ranks module is reachable only through the package's `exports` map, which this
// project's CommonJS module resolution does not read for types: required, with its shape here.
const cl100kBase = require("js-tiktoken/ranks/cl100k_base") as Ranks;

/** Longest text (in characters) the Python encoder accepts in one call; the same limit here. */
const MAX_ENCODE_CHARS = 999_999;
/** Longest text encoded whole when truncating (see truncateDescription). */
const WHOLE_TEXT_CHARS = 50_000;
/** A sentence terminator (§2.4): followed by a space or the end of the text. */
const SENTENCE_END = /[.!?](?= |$)/g;
const ELLIPSIS = "\u2026";

let encoder: Tiktoken | undefined;
function encoding(): Tiktoken {
  encoder ??= new Tiktoken(cl100kBase); // builds its rank tables: done once, on first use
  return encoder;
}

let tokenBytes: Map<number, string> | undefined;
/** Every token's bytes (base64, as the ranks file holds them), by token id. */
function tokenTable(): Map<number, string> {
  if (tokenBytes === undefined) {
    tokenBytes = new Map();
    for (const line of cl100kBase.bpe_ranks.split("\n")) {
      const [, offset, ...tokens] = line.split(" ");
      tokens.forEach((token, i) => tokenBytes!.set(Number.parseInt(offset, 10) + i, token));
    }
  }
  return tokenBytes;
}

let longest: number | undefined;
/** Bytes in the longest token of the encoding (128 for cl100k_base). */
export function maxTokenBytes(): number {
  longest ??= Math.max(...Array.from(tokenTable().values(), (b64) => Buffer.from(b64, "base64").length));
  return longest;
}

function codePoints(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

export function encode(text: string): number[] {
  const length = codePoints(text);
  if (length > MAX_ENCODE_CHARS) {
    throw new GatewayError("ARGS_INVALID", `text of ${length} characters is too long to count tokens of`);
  }
  return encoding().encode(text, [], []);
}

export function countTokens(text: string): number {
  return encode(text).length;
}

/** The bytes of `tokens`, decoded as UTF-8 with an incomplete sequence at the end dropped
 * (Python's `decode("utf-8", errors="ignore")` on a prefix of valid UTF-8). */
function decodePrefix(tokens: number[]): string {
  const table = tokenTable();
  const bytes = Buffer.concat(tokens.map((t) => Buffer.from(table.get(t) ?? "", "base64")));
  let end = bytes.length;
  let lead = end - 1;
  while (lead >= 0 && (bytes[lead] & 0xc0) === 0x80) lead--; // back to the last sequence's lead byte
  if (lead >= 0) {
    const b = bytes[lead];
    const size = b < 0x80 ? 1 : b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : 2;
    if (lead + size > end) end = lead;
  }
  return bytes.subarray(0, end).toString("utf8");
}

/** `text` cut to fit `budget` tokens, deterministically (§2.4): verbatim when it fits, else
 * the longest prefix ending at a sentence terminator that fits, else the first `budget - 1`
 * tokens (backed off to a character boundary) and `…`. */
export function truncateDescription(text: string, budget: number): string {
  if (!(budget >= 1)) throw new GatewayError("ARGS_INVALID", `a token budget is at least 1, not ${budget}`);
  const reach = budget * maxTokenBytes();
  // Indices below are UTF-16 units, Python's are code points: a terminator the two disagree
  // on is past `reach` bytes of text, which cannot fit `budget` tokens either way.
  const window = codePoints(text) <= WHOLE_TEXT_CHARS ? text : Array.from(text).slice(0, reach + 4096).join("");
  const tokens = encode(window);
  if (window === text && tokens.length <= budget) return text;
  const ends = Array.from(window.matchAll(SENTENCE_END), (m) => m.index! + 1).filter((end) => end <= reach);
  for (const end of ends.reverse()) {
    const prefix = window.slice(0, end);
    if (countTokens(prefix) <= budget) return prefix;
  }
  return decodePrefix(tokens.slice(0, budget - 1)) + ELLIPSIS;
}
