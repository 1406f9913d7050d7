import {
  type ApprovalMode,
  type CustomAgent,
  DEFAULT_AGENT_NAME,
  type DoneEvent,
  handoffOffer,
  stricterMode,
} from '../../agent';
import type { HandoffOffer } from '../../protocol';
import { terminalText } from './terminalText';

// `loopwire exec --agent NAME` whose agent has `handoffs` (src/agent/customAgents/customAgentHandoffs.ts): a
// terminal has no buttons, so once its task has completed each handoff is the command that continues the kept
// session with it — on stderr for people, on the task's `done` event (`handoffs`) with --json. The command
// names the target agent (none for Loopwire's own), the handoff's model and its prompt; the user runs it, or not:
// nothing runs by itself, and the run's approval mode and sandbox are whatever the user gives it — but for a
// handoff to VS Code's `ask` or `plan` (Loopwire's own agent in read-only or plan mode), whose command says
// `--approve read-only` or `--approve plan`: the stricter of that and this run's mode, never a looser one.

/** `word` as one argument of a POSIX shell (single quotes, a quote inside closed and escaped). */
function quoted(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * `agent`'s handoffs as offered after its completed task; `file`: the session kept (none: no command); `approve`:
 * this run's approval mode (--approve's), which a handoff's own mode may only narrow.
 */
export function handoffOffers(
  agent: CustomAgent | null | undefined,
  file: string | undefined,
  approve: ApprovalMode,
): HandoffOffer[] {
  return (agent?.handoffs ?? []).map((handoff) => {
    const offer = handoffOffer(handoff);
    if (file === undefined) return offer;
    const words = ['loopwire', 'exec', '--resume', file];
    if (offer.agent !== DEFAULT_AGENT_NAME) words.push('--agent', offer.agent);
    if (offer.model !== undefined) words.push('--model', offer.model);
    if (offer.mode !== undefined) words.push('--approve', stricterMode(approve, offer.mode));
    const prompt = offer.prompt === undefined ? 'PROMPT' : quoted(offer.prompt);
    return { ...offer, command: `${words.map(quoted).join(' ')} ${prompt}` };
  });
}

/** The task's own `done` with the handoffs of a completed task (others, and a task without any, unchanged). */
export function withHandoffs(event: DoneEvent, offers: readonly HandoffOffer[]): DoneEvent {
  if (event.agent !== undefined || event.status !== 'completed' || offers.length === 0) return event;
  return { ...event, handoffs: [...offers] };
}

/**
 * For people, on stderr: one line per handoff, the command that continues with it. Its label, agent and prompt
 * are a repository's text: control characters go (an OSC 52 sequence would fill the clipboard the user pastes
 * the command from), line breaks stay; `--json` keeps the command exact.
 */
export function handoffLines(offers: readonly HandoffOffer[]): string {
  return offers
    .map((offer) =>
      terminalText(
        offer.command === undefined
          ? `(handoff: ${offer.label} → ${offer.agent}; no session was kept to continue)`
          : `(handoff: ${offer.label} → ${offer.agent}: ${offer.command})`,
      ),
    )
    .map((line) => `${line}\n`)
    .join('');
}
