import { type AgentEvent, type TurnMetrics, summarizeCall } from '../agent';

// What `loopwire exec` prints for people: the answer as it streams, one line per tool call with how it
// went, the unified diff of each edit (coloured on a terminal), transport notes on stderr, and a one-line
// summary at the end.

export interface RenderTarget {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  color: boolean;
}

const EDIT_TOOLS = new Set(['apply_patch', 'edit_file', 'write_file']);

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

export class ExecRenderer {
  private readonly metrics: TurnMetrics[] = [];
  private midLine = false;

  constructor(private readonly out: RenderTarget) {}

  handle(event: AgentEvent): void {
    const { color } = this.out;
    switch (event.type) {
      case 'text_delta':
        this.out.stdout(event.delta);
        this.midLine = !event.delta.endsWith('\n');
        return;
      case 'output_discarded':
        this.endLine();
        this.out.stderr(`${paint(color, '33', '(discarded a partial answer: ')}${event.reason})\n`);
        return;
      case 'tool_started':
        this.endLine();
        this.out.stdout(`${paint(color, '1', `▸ ${event.name}`)} ${summarizeCall(event.name, event.input)}\n`);
        return;
      case 'tool_finished':
        return this.toolFinished(event);
      case 'transport':
        if (event.state === 'reconnecting')
          this.out.stderr(
            `(reconnecting ${event.attempt ?? '?'}/${event.maxAttempts ?? '?'}: ${event.reason ?? ''})\n`,
          );
        else if (event.state === 'http_fallback')
          this.out.stderr(`(using HTTP from now on: WebSocket mode kept failing — ${event.reason ?? ''})\n`);
        return;
      case 'retry':
        if (event.delayMs >= 1000)
          this.out.stderr(`(retrying in ${(event.delayMs / 1000).toFixed(1)} s: ${event.reason})\n`);
        return;
      case 'turn_finished':
        this.metrics.push(event.metrics);
        return;
      case 'error':
        this.endLine();
        this.out.stderr(`${paint(color, '31', 'error')}: ${event.message}\n`);
        return;
      case 'done':
        this.endLine();
        this.out.stdout(`${this.summary(event)}\n`);
        return;
      default:
        return;
    }
  }

  private toolFinished(event: Extract<AgentEvent, { type: 'tool_finished' }>): void {
    const { color } = this.out;
    const first = event.output.split('\n', 1)[0] ?? '';
    const ms = `${Math.round(event.durationMs)} ms`;
    if (!event.ok) {
      this.out.stdout(`  ${paint(color, '31', event.declined ? '✗ declined' : '✗')} ${first} (${ms})\n`);
      return;
    }
    const diff = EDIT_TOOLS.has(event.name) ? diffOf(event.output) : undefined;
    if (diff !== undefined) {
      this.out.stdout(`  ${paint(color, '32', '✓')} ${first} (${ms})\n${colorDiff(diff, color)}\n`);
      return;
    }
    const lines = event.output.split('\n').filter((line) => line !== '').length;
    const note = event.name === 'run_task' ? first : `${lines} line${lines === 1 ? '' : 's'}`;
    this.out.stdout(`  ${paint(color, '32', '✓')} ${note} (${ms})\n`);
  }

  private summary(done: Extract<AgentEvent, { type: 'done' }>): string {
    const turns = this.metrics.length;
    const per = (pick: (m: TurnMetrics) => number) =>
      turns === 0 ? 0 : this.metrics.reduce((sum, m) => sum + pick(m), 0) / turns;
    const overhead = per((m) => m.overheadBeforeMs + (m.overheadAfterMs ?? 0));
    const transports = [...new Set(this.metrics.map((m) => m.transport))].join('+') || 'none';
    const status =
      done.status === 'completed' ? paint(this.out.color, '32', 'done') : paint(this.out.color, '31', done.status);
    return [
      `${status}: ${done.reason}`,
      `${done.turns} turn${done.turns === 1 ? '' : 's'}`,
      `${done.toolCalls} tool call${done.toolCalls === 1 ? '' : 's'}`,
      `${(done.wallMs / 1000).toFixed(2)} s`,
      `client overhead ${overhead.toFixed(2)} ms/turn`,
      `${formatBytes(per((m) => m.bytesSent))} sent/turn`,
      transports,
    ].join(' · ');
  }

  private endLine(): void {
    if (this.midLine) this.out.stdout('\n');
    this.midLine = false;
  }
}
