// Which response each lane of a session may chain from with `previous_response_id`, and what ends that:
// a response is usable only while the server can still find it — on the socket it completed on (the
// connection-scoped cache), or stored (`store: true`) — and any failed request or cancel on the lane ends
// its chain (docs/protocol.md §3). The session transport asks here; it never keeps chains itself.

/** The lane of a conversation that runs alone on the socket (no `stream_id`). */
export const DEFAULT_LANE = '';

/** The response a lane can chain from, and where it lives. */
export interface Chain {
  responseId: string;
  /** The socket it completed on; 0 for a stored (HTTP) response. */
  generation: number;
  /** Transcript items it covers (its input and output). */
  itemCount: number;
}

/** Where the next request goes: over HTTP, or over the socket of this generation. */
export type Route = { transport: 'http' } | { transport: 'ws'; generation: number | undefined };

export class ChainPolicy {
  private readonly chains = new Map<string, Chain>();

  /**
   * @param enabled `false` sends the full context every turn (the benchmark's `ws-full` mode).
   * @param store whether responses are stored server-side, so that a chain survives its socket.
   */
  constructor(
    private readonly enabled: boolean,
    private readonly store: boolean,
  ) {}

  /** The chain `lane` may send on `route` for a context of `itemCount` items, if any. */
  usable(lane: string, itemCount: number, route: Route): Chain | undefined {
    if (!this.enabled) return undefined;
    const chain = this.chains.get(lane);
    if (!chain || chain.itemCount > itemCount) return undefined;
    if (chain.generation === 0) return this.store ? chain : undefined;
    return route.transport === 'ws' && route.generation === chain.generation ? chain : undefined;
  }

  /** A turn completed: the lane now chains from its response. */
  completed(lane: string, chain: Chain): void {
    this.chains.set(lane, chain);
  }

  /**
   * A socket's warm-up completed: its id covers the instructions, and the lane chains from it unless it
   * already chains from a response on this very socket (a second conversation's warm-up).
   */
  warmedUp(lane: string, chain: Chain): void {
    if (this.chains.get(lane)?.generation !== chain.generation) this.chains.set(lane, chain);
  }

  /**
   * A request on `lane` failed or was cancelled: its chain ends. The server evicts a failed continuation's
   * parent (docs/protocol.md §3.6), and a cancelled one may still be streaming.
   */
  broken(lane: string): void {
    this.chains.delete(lane);
  }

  /**
   * Whether a turn sent on `chain` was chained: it sent less than the whole conversation. A chain from the
   * warm-up holds only the instructions, and the turn still sent every item.
   */
  static chained(chain: Chain | undefined, contextLength: number, newItems: number): boolean {
    return chain !== undefined && chain.itemCount > contextLength - newItems;
  }
}
