import type { AnyInputItem } from '../protocol';
import { chainHash, countText, tallyItems } from './renderContext';

/**
 * What the server holds for a response it can be chained from: the whole context the model saw (inputs and
 * outputs, in order) with its token counts, so that a chained turn renders and counts only its new items.
 */
export interface ContextState {
  readonly items: readonly AnyInputItem[];
  readonly header: string;
  readonly headerTokens: number;
  /** Tokens of `items` (the header not included). */
  readonly itemTokens: number;
  /** The prompt-cache chain key after the last item. */
  readonly lastKey: string;
  /** Conservative size in memory: the context's rendered text, counted in full for every state. */
  readonly bytes: number;
}

/** The result of counting a request's context: the state before generation and its cache hit. */
export interface CountedContext {
  state: ContextState;
  /** Chain keys and cumulative token counts (header included) at each new item boundary. */
  keys: string[];
  cumulative: number[];
  /** Tokens counted anew for this: the header unless reused from `base`, and the new items. */
  tokenized: number;
}

/** Counts `items` on top of `base` (a cached state whose header is `header`), or from nothing. */
export function extendContext(
  base: ContextState | undefined,
  header: string,
  items: readonly AnyInputItem[],
): CountedContext {
  const reuseHeader = base !== undefined && base.header === header;
  const headerTokens = reuseHeader ? base.headerTokens : countText(header);
  const seed = base ? (reuseHeader ? base.lastKey : `stale:${base.lastKey}`) : chainHash('', header);
  const tally = tallyItems(items, seed);
  let running = headerTokens + (base?.itemTokens ?? 0);
  const cumulative = tally.tokens.map((count) => (running += count));
  return {
    state: {
      items: base ? [...base.items, ...items] : items,
      header,
      headerTokens,
      itemTokens: (base?.itemTokens ?? 0) + tally.total,
      lastKey: tally.keys.at(-1) ?? seed,
      bytes: (base?.bytes ?? header.length * 2) + tally.bytes,
    },
    keys: tally.keys,
    cumulative,
    tokenized: (reuseHeader ? 0 : headerTokens) + tally.total,
  };
}
