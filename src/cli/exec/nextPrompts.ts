import type { Agent, DoneEvent, PromptWithParts } from '../../agent';
import { t } from '../cliL10n';

// What `loopwire exec` runs after its task on the same conversation: the lines the user queued with Tab while
// it ran, and the steers that arrived too late for it (the task answered before their tool boundary). Each is
// a prompt of its own, in order; a task that did not complete runs nothing more, and what waited is named.

/** What of the agent the queue drives: a task run, steers taken and given back. */
export type SteerableAgent = Pick<Agent, 'run' | 'steer' | 'takeSteers'>;

/** The one line that says a waiting prompt was not sent, and why. */
export const notSentLine = (text: string, why: string): string => `${t('(not sent, {0}: {1})', why, text)}\n`;

/**
 * Runs `first`, then what `pending` holds (the user adds to it while tasks run), each as the next prompt, for
 * as long as tasks complete; `say` tells which prompt starts and which were not sent. Resolves to the last
 * task's end: the run succeeded only if every prompt's task completed.
 */
export async function runWithNextPrompts(
  agent: SteerableAgent,
  first: string | PromptWithParts | undefined,
  signal: AbortSignal,
  pending: string[],
  say: (line: string) => void,
): Promise<DoneEvent> {
  let done = await agent.run(first, signal);
  for (;;) {
    // A steer the task ended before delivering was meant for it: it goes before anything queued after it.
    pending.unshift(...agent.takeSteers());
    const next = pending.shift();
    if (next === undefined) return done;
    if (done.status !== 'completed' || signal.aborted) {
      for (const text of [next, ...pending.splice(0)]) say(notSentLine(text, t('the task did not complete')));
      return done;
    }
    say(`› next prompt: ${next}\n`);
    done = await agent.run(next, signal);
  }
}
