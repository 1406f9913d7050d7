import type { AnyInputItem, ResponseCreateEvent, SteerErrorCode, SteerRequiredInput } from '../protocol';
import { STEERED_REASON } from '../protocol';
import type { Refusal } from './apiErrors';
import { newId } from './ids';
import { type TurnOutcome, type TurnSteering, inputItems } from './responseTurn';
import { type SteerRef, requiredInputOf, steerAccepted, steerFailed, steerPending } from './steerEvents';
import { readSteer, steeringUnsupported } from './steerRules';
import type { Refused } from './turnService';

// Steering on one socket (docs/protocol.md §13.3): which responses take steers, their queues, and what follows
// a response that ends with steers queued — an automatic successor, `pending` while its calls wait for their
// outputs, or the input returned in `response.steer.failed`.

/** Steers one response may hold queued; one more is refused with `too_many_pending_steers`. */
export const MAX_PENDING_STEERS = 4;
/** Ended responses remembered per socket, so that a late steer hears why it is refused, not `not found`. */
const REMEMBERED = 256;

type Emit = (event: Record<string, unknown>) => void;

/** A steer the server owns: its id, what it returns on failure, and the user messages a successor gets. */
interface QueuedSteer {
  ref: SteerRef;
  input: unknown;
  items: AnyInputItem[];
}

/** A response of this socket, as steering sees it. */
export interface Target {
  id: string;
  /** The request that started it, less its input: the settings an automatic successor inherits. */
  request: ResponseCreateEvent;
  /** Sends an event in the response's stream: numbered after its own, on its lane. */
  emit: Emit;
  /**
   * `running` takes steers; `waiting` (completed, its calls' outputs owed by the client) takes them too, each
   * answered `pending`, until the client continues it; `completed` and `inactive` take none.
   */
  phase: 'running' | 'waiting' | 'completed' | 'inactive';
  queue: QueuedSteer[];
  /** The stubs a `waiting` response waits for. */
  required: SteerRequiredInput[];
}

/** A turn a lane runs: the client's request, or an automatic successor, with the steers its input begins with. */
export interface SteeredTurn {
  request: ResponseCreateEvent;
  /** Steers committed by this turn's `response.created`, or returned if it never comes. */
  carried?: { parent: Target; steers: QueuedSteer[] };
  /** An automatic successor: nobody asked for it, so a refusal is told through its steers alone. */
  automatic: boolean;
}

/** One run of a turn, as steering follows it: the hooks runTurn calls, and the response once created. */
export interface SteeredRun extends TurnSteering {
  readonly turn: SteeredTurn;
  target: Target | undefined;
}

export class SteerDesk {
  private readonly targets = new Map<string, Target>();

  /** `send` carries an event of no response's stream (a steer to an unknown one), `refuse` an `error` event. */
  constructor(
    private readonly send: Emit,
    private readonly refuse: (refusal: Refusal) => void,
  ) {}

  /** Answers a `response.steer` frame: refused at once, or accepted (and `pending` on a waiting response). */
  submit(frame: Record<string, unknown>): void {
    const reading = readSteer(frame);
    if (reading.kind === 'malformed') return this.refuse(reading.refusal);
    const previousId = reading.kind === 'steer' ? reading.event.previous_response_id : reading.previousId;
    const input = reading.kind === 'steer' ? reading.event.input : reading.input;
    const target = this.targets.get(previousId);
    const emit = target?.emit ?? ((event: Record<string, unknown>) => this.send({ ...event, sequence_number: 0 }));
    const fail = (code: SteerErrorCode, message: string) =>
      emit(steerFailed(code, message, { previous_response_id: previousId, input }));
    if (reading.kind === 'invalid') return fail('invalid_input', reading.message);
    if (!target) return fail('response_not_found', `Response '${previousId}' is not available on this connection.`);
    const refused = refusalOf(target);
    if (refused) return fail(...refused);
    const steer = { ref: { id: newId('steer'), previous_response_id: target.id }, input, items: reading.items };
    target.queue.push(steer);
    target.emit(steerAccepted(steer.ref));
    if (target.phase === 'waiting') target.emit(steerPending(steer.ref, target.required));
  }

  /**
   * The client's `response.create`, as its lane runs it: continuing a response that waits for its calls'
   * outputs, its input begins with that response's queued steers, in the order they came.
   */
  explicit(request: ResponseCreateEvent): SteeredTurn {
    const parent = this.targets.get(request.previous_response_id ?? '');
    if (parent?.phase !== 'waiting') return { request, automatic: false };
    parent.phase = 'inactive';
    const steers = parent.queue.splice(0);
    if (steers.length === 0) return { request, carried: { parent, steers }, automatic: false };
    const input = [...steers.flatMap((steer) => steer.items), ...inputItems(request.input)];
    return { request: { ...request, input }, carried: { parent, steers }, automatic: false };
  }

