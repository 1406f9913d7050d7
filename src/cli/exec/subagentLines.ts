import type { AgentEvent } from '../../agent';
import { ExecRenderer, type RenderTarget } from './execRenderer';

// What `loopwire exec` prints of subagents (src/agent/subagents): each one's events through a renderer of its
// own, as the task's are, every line indented under the task's and headed by the subagent's id. Subagents
// run at once, so a line is printed only once it is whole: their answers never break into each other's.

/** A writer that prints whole lines of what it is given, each after `prefix`. */
function lineWriter(write: (text: string) => void, prefix: string): (text: string) => void {
  let pending = '';
  return (text) => {
    pending += text;
    const end = pending.lastIndexOf('\n');
    if (end < 0) return;
    const lines = pending.slice(0, end).split('\n');
    pending = pending.slice(end + 1);
    write(lines.map((line) => `${prefix}${line}\n`).join(''));
  };
}

/** The subagents' renderers, one per subagent, made on first need. */
export class SubagentLines {
  private readonly renderers = new Map<string, ExecRenderer>();
  /** Whether stdout is at the start of a line: a subagent's line never starts in the middle of the task's. */
  private atLineStart = true;
  /** What the task's own renderer prints to: the same, with where its line stands kept. */
  readonly taskTarget: RenderTarget;

  constructor(private readonly target: RenderTarget) {
    this.taskTarget = { ...target, stdout: (text) => this.print(text) };
  }

  private print(text: string): void {
    if (text === '') return;
    this.target.stdout(text);
    this.atLineStart = text.endsWith('\n');
  }

  /** A subagent's whole lines, on a line of their own. */
  private printLines(text: string): void {
    this.print(this.atLineStart ? text : `\n${text}`);
  }

  /** Prints a subagent's event (one that names its `agent`); false for the task's own, left to its renderer. */
  handle(event: AgentEvent): boolean {
    const agent = event.agent;
    if (!agent) return false;
    let renderer = this.renderers.get(agent.id);
    if (!renderer) {
      const prefix = `  ${agent.id} │ `;
      renderer = new ExecRenderer({
        ...this.target,
        stdout: lineWriter((text) => this.printLines(text), prefix),
        stderr: lineWriter(this.target.stderr, prefix),
      });
      this.renderers.set(agent.id, renderer);
    }
    renderer.handle(event);
    return true;
  }
}
