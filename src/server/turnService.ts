import {
  type AnyInputItem,
  type CompactRequest,
  type ResponseObject,
  type ResponseRequest,
  previousResponseNotFound,
} from '../protocol';
import type { Refusal } from './apiErrors';
import { type CompactOutcome, runCompact } from './compactPass';
import { contextManagementRefusal } from './compaction';
import type { ConnectionCache } from './connectionCache';
import type { ContextState } from './contextState';
import type { FaultQueue } from './faults';
import { checkInput, unansweredCall } from './inputChecks';
import type { ResponseStore, StoredResponse } from './responseStore';
import {
  type TurnDeps,
  type TurnFigures,
  type TurnOutcome,
  type TurnSteering,
  inputItems,
  runTurn,
} from './responseTurn';
import type { TurnSink } from './turnEmitter';

/** One response's figures, for observers (tests, the benchmark) and the server log. */
export interface TurnRecord {
  transport: 'http' | 'ws';
  responseId: string | undefined;
  /** `compacted`: a `POST /v1/responses/compact` pass, which is no response (`responseId` undefined). */
  outcome: TurnOutcome['kind'] | 'not_found' | 'invalid' | 'compacted';
  /** Where the chain's state came from. */
  chainedFrom: 'none' | 'connection' | 'store';
  /**
   * A fork onto a new stream: the socket's response it chained from was made on another lane, this one
   * ('' the default lane). Absent otherwise.
   */
  forkedFrom?: string;
  /** Decoding and validating the request, in ms (measured by the transport). */
  parseMs: number;
  /** Loading the chain from the store, in ms. */
  loadMs: number;
  /** Rendering and tokenizing the context, cache lookups and the scripted model, in ms. */
  workMs: number;
  prefillMs: number;
  /** Tokens of the rendered input (`usage.input_tokens`; for a refusal, what it would have been). */
  inputTokens: number;
  cachedTokens: number;
  outputTokens: number;
  /** Tokens of the context the model answered from: `inputTokens`, or the compacted context's after one. */
  contextTokens: number;
  /** Tokens rendered and counted anew for this request: the tokenizer's part of `workMs`. */
  tokenizedTokens: number;
  /** The compaction this response began with (or the compact pass made): tokens replaced, and its own. */
  compaction: TurnFigures['compaction'];
  trace: string;
}

/** Refused before the turn ran: the transport answers with the refusal's error. */
export type Refused = { kind: 'not_found' | 'invalid'; refusal: Refusal };

/** What a transport does with a request once it is valid: resolve the chain, run the turn, keep the result. */
export class TurnService {
  constructor(
    private readonly deps: TurnDeps,
    private readonly store: ResponseStore,
    private readonly faults: FaultQueue,
    private readonly observe: (record: TurnRecord) => void,
  ) {}

  /**
   * Runs `request`. `cache` is the socket's (absent over HTTP). An unknown `previous_response_id` is refused
   * with the exact error of docs/protocol.md §3.3 before anything runs (`not_found`), and so is input the
   * API would refuse in that context (`invalid`): a tool output answering no call, a call left with no output
   * (when the request generates), a reasoning item's `encrypted_content` this server did not issue.
   */
  async run(
    request: ResponseRequest,
    transport: 'http' | 'ws',
    sink: TurnSink,
    options: { cache?: ConnectionCache; streamId?: string; parseMs: number; steering?: TurnSteering },
  ): Promise<TurnOutcome | Refused> {
    const unsupported = contextManagementRefusal(request.context_management);
    if (unsupported) {
      this.observe(this.record(transport, options.parseMs, 0, 'none', { kind: 'invalid' }));
      return { kind: 'invalid', refusal: unsupported };
    }
    const previousId = request.previous_response_id ?? undefined;
    let base: ContextState | undefined;
    let reloaded: Awaited<ReturnType<ResponseStore['loadChain']>> = [];
    let chainedFrom: TurnRecord['chainedFrom'] = 'none';
    let forkedFrom: string | undefined;
    const loadStarted = performance.now();
    if (previousId !== undefined) {
      base = options.cache?.get(previousId);
      if (base) {
        chainedFrom = 'connection';
        const lane = options.cache?.laneOf(previousId);
        if (lane !== undefined && lane !== (options.streamId ?? '')) forkedFrom = lane;
      } else {
        reloaded = await this.store.loadChain(previousId);
        chainedFrom = 'store';
      }
      if (!base && !reloaded) return this.notFound(transport, options.parseMs, previousId);
    }
    const loadMs = performance.now() - loadStarted;
    const context = base?.items ?? reloaded ?? [];
    const input = inputItems(request.input);
    const invalid =
      checkInput(context, input) ?? (request.generate === false ? undefined : unansweredCall(context, input));
    if (invalid) {
      this.observe(this.record(transport, options.parseMs, loadMs, chainedFrom, { kind: 'invalid' }));
      return { kind: 'invalid', refusal: invalid };
    }
    const keep = async (response: ResponseObject, state: ContextState): Promise<void> => {
      options.cache?.set(response.id, state, options.streamId);
      if (request.store !== false) await this.store.put(await this.stored(request, response, state, previousId));
    };
    const outcome = await runTurn(
      this.deps,
      {
        request,
        base,
        reloaded: reloaded ?? [],
        fault: this.faults.take(transport),
        streamId: options.streamId,
        steering: options.steering,
        keep,
      },
      sink,
    );
    const record = this.record(transport, options.parseMs, loadMs, chainedFrom, outcome);
    this.observe(forkedFrom === undefined ? record : { ...record, forkedFrom });
    return outcome;
  }

