// Which response each lane of a session may chain from with `previous_response_id`, and what ends that:
// a response is usable only while the server can still find it — on the socket it completed on (the
// connection-scoped cache), or stored (`store: true`) — and any failed request or cancel on the lane ends
// its chain (docs/protocol.md §3). The model transport asks here; it never keeps chains itself. A lane
// keeps its recent chains, not only the newest: a conversation forked at an earlier message (an edited and
// resent prompt) chains from the response before that message while the socket still holds it.

/** The lane of a conversation that runs alone on the socket (no `stream_id`). */
export const DEFAULT_LANE = '';

/** The response a lane can chain from, and where it lives. */
export interface Chain {
  responseId: string;
  /** The socket it completed on; 0 for a stored (HTTP) response. */
  generation: number;
  /** Transcript items it covers (its input and output). */
  itemCount: number;
  /**
   * The item its context ends with, by identity: only a context holding this very item at that place (the
   * same conversation, or a fork that shares its start) may chain from it. Absent for a warm-up, which
   * covers the instructions alone.
   */
  last?: unknown;
}

/** Chains a lane remembers: enough for a fork a few prompts back; older ones cost a full context. */
const KEPT_CHAINS = 32;

/** Where the next request goes: over HTTP, or over the socket of this generation. */
export type Route = { transport: 'http' } | { transport: 'ws'; generation: number | undefined };

export class ChainPolicy {
  /** Per lane, its chains, oldest first. */
  private readonly chains = new Map<string, Chain[]>();
  /** Lanes forked from another (a subagent given its parent's context): lane -> the lane it forks. */
  private readonly forks = new Map<string, string>();

  /**
   * @param enabled `false` sends the full context every turn (the benchmark's `ws-full` mode).
   * @param store whether responses are stored server-side, so that a chain survives its socket.
   */
  constructor(
    private readonly enabled: boolean,
    private readonly store: boolean,
  ) {}

  /**
   * The newest chain `lane` may send on `route` for `context`: one it extends (its last item is the
   * context's at the same place), that the server can still find.
   */
  usable(lane: string, context: readonly unknown[], route: Route): Chain | undefined {
    if (!this.enabled) return undefined;
    const own = this.find(this.chains.get(lane) ?? [], context, route);
    const source = this.forks.get(lane);
    // A fork's own warm-up covers its instructions alone: its parent's response, where usable, covers more.
    if (source === undefined || own?.last !== undefined) return own;
    const forked = this.find(this.chains.get(source) ?? [], context, route, true);
    return forked && forked.itemCount > (own?.itemCount ?? 0) ? forked : own;
  }

  /**
   * `lane` starts as a fork of `source`'s conversation (the same item objects, then its own): until it has
   * a response of its own, its first request may chain from one of `source`'s (the API's fork onto a new
   * stream: `previous_response_id` of a response made on another lane of the socket). Chained so, it reads
   * its conversation as `source` sent it, instructions included (a subagent: its parent's, which offer
   * subagents it has no tool for; the spawn's output tells it that it is the subagent).
   */
  fork(lane: string, source: string): void {
    if (this.enabled && lane !== source) this.forks.set(lane, source);
  }

  private find(chains: readonly Chain[], context: readonly unknown[], route: Route, across = false): Chain | undefined {
    for (let index = chains.length - 1; index >= 0; index--) {
      const chain = chains[index] as Chain;
      if (chain.itemCount > context.length) continue;
      if (chain.last !== undefined && context[chain.itemCount - 1] !== chain.last) continue;
      // Across lanes only a response, never a warm-up: a fork shares its conversation, not its instructions.
      if (across && chain.last === undefined) continue;
      if (chain.generation === 0 ? this.store : route.transport === 'ws' && route.generation === chain.generation)
        return chain;
    }
    return undefined;
  }

  /** A turn completed: the lane now chains from its response. */
  completed(lane: string, chain: Chain): void {
    const chains = this.chains.get(lane) ?? [];
    chains.push(chain);
    if (chains.length > KEPT_CHAINS) chains.splice(0, chains.length - KEPT_CHAINS);
    this.chains.set(lane, chains);
  }

  /**
   * A socket's warm-up completed: its id covers the instructions, and the lane chains from it unless it
   * already chains from a response on this very socket (a second conversation's warm-up).
   */
  warmedUp(lane: string, chain: Chain): void {
    if (!this.chains.get(lane)?.some((known) => known.generation === chain.generation)) this.completed(lane, chain);
  }

  /**
   * A request on `lane` failed or was cancelled: its chains end. The server evicts a failed continuation's
   * parent (docs/protocol.md §3.6), and a cancelled one may still be streaming.
   */
  broken(lane: string): void {
    this.chains.delete(lane);
    // A fork refused (its parent evicted, or gone with the socket) sends its whole context next.
    this.forks.delete(lane);
  }

  /**
   * Whether a turn sent on `chain` was chained: it sent less than the whole conversation. A chain from the
   * warm-up holds only the instructions, and the turn still sent every item.
   */
  static chained(chain: Chain | undefined, contextLength: number, newItems: number): boolean {
    return chain !== undefined && chain.itemCount > contextLength - newItems;
  }
}
