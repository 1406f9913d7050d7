import { t } from '@vscode/l10n';
import { Plan } from '../protocol/plan';
import { jsonArguments } from './callSummary';
import { defineTool, success } from './tool';

// Codex's plan tool, by its names (GPT-5.x and Codex models are trained to keep a plan with it on long tasks):
// the model sends the whole plan each time, and the front ends show it as a checklist (the panel above its
// composer, `loopwire exec` on stdout). It changes nothing on the user's machine, so it is a `read` and never
// asks for approval; it is offered where the model plans (`optIn: 'plan'`, ToolOffer.planTool).

/** The plan a call sets, from its whole JSON arguments; undefined while they stream, or when they are invalid. */
export function planOf(input: string): Plan | undefined {
  const parsed = Plan.safeParse(jsonArguments(input));
  return parsed.success ? parsed.data : undefined;
}

/** A card's or a terminal line's summary: how far the plan is, and the step being worked on. */
function planSummary(input: string): string {
  const plan = planOf(input);
  if (!plan) return '';
  const done = plan.plan.filter((step) => step.status === 'completed').length;
  const working = plan.plan.find((step) => step.status === 'in_progress');
  // The card's and the terminal's words (the model reads its own call, never this): the person's language.
  const progress = t('{0} of {1} done', done, plan.plan.length);
  return working ? `${progress} · ${working.step}` : progress;
}

export const updatePlanTool = defineTool({
  name: 'update_plan',
  description:
    'Updates the task plan, shown to the user as a checklist. Send the whole plan each time: every step with its status (pending, in_progress or completed); at most one step is in_progress. Use it for tasks of several steps; skip it for a simple one.',
  args: Plan,
  effect: 'read',
  optIn: 'plan',
  summarize: planSummary,
  plan: planOf,
  run: () => Promise.resolve(success('Plan updated')),
});
