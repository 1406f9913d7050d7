import * as z from 'zod';
import type { HookEvent } from './hookConfig';
import type { HookExit } from './hookProcess';

// What a hook said, from its exit code and output, as Claude Code reads them: exit 0 is success, its stdout
// JSON (when it is JSON) the structured answer, or for UserPromptSubmit and SessionStart plain text added as
// context; exit 2 blocks, its stderr the reason (a PreToolUse call denied, a prompt refused, a Stop refused,
// a PostToolUse note for the model); any other exit, a timeout or a failure to start is shown to the user
// and changes nothing (`continue: false` in its JSON is the one way a hook stops the task).

/** A hook's JSON answer (Claude Code's fields; unknown ones kept out of the check). */
export const HookOutput = z.looseObject({
  continue: z.boolean().optional(),
  stopReason: z.string().optional(),
  systemMessage: z.string().optional(),
  decision: z.enum(['approve', 'block']).optional(),
  reason: z.string().optional(),
  hookSpecificOutput: z
    .looseObject({
      hookEventName: z.string().optional(),
      permissionDecision: z.enum(['allow', 'deny', 'ask']).optional(),
      permissionDecisionReason: z.string().optional(),
      additionalContext: z.string().optional(),
    })
    .optional(),
});

/** The verdict of one hook, or of all those of an event combined. */
export interface HookVerdict {
  /** PreToolUse: allow, ask or deny; the other events: block (a prompt refused, a Stop refused, a note). */
  decision?: 'allow' | 'ask' | 'deny' | 'block';
  reason?: string;
  /** Text for the model (`additionalContext`, or plain stdout where that is context). */
  context?: string;
  /** `continue: false`: the task stops, for this reason. */
  stop?: string;
  /** What the user is shown: a failure, a timeout, a `systemMessage`. */
  notes: string[];
}

const firstLine = (text: string, max = 300) => {
  const line = text.trim().split('\n').slice(0, 3).join(' ');
  return line.length > max ? `${line.slice(0, max)}…` : line;
};

/** The verdict of one hook's `exit` at `event` (`label` names it in a failure's line). */
export function hookVerdict(event: HookEvent, exit: HookExit, label: string, timeoutS: number): HookVerdict {
  if (exit.kind === 'error') return { notes: [`hook ${event} failed to start (${label}): ${firstLine(exit.message)}`] };
  if (exit.kind === 'timeout') return { notes: [`hook ${event} timed out after ${timeoutS} s (${label})`] };
  if (exit.code === 2) {
    const reason = exit.stderr.trim() || `a ${event} hook blocked it`;
    return { decision: event === 'PreToolUse' ? 'deny' : 'block', reason, notes: [] };
  }
  if (exit.code !== 0) {
    const stderr = firstLine(exit.stderr) || 'no stderr output';
    return { notes: [`hook ${event} failed with exit code ${exit.code} (${label}): ${stderr}`] };
  }
  const text = exit.stdout.trim();
  if (text.startsWith('{')) {
    const parsed = HookOutput.safeParse(safeJson(text));
    if (parsed.success) return fromJson(event, parsed.data);
  }
  if (text !== '' && (event === 'UserPromptSubmit' || event === 'SessionStart')) return { context: text, notes: [] };
  return { notes: [] };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function fromJson(event: HookEvent, output: z.infer<typeof HookOutput>): HookVerdict {
  const specific = output.hookSpecificOutput;
  const verdict: HookVerdict = { notes: output.systemMessage ? [output.systemMessage] : [] };
  if (output.continue === false) verdict.stop = output.stopReason ?? `a ${event} hook stopped the task`;
  if (specific?.additionalContext) verdict.context = specific.additionalContext;
  if (event === 'PreToolUse') {
    const legacy = output.decision === 'approve' ? 'allow' : output.decision === 'block' ? 'deny' : undefined;
    const decision = specific?.permissionDecision ?? legacy;
    const reason = specific?.permissionDecisionReason ?? output.reason;
    if (decision) verdict.decision = decision;
    if (reason) verdict.reason = reason;
  } else if (output.decision === 'block') {
    verdict.decision = 'block';
    verdict.reason = output.reason ?? `a ${event} hook blocked it`;
  }
  return verdict;
}

const RANK = { deny: 4, block: 4, ask: 3, allow: 2 } as const;

/** The verdicts of one event's hooks as one: deny (or block) over ask over allow; contexts and notes joined. */
export function combineVerdicts(verdicts: readonly HookVerdict[]): HookVerdict {
  const combined: HookVerdict = { notes: verdicts.flatMap((verdict) => verdict.notes) };
  const contexts = verdicts.flatMap((verdict) => (verdict.context ? [verdict.context] : []));
  if (contexts.length > 0) combined.context = contexts.join('\n\n');
  const stop = verdicts.find((verdict) => verdict.stop !== undefined)?.stop;
  if (stop !== undefined) combined.stop = stop;
  for (const verdict of verdicts) {
    if (!verdict.decision) continue;
    if (combined.decision && RANK[combined.decision] >= RANK[verdict.decision]) {
      if (RANK[combined.decision] === RANK[verdict.decision] && verdict.reason)
        combined.reason = combined.reason ? `${combined.reason}\n${verdict.reason}` : verdict.reason;
      continue;
    }
    combined.decision = verdict.decision;
    if (verdict.reason === undefined) delete combined.reason;
    else combined.reason = verdict.reason;
  }
  return combined;
}
