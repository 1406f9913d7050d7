import {
  type AnyInputItem,
  ResponseSteerAcceptedEvent,
  ResponseSteerFailedEvent,
  ResponseSteerPendingEvent,
  parseWire,
} from '../../protocol';
import type { AgentEventSink } from '../events';
import type { WsChannel } from './wsChannel';

// Native steering (docs/protocol.md §13, docs/agent-loop.md "Native steering"): text for the running
// response goes out as `response.steer` on its socket, and this follows what becomes of it. Acceptance only
// means "do not send it again"; the text is in the conversation when a response naming the steered one as
// `previous_response_id` is created (the automatic successor, or the continuation sent after `pending`).
// Whatever the socket gives back, or may have lost, goes to the agent's tool boundary instead, so that the
// transcript holds each text once.

/** Where a native steer stands: sent (no answer yet), accepted, waiting for the tool outputs, committed. */
type SteerState = 'sent' | 'accepted' | 'pending' | 'committed';

interface NativeSteer {
  text: string;
  /** The response it was sent to (`previous_response_id`). */
  target: string;
  state: SteerState;
  /** The user message it is in the conversation, as the server makes a string steer into one. */
  message: AnyInputItem;
}

/** A frame's `type`, `stream_id` and, for `response.created`, the response's id and parent. */
interface FrameFacts {
  type: string | undefined;
  lane: string;
  id: string | undefined;
  parent: string | undefined;
}

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

function factsOf(value: unknown): FrameFacts {
  const frame = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  const response = (typeof frame.response === 'object' && frame.response !== null ? frame.response : {}) as Record<
    string,
    unknown
  >;
  return {
    type: str(frame.type),
    lane: str(frame.stream_id) ?? '',
    id: str(response.id),
    parent: str(response.previous_response_id),
  };
}

const TERMINAL = new Set(['response.completed', 'response.incomplete', 'response.failed']);

export class SteerClient {
  private channel: WsChannel | undefined;
  private unwatch: (() => void) | undefined;
  private lane = '';
  private turn = 1;
  private emit: AgentEventSink;
  /** The response of this lane that runs now (created, not ended): the one a steer can go to. */
  private running: string | undefined;
  private readonly steers: NativeSteer[] = [];
  /** Messages committed by a response's successor, by the steered response's id, for the exchange to take. */
  private readonly committed = new Map<string, NativeSteer[]>();
  /** Steers whose messages the running exchange took: back to the boundary if it faults. */
  private taken: NativeSteer[] = [];
  /** The exchange waiting to learn whether a successor follows its response: told once every steer is decided. */
  private waiter: (() => void) | undefined;

  /** `toBoundary` takes text the socket gave back or may have lost: the agent delivers it itself. */
  constructor(
    private readonly toBoundary: (text: string) => void,
    emit: AgentEventSink,
  ) {
    this.emit = emit;
  }

  /** An exchange of turn `turn` starts on `channel`'s `lane`: frames are read there from now on. */
  begin(channel: WsChannel, lane: string | undefined, turn: number, emit: AgentEventSink): void {
    if (this.channel !== channel) {
      this.unwatch?.();
      this.channel = channel;
      this.unwatch = channel.watch((value) => this.onFrame(value));
      this.running = undefined;
    }
    this.lane = lane ?? '';
    this.turn = turn;
    this.taken = [];
    this.emit = emit;
  }

  /**
   * Sends `text` to the running response, or to one that waits for its calls' outputs holding steers
   * `pending` (while a call waits for its approval): there it is pending too, and the continuation commits
   * them all in the order they were sent — at the boundary it would land before the ones sent earlier.
   * False when neither is there on an open socket (the boundary takes it).
   */
  steer(text: string): boolean {
    const { channel } = this;
    const target = this.running ?? this.steers.find((steer) => steer.state === 'pending')?.target;
    if (!channel || channel.closed || target === undefined) return false;
    if (channel.post({ type: 'response.steer', previous_response_id: target, input: text }) === 0) return false;
    const message: AnyInputItem = { type: 'message', role: 'user', content: text };
    this.steers.push({ text, target, state: 'sent', message });
    return true;
  }

  /**
   * The exchange's response ended: whether it waits still (it was steered, or a steer sent to it, or to a
   * response before it, has no answer yet). Then `settle` is called once every steer is decided and no
   * successor came. A steer sent to an earlier response (the client had not yet read that it ended) is
   * refused by the server, maybe only after this one ended: the exchange waits for that answer, so that the
   * text reaches the boundary and the task takes one more turn for it, rather than ending without it.
   */
  awaitSuccessor(settle: () => void): boolean {
    if (!this.steers.some(isUndecided)) return false;
    this.waiter = settle;
    return true;
  }

