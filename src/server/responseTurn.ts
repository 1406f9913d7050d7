import type { AnyInputItem, ApiError, OutputItem, ResponseObject, ResponseRequest } from '../protocol';
import { refusals } from './apiErrors';
import { STEERED_REASON, isCompaction, normalizeContext } from '../protocol';
import { type CompactedContext, compactContext, compactThreshold } from './compaction';
import { type ContextState, type CountedContext, extendContext } from './contextState';
import { type Fault, faultError } from './faults';
import { newId } from './ids';
import { streamCompaction, streamItem, type TokenBudget } from './itemStreamer';
import { Pacer } from './pacer';
import type { PromptCache } from './promptCache';
import { renderHeader } from './renderContext';
import { responseObject, usage } from './responseObject';
import type { ModelTurn, ScriptedModel } from './scriptedModel';
import { TurnAborted, TurnEmitter, TurnFailed, type TurnSink } from './turnEmitter';

/** What every response needs from the server, whatever its transport. */
export interface TurnDeps {
  model: ScriptedModel;
  promptCache: PromptCache;
  tps: number;
  prefillUsPerToken: number;
  /** Input tokens a request may render to; more is refused with `context_length_exceeded`. */
  contextWindow: number;
}

export interface TurnInput {
  /** The validated request (its transport rules already applied). */
  request: ResponseRequest;
  /** The chained response's state, when this connection holds it: only the new items are counted. */
  base: ContextState | undefined;
  /** The chain's items loaded from the store: held by no connection, so rendered and counted anew. */
  reloaded: readonly AnyInputItem[];
  /** A fault queued through the admin endpoint; a scenario step's own fault applies otherwise. */
  fault: Fault | undefined;
  streamId: string | undefined;
  /** Steering's part in the response (WebSocket only, docs/protocol.md §13); absent over HTTP. */
  steering?: TurnSteering;
  /**
   * Keeps a finished response (cache, store) before its terminal event goes out, so a client that chains
   * the moment it sees `response.completed` always finds it.
   */
  keep: (response: ResponseObject, state: ContextState) => Promise<void>;
}

/** How queued steers end a response at a safe boundary (between output items, never inside one). */
export type SteerEnding =
  /** `incomplete` with `incomplete_details.reason: "steered"`; an automatic successor follows. */
  | 'steered'
  /** `completed`: its output holds calls whose outputs the client owns, so the steers wait for them. */
  | 'waiting';

/** What steering needs of a running response (steerDesk.ts). */
export interface TurnSteering {
  /** The response exists (its `response.created` went out): its id, and how to send an event in its stream. */
  created(id: string, emit: (event: Record<string, unknown>) => void): void;
  /** At a safe boundary, with the output so far: whether queued steers end the response here, and how. */
  boundary(output: readonly OutputItem[]): SteerEnding | undefined;
}

/** Server time spent on the request itself (parse and validation are measured by the transport). */
export interface TurnTiming {
  /** Rendering, tokenizing and cache lookups, in ms. */
  workMs: number;
  /** Simulated prefill delay, in ms. */
  prefillMs: number;
}

/** What a request's context came to, for observers (tests, the benchmark): the server's work behind `usage`. */
export interface TurnFigures {
  /** Tokens of the rendered input, header included (`usage.input_tokens`). */
  inputTokens: number;
  /** Tokens of the context the model answered from: `inputTokens`, or less after a compaction. */
  contextTokens: number;
  /** Tokens rendered and counted anew for this request: what the tokenizer actually did. */
  tokenizedTokens: number;
  /** The compaction the response began with: the tokens it replaced and its own. */
  compaction: { replacedTokens: number; summaryTokens: number } | null;
}

export type TurnOutcome =
  | {
      kind: 'completed';
      response: ResponseObject;
      state: ContextState;
      timing: TurnTiming;
      trace: string;
      figures: TurnFigures;
    }
  /** Refused before any event: the transport answers with this status and error. */
  | { kind: 'refused'; status: number; error: ApiError; retryAfterS: number | undefined; figures?: TurnFigures }
  | { kind: 'failed'; response: ResponseObject }
  | { kind: 'aborted' };

/** A request's `input` as items: a string is one user message. */
export function inputItems(input: ResponseRequest['input']): AnyInputItem[] {
  if (input === undefined) return [];
  return typeof input === 'string' ? [{ type: 'message', role: 'user', content: input }] : input;
}

/**
 * The request's context, counted: on top of the cached `base` when there is one, except after a replayed
 * compaction item, which supersedes what came before it — then the normalized whole is counted anew.
 */
function countContext(input: TurnInput, header: string): { counted: CountedContext; base: ContextState | undefined } {
  const fresh = [...input.reloaded, ...inputItems(input.request.input)];
  if (!fresh.some(isCompaction)) return { counted: extendContext(input.base, header, fresh), base: input.base };
  return {
    counted: extendContext(undefined, header, normalizeContext([...(input.base?.items ?? []), ...fresh])),
    base: undefined,
  };
}

