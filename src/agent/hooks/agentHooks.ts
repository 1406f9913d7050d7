import type { AgentEventSink } from '../events';
import type { HookEvent, HookSpec } from './hookConfig';
import { DEFAULT_HOOK_TIMEOUT_S, runHookProcess } from './hookProcess';
import { type HookVerdict, combineVerdicts, hookVerdict } from './hookOutcome';
import { matchesTool } from './hookMatcher';

// The hooks of a session (src/agent/hooks/README.md): the specs the front end read and the user allowed, and
// how one event's hooks run — those that match, side by side, each with its timeout — into one verdict. The
// front end builds it only where hooks exist: without any, the agent holds none and pays nothing per call.

/** What every hook's input says about the session, and where hooks run. */
export interface HookSessionFacts {
  sessionId: string;
  transcriptPath: string;
  /** The workspace folder: the hooks' working folder and the sandbox's writable root. */
  cwd: string;
  /** The approval mode now (`permission_mode`). */
  mode: () => string;
  /** Whether hooks run confined now (a sandbox here, and the session's commands confined). */
  confined: () => boolean;
}

/** How many times a Stop hook may send the agent on, per task. */
export const MAX_STOP_CONTINUES = 3;

export class AgentHooks {
  /** Stop hooks that sent the agent on in the running task. */
  stopsThisTask = 0;
  /** Whether SessionStart has run (once a session). */
  sessionStarted = false;

  constructor(
    private readonly specs: readonly HookSpec[],
    private readonly facts: HookSessionFacts,
  ) {}

  /** Whether any hook is set for `event`. */
  has(event: HookEvent): boolean {
    return this.specs.some((spec) => spec.event === event);
  }

  /** The same hooks for a subagent: its tool calls only (no prompt, session or Stop of its own). */
  forSubagent(): AgentHooks | undefined {
    const tools = this.specs.filter((spec) => spec.event === 'PreToolUse' || spec.event === 'PostToolUse');
    return tools.length === 0 ? undefined : new AgentHooks(tools, this.facts);
  }

  /**
   * Runs `event`'s hooks (those whose matcher names `tool`, for a tool's events) with `fields` added to the
   * common input; undefined where none matched. Failures and notes are emitted as notices.
   */
  async run(
    event: HookEvent,
    fields: Record<string, unknown>,
    emit: AgentEventSink,
    tool?: string,
  ): Promise<HookVerdict | undefined> {
    const specs = this.specs.filter(
      (spec) => spec.event === event && (tool === undefined || matchesTool(spec.matcher, tool)),
    );
    if (specs.length === 0) return undefined;
    const input = JSON.stringify({
      session_id: this.facts.sessionId,
      transcript_path: this.facts.transcriptPath,
      cwd: this.facts.cwd,
      permission_mode: this.facts.mode(),
      hook_event_name: event,
      ...fields,
    });
    const confined = this.facts.confined();
    const verdicts = await Promise.all(
      specs.map(async (spec) => {
        const timeoutS = spec.timeout ?? DEFAULT_HOOK_TIMEOUT_S;
        const { cwd } = this.facts;
        const run = { command: spec.command, cwd, roots: [cwd], input, timeoutMs: timeoutS * 1000, confined };
        return hookVerdict(event, await runHookProcess(run), shortCommand(spec.command), timeoutS);
      }),
    );
    const verdict = combineVerdicts(verdicts);
    for (const note of verdict.notes) emit({ type: 'notice', code: 'hook_failed', message: note, hook: { event } });
    return verdict;
  }
}

/** A command as a failure's line names it. */
function shortCommand(command: string): string {
  const line = command.replace(/\s+/g, ' ').trim();
  return line.length > 60 ? `${line.slice(0, 60)}…` : line;
}

/** Says on `emit` that a hook decided: `hook PreToolUse denied: why`. */
export function hookDecided(
  emit: AgentEventSink,
  event: HookEvent,
  decision: 'allow' | 'ask' | 'deny' | 'block' | 'context',
  reason?: string,
  callId?: string,
): void {
  const said = { allow: 'allowed', ask: 'asks', deny: 'denied', block: 'blocked', context: 'added context' }[decision];
  const message = `hook ${event} ${said}${reason ? `: ${reason.trim().split('\n')[0] ?? ''}` : ''}`;
  emit({
    type: 'notice',
    code: 'hook',
    message,
    hook: { event, decision, ...(reason ? { reason } : {}), ...(callId ? { callId } : {}) },
  });
}
