import { type ResponseObject, type ResponseRequest, previousResponseNotFound } from '../protocol';
import type { Refusal } from './apiErrors';
import type { ConnectionCache } from './connectionCache';
import type { ContextState } from './contextState';
import type { FaultQueue } from './faults';
import { checkInput } from './inputChecks';
import type { ResponseStore, StoredResponse } from './responseStore';
import { type TurnDeps, type TurnOutcome, inputItems, runTurn } from './responseTurn';
import type { TurnSink } from './turnEmitter';

/** One response's figures, for observers (tests, the benchmark) and the server log. */
export interface TurnRecord {
  transport: 'http' | 'ws';
  responseId: string | undefined;
  outcome: TurnOutcome['kind'] | 'not_found' | 'invalid';
  /** Where the chain's state came from. */
  chainedFrom: 'none' | 'connection' | 'store';
  /** Decoding and validating the request, in ms (measured by the transport). */
  parseMs: number;
  /** Loading the chain from the store, in ms. */
  loadMs: number;
  /** Rendering and tokenizing the context, cache lookups and the scripted model, in ms. */
  workMs: number;
  prefillMs: number;
  inputTokens: number;
  cachedTokens: number;
  outputTokens: number;
  trace: string;
}

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
   * API would refuse in that context (`invalid`): a tool output answering no call, a reasoning item's
   * `encrypted_content` this server did not issue.
   */
  async run(
    request: ResponseRequest,
    transport: 'http' | 'ws',
    sink: TurnSink,
    options: { cache?: ConnectionCache; streamId?: string; parseMs: number },
  ): Promise<TurnOutcome | { kind: 'not_found' | 'invalid'; refusal: Refusal }> {
    const previousId = request.previous_response_id ?? undefined;
    let base: ContextState | undefined;
    let reloaded: Awaited<ReturnType<ResponseStore['loadChain']>> = [];
    let chainedFrom: TurnRecord['chainedFrom'] = 'none';
    const loadStarted = performance.now();
    if (previousId !== undefined) {
      base = options.cache?.get(previousId);
      if (base) chainedFrom = 'connection';
      else {
        reloaded = await this.store.loadChain(previousId);
        chainedFrom = 'store';
      }
      if (!base && !reloaded) {
        const event = previousResponseNotFound(previousId);
        this.observe(this.record(transport, options.parseMs, 0, chainedFrom, { kind: 'not_found' }));
        return { kind: 'not_found', refusal: { status: event.status ?? 400, error: event.error } };
      }
    }
    const loadMs = performance.now() - loadStarted;
    const invalid = checkInput(base?.items ?? reloaded ?? [], inputItems(request.input));
    if (invalid) {
      this.observe(this.record(transport, options.parseMs, loadMs, chainedFrom, { kind: 'invalid' }));
      return { kind: 'invalid', refusal: invalid };
    }
    const keep = async (response: ResponseObject, state: ContextState): Promise<void> => {
      options.cache?.set(response.id, state);
      if (request.store !== false) await this.store.put(await this.stored(request, response, state, previousId));
    };
    const outcome = await runTurn(
      this.deps,
      { request, base, reloaded: reloaded ?? [], fault: this.faults.take(transport), streamId: options.streamId, keep },
      sink,
    );
    this.observe(this.record(transport, options.parseMs, loadMs, chainedFrom, outcome));
    return outcome;
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
    outcome: TurnOutcome | { kind: 'not_found' | 'invalid' },
  ): TurnRecord {
    const completed = outcome.kind === 'completed' ? outcome : undefined;
    const usage = completed?.response.usage;
    return {
      transport,
      responseId: completed?.response.id ?? (outcome.kind === 'failed' ? outcome.response.id : undefined),
      outcome: outcome.kind,
      chainedFrom,
      parseMs,
      loadMs,
      workMs: completed?.timing.workMs ?? 0,
      prefillMs: completed?.timing.prefillMs ?? 0,
      inputTokens: usage?.input_tokens ?? 0,
      cachedTokens: usage?.input_tokens_details.cached_tokens ?? 0,
      outputTokens: usage?.output_tokens ?? 0,
      trace: completed?.trace ?? outcome.kind,
    };
  }
}
