import { createInterface } from 'node:readline/promises';
import type { ApprovalRequest } from '../agent';
import { t } from './cliL10n';

// A question asked on the terminal (stderr, so that stdout stays the run's output) and its answer read from
// stdin: for a user sitting at the run, before something happens that only they can allow.

/** Whether there is someone to ask: stdin and stderr are both a terminal. */
export const onTerminal = (): boolean => process.stdin.isTTY === true && process.stderr.isTTY === true;

/**
 * Asks `question` and resolves the line typed. Ctrl+C answers '' (no): on a terminal in raw mode the keys
 * reach readline, not the process, and readline without a listener would only pause, leaving the run waiting.
 */
export async function askOnTerminal(question: string): Promise<string> {
  const readline = createInterface({ input: process.stdin, output: process.stderr });
  const interrupted = new AbortController();
  readline.once('SIGINT', () => interrupted.abort());
  try {
    return await readline.question(question, { signal: interrupted.signal });
  } catch (error) {
    if (!interrupted.signal.aborted) throw error;
    process.stderr.write('\n');
    return '';
  } finally {
    readline.close();
  }
}

/**
 * Asks on the terminal before each write or task, naming what the call does (a command's exact line, a
 * task's label, an edit's files) with `describe`; `a` allows the rest of the task.
 */
export function terminalAsk(
  describe: (request: ApprovalRequest) => string,
): (request: ApprovalRequest) => Promise<boolean> {
  let all = false;
  return async (request) => {
    if (all) return true;
    const readline = createInterface({ input: process.stdin, output: process.stderr });
    try {
      const what = describe(request);
      const answer = await readline.question(
        t(
          'Allow {0} ({1})? [y]es / [n]o / [a]ll: ',
          what === '' ? request.name : `${request.name} ${what}`,
          request.effect,
        ),
      );
      all = /^a/i.test(answer.trim());
      return all || /^y/i.test(answer.trim());
    } finally {
      readline.close();
    }
  };
}