/** What counting a request's context found, before anything is compacted. */
export function countedFigures(counted: CountedContext): TurnFigures {
  const inputTokens = counted.state.headerTokens + counted.state.itemTokens;
  return { inputTokens, contextTokens: inputTokens, tokenizedTokens: counted.tokenized, compaction: null };
}

/** Runs one response: counts its context, asks the scripted model, streams the answer at the simulated pace. */
export async function runTurn(deps: TurnDeps, input: TurnInput, sink: TurnSink): Promise<TurnOutcome> {
  const prepared = prepareTurn(deps, input);
  if (prepared.kind === 'refused') return prepared;
  const { fault } = prepared;
  if (fault?.kind === 'error' && fault.after_events === 0) {
    return { kind: 'refused', ...faultError(fault), retryAfterS: fault.retry_after_s };
  }
  return streamTurn(deps, input, prepared, new TurnEmitter(sink, fault, input.streamId));
}

/** What a response is answered from, worked out before its first event. */
interface PreparedTurn {
  kind: 'prepared';
  header: string;
  figures: TurnFigures;
  cachedTokens: number;
  /** The compaction the response begins with, and the prefill its new context costs. */
  compacted: CompactedContext | undefined;
  compactedPrefill: number;
  /** The context the model answers from (the compacted one, after a compaction). */
  context: ContextState;
  turn: ModelTurn;
  fault: Fault | undefined;
  workMs: number;
}

/** Counts the request's context, finds what is cached, compacts past the threshold and asks the model. */
function prepareTurn(deps: TurnDeps, input: TurnInput): PreparedTurn | Extract<TurnOutcome, { kind: 'refused' }> {
  const started = performance.now();
  const { request } = input;
  const header = renderHeader(request.instructions, request.tools);
  const { counted, base } = countContext(input, header);
  const figures = countedFigures(counted);
  const { inputTokens } = figures;
  if (inputTokens > deps.contextWindow)
    return { kind: 'refused', ...refusals.contextLengthExceeded(), retryAfterS: undefined, figures };
  const cachedTokens = cachedTokensOf(deps, counted, base, header, inputTokens);
  const generate = request.generate !== false;
  const { compacted, compactedPrefill } = compactPastThreshold(deps, request, { counted, header, figures, generate });
  const context = compacted?.counted.state ?? counted.state;
  const turn = generate ? deps.model.respond(context.items) : { output: [], fault: undefined, trace: 'warm-up' };
  const fault = input.fault ?? turn.fault;
  const workMs = performance.now() - started;
  return { kind: 'prepared', header, figures, cachedTokens, compacted, compactedPrefill, context, turn, fault, workMs };
}

/** Tokens of the context cached already, on the connection or in the prompt cache (which then holds it too). */
function cachedTokensOf(
  deps: TurnDeps,
  counted: CountedContext,
  base: ContextState | undefined,
  header: string,
  inputTokens: number,
): number {
  const fromConnection = base ? (base.header === header ? base.headerTokens : 0) + base.itemTokens : 0;
  const fromPromptCache = deps.promptCache.longestPrefix(counted.keys, counted.cumulative);
  deps.promptCache.insert(counted.keys, counted.cumulative);
  return Math.min(inputTokens, Math.max(fromConnection, fromPromptCache));
}

/**
 * The context compacted where the request asks for it past a threshold it crossed (`context_management`),
 * with `figures` updated. The compacted context is new to the model: its prefill is paid too, less what the
 * prompt cache holds.
 */
function compactPastThreshold(
  deps: TurnDeps,
  request: ResponseRequest,
  found: { counted: CountedContext; header: string; figures: TurnFigures; generate: boolean },
): { compacted: CompactedContext | undefined; compactedPrefill: number } {
  const { counted, header, figures } = found;
  const threshold = found.generate ? compactThreshold(request.context_management, deps.contextWindow) : undefined;
  const compacted =
    threshold !== undefined && figures.inputTokens > threshold ? compactContext(counted.state, header) : undefined;
  if (!compacted) return { compacted, compactedPrefill: 0 };
  const { keys, cumulative, state, tokenized } = compacted.counted;
  figures.contextTokens = state.headerTokens + state.itemTokens;
  figures.tokenizedTokens += tokenized;
  figures.compaction = { replacedTokens: compacted.replacedTokens, summaryTokens: compacted.summaryTokens };
  const compactedPrefill = figures.contextTokens - deps.promptCache.longestPrefix(keys, cumulative);
  deps.promptCache.insert(keys, cumulative);
  return { compacted, compactedPrefill };
}

