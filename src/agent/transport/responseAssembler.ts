import {
  type AnyOutputItem,
  AnyOutputItem as OutputItemSchema,
  ErrorEvent,
  type ResponseObject,
  ResponseObject as ResponseObjectSchema,
  errorDetails,
  parseWire,
} from '../../protocol';
import type { AgentEventSink } from '../events';
import { type TransportFault, serverDelayMs } from './transportFault';

// One response's events, however they travel (WebSocket frames, SSE `data:`): deltas go out as agent
// events as they arrive, finished items are kept by output index, and the terminal event settles it.

/** What one accepted event means for the response. */
export type AssemblerStep =
  | { kind: 'continue' }
  | { kind: 'done'; response: ResponseObject; output: AnyOutputItem[] }
  | { kind: 'fault'; fault: TransportFault };

const CONTINUE: AssemblerStep = { kind: 'continue' };

/** What the stream said of one output item, by `output_index`. */
interface ItemInfo {
  /** The id its first event gave it: every later event of the item is told by this one, whatever id it carries. */
  id: string;
  name: string;
  kind: 'function' | 'custom' | undefined;
  callId: string | undefined;
  /** A message's `phase` (`commentary` for a progress note), when the server says. */
  phase: string | undefined;
}

type EventRecord = Record<string, unknown> & { type: string };

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const index = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;

export class ResponseAssembler {
  /** When the first event and the first output delta arrived (performance.now()), if they have. */
  firstEventAt: number | undefined;
  firstDeltaAt: number | undefined;
  private readonly done = new Map<number, AnyOutputItem>();
  /**
   * Item state by `output_index`, never by `item_id`: a server may rename an item between its events (GitHub
   * Copilot's Responses API gives every event a new id), and the index is what stays.
   */
  private readonly items = new Map<number, ItemInfo>();
  private malformed = 0;

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
      case 'response.output_item.added':
        this.noteItem(event.output_index, event.item);
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

  private noteItem(at: unknown, item: unknown): void {
    const position = index(at);
    if (position === undefined || typeof item !== 'object' || item === null) return;
    const record = item as Record<string, unknown>;
    const type = record.type;
    this.items.set(position, {
      id: str(record.id) ?? `item_${position}`,
      name: str(record.name) ?? '',
      kind: type === 'function_call' ? 'function' : type === 'custom_tool_call' ? 'custom' : undefined,
      callId: str(record.call_id),
      phase: type === 'message' ? str(record.phase) : undefined,
    });
  }

  /** The item an event belongs to: the one its `output_index` names, first met here when none was added. */
  private itemOf(event: EventRecord): ItemInfo {
    const position = index(event.output_index) ?? -1;
    let info = this.items.get(position);
    if (!info) {
      info = {
        id: str(event.item_id) ?? `item_${position}`,
        name: '',
        kind: undefined,
        callId: undefined,
        phase: undefined,
      };
      this.items.set(position, info);
    }
    return info;
  }

  private delta(event: EventRecord, type: 'text_delta' | 'reasoning_delta'): AssemblerStep {
    const delta = str(event.delta);
    if (delta === undefined) return CONTINUE;
    this.firstDeltaAt ??= performance.now();
    const item = this.itemOf(event);
    this.emit({
      type,
      turn: this.turn,
      itemId: item.id,
      delta,
      ...(type === 'text_delta' && item.phase !== undefined ? { phase: item.phase } : {}),
    });
    return CONTINUE;
  }

  private toolDelta(event: EventRecord): AssemblerStep {
    const delta = str(event.delta);
    if (delta === undefined) return CONTINUE;
    this.firstDeltaAt ??= performance.now();
    const info = this.itemOf(event);
    const kind = event.type === 'response.function_call_arguments.delta' ? 'function' : 'custom';
    this.emit({
      type: 'tool_call_delta',
      turn: this.turn,
      itemId: info.id,
      ...(info.callId === undefined ? {} : { callId: info.callId }),
      name: info.name,
      kind: info.kind ?? kind,
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
    // Its id may differ from `response.created`'s (a server that renames ids between events): the terminal
    // one is what the server knows the response by. A late terminal event of an abandoned response never
    // reaches here: the socket drops its lane's events until the next response starts (wsChannel.ts).
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
    return {
      kind: 'fault',
      fault: {
        kind: 'api_error',
        error: details,
        retryAfterMs: serverDelayMs(details.headers, details.message),
        midStream: this.done.size > 0,
      },
    };
  }
}
