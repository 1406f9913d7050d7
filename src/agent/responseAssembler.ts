import {
  type AnyOutputItem,
  AnyOutputItem as OutputItemSchema,
  ErrorEvent,
  type ResponseObject,
  ResponseObject as ResponseObjectSchema,
  errorDetails,
  isWsErrorEvent,
  parseWire,
} from '../protocol';
import type { AgentEventSink } from './events';
import { type TransportFault, parseRetryAfter } from './transportFault';

// One response's events, however they travel (WebSocket frames, SSE `data:`): deltas go out as agent
// events as they arrive, finished items are kept by output index, and the terminal event settles it.

/** What one accepted event means for the response. */
export type AssemblerStep =
  | { kind: 'continue' }
  | { kind: 'done'; response: ResponseObject; output: AnyOutputItem[] }
  | { kind: 'fault'; fault: TransportFault };

const CONTINUE: AssemblerStep = { kind: 'continue' };

interface ItemInfo {
  name: string;
  kind: 'function' | 'custom';
  callId: string | undefined;
}

type EventRecord = Record<string, unknown> & { type: string };

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

export class ResponseAssembler {
  /** When the first event and the first output delta arrived (performance.now()), if they have. */
  firstEventAt: number | undefined;
  firstDeltaAt: number | undefined;
  private readonly done = new Map<number, AnyOutputItem>();
  private readonly calls = new Map<string, ItemInfo>();
  private malformed = 0;
  /** The id `response.created` announced: the terminal event must carry the same one. */
  private responseId: string | undefined;

  constructor(
    private readonly turn: number,
    private readonly emit: AgentEventSink,
  ) {}

  /** Whether any event of this response has arrived. */
  get started(): boolean {
    return this.firstEventAt !== undefined;
  }

  /** A frame that could not be read: not fatal while the terminal event can still make up for it. */
  acceptMalformed(): void {
    this.firstEventAt ??= performance.now();
    this.malformed++;
  }

  accept(value: unknown): AssemblerStep {
    this.firstEventAt ??= performance.now();
    if (typeof value !== 'object' || value === null || typeof (value as { type?: unknown }).type !== 'string') {
      this.malformed++;
      return CONTINUE;
    }
    const event = value as EventRecord;
    switch (event.type) {
      case 'response.created':
        this.responseId ??= str((event.response as { id?: unknown } | undefined)?.id);
        return CONTINUE;
      case 'response.output_item.added':
        this.noteItem(event.item);
        return CONTINUE;
      case 'response.output_text.delta':
        return this.delta(event, 'text_delta');
      case 'response.reasoning_summary_text.delta':
      case 'response.reasoning_text.delta':
        return this.delta(event, 'reasoning_delta');
      case 'response.function_call_arguments.delta':
      case 'response.custom_tool_call_input.delta':
        return this.toolDelta(event);
      case 'response.output_item.done':
        return this.itemDone(event);
      case 'response.completed':
      case 'response.incomplete':
        return this.terminal(event);
      case 'response.failed':
        return this.failed(event);
      case 'error':
        return this.error(event);
      default:
        return CONTINUE;
    }
  }

  private noteItem(item: unknown): void {
    if (typeof item !== 'object' || item === null) return;
    const record = item as Record<string, unknown>;
    const id = str(record.id);
    const type = record.type;
    if (id === undefined || (type !== 'function_call' && type !== 'custom_tool_call')) return;
    this.calls.set(id, {
      name: str(record.name) ?? '',
      kind: type === 'function_call' ? 'function' : 'custom',
      callId: str(record.call_id),
    });
  }

  private delta(event: EventRecord, type: 'text_delta' | 'reasoning_delta'): AssemblerStep {
    const delta = str(event.delta);
    if (delta === undefined) return CONTINUE;
    this.firstDeltaAt ??= performance.now();
    this.emit({ type, turn: this.turn, itemId: str(event.item_id) ?? '', delta });
    return CONTINUE;
  }

  private toolDelta(event: EventRecord): AssemblerStep {
    const delta = str(event.delta);
    if (delta === undefined) return CONTINUE;
    this.firstDeltaAt ??= performance.now();
    const itemId = str(event.item_id) ?? '';
    const info = this.calls.get(itemId);
    const kind = event.type === 'response.function_call_arguments.delta' ? 'function' : 'custom';
    this.emit({
      type: 'tool_call_delta',
      turn: this.turn,
      itemId,
      ...(info?.callId === undefined ? {} : { callId: info.callId }),
      name: info?.name ?? '',
      kind: info?.kind ?? kind,
      delta,
    });
    return CONTINUE;
  }

  private itemDone(event: EventRecord): AssemblerStep {
    const index = event.output_index;
    const item = parseWire(OutputItemSchema, event.item);
    if (typeof index !== 'number' || !item.ok) {
      this.malformed++;
      return CONTINUE;
    }
    this.done.set(index, item.value);
    return CONTINUE;
  }

  private terminal(event: EventRecord): AssemblerStep {
    const response = parseWire(ResponseObjectSchema, event.response);
    if (!response.ok) return { kind: 'fault', fault: { kind: 'malformed', message: response.error.message } };
    // A terminal event for another response (a late one of an abandoned request on this lane) must not be
    // taken for this one's: its calls would run as this turn's. Resent, so nothing runs twice or is lost.
    if (this.responseId !== undefined && response.value.id !== this.responseId)
      return {
        kind: 'fault',
        fault: {
          kind: 'malformed',
          message: `${event.type} carries response ${response.value.id}, but this request's is ${this.responseId}`,
        },
      };
    // The terminal response is authoritative; finished items fill an omitted output (docs/protocol.md §2.6).
    // With frames lost to malformation and no output to fall back on, the response cannot be trusted.
    const given = response.value.output;
    if (given === undefined && this.malformed > 0) {
      return {
        kind: 'fault',
        fault: {
          kind: 'malformed',
          message: `${this.malformed} frame(s) could not be read and the response has no output`,
        },
      };
    }
    const output = given ?? [...this.done.entries()].sort(([a], [b]) => a - b).map(([, item]) => item);
    return { kind: 'done', response: response.value, output };
  }

  private failed(event: EventRecord): AssemblerStep {
    const response = parseWire(ResponseObjectSchema, event.response);
    const failure = response.ok ? response.value.error : undefined;
    return {
      kind: 'fault',
      fault: { kind: 'response_failed', code: failure?.code ?? null, message: failure?.message ?? 'no reason given' },
    };
  }

  private error(event: EventRecord): AssemblerStep {
    const parsed = parseWire(ErrorEvent, event);
    if (!parsed.ok)
      return { kind: 'fault', fault: { kind: 'malformed', message: `an error event: ${parsed.error.message}` } };
    const details = errorDetails(parsed.value);
    const retryAfter = isWsErrorEvent(parsed.value)
      ? (parsed.value.headers?.['retry-after'] ?? parsed.value.error.headers?.['retry-after'])
      : undefined;
    return {
      kind: 'fault',
      fault: {
        kind: 'api_error',
        error: details,
        retryAfterMs: parseRetryAfter(retryAfter),
        midStream: this.done.size > 0,
      },
    };
  }
}
