import { z } from 'zod';
import { answer, controlOf, isResult } from './agentAnswers';
import { stringArgument } from './callSummary';
import { defineTool } from './tool';

// Codex's send_input, by its names and answer (`{submission_id}`): more input for a subagent spawn_agent
// started. A running one takes it at its next tool boundary (or, with `interrupt`, stops what it was doing
// and starts on it); one that had answered takes it as its next task, in the same conversation.

const SendArgs = z.object({
  id: z.string().min(1).describe('The id spawn_agent returned.'),
  message: z.string().min(1).describe('What to tell it: a correction, more detail, or a follow-up task.'),
  interrupt: z
    .boolean()
    .optional()
    .describe('Stop what it is doing now and start on this message. Default false: it reads it at its next step.'),
});

export const sendInputTool = defineTool({
  name: 'send_input',
  description:
    'Sends a message to a subagent you started. A running subagent reads it at its next step (with interrupt: true it drops what it was doing and starts on it); one that has answered takes it as a new task in the same conversation. Collect the answer with wait.',
  args: SendArgs,
  effect: 'read',
  optIn: 'agents',
  summarize: (input) =>
    `${stringArgument(input, 'id') ?? ''} ${(stringArgument(input, 'message', { open: true }) ?? '').split('\n', 1)[0] ?? ''}`.trim(),
  run: async (args, context) => {
    const control = controlOf(context.agents);
    if (isResult(control)) return control;
    const sent = await control.send(args.id, args.message, args.interrupt ?? false, context.signal);
    return answer(sent, ({ submissionId }) => ({ submission_id: submissionId }));
  },
});
