import { createInterface } from 'node:readline/promises';
import type { ApprovalRequest } from '../../agent';
import { t } from '../cliL10n';

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
 * The model's text as a question shows it: a control character (an escape sequence that would move the cursor
 * or repaint the question) is shown as U+FFFD, and a line break starts an indented line.
 */
function visible(text: string): string {
  const control = (code: number) => (code < 0x20 && code !== 0x0a && code !== 0x09) || (code >= 0x7f && code <= 0x9f);
  return [...text]
    .map((char) => (control(char.codePointAt(0) ?? 0) ? '\ufffd' : char))
    .join('')
    .replace(/\n/g, '\n    ');
}

/**
 * Asks on the terminal before each write or task, naming what the call does (a command's exact line, a
 * task's label, an edit's files) with `describe`; `a` allows the rest of the task. A command the model asks
 * to run outside the sandbox is asked as such (askEscalation), each time: `a` does not cover it, since only
 * the sandbox stood between the others and the machine. `ruleFor`: the allow rule it may offer for one.
 */
export function terminalAsk(
  describe: (request: ApprovalRequest) => string,
  ruleFor: (request: ApprovalRequest) => Promise<string | undefined> = () => Promise.resolve(undefined),
): (request: ApprovalRequest) => Promise<boolean> {
  let all = false;
  return async (request) => {
    if (request.escalation) return askEscalation(request, describe(request), await ruleFor(request));
    // A hook that asks is asked about each time: `a` answered the mode's questions, not the hook's.
    if (all && request.hookAsks === undefined) return true;
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

/**
 * The question for a command to run outside the sandbox: the command, the model's reason, and Allow once /
 * Always allow `prefix` (where `rule` is offered: kept through request.keepRule, for the run) / Decline.
 */
async function askEscalation(request: ApprovalRequest, what: string, rule: string | undefined): Promise<boolean> {
  const reason = request.escalation?.justification;
  const lines = [
    `${t('Run outside the sandbox')}: ${visible(what === '' ? request.name : what)}`,
    ...(reason === undefined ? [] : [`  ${t('The model says: {0}', visible(reason))}`]),
    rule === undefined
      ? t('[y]es, once / [n]o: ')
      : t('[y]es, once / [p] always allow `{0}` in this run / [n]o: ', visible(rule)),
  ];
  const answer = (await askOnTerminal(lines.join('\n'))).trim();
  if (rule !== undefined && /^p/i.test(answer) && request.keepRule) {
    request.keepRule(rule);
    return true;
  }
  return /^y/i.test(answer);
}