/** The response's events at the simulated pace: created, its output item by item, then how it ended. */
async function streamTurn(
  deps: TurnDeps,
  input: TurnInput,
  prepared: PreparedTurn,
  emitter: TurnEmitter,
): Promise<TurnOutcome> {
  const { request } = input;
  const { figures, cachedTokens, compacted, compactedPrefill, fault } = prepared;
  const id = newId('resp');
  const createdAt = Math.floor(Date.now() / 1000);
  const snapshot = (status: ResponseObject['status'], output: OutputItem[], extra: Partial<ResponseObject> = {}) =>
    responseObject(id, createdAt, request, status, output, null, extra);
  const prefillMs = ((figures.inputTokens - cachedTokens + compactedPrefill) * deps.prefillUsPerToken) / 1000;
  const tps = fault?.kind === 'slow' ? deps.tps / fault.factor : deps.tps;
  const firstTokenAt = performance.now() + prefillMs;
  const pacer = new Pacer(firstTokenAt, tps);
  const budget: TokenBudget = { left: request.max_output_tokens ?? Infinity, used: 0 };
  const output: OutputItem[] = [];
  try {
    await emitter.emit({ type: 'response.created', response: snapshot('in_progress', []) });
    input.steering?.created(id, (event) => emitter.emitNow(event));
    await emitter.emit({ type: 'response.in_progress', response: snapshot('in_progress', []) });
    // The warm-up pays its prefill too: preparing that state is what makes the next turn cheap.
    await pacer.until(firstTokenAt);
    if (compacted)
      output.push((await streamCompaction(compacted.item, compacted.summaryTokens, 0, emitter, pacer, budget)).item);
    const end = await streamOutput(prepared.turn.output, output, { emitter, pacer, budget, steering: input.steering });
    const used = usage(figures.inputTokens, cachedTokens, budget.used);
    const final = responseObject(id, createdAt, request, end.status, output, used, {
      completed_at: Math.floor(Date.now() / 1000),
      incomplete_details: end.reason === undefined ? null : { reason: end.reason },
    });
    return await complete(deps, input, { prepared, final, output, emitter, prefillMs });
  } catch (error) {
    return failTurn(error, emitter, (failure) => snapshot('failed', output, failure));
  }
}

/** A response whose output is whole: kept (cache, store), then its terminal event. */
async function complete(
  deps: TurnDeps,
  input: TurnInput,
  done: {
    prepared: PreparedTurn;
    final: ResponseObject;
    output: OutputItem[];
    emitter: TurnEmitter;
    prefillMs: number;
  },
): Promise<TurnOutcome> {
  const { prepared, final, output } = done;
  const { context, header, compacted } = prepared;
  // The compaction item is already the last item of the compacted context.
  const after = extendContext(context, header, compacted ? output.slice(1) : output);
  deps.promptCache.insert(after.keys, after.cumulative);
  await input.keep(final, after.state);
  await done.emitter.emit({ type: `response.${final.status}`, response: final });
  const timing = { workMs: prepared.workMs, prefillMs: done.prefillMs };
  return {
    kind: 'completed',
    response: final,
    state: after.state,
    timing,
    trace: prepared.turn.trace,
    figures: prepared.figures,
  };
}

/** A response cut by the client (aborted) or failed by a fault: its `error` and `response.failed` events. */
function failTurn(
  error: unknown,
  emitter: TurnEmitter,
  failedResponse: (extra: Partial<ResponseObject>) => ResponseObject,
): TurnOutcome {
  if (error instanceof TurnAborted) return { kind: 'aborted' };
  if (!(error instanceof TurnFailed)) throw error;
  emitter.emitNow({ type: 'error', code: error.code, message: error.message, param: null });
  const failed = failedResponse({ error: { code: error.code, message: error.message } });
  emitter.emitNow({ type: 'response.failed', response: failed });
  return { kind: 'failed', response: failed };
}

/**
 * Streams the model's items after `output`'s (a compaction's) and says how the response ends: cut short by
 * `max_output_tokens`, ended by queued steers at the boundary before an item, or completed.
 */
async function streamOutput(
  items: readonly OutputItem[],
  output: OutputItem[],
  stream: { emitter: TurnEmitter; pacer: Pacer; budget: TokenBudget; steering: TurnSteering | undefined },
): Promise<{ status: 'completed' | 'incomplete'; reason?: string }> {
  for (const item of items) {
    const ending = stream.steering?.boundary(output);
    if (ending)
      return ending === 'steered' ? { status: 'incomplete', reason: STEERED_REASON } : { status: 'completed' };
    const streamed = await streamItem(item, output.length, stream.emitter, stream.pacer, stream.budget);
    output.push(streamed.item);
    if (streamed.truncated) return { status: 'incomplete', reason: 'max_output_tokens' };
  }
  return { status: 'completed' };
}
