import * as z from 'zod';

// A task's plan, as the model keeps it with `update_plan` (Codex's schema, which GPT-5.x and Codex models are
// trained on) and as the chat panel and `loopwire exec` show it: one schema for the call's arguments and for
// the panel's checklist, so the shape is written once.

export const PlanStatus = z.enum(['pending', 'in_progress', 'completed']);

export const PlanStep = z.object({
  step: z.string().min(1).describe('What this step does, in a few words.'),
  status: PlanStatus.describe('One of: pending, in_progress, completed.'),
});

/** The steps marked `in_progress`, by their 1-based number: more than one is a plan the model must mend. */
function inProgress(steps: readonly PlanStep[]): number[] {
  return steps.flatMap((step, index) => (step.status === 'in_progress' ? [index + 1] : []));
}

/** The whole plan, replacing the last one: at most one step `in_progress` (the one being worked on). */
export const Plan = z.object({
  explanation: z.string().optional().describe('Why the plan changed, in a sentence (optional).'),
  plan: z
    .array(PlanStep)
    .describe('Every step of the plan, in order; at most one in_progress.')
    .superRefine((steps, context) => {
      const working = inProgress(steps);
      if (working.length > 1)
        context.addIssue({
          code: 'custom',
          message: `steps ${working.join(', ')} are all in_progress; at most one step may be in_progress at a time: mark the one being worked on in_progress, the others pending or completed, and call update_plan again`,
        });
    }),
});

export type PlanStatus = z.infer<typeof PlanStatus>;
export type PlanStep = z.infer<typeof PlanStep>;
export type Plan = z.infer<typeof Plan>;
