import { z } from 'zod';
import { answer, controlOf, isResult } from './agentAnswers';
import { stringArgument } from './callSummary';
import { defineTool } from './tool';

// Codex's close_agent, by its names and answer (`{status}`, the status before it was closed): stops a
// subagent the model started and frees its place; what it was running stops with it.

const CloseArgs = z.object({ id: z.string().min(1).describe('The id spawn_agent returned.') });

export const closeAgentTool = defineTool({
  name: 'close_agent',
  description:
    'Stops a subagent you started, whatever it is doing, and frees its place for another; returns the status it had. Close one whose answer you no longer need, or that went the wrong way.',
  args: CloseArgs,
  effect: 'read',
  optIn: 'agents',
  summarize: (input) => stringArgument(input, 'id') ?? '',
  run: async (args, context) => {
    const control = controlOf(context.agents);
    if (isResult(control)) return control;
    const closed = await control.close(args.id, context.signal);
    return answer(closed, ({ status }) => ({ status }));
  },
});