  /** Follows one run of `turn`: its response takes steers from its `response.created` on. */
  start(turn: SteeredTurn): SteeredRun {
    const run: SteeredRun = {
      turn,
      target: undefined,
      created: (id, emit) => {
        // Its settings without its input, which a successor replaces: a socket remembers many responses.
        const request = { ...turn.request, input: undefined };
        run.target = this.remember({ id, request, emit, phase: 'running', queue: [], required: [] });
        // The commit point: the carried steers are this response's input now. A parent continued by the
        // client is done with; an automatic successor's parent kept the phase it ended in.
        if (turn.carried && !turn.automatic) turn.carried.parent.phase = 'completed';
      },
      boundary: (output) => {
        if (!run.target || run.target.queue.length === 0) return undefined;
        return requiredInputOf(output).length > 0 ? 'waiting' : 'steered';
      },
    };
    return run;
  }

  /**
   * After a run: the turn that must follow it on its lane (an automatic successor carrying the queued
   * steers), or undefined. Sends `pending` for a response that waits for its calls' outputs, and returns
   * the steers that can no longer be committed in `response.steer.failed`.
   */
  settle(run: SteeredRun, outcome: TurnOutcome | Refused | undefined): SteeredTurn | undefined {
    const target = run.target;
    if (!target) return this.uncommitted(run.turn, outcome);
    const response = outcome?.kind === 'completed' ? outcome.response : undefined;
    const required = response?.status === 'completed' ? requiredInputOf(response.output ?? []) : [];
    if (required.length > 0) {
      target.phase = 'waiting';
      target.required = required;
      for (const steer of target.queue) target.emit(steerPending(steer.ref, required));
      return undefined;
    }
    target.phase = response?.status === 'completed' ? 'completed' : 'inactive';
    const steers = target.queue.splice(0);
    if (steers.length === 0) return undefined;
    // Normal completion is followed by a successor too; a response that failed or ran out of tokens is not.
    if (response?.status === 'completed' || response?.incomplete_details?.reason === STEERED_REASON) {
      // It inherits the settings (model, tools, instructions, lane…) and continues from the response.
      const input = steers.flatMap((steer) => steer.items);
      const request = { ...target.request, generate: undefined, previous_response_id: target.id, input };
      return { request, carried: { parent: target, steers }, automatic: true };
    }
    const message = `Response '${target.id}' ended ${response?.status ?? 'without completing'} before the steer was applied.`;
    for (const steer of steers) target.emit(steerFailed('response_not_active', message, failedRef(steer)));
    return undefined;
  }

  /** A turn whose response was never created: the steers it carried come back to the client. */
  private uncommitted(turn: SteeredTurn, outcome: TurnOutcome | Refused | undefined): undefined {
    if (!turn.carried) return undefined;
    const { parent, steers } = turn.carried;
    // A continuation the client sent and the server refused: the parent still waits for one.
    if (!turn.automatic) parent.phase = 'waiting';
    const message = `The successor response could not be created: ${reasonOf(outcome)}`;
    for (const steer of steers) parent.emit(steerFailed('successor_creation_failed', message, failedRef(steer)));
    return undefined;
  }

  private remember(target: Target): Target {
    this.targets.set(target.id, target);
    for (const [id, old] of this.targets) {
      if (this.targets.size <= REMEMBERED) break;
      if (old.phase === 'completed' || old.phase === 'inactive') this.targets.delete(id);
    }
    return target;
  }
}

/** Why `target` takes no steer now, as a code and a message; undefined when it takes one. */
function refusalOf(target: Target): [SteerErrorCode, string] | undefined {
  const unsupported = steeringUnsupported(target.request);
  if (unsupported) return ['steering_not_supported', unsupported];
  if (target.phase === 'completed')
    return ['response_already_completed', `Response '${target.id}' has completed and takes no more steering input.`];
  if (target.phase === 'inactive')
    return ['response_not_active', `Response '${target.id}' is no longer accepting steering input.`];
  if (target.queue.length >= MAX_PENDING_STEERS)
    return ['too_many_pending_steers', `Response '${target.id}' already holds ${MAX_PENDING_STEERS} pending steers.`];
  return undefined;
}

function failedRef(steer: QueuedSteer) {
  return { ...steer.ref, input: steer.input };
}

function reasonOf(outcome: TurnOutcome | Refused | undefined): string {
  if (outcome === undefined) return 'the server failed.';
  switch (outcome.kind) {
    case 'refused':
      return outcome.error.message;
    case 'not_found':
    case 'invalid':
      return outcome.refusal.error.message;
    default:
      return `it ended ${outcome.kind} before it began.`;
  }
}
