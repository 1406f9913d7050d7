import type { AgentEvent, TurnMetrics } from '../../agent';
import { compactTokens, groupedTokens, meterText } from '../../protocol/contextMeter';
import { BUILTIN_TOOLS, type ToolRegistry, outputLabel } from '../../tools';
import { t } from '../cliL10n';
import { PlanLines } from './planChecklist';
import { withCliAdvice } from './stopAdvice';
import { terminalOutput } from './terminalText';

// What `loopwire exec` prints for people: the answer as it streams, one line per tool call with how it
// went and a few lines of what it returned (every line with --verbose), the unified diff of each edit
// (coloured on a terminal), a line where the context was compacted, transport notes on stderr, and a
// one-line summary at the end with the token meter (the context against the model's window).

/** How the summary names a task's end other than `completed` (the done event's status, in the terminal's language). */
const ENDED = { failed: t('failed'), stopped: t('stopped'), cancelled: t('cancelled') };

export interface RenderTarget {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  color: boolean;
  /** Print every line of each tool's output, not just the first (or a task's last) few. */
  verbose?: boolean;
  /** The tools the agent runs, asked how a call summarises and shows (default: the built-in ones). */
  tools?: ToolRegistry;
  /** Whether a call was declined because there was no terminal to ask on (`--approve auto` unattended). */
  noTerminal?: (callId: string) => boolean;
}

/** Lines of a tool's output shown under its line without --verbose. */
export const OUTPUT_PREVIEW_LINES = 6;
/** Characters of one output line shown without --verbose (a minified file is one very long line). */
const PREVIEW_LINE_CHARS = 200;

/**
 * The words of a call `--approve auto` declined for want of a terminal to ask on (execApprovals.ts): in
 * English in every language, since scripts match on them (docs/cli.md).
 */
export const NO_TERMINAL = 'declined: no terminal';

type EventOf<K extends AgentEvent['type']> = Extract<AgentEvent, { type: K }>;

const paint = (on: boolean, code: string, text: string) => (on ? `\u001b[${code}m${text}\u001b[0m` : text);

function colorDiff(diff: string, color: boolean): string {
  if (!color) return diff;
  return diff
    .split('\n')
    .map((line) => {
      if (/^(diff --git|index |--- |\+\+\+ )/.test(line)) return paint(true, '1', line);
      if (line.startsWith('@@')) return paint(true, '36', line);
      if (line.startsWith('+')) return paint(true, '32', line);
      if (line.startsWith('-')) return paint(true, '31', line);
      return line;
    })
    .join('\n');
}

/**
 * A task's label before its own output (a `tail` output): `--- output ---`, `--- last N lines of output ---` or,
 * of a command still running, `--- output so far ---`; or the label of the person's copy in their language
 * (`--- 输出 ---`, `--- 目前的输出 ---`).
 */
const TASK_OUTPUT_LABEL = /^--- (?:output|last \d+ lines of output|output so far) ---$/;
const isOutputLabel = (line: string) =>
  TASK_OUTPUT_LABEL.test(line) || line === outputLabel(false) || line === outputLabel(true);

/** The diff part of an edit tool's output: from its first `diff --git` line. */
const diffOf = (output: string) => {
  const at = output.indexOf('diff --git');
  return at === -1 ? undefined : output.slice(at).trimEnd();
};

