// What `loopwire exec` adds to the reason a task stopped: the environment variable or flag that fixes it in a
// terminal. The agent's message states the fault alone (retryPolicy.ts), because the same stop reaches the
// chat panel, where the remedy is a button that runs a VS Code command instead.
import { AgentStop } from '../../agent';
import { errorMessage } from '../cliIo';
import { t } from '../cliL10n';

/** The advice per stop code; a code not listed gets none (the table's own advice is already in the message). */
const ADVICE = new Map<string, string>([
  ['auth', t('Set OPENAI_API_KEY to a key this endpoint accepts (or pass its header with --header).')],
  ['unreachable', t('Check the URL given to --endpoint.')],
  ['proxy', t("Check HTTPS_PROXY and HTTP_PROXY, or name the endpoint's host in NO_PROXY.")],
  ['websocket_unsupported', t('Use --transport http or auto.')],
  ['model_not_found', t('Choose another with --model.')],
]);

/** `message` followed by the terminal's advice for a stop of `code`, where there is some. */
export function withCliAdvice(message: string, code: string | undefined): string {
  const advice = code === undefined ? undefined : ADVICE.get(code);
  return advice === undefined ? message : `${message} ${advice}`;
}

/** What a task's start printed on its error line: an {@link AgentStop} (a warm-up refused) with the advice. */
export function failureLine(error: unknown): string {
  return withCliAdvice(errorMessage(error), error instanceof AgentStop ? error.code : undefined);
}
