import type { AnyInputItem, AnyOutputItem } from '../../protocol';
import type { AssemblerStep, ResponseAssembler } from './responseAssembler';
import type { SteerClient } from './steerClient';

// One exchange on a socket where the agent steers natively: a response a steer ended (`incomplete`,
// `steered`), or one a steer reached during its last item, is not the turn's answer — its automatic
// successor follows on the same lane and continues it. This reads the lane's frames across those
// responses: each one steered is kept as a segment (its output, then the steers its successor committed),
// and the last response's end is the exchange's.

/** A response of the turn that a steer ended, and the user messages its successor took as input. */
export interface SteeredSegment {
  output: AnyOutputItem[];
  steers: AnyInputItem[];
}

type Done = Extract<AssemblerStep, { kind: 'done' }>;

const CONTINUE: AssemblerStep = { kind: 'continue' };

/** A `response.created` frame's response id and parent, else undefined. */
function createdOf(value: unknown): { id: unknown; parent: unknown } | undefined {
  const frame = value as { type?: unknown; response?: { id?: unknown; previous_response_id?: unknown } } | null;
  if (frame?.type !== 'response.created') return undefined;
  return { id: frame.response?.id, parent: frame.response?.previous_response_id };
}

export class SuccessorFollower {
  /** What came before the current response in this exchange. */
  readonly segments: SteeredSegment[] = [];
  private current: ResponseAssembler;
  /** A response that ended while a successor may still come for it. */
  private held: Done | undefined;
  private settled: ((step: AssemblerStep) => void) | undefined;

  constructor(
    first: ResponseAssembler,
    private readonly client: SteerClient,
    private readonly fresh: () => ResponseAssembler,
  ) {
    this.current = first;
  }

  /** Where the held response goes once it is known that no successor follows it. */
  onSettled(finish: (step: AssemblerStep) => void): void {
    this.settled = finish;
  }

  /** One frame of the lane: CONTINUE while the exchange goes on, else its end. */
  accept(value: unknown): AssemblerStep {
    const created = createdOf(value);
    if (created && typeof created.parent === 'string') this.follow(created.parent);
    // While waiting, a frame of no successor (a late one of another response) is none of this exchange's.
    if (this.held) return CONTINUE;
    const step = this.current.accept(value);
    if (step.kind !== 'done') return step;
    if (!this.client.awaitSuccessor(() => this.settle())) return step;
    this.held = step;
    return CONTINUE;
  }

  /** The responses this exchange streamed, the last one excepted. */
  private follow(parent: string): void {
    const held = this.held;
    if (held && parent === held.response.id) {
      this.segments.push({ output: held.output, steers: this.client.takeCommitted(parent) });
      this.held = undefined;
      this.current = this.fresh();
      return;
    }
    // The continuation the agent sent after `pending`: the server put the queued steers before its input.
    const steers = this.client.takeCommitted(parent);
    if (steers.length > 0) this.segments.push({ output: [], steers });
  }

  private settle(): void {
    const held = this.held;
    if (!held) return;
    this.held = undefined;
    this.settled?.(held);
  }
}
