import { decodeGenerator, encode } from './tokenizer';

/** Text split at token boundaries (pieces that are whole characters), with its token count. */
export function tokenPieces(text: string): { pieces: string[]; tokens: number } {
  if (text === '') return { pieces: [], tokens: 0 };
  const ids = encode(text);
  const pieces = [...decodeGenerator(ids)];
  return { pieces: pieces.join('') === text ? pieces : [text], tokens: ids.length };
}

/**
 * Simulated generation time: output token i is due at `firstTokenAt + i / tps`. The streamer asks how many
 * tokens are due now and sends them as one delta, so a late timer makes bigger deltas, never a slower
 * stream: the pace follows the clock, not a sleep per token.
 */
export class Pacer {
  private sent = 0;
  private readonly msPerToken: number;

  constructor(
    private readonly firstTokenAt: number,
    tps: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.msPerToken = 1000 / tps;
  }

  /** Waits until the next token is due; returns how many are due by then (at least 1, at most `max`). */
  async take(max: number): Promise<number> {
    const nextDue = this.firstTokenAt + this.sent * this.msPerToken;
    const wait = nextDue - this.now();
    if (wait > 0.5) await delay(wait);
    const due = Math.floor((this.now() - this.firstTokenAt) / this.msPerToken) + 1 - this.sent;
    const count = Math.min(max, Math.max(1, due));
    this.sent += count;
    return count;
  }

  /** Waits until `at` (a `now()` time), e.g. the end of prefill. */
  async until(at: number): Promise<void> {
    const wait = at - this.now();
    if (wait > 0.5) await delay(wait);
  }
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
