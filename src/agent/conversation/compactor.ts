import { t } from '@vscode/l10n';
import { type AnyInputItem, isCompaction, isUserMessage, normalizeContext } from '../../protocol';
import type { AgentOptions, RequestChoices } from '../agentOptions';
import { isInstructions } from '../instructions/instructionsFollower';
import { instructionsItem } from '../transport/requestBody';
import type { TurnOutcome, TurnRequest } from '../transport/modelTransport';
import { AgentStop } from '../transport/transportFault';

// The agent's compactions (docs/protocol.md §3.7): the server's in a response (past the threshold), the
// agent's own on request (`POST /responses/compact`) past the threshold on a model that steers, or after the
// context overflowed, and the user's `/compact` between tasks. Each leaves the compaction item in the
// transcript, the instructions in force after it, and a `compacted` event; the next request goes on from it.

/** What the compactions read of the agent (agentLoop.ts). */
export interface CompactorParts {
  readonly options: Pick<AgentOptions, 'transcript' | 'transport' | 'emit'>;
  /** The choices in force now (the model, its instructions, its window). */
  current(): RequestChoices;
  /** A request of `items` as the agent would send them now. */
  turnRequest(items: readonly AnyInputItem[]): TurnRequest;
  /** The requests ask the server for no compaction: the agent compacts itself past the threshold. */
  steersNatively(): boolean;
}

/** What `/compact` did: how many items it folded, the context's tokens before and after. */
export interface CompactedNow {
  items: number;
  tokensBefore: number;
  tokensAfter: number;
}

export class Compactor {
  /** Where the last response's output starts in the transcript: what a compaction on request keeps after it. */
  lastOutputStart: number | undefined;
  /** The context's size after the last response (its usage): past the threshold, compacted on request. */
  contextTokens = 0;

  constructor(private readonly agent: CompactorParts) {}

  /** The agent compacts itself (the requests ask the server for none) and the context passed the threshold. */
  pastThreshold(): boolean {
    const threshold = this.agent.current().context?.compactThreshold;
    return threshold !== undefined && this.agent.steersNatively() && this.contextTokens >= threshold;
  }

  /** The turn again after an overflow, compacted; with compaction off, or overflowing again, the task stops saying so. */
  async afterOverflow(turn: number, signal: AbortSignal, error: AgentStop): Promise<TurnOutcome> {
    const { context } = this.agent.current();
    const window = context ? t(' of {0} tokens', context.window) : '';
    if (context?.compactThreshold === undefined)
      throw new AgentStop(
        error.code,
        t(
          "The conversation no longer fits the model's context window{0}, and compaction is off (loopwire.compactAt: 0, --no-compact). {1}",
          window,
          error.message,
        ),
      );
    if (!(await this.byRequest(turn, signal)))
      throw new AgentStop(
        error.code,
        t('What this turn sends does not fit the context window{0} on its own. {1}', window, error.message),
      );
    const { transport, transcript } = this.agent.options;
    try {
      return await transport.run(turn, this.agent.turnRequest(transcript.items), signal);
    } catch (again) {
      if (again instanceof AgentStop && again.code === 'context_length_exceeded')
        throw new AgentStop(
          again.code,
          t('Even compacted, the conversation does not fit the context window{0}. {1}', window, again.message),
        );
      throw again;
    }
  }

  /**
   * Compacts everything before the last response's output, which stays with the tool outputs that answer it
   * (`POST /responses/compact`). False when nothing lies before it to compact.
   */
  async byRequest(turn: number, signal: AbortSignal): Promise<boolean> {
    const { transcript } = this.agent.options;
    const keep = this.lastOutputStart ?? Math.max(0, transcript.items.findLastIndex(isUserMessage));
    if (keep <= 0) return false;
    const figures = await this.fold(turn, keep, signal);
    if (this.lastOutputStart !== undefined) this.lastOutputStart += 1 + this.instructionsAgain().length;
    this.agent.options.emit({ type: 'compacted', turn, how: 'request', ...figures });
    return true;
  }

  /**
   * `/compact`: the whole conversation folded now, between tasks (nothing of it is kept in full but the user's
   * messages, as in any compaction). Undefined when there is nothing to fold: nothing but the user's messages
   * and the instructions since the last compaction.
   */
  async now(turn: number, signal: AbortSignal): Promise<CompactedNow | undefined> {
    const { transcript } = this.agent.options;
    const items = foldable(transcript.items);
    if (items === 0) return undefined;
    const figures = await this.fold(turn, transcript.items.length, signal);
    // What the last response left is folded too: a later compaction on request keeps from the next one.
    this.lastOutputStart = undefined;
    this.agent.options.emit({ type: 'compacted', turn, how: 'request', items, ...figures });
    return { items, ...figures };
  }

  /** The items before `at` compacted: the compaction item and the instructions again go in at `at`. */
  private async fold(
    turn: number,
    at: number,
    signal: AbortSignal,
  ): Promise<{ tokensBefore: number; tokensAfter: number }> {
    const { transcript, transport } = this.agent.options;
    const compacted = await transport.compact(this.agent.turnRequest(transcript.items.slice(0, at)), signal);
    const item = compacted.output.find(isCompaction);
    if (!item) throw new AgentStop('compaction_failed', 'The compaction answered without a compaction item.');
    const figures = { tokensBefore: compacted.usage.input_tokens, tokensAfter: compacted.usage.output_tokens };
    transcript.insert(at, [item, ...this.instructionsAgain()], figures);
    // Until the next response says, the context is about what the compaction left.
    this.contextTokens = figures.tokensAfter;
    return figures;
  }

  /**
   * The instructions in force (those of the tools offered now) once more after a compaction, which keeps user
   * messages only: the context's developer item.
   */
  instructionsAgain(): AnyInputItem[] {
    const { instructions } = this.agent.current();
    return instructions === '' ? [] : [instructionsItem(instructions)];
  }

  /**
   * The server compacted the context in this response: the instructions follow the compaction, and the user
   * is told. `usage.input_tokens` is the context it replaced; the compacted one is estimated (the compaction
   * and the answer are the output's tokens, the user messages it keeps about four characters a token) until
   * the next turn reads it for real. Returns that estimate.
   */
  afterServer(turn: number, outcome: TurnOutcome): number {
    const { transcript, emit } = this.agent.options;
    transcript.append(...this.instructionsAgain());
    const usage = outcome.response.usage;
    // What the compacted context holds: the user messages and the instructions sent after this compaction, not
    // the copies sent after earlier ones (the server reads past them, normalizeContext).
    const kept = normalizeContext(transcript.items).filter((item) => isUserMessage(item) || isInstructions(item));
    const tokensAfter = (usage?.output_tokens ?? 0) + Math.round(JSON.stringify(kept).length / 4);
    emit({ type: 'compacted', turn, how: 'auto', tokensBefore: usage?.input_tokens ?? 0, tokensAfter });
    return tokensAfter;
  }
}

/** The items a compaction now would fold: those since the last compaction but the user's and the instructions. */
function foldable(items: readonly AnyInputItem[]): number {
  const start = items.findLastIndex(isCompaction) + 1;
  return items.slice(start).filter((item) => !isUserMessage(item) && !isInstructions(item)).length;
}