  /**
   * `POST /v1/responses/compact`: the stored chain `previous_response_id` names (there is no socket cache over
   * HTTP), then `input`, checked as a response's input is, compacted.
   */
  async compact(request: CompactRequest, parseMs: number): Promise<CompactOutcome | Refused> {
    const previousId = request.previous_response_id ?? undefined;
    let chain: AnyInputItem[] = [];
    const loadStarted = performance.now();
    if (previousId !== undefined) {
      const loaded = await this.store.loadChain(previousId);
      if (!loaded) return this.notFound('http', parseMs, previousId);
      chain = loaded;
    }
    const loadMs = performance.now() - loadStarted;
    const chainedFrom = previousId === undefined ? 'none' : 'store';
    const invalid = checkInput(chain, inputItems(request.input ?? undefined));
    if (invalid) {
      this.observe(this.record('http', parseMs, loadMs, chainedFrom, { kind: 'invalid' }));
      return { kind: 'invalid', refusal: invalid };
    }
    const outcome = await runCompact(this.deps, request, chain);
    this.observe(this.record('http', parseMs, loadMs, chainedFrom, outcome));
    return outcome;
  }

  private notFound(transport: 'http' | 'ws', parseMs: number, previousId: string): Refused {
    const event = previousResponseNotFound(previousId);
    this.observe(this.record(transport, parseMs, 0, 'store', { kind: 'not_found' }));
    return { kind: 'not_found', refusal: { status: event.status ?? 400, error: event.error } };
  }

  /** A store entry: only the new input when the parent is stored too (the chain is reloaded link by link). */
  private async stored(
    request: ResponseRequest,
    response: ResponseObject,
    state: ContextState,
    previousId: string | undefined,
  ): Promise<StoredResponse> {
    const parentStored = previousId !== undefined && (await this.store.has(previousId));
    const output = response.output ?? [];
    return {
      response,
      input: parentStored ? inputItems(request.input) : state.items.slice(0, state.items.length - output.length),
      parent: parentStored ? previousId : null,
    };
  }

  private record(
    transport: 'http' | 'ws',
    parseMs: number,
    loadMs: number,
    chainedFrom: TurnRecord['chainedFrom'],
    outcome: TurnOutcome | CompactOutcome | { kind: 'not_found' | 'invalid' },
  ): TurnRecord {
    const completed = outcome.kind === 'completed' ? outcome : undefined;
    const usage = outcome.kind === 'completed' || outcome.kind === 'compacted' ? outcome.response.usage : undefined;
    const figures = 'figures' in outcome ? outcome.figures : undefined;
    return {
      transport,
      responseId: completed?.response.id ?? (outcome.kind === 'failed' ? outcome.response.id : undefined),
      outcome: outcome.kind,
      chainedFrom,
      parseMs,
      loadMs,
      workMs: completed?.timing.workMs ?? (outcome.kind === 'compacted' ? outcome.workMs : 0),
      prefillMs: completed?.timing.prefillMs ?? 0,
      inputTokens: usage?.input_tokens ?? figures?.inputTokens ?? 0,
      cachedTokens: usage?.input_tokens_details?.cached_tokens ?? 0,
      outputTokens: usage?.output_tokens ?? 0,
      contextTokens: figures?.contextTokens ?? 0,
      tokenizedTokens: figures?.tokenizedTokens ?? 0,
      compaction: figures?.compaction ?? null,
      trace: completed?.trace ?? outcome.kind,
    };
  }
}