export const formatBytes = (bytes: number) =>
  bytes < 1024
    ? `${Math.round(bytes)} B`
    : bytes < 1024 * 1024
      ? `${(bytes / 1024).toFixed(1)} KB`
      : `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/**
 * The token meter, in the words of the panel's header: the context after the last turn against the model's
 * window (`38k / 272k tokens`).
 */
export const tokenMeter = (contextTokens: number, window: number | undefined) =>
  window === undefined
    ? t('{0} tokens', compactTokens(contextTokens))
    : t('{0} tokens', meterText({ tokens: contextTokens, window }));

/** The line a compaction gets: `context compacted (2,656 → 412 tokens)`, `on request` after an overflow. */
export const compactionLine = (event: Extract<AgentEvent, { type: 'compacted' }>) =>
  event.how === 'request'
    ? t(
        'context compacted on request ({0} → {1} tokens)',
        groupedTokens(event.tokensBefore),
        groupedTokens(event.tokensAfter),
      )
    : t('context compacted ({0} → {1} tokens)', groupedTokens(event.tokensBefore), groupedTokens(event.tokensAfter));

/** What a run is about to do, in one line before anything starts (a run's settings, as Codex's exec heads its own). */
export function execHeader(run: {
  model: string;
  endpoint: string;
  transport: string;
  approve: string;
  /** The sandbox commands run in, as sandboxLabel names it (execSandbox.ts). */
  sandbox: string;
  workspace: string;
  resume: string | undefined;
  color: boolean;
}): string {
  const backend = run.endpoint === 'embedded' ? t('the embedded backend') : run.endpoint;
  const what = run.resume === undefined ? 'loopwire exec' : t('loopwire exec, resuming {0}', run.resume);
  const line = t(
    '{0}: {1} on {2} (transport {3}), approvals {4}, sandbox {5}, in {6}',
    what,
    run.model,
    backend,
    run.transport,
    run.approve,
    run.sandbox,
    run.workspace,
  );
  return `${paint(run.color, '2', line)}\n`;
}

export class ExecRenderer {
  private readonly metrics: TurnMetrics[] = [];
  private midLine = false;
  /** The reasoning item whose summary is being printed (dimmed), while it is. */
  private thinking: string | undefined;
  private declined = 0;
  private compactions = 0;
  /** The plans calls set, printed as a checklist each time the plan changes. */
  private readonly plans = new PlanLines();

  constructor(private readonly out: RenderTarget) {}

  private get tools(): ToolRegistry {
    return this.out.tools ?? BUILTIN_TOOLS;
  }

  /** Prints an event by its family: the answer's stream, the notes on stderr, tool calls, the run's own. */
  handle(event: AgentEvent): void {
    switch (event.type) {
      case 'text_delta':
      case 'reasoning_delta':
      case 'hosted_call':
      case 'steered':
        return this.streamed(event);
      case 'notice':
      case 'output_discarded':
      case 'transport':
      case 'retry':
      case 'error':
        return this.noted(event);
      case 'tool_started':
        this.endLine();
        this.out.stdout(
          `${paint(this.out.color, '1', `▸ ${event.name}`)} ${this.tools.summarize(event.name, event.input)}\n`,
        );
        this.plans.started(event.callId, this.tools.plan(event.name, event.input));
        return;
      case 'tool_finished':
        return this.toolFinished(event);
      case 'turn_finished':
        this.metrics.push(event.metrics);
        return;
      case 'compacted':
        this.compactions++;
        this.endLine();
        this.out.stdout(`${paint(this.out.color, '2', compactionLine(event))}\n`);
        return;
      case 'done':
        this.endLine();
        this.out.stdout(`${this.summary(event)}\n`);
        return;
      default:
        return;
    }
  }

  /** The model's words on stdout as they come: the answer, its reasoning, a hosted call, a steer taken. */
  private streamed(event: EventOf<'text_delta' | 'reasoning_delta' | 'hosted_call' | 'steered'>): void {
    const { color } = this.out;
    switch (event.type) {
      case 'text_delta':
        if (this.thinking !== undefined) this.endLine();
        // A progress note between tool calls (`phase: commentary`) is dimmed: it is not the answer. The model's
        // text may echo a repository's escape sequences (an OSC 52 one fills the clipboard): they go.
        this.out.stdout(paint(color && event.phase === 'commentary', '2', terminalOutput(event.delta)));
        this.midLine = !event.delta.endsWith('\n');
        return;
      case 'reasoning_delta':
        if (this.thinking !== event.itemId) {
          this.endLine();
          this.out.stdout(paint(color, '2', t('thinking: ')));
        }
        this.thinking = event.itemId;
        this.out.stdout(paint(color, '2', terminalOutput(event.delta)));
        this.midLine = !event.delta.endsWith('\n');
        return;
      case 'hosted_call':
        this.endLine();
        this.out.stdout(`${paint(color, '2', `▸ ${event.itemType}`)} ${event.summary}\n`);
        return;
      case 'steered':
        this.endLine();
        this.out.stdout(`${paint(color, '36', t('› steered'))}: ${event.text}\n`);
        return;
    }
  }

  /** What is said about the run rather than by the model, on stderr: notices, the transport, retries, errors. */
  private noted(event: EventOf<'notice' | 'output_discarded' | 'transport' | 'retry' | 'error'>): void {
    const { color } = this.out;
    switch (event.type) {
      case 'notice':
        this.endLine();
        // A hook's reason, a file's name: a stranger's text, its control characters dropped as the model's are.
        this.out.stderr(`${paint(color, '2', `(${terminalOutput(event.message)})`)}\n`);
        return;
      case 'output_discarded':
        this.endLine();
        this.out.stderr(`${paint(color, '33', t('(discarded a partial answer: {0})', event.reason))}\n`);
        return;
      case 'transport':
        if (event.state === 'reconnecting')
          this.out.stderr(
            `${t('(reconnecting {0}/{1}: {2})', event.attempt ?? '?', event.maxAttempts ?? '?', event.reason ?? '')}\n`,
          );
        else if (event.state === 'http_fallback')
          this.out.stderr(`${t('(using HTTP from now on: WebSocket mode kept failing — {0})', event.reason ?? '')}\n`);
        return;
      case 'retry':
        if (event.delayMs >= 1000)
          this.out.stderr(`${t('(retrying in {0} s: {1})', (event.delayMs / 1000).toFixed(1), event.reason)}\n`);
        return;
      case 'error':
        this.endLine();
        // The agent states the fault; how to fix it here (a variable, a flag) is the terminal's to say.
        this.out.stderr(`${paint(color, '31', t('error'))}: ${withCliAdvice(event.message, event.code)}\n`);
        return;
    }
  }

  private toolFinished(event: Extract<AgentEvent, { type: 'tool_finished' }>): void {
    const { color } = this.out;
    // The person's copy in their language where there is one; `output` is the model's words (--json's).
    const text = event.shown ?? event.output;
    const first = text.split('\n', 1)[0] ?? '';
    const ms = `${Math.round(event.durationMs)} ms`;
    const shape = this.tools.outputShape(event.name);
    const isTask = shape === 'tail';
    if (event.declined) {
      this.declined++;
      const why = this.out.noTerminal?.(event.callId)
        ? `✗ ${NO_TERMINAL} — ${t('it needs a yes, and there is no terminal to ask on')}`
        : `${t('✗ declined')} ${first}`;
      this.out.stdout(`  ${paint(color, '31', why)} (${ms})\n`);
      return;
    }
    const checklist = this.plans.finished(event.callId, event.ok, color);
    if (checklist !== undefined) {
      this.out.stdout(
        `  ${paint(color, '32', '✓')} ${checklist === '' ? t('plan unchanged') : first} (${ms})\n${checklist}`,
      );
      return;
    }
    const diff = event.ok && shape === 'diff' ? diffOf(text) : undefined;
    if (diff !== undefined) {
      this.out.stdout(`  ${paint(color, '32', '✓')} ${first} (${ms})\n${colorDiff(diff, color)}\n`);
      return;
    }
    const lines = text.split('\n').filter((line) => line !== '').length;
    // A task's and a failure's first line says how it went; other outputs are shown from their first line.
    const note = isTask || !event.ok ? first : lines === 1 ? t('1 line') : t('{0} lines', lines);
    const mark = event.ok ? paint(color, '32', '✓') : paint(color, '31', '✗');
    this.out.stdout(`  ${mark} ${note} (${ms})\n`);
    const body = text.split('\n').slice(isTask || !event.ok ? 1 : 0);
    const label = isTask ? body.findIndex(isOutputLabel) : -1;
    this.printOutput(label === -1 ? body : body.slice(label + 1), isTask);
  }

  /**
   * A tool's output under its line, indented and dimmed: all of it with --verbose, else its first few lines
   * (the last few of a task's: the result and the errors are at the end) and how many were left out. A last
   * line in parentheses, the tool's footer ("(1 match in 1 file)"), is kept.
   */
  private printOutput(raw: string[], tail: boolean): void {
    const lines = trimBlank(raw.map((line) => terminalOutput(line)));
    if (lines.length === 0) return;
    const verbose = this.out.verbose === true;
    let shown = lines;
    let footer: string[] = [];
    let note: string | undefined;
    if (!verbose && lines.length > OUTPUT_PREVIEW_LINES) {
      const last = lines.at(-1) ?? '';
      if (!tail && /^\(.*\)$/.test(last)) {
        footer = [last];
        shown = lines.slice(0, -1);
      }
      const left = shown.length - OUTPUT_PREVIEW_LINES;
      if (left > 0) {
        const more = tail
          ? left === 1
            ? t('… 1 earlier line (--verbose shows all)')
            : t('… {0} earlier lines (--verbose shows all)', left)
          : left === 1
            ? t('… 1 more line (--verbose shows all)')
            : t('… {0} more lines (--verbose shows all)', left);
        note = paint(this.out.color, '2', `    ${more}`);
        shown = tail ? shown.slice(-OUTPUT_PREVIEW_LINES) : shown.slice(0, OUTPUT_PREVIEW_LINES);
      }
    }
    const indent = (line: string) => {
      const cut = !verbose && line.length > PREVIEW_LINE_CHARS ? `${line.slice(0, PREVIEW_LINE_CHARS)}…` : line;
      return cut === '' ? '' : paint(this.out.color, '2', `    ${cut}`);
    };
    const printed = [...shown, ...footer].map(indent);
    if (note !== undefined) printed.splice(tail ? 0 : shown.length, 0, note);
    this.out.stdout(`${printed.join('\n')}\n`);
  }

  private summary(done: Extract<AgentEvent, { type: 'done' }>): string {
    const turns = this.metrics.length;
    const per = (pick: (m: TurnMetrics) => number) =>
      turns === 0 ? 0 : this.metrics.reduce((sum, m) => sum + pick(m), 0) / turns;
    const overhead = per((m) => m.overheadBeforeMs + (m.overheadAfterMs ?? 0));
    const transports = [...new Set(this.metrics.map((m) => m.transport))].join('+') || 'none';
    const status =
      done.status === 'completed'
        ? paint(this.out.color, '32', t('done'))
        : paint(this.out.color, '31', ENDED[done.status]);
    const last = this.metrics.at(-1);
    const compacted = this.compactions === 0 ? '' : t(', compacted {0}×', this.compactions);
    return [
      // The end and its reason: `done: the model answered` (a full-width colon in Chinese).
      t('{0}: {1}', status, done.reason),
      done.turns === 1 ? t('1 turn') : t('{0} turns', done.turns),
      done.toolCalls === 1 ? t('1 tool call') : t('{0} tool calls', done.toolCalls),
      ...(this.declined > 0
        ? [this.declined === 1 ? t('1 call declined') : t('{0} calls declined', this.declined)]
        : []),
      ...(last ? [`${tokenMeter(last.contextTokens, last.contextWindow)}${compacted}`] : []),
      `${(done.wallMs / 1000).toFixed(2)} s`,
      t('client overhead {0} ms/turn', overhead.toFixed(2)),
      t('{0} sent/turn', formatBytes(per((m) => m.bytesSent))),
      transports,
    ].join(' · ');
  }

  private endLine(): void {
    if (this.midLine) this.out.stdout('\n');
    this.midLine = false;
    this.thinking = undefined;
  }
}

/** The lines without the blank ones at either end. */
function trimBlank(lines: string[]): string[] {
  let start = 0;
  let end = lines.length;
  while (start < end && (lines[start] ?? '').trim() === '') start++;
  while (end > start && (lines[end - 1] ?? '').trim() === '') end--;
  return lines.slice(start, end);
}
