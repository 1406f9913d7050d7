import { z } from 'zod';
import { answer, controlOf, isResult } from './agentAnswers';
import { stringArgument } from './callSummary';
import { defineTool } from './tool';

// Codex's spawn_agent, by its names and answer (`{agent_id}`): the model hands a bounded part of its task
// to a subagent, which works on it beside the caller — its own conversation on its own lane of the socket,
// its own tool calls under the same approvals and sandbox — and says what it found through `wait`. Starting
// one changes nothing on the machine (its calls are gated one by one), so it is a `read`: several spawns of
// one answer start side by side. Offered where the model was trained on these tools and the agent may start
// subagents (`optIn: 'agents'`); a subagent is not offered it (depth 1).

const SpawnArgs = z.object({
  message: z
    .string()
    .min(1)
    .describe(
      "The subagent's task, complete on its own: what to find out or do, where, and what to report back. It sees only this (and, with fork_context, your conversation so far).",
    ),
  // A string, not an enum: a name the model was trained on that is not ours runs as `default`, not as an error.
  agent_type: z
    .string()
    .optional()
    .describe(
      '`explorer` for a question that only needs reading (it may not write or run tasks); `worker` for a part of the change to make; `default` (when not given): the same tools as you.',
    ),
  fork_context: z
    .boolean()
    .optional()
    .describe('Start it from a copy of your conversation so far instead of a blank one. Default false.'),
});

export const spawnAgentTool = defineTool({
  name: 'spawn_agent',
  description:
    "Starts a subagent on a bounded, self-contained part of your task and returns its id at once; it works beside you while you go on. Use it for work that can proceed in parallel and be summed up in an answer (a separate area to investigate, an independent change); do small or tightly coupled work yourself. It runs with your tools and the user's approval mode, and cannot start subagents of its own. Collect its answer with wait, steer it with send_input, stop it with close_agent. A few run at once at most.",
  args: SpawnArgs,
  effect: 'read',
  optIn: 'agents',
  summarize: (input) => (stringArgument(input, 'message', { open: true }) ?? '').split('\n', 1)[0] ?? '',
  run: async (args, context) => {
    const control = controlOf(context.agents);
    if (isResult(control)) return control;
    const spawned = await control.spawn(
      {
        message: args.message,
        agentType: args.agent_type,
        forkContext: args.fork_context ?? false,
        callId: context.callId ?? '',
      },
      context.signal,
    );
    return answer(spawned, ({ agentId }) => ({ agent_id: agentId }));
  },
});
