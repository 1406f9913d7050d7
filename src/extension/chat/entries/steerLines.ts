import type { ChatEntry } from '../../../protocol/chatView';

// The "Steered" lines of steers committed natively (in the running response, not at a tool boundary) in the
// turn under way. Such a turn is kept in the transcript only once it finishes: until then its lines may have
// to go again — with the attempt, when the socket is lost and the turn resent (the agent then delivers each
// at the tool boundary, where it shows again), or with the task, when it is stopped (the agent hands each
// text back for the composer: shown as steered as well, it would show twice once sent again).

export class NativeSteerLines {
  /** The lines' entry ids, with the turn each was committed in. */
  private readonly turns = new Map<string, number>();

  /** A steer was committed natively in `turn`; its line is entry `id`. */
  committed(id: string, turn: number): void {
    this.turns.set(id, turn);
  }

  /** The turn was kept in the transcript: its steers are in the conversation for good. */
  turnFinished(): void {
    this.turns.clear();
  }

  /**
   * The attempt of `turn` is discarded (to be resent): what it streamed, its calls still streaming, and the
   * lines of its native steers.
   */
  discarded(entries: readonly ChatEntry[], turn: number): Set<string> {
    return ids(
      entries.filter(
        (entry) =>
          ((entry.kind === 'assistant' || entry.kind === 'thinking') && entry.streaming) ||
          (entry.kind === 'tool' && entry.turn === turn && entry.status === 'streaming') ||
          (entry.kind === 'user' && this.turns.get(entry.id) === turn),
      ),
    );
  }

  /**
   * The task was stopped in a turn with native steers: the turn is not kept and their texts go back to the
   * composer. Their lines go, and with them what the model showed after the first, in answer to them (the
   * text sent again is answered again); what it said before stays, as a stopped answer does.
   */
  withdrawn(entries: readonly ChatEntry[]): Set<string> {
    const first = entries.findIndex((entry) => this.turns.has(entry.id));
    const turn = this.turns.get(entries[first]?.id ?? '');
    const gone =
      turn === undefined
        ? new Set<string>()
        : ids(
            entries
              .slice(first)
              .filter(
                (entry) =>
                  entry.kind === 'assistant' ||
                  entry.kind === 'thinking' ||
                  (entry.kind === 'tool' && entry.turn === turn) ||
                  this.turns.has(entry.id),
              ),
          );
    this.turns.clear();
    return gone;
  }
}

const ids = (entries: readonly ChatEntry[]) => new Set(entries.map((entry) => entry.id));
