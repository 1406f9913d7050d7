import type { Plan, PlanStatus } from '../../protocol/plan';

// The task's plan as `loopwire exec` prints it, under the plan tool's line each time the plan changes: one
// checkbox per step in plain ASCII (`[x]` done, `[~]` being worked on, `[ ]` to do), which reads the same on
// a terminal, in a log file and in CI output, where box-drawing glyphs come out in odd widths or not at all,
// and which `grep '\[ \]'` finds. On a colour terminal the step being worked on is bold and the done ones dim.

export const PLAN_MARKS: Readonly<Record<PlanStatus, string>> = {
  completed: '[x]',
  in_progress: '[~]',
  pending: '[ ]',
};

const STYLE: Readonly<Record<PlanStatus, string | undefined>> = {
  completed: '2',
  in_progress: '1',
  pending: undefined,
};

const paint = (on: boolean, code: string | undefined, text: string) =>
  on && code !== undefined ? `\u001b[${code}m${text}\u001b[0m` : text;

/** A control character (C0, DEL, C1): one could move the cursor or recolour the terminal. */
const isControl = (char: string) => {
  const code = char.codePointAt(0) ?? 0;
  return code < 0x20 || (code >= 0x7f && code < 0xa0);
};

/** The model's text on one line, with no control characters. */
const plain = (text: string) =>
  [...text]
    .map((char) => (isControl(char) ? ' ' : char))
    .join('')
    .trim();

/** The checklist, one indented line per step, after the plan's explanation (dimmed) when it has one. */
export function planChecklist(plan: Plan, color: boolean): string {
  const why = plan.explanation?.trim() ? [paint(color, '2', `    ${plain(plan.explanation)}`)] : [];
  const steps = plan.plan.map(
    (step) => `    ${paint(color, STYLE[step.status], `${PLAN_MARKS[step.status]} ${plain(step.step)}`)}`,
  );
  return `${[...why, ...steps].join('\n')}\n`;
}

/**
 * The plans the calls of a run set, as they come: a call's plan is kept from its start (its input) to its end,
 * and printed then only if it succeeded and differs from the last one printed.
 */
export class PlanLines {
  private readonly calls = new Map<string, Plan>();
  private last = '';

  /** Call `callId` started; `plan` is what it sets (undefined: it is no plan call, or will be refused). */
  started(callId: string, plan: Plan | undefined): void {
    if (plan) this.calls.set(callId, plan);
  }

  /**
   * Call `callId` ended: its checklist to print, `''` when it repeats the last one, undefined when the call set
   * no plan (another tool, or a refusal, whose message is printed as any tool's).
   */
  finished(callId: string, ok: boolean, color: boolean): string | undefined {
    const plan = this.calls.get(callId);
    this.calls.delete(callId);
    if (!plan || !ok) return undefined;
    const text = planChecklist(plan, false);
    if (text === this.last) return '';
    this.last = text;
    return color ? planChecklist(plan, true) : text;
  }
}
