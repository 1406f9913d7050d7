import { type AnyInputItem, HOOK_CONTEXT_OPEN, isPrompt } from '../../protocol';
import type { PromptWithParts } from '../conversation/outputItems';
import { userMessage } from '../conversation/outputItems';
import type { AgentEventSink } from '../events';
import { type SkillsTaskStart, skillsBeforePrompt } from '../skills/skillsHook';
import type { TaskEnd } from '../taskEnd';
import { AgentStop } from '../transport/transportFault';
import { type AgentHooks, MAX_STOP_CONTINUES, hookDecided } from './agentHooks';

// Where hooks meet the loop (agentLoop.ts) outside tool calls: at a task's start, SessionStart (the session's
// first task) and UserPromptSubmit, whose context follows the prompt as a message of its own and whose block
// ends the task before the prompt reaches the model; and at its end, Stop, whose block sends the agent on
// with the hook's reason as a new message, at most MAX_STOP_CONTINUES times a task.

/** What the loop hands the hooks at a task's start: the skills' needs, the hooks, where events go. */
export interface HookedTaskStart extends SkillsTaskStart {
  hooks?: AgentHooks | undefined;
  emit: AgentEventSink;
}

/** A hook's context as the model reads it: a message of its own, saying where it came from. */
const contextItem = (event: string, text: string): AnyInputItem =>
  userMessage(`${HOOK_CONTEXT_OPEN}event="${event}">\n${text}\n</hook_context>`);

/**
 * What follows the prompt: the messages of the skills it names (skillsHook.ts), then the context the
 * SessionStart and UserPromptSubmit hooks add. A UserPromptSubmit block throws an AgentStop (`hook_blocked`):
 * the prompt is not sent, the task ends with the hook's reason.
 */
export async function beforePrompt(start: HookedTaskStart, prompt: string | PromptWithParts): Promise<AnyInputItem[]> {
  const { hooks } = start;
  if (!hooks) return skillsBeforePrompt(start, prompt);
  hooks.stopsThisTask = 0;
  const items: AnyInputItem[] = [];
  if (!hooks.sessionStarted && hooks.has('SessionStart')) {
    hooks.sessionStarted = true;
    // A session with a prompt already (--resume) resumes; the project instructions just added do not count.
    const source = start.transcript.items.some(isPrompt) ? 'resume' : 'startup';
    const verdict = await hooks.run('SessionStart', { source }, start.emit);
    if (verdict?.stop !== undefined) throw new AgentStop('hook_stopped', verdict.stop);
    if (verdict?.context) items.push(contextItem('SessionStart', verdict.context));
  }
  const text = typeof prompt === 'string' ? prompt : prompt.text;
  const verdict = hooks.has('UserPromptSubmit')
    ? await hooks.run('UserPromptSubmit', { prompt: text }, start.emit)
    : undefined;
  if (verdict?.stop !== undefined) throw new AgentStop('hook_stopped', verdict.stop);
  if (verdict?.decision === 'block') {
    hookDecided(start.emit, 'UserPromptSubmit', 'block', verdict.reason);
    throw new AgentStop('hook_blocked', `A UserPromptSubmit hook refused the prompt: ${verdict.reason ?? ''}`);
  }
  if (verdict?.context) {
    hookDecided(start.emit, 'UserPromptSubmit', 'context');
    items.push(contextItem('UserPromptSubmit', verdict.context));
  }
  return [...(await skillsBeforePrompt(start, prompt)), ...items];
}

/**
 * The task's end as the Stop hooks leave it: a task the model ended by answering goes on where a Stop hook
 * blocks (its reason a new message; undefined: another turn), up to MAX_STOP_CONTINUES times a task. Any
 * other end, or no Stop hook, is left as it is.
 */
export async function stopHook(start: HookedTaskStart, end: TaskEnd | undefined): Promise<TaskEnd | undefined> {
  const { hooks } = start;
  if (!hooks || !end || end[0] !== 'completed' || end[2] !== 'answered' || !hooks.has('Stop')) return end;
  if (hooks.stopsThisTask >= MAX_STOP_CONTINUES) return end;
  const verdict = await hooks.run('Stop', { stop_hook_active: hooks.stopsThisTask > 0 }, start.emit);
  if (verdict?.stop !== undefined) return ['stopped', verdict.stop, 'hook_stopped'];
  if (verdict?.decision !== 'block') return end;
  hooks.stopsThisTask++;
  const reason = verdict.reason ?? 'A Stop hook asks you to go on.';
  hookDecided(start.emit, 'Stop', 'block', reason);
  start.transcript.append(userMessage(reason));
  return undefined;
}
