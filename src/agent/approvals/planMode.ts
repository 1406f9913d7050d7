// Plan mode, the approval mode `plan`: the agent reads, searches, runs the commands that only read and keeps
// the plan, and nothing is written and no task runs (approvals.ts declines them, like read-only). What sets
// it apart is what the model is told: that it is planning (the environment item carries this note while the
// mode is `plan`, and a new item without it once the user leaves), why a call was declined, and that the
// answer ends with the plan, which the user then has implemented in another mode (the panel's Implement).
// Plain strings and no imports: the tool runner and the environment item read them.

/** What the model is told while the approval mode is `plan` (for the environment item). */
export const PLAN_MODE_NOTE =
  'Plan mode: the user wants a plan before anything changes. Read, search and run commands that only read; ' +
  'keep the plan with the plan tool where you have it. Do not edit files or run tasks or other commands: ' +
  'those calls are declined while the mode is plan. End your answer with the plan, one numbered step per ' +
  'line; the user switches to another approval mode to have it implemented.';

/** What the model is told of a write or a task declined in plan mode. */
export function planModeDeclined(tool: string): string {
  return (
    `This ${tool} call was not run: the session is in plan mode, where nothing is written and no task runs. ` +
    'Do not retry it. Go on reading and planning, and end your answer with the plan; the user leaves plan mode ' +
    'to have it implemented.'
  );
}

/**
 * `loopwire.planTool`: `auto` offers the plan tool where the model catalogue's plan column says (GPT-5.x and
 * Codex models), `always` to every model, `off` to none.
 */
export const PLAN_TOOL_SETTINGS = ['auto', 'always', 'off'] as const;
export type PlanToolSetting = (typeof PLAN_TOOL_SETTINGS)[number];

/** Whether the plan tool is offered under `setting` (default `auto`) to a model whose catalogue row says `catalogue`. */
export function planToolOffered(setting: PlanToolSetting | undefined, catalogue: boolean): boolean {
  return setting === 'always' || (setting !== 'off' && catalogue);
}
