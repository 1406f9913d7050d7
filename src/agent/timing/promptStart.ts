// Where a prompt's time goes on the host, from the moment it arrives to its request's bytes handed to the
// socket (issue 36: a warm Send's host part stays within 5 ms). Each layer marks the end of its own phase —
// the chat its echo, journal, agent and attachments, the agent the instructions and environment items, the
// model transport the body and the socket — and the front end logs the one line `describe` writes, which
// `npm run bench -- --panel` reads back (test/bench/panel/promptStartLog.ts).

/** The phases in the order a prompt goes through them. */
export const PROMPT_START_PHASES = [
  /** The prompt's entry posted to the page, the task queued and begun. */
  'echo',
  /** The transcript and the prompt's checkpoint opened, the chat's state saved or scheduled. */
  'journal',
  /** The chat's agent (made by the first prompt, kept for the next). */
  'agent',
  /** The composer's chips read into the prompt's parts. */
  'attachments',
  /** The project's AGENTS.md files looked up (read again only when one changed). */
  'instructions',
  /** The `<environment_context>` item, when what it says changed, and the prompt into the transcript. */
  'environment',
  /** The request's body: the context, the chain it continues, the model's options. */
  'body',
  /** The body as JSON, handed to the socket (over HTTP: to fetch). */
  'socket',
] as const;

export type PromptStartPhase = (typeof PROMPT_START_PHASES)[number];

/** What the log line starts with. */
export const PROMPT_START_PREFIX = 'prompt start';

export class PromptStart {
  private last: number;
  private readonly spent = new Map<PromptStartPhase, number>();
  private over = false;

  /** From `at` (performance.now()); `onEnd` is told once the request is on the socket. */
  constructor(
    readonly at: number = performance.now(),
    private readonly onEnd?: (start: PromptStart) => void,
  ) {
    this.last = at;
  }

  /** `phase` ends now: the time since the previous mark is its. Marks after the socket's are ignored. */
  mark(phase: PromptStartPhase): void {
    if (this.over) return;
    const now = performance.now();
    this.spent.set(phase, (this.spent.get(phase) ?? 0) + now - this.last);
    this.last = now;
    if (phase !== 'socket') return;
    this.over = true;
    this.onEnd?.(this);
  }

  /** Whether the request reached the socket. */
  get ended(): boolean {
    return this.over;
  }

  /** From the prompt's arrival to the last mark. */
  get totalMs(): number {
    return this.last - this.at;
  }

  /** The time `phase` took (0 where it did not run). */
  ms(phase: PromptStartPhase): number {
    return this.spent.get(phase) ?? 0;
  }

  /** `prompt start 3.21 ms: echo 0.41 ms, journal 0.12 ms, …, socket 0.30 ms` (every phase, in order). */
  describe(): string {
    const parts = PROMPT_START_PHASES.map((phase) => `${phase} ${this.ms(phase).toFixed(2)} ms`);
    return `${PROMPT_START_PREFIX} ${this.totalMs.toFixed(2)} ms: ${parts.join(', ')}`;
  }
}
