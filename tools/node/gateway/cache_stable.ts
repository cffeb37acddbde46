// Cache-stable browse ordering (seed 002 §5), as src/interlingua/gateway/cache_stable.py does
// it: ids already browsed or hydrated come first (ascending id, content frozen at first
// sighting), then the `__cache_breakpoint__` marker when both parts are non-empty, then the
// newly seen cards (ascending id).
import { byCodePoint } from "./json";

export const CACHE_BREAKPOINT_ID = "__cache_breakpoint__";

export class CacheStableSession<T extends { id: string }> {
  private readonly seen = new Set<string>();
  private readonly frozen = new Map<string, T>();

  constructor(private readonly marker: () => T) {}

  /** A successful hydration puts the id in the seen-set (a failed one must not, §5.5). */
  recordHydration(toolId: string): void {
    this.seen.add(toolId);
  }

  /** The browse response for `cards` in cache-stable order; records the new ones. A card
   * repeated within `cards` is emitted once (its first occurrence). */
  order(cards: readonly T[]): T[] {
    const stable = new Map<string, T>();
    const fresh = new Map<string, T>();
    for (const card of cards) {
      if (stable.has(card.id) || fresh.has(card.id)) continue;
      if (this.seen.has(card.id)) {
        if (!this.frozen.has(card.id)) this.frozen.set(card.id, card);
        stable.set(card.id, this.frozen.get(card.id)!);
      } else {
        fresh.set(card.id, card);
      }
    }
    for (const [id, card] of fresh) {
      this.seen.add(id);
      this.frozen.set(id, card);
    }
    const sorted = (m: Map<string, T>): T[] => [...m.keys()].sort(byCodePoint).map((id) => m.get(id)!);
    const marker = stable.size > 0 && fresh.size > 0 ? [this.marker()] : [];
    return [...sorted(stable), ...marker, ...sorted(fresh)];
  }
}
