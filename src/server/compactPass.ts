import type { AnyInputItem, CompactRequest, CompactedResponse } from '../protocol';
import { type Refusal, refusals } from './apiErrors';
import { normalizeContext } from '../protocol';
import { compactContext } from './compaction';
import { extendContext } from './contextState';
import { newId } from './ids';
import { delay } from './pacer';
import { renderHeader } from './renderContext';
import { usage } from './responseObject';
import { type TurnDeps, type TurnFigures, countedFigures, inputItems } from './responseTurn';

// `POST /v1/responses/compact` (docs/backend.md, "Compaction"): the same compaction a response begins with
// past its `compact_threshold`, on request, answered as a `response.compaction` object. The pass is
// inference, simulated like a response's: the uncached input is prefilled, the compaction written at --tps.

export type CompactOutcome =
  | { kind: 'compacted'; response: CompactedResponse; figures: TurnFigures; workMs: number }
  | { kind: 'refused'; refusal: Refusal; figures: TurnFigures };

/** A kept user message as the compacted output lists it: a `message` item with `input_text` parts. */
function asOutputMessage(item: AnyInputItem): AnyInputItem {
  const content = (item as { content?: unknown }).content;
  const parts = typeof content === 'string' ? [{ type: 'input_text', text: content }] : content;
  return { type: 'message', ...item, role: 'user', content: parts };
}

/** Compacts `chain` (a stored response's context, or nothing) followed by the request's input. */
export async function runCompact(
  deps: TurnDeps,
  request: CompactRequest,
  chain: readonly AnyInputItem[],
): Promise<CompactOutcome> {
  const started = performance.now();
  const header = renderHeader(request.instructions, undefined);
  const counted = extendContext(
    undefined,
    header,
    normalizeContext([...chain, ...inputItems(request.input ?? undefined)]),
  );
  const figures = countedFigures(counted);
  const { inputTokens } = figures;
  if (inputTokens > deps.contextWindow) return { kind: 'refused', refusal: refusals.contextLengthExceeded(), figures };
  const cachedTokens = Math.min(inputTokens, deps.promptCache.longestPrefix(counted.keys, counted.cumulative));
  deps.promptCache.insert(counted.keys, counted.cumulative);
  const compacted = compactContext(counted.state, header, true);
  if (!compacted) throw new Error('compactContext(always) gave nothing');
  const { state, keys, cumulative, tokenized } = compacted.counted;
  // The compacted context is what the next request starts with: a later response.create finds it cached.
  deps.promptCache.insert(keys, cumulative);
  figures.contextTokens = state.headerTokens + state.itemTokens;
  figures.tokenizedTokens += tokenized;
  figures.compaction = { replacedTokens: compacted.replacedTokens, summaryTokens: compacted.summaryTokens };
  const workMs = performance.now() - started;
  const prefillMs = ((inputTokens - cachedTokens) * deps.prefillUsPerToken) / 1000;
  await delay(prefillMs + (compacted.summaryTokens * 1000) / deps.tps);
  return {
    kind: 'compacted',
    response: {
      id: newId('resp'),
      object: 'response.compaction',
      created_at: Math.floor(Date.now() / 1000),
      output: [...compacted.kept.map(asOutputMessage), compacted.item],
      usage: usage(inputTokens, cachedTokens, compacted.summaryTokens),
    },
    figures,
    workMs,
  };
}