  /** The user messages that a response created as the successor (or continuation) of `parent` committed. */
  takeCommitted(parent: string): AnyInputItem[] {
    const steers = this.committed.get(parent) ?? [];
    this.committed.delete(parent);
    this.taken.push(...steers);
    return steers.map((steer) => steer.message);
  }

  /**
   * The exchange is over. After a fault (a lost socket, a stall, a cancel) what became of its steers is
   * unknown, and what the server held is gone with the chain: each goes to the boundary, committed or not,
   * and is forgotten here, so that no late frame commits it a second time.
   */
  end(faulted: boolean): void {
    this.waiter = undefined;
    this.running = undefined;
    if (!faulted) {
      this.taken = [];
      return;
    }
    const committed = [...this.committed.values()].flat();
    this.committed.clear();
    const lost = [...this.taken, ...committed, ...this.steers.filter(isOpen)];
    this.steers.length = 0;
    this.taken = [];
    for (const steer of lost) this.toBoundary(steer.text);
  }

  /** The task is over: the texts no response took, forgotten here and handed back. */
  abandon(): string[] {
    const texts = this.steers.filter(isOpen).map((steer) => steer.text);
    this.steers.length = 0;
    this.committed.clear();
    return texts;
  }

  private onFrame(value: unknown): void {
    const facts = factsOf(value);
    if (facts.type === 'response.steer.accepted') return this.accepted(value);
    if (facts.type === 'response.steer.pending') return this.pending(value);
    if (facts.type === 'response.steer.failed') return this.failed(value);
    if (facts.lane !== this.lane) return;
    if (facts.type === 'response.created') this.created(facts);
    else if (facts.type !== undefined && TERMINAL.has(facts.type) && facts.id === this.running)
      this.running = undefined;
  }

  /** A response of this lane starts: what was accepted or pending on its parent is committed now. */
  private created({ id, parent }: FrameFacts): void {
    this.running = id;
    for (const steer of this.steers) {
      if (steer.state !== 'accepted' && steer.state !== 'pending') continue;
      if (steer.target === parent) {
        steer.state = 'committed';
        this.committed.set(parent, [...(this.committed.get(parent) ?? []), steer]);
        this.emit({ type: 'steered', turn: this.turn, text: steer.text, how: 'native' });
      } else if (steer.state === 'pending') {
        // The continuation did not name the waiting response: the server keeps the text there, unsent.
        this.giveBack(steer);
      }
    }
    this.forgetSettled();
  }

  private accepted(value: unknown): void {
    const event = parseWire(ResponseSteerAcceptedEvent, value);
    const steer = event.ok ? this.oldestOpen(event.value.steer.previous_response_id, 'sent') : undefined;
    if (steer) steer.state = 'accepted';
  }

  /** The response stopped for tool outputs: the text waits there for the continuation the agent sends anyway. */
  private pending(value: unknown): void {
    const event = parseWire(ResponseSteerPendingEvent, value);
    if (!event.ok) return;
    const target = event.value.steer.previous_response_id;
    const steer = this.oldestOpen(target, 'accepted') ?? this.oldestOpen(target, 'sent');
    if (steer) steer.state = 'pending';
    this.settleIfDecided();
  }

  /** Refused, or accepted and then not committed: the input comes back, for the boundary. */
  private failed(value: unknown): void {
    const event = parseWire(ResponseSteerFailedEvent, value);
    if (!event.ok) return;
    const target = event.value.steer.previous_response_id;
    // A failure with an id was accepted first; one without was refused on arrival.
    const [first, then]: [SteerState, SteerState] =
      event.value.steer.id === undefined ? ['sent', 'accepted'] : ['accepted', 'sent'];
    const steer = this.oldestOpen(target, first) ?? this.oldestOpen(target, then);
    if (steer) this.giveBack(steer);
    this.settleIfDecided();
  }

  private giveBack(steer: NativeSteer): void {
    this.steers.splice(this.steers.indexOf(steer), 1);
    this.toBoundary(steer.text);
  }

  private oldestOpen(target: string, state: SteerState): NativeSteer | undefined {
    return this.steers.find((steer) => steer.target === target && steer.state === state);
  }

  /** No steer can bring a successor any more: the exchange waiting on its response ends. */
  private settleIfDecided(): void {
    const settle = this.waiter;
    if (!settle || this.steers.some(isUndecided)) return;
    this.waiter = undefined;
    settle();
  }

  private forgetSettled(): void {
    const open = this.steers.filter((steer) => steer.state !== 'committed');
    this.steers.length = 0;
    this.steers.push(...open);
  }
}

/** A steer with no answer that decides it yet: a successor may still commit it. */
function isUndecided(steer: NativeSteer): boolean {
  return steer.state === 'sent' || steer.state === 'accepted';
}

/** A steer that has not been committed, nor given back: it may still reach the model. */
function isOpen(steer: NativeSteer): boolean {
  return steer.state !== 'committed';
}
