import { t } from '@vscode/l10n';
import { z } from 'zod';
import { jsonArguments } from './callSummary';
import { maxOutputArgument, sessionReport, yieldArgument } from './backgroundReport';
import { defineTool } from './tool';
import { refusal } from './toolErrors';

// Codex's `write_stdin` (its names and schema are a contract: GPT models are trained on them): input for a
// command exec_command left running in the background, or, with empty `chars`, a poll; the answer is what the
// command printed since the last look, and its exit code once it has ended. Its effect is `read`: it reaches
// only a command that was already allowed to run (in read-only, only one that reads), so each poll of a dev
// server does not wait on a person.

/** How long a write waits for the command's answer by default (Codex's). */
const STDIN_YIELD_MS = 250;
/** A bound the schema states (ids count from 1 in a chat). */
const MAX_SESSION_ID = 1_000_000;

export const WriteStdinArgs = z.object({
  session_id: z.number().int().min(1).max(MAX_SESSION_ID).describe("exec_command's session_id."),
  chars: z.string().optional().describe('Written to its stdin; empty polls.'),
  yield_time_ms: yieldArgument(STDIN_YIELD_MS),
  max_output_tokens: maxOutputArgument(),
});

export const writeStdinTool = defineTool({
  name: 'write_stdin',
  description:
    'Write chars to the stdin of a command exec_command left running, or poll it (empty chars): returns its output since, and its exit code once ended.',
  args: WriteStdinArgs,
  // The budget the schema names is the model's own (128k families keep less of an output).
  offeredArgs: ({ outputTokens }) => WriteStdinArgs.extend({ max_output_tokens: maxOutputArgument(outputTokens) }),
  effect: 'read',
  requires: 'commands',
  // Without the host's sessions, exec_command runs every command to its end: there is nothing to write to.
  optIn: 'sessions',
  outputShape: 'tail',
  summarize: (input) => summary(jsonArguments(input)),
  async run(args, { sessions, outputTokens }) {
    const running = sessions?.get(args.session_id);
    if (!sessions || !running)
      return refusal(
        `There is no session ${args.session_id}: it ended and was reported, or was never started. Start the command again with exec_command.`,
        () => t('There is no session {0}: it has ended, or was never started.', args.session_id),
      );
    const chars = args.chars ?? '';
    const wrote = chars === '' || (await running.session.write(chars));
    const progress = await running.session.read(args.yield_time_ms ?? STDIN_YIELD_MS);
    const what = `Session ${args.session_id} (${running.command})`;
    const report = sessionReport(what, args.session_id, {
      progress,
      timeoutS: running.timeoutS,
      sessions,
      budget: args.max_output_tokens ?? outputTokens,
    });
    if (wrote) return report;
    const closed = 'Its standard input is closed: nothing was written.';
    return {
      ...report,
      output: `${closed}\n${report.output}`,
      ...(report.display === undefined ? {} : { display: `${closed}\n${report.display}` }),
      ...(report.shown === undefined
        ? {}
        : { shown: `${t('Its standard input is closed: nothing was written.')}\n${report.shown}` }),
    };
  },
});

/** `session 3: "y\n"`, or `session 3 (poll)`, from arguments possibly still streaming. */
function summary(args: Record<string, unknown>): string {
  const id = args.session_id;
  if (typeof id !== 'number') return '';
  const chars = args.chars;
  // A card's and the terminal's line only (the model reads its own call): the person's language.
  return typeof chars === 'string' && chars !== ''
    ? t('session {0}: {1}', id, JSON.stringify(chars))
    : t('session {0} (poll)', id);
}
