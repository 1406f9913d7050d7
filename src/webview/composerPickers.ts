import type { ApprovalChoice, ComposerChoices, ViewMessage } from '../protocol/chatView';
import { h } from './dom';
import { t } from './l10n';

// The composer's pickers, beside Send: the agent (Loopwire or a custom agent, shown where the workspace or the
// user has some), the model, the reasoning effort and the approval mode. Each shows the
// setting as the host last said it (also after a change made in settings) and, when changed, asks the host
// to write it for this workspace; the next request goes with it. The lists come from the host.

/** The model picker's last entry: the host asks for a name. */
const OTHER = '\u0000other';

const EFFORT_LABELS: Record<string, string> = {
  default: t("Model's default"),
  none: t('No reasoning'),
  minimal: t('Minimal effort'),
  low: t('Low effort'),
  medium: t('Medium effort'),
  high: t('High effort'),
  xhigh: t('Extra high effort'),
};

/** Each effort's name alone, as the default's label says it: "Medium (default)". */
const EFFORT_NAMES: Record<string, string> = {
  none: t('No reasoning'),
  minimal: t('Minimal'),
  low: t('Low'),
  medium: t('Medium'),
  high: t('High'),
  xhigh: t('Extra high'),
};

/**
 * An effort's label. `default` names what it sends for this model ("Medium (default)"), so the user sees the
 * effort they get; a model with no default of its own sends none ("Model's default").
 */
function effortLabel(effort: string, defaultEffort: string | undefined): string {
  if (effort !== 'default') return EFFORT_LABELS[effort] ?? effort;
  if (defaultEffort === undefined) return EFFORT_LABELS.default ?? effort;
  return t('{0} (default)', EFFORT_NAMES[defaultEffort] ?? defaultEffort);
}

const APPROVAL_LABELS: Record<ApprovalChoice, { label: string; title: string }> = {
  auto: { label: t('Auto'), title: t('Edits, tasks and commands run in the sandbox without asking') },
  ask: { label: t('Ask'), title: t('Ask before each edit and task') },
  all: { label: t('Run all'), title: t('Edits and tasks run without asking') },
  'read-only': { label: t('Read-only'), title: t('Edits and tasks are declined; reads and searches run') },
  plan: { label: t('Plan'), title: t('Read, search and make a plan; nothing is changed until you choose Implement') },
};

interface Picker {
  element: HTMLElement;
  select: HTMLSelectElement;
}

function picker(name: string, icon: string, onChange: (value: string) => void): Picker {
  const select = h('select', { class: 'picker-select', attrs: { 'aria-label': name, title: name } });
  select.addEventListener('change', () => onChange(select.value));
  // Escape on a picker is the picker's (Chromium closes an open list itself): it must not reach the page's
  // Escape, which stops the running task.
  select.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') event.stopPropagation();
  });
  const element = h(
    'label',
    { class: `picker picker-${name.toLowerCase().replace(/\s+/g, '-')}` },
    h('span', { class: `codicon codicon-${icon}`, attrs: { 'aria-hidden': 'true' } }),
    select,
  );
  return { element, select };
}

/** Replaces a select's options with `options` ([value, label, title?]) and selects `value`. */
function fill(
  select: HTMLSelectElement,
  options: readonly (readonly [string, string, string?])[],
  value: string,
): void {
  select.replaceChildren(
    ...options.map(([option, label, title]) =>
      h('option', { attrs: { value: option, ...(title ? { title } : {}) } }, label),
    ),
  );
  select.value = value;
  select.title = `${select.getAttribute('aria-label') ?? ''}: ${select.selectedOptions[0]?.textContent ?? value}`;
}

/** The agent picker's first entry: Loopwire's own (the host's DEFAULT_AGENT_NAME). */
const LOOPWIRE = 'Loopwire';

type Choice = 'agent' | 'model' | 'effort' | 'approval';

export class ComposerPickers {
  readonly element: HTMLElement;
  private readonly agent: Picker;
  private readonly model: Picker;
  private readonly effort: Picker;
  private readonly approval: Picker;
  private current: ComposerChoices | undefined;
  /**
   * Other… asked the host for a name in VS Code's input box, which took the focus out of the page: its answer
   * (the choices again, named or dismissed) puts it back on the picker, where a keyboard user left off.
   */
  private refocusModel = false;
  /**
   * Each picker's picks the host has not yet echoed, oldest first. The host writes them in order and echoes
   * each (its answer and the settings' event), so an echo of an earlier pick can come after a later one
   * (Down then Up quickly): it is passed over, and the picker keeps the user's latest pick until that is echoed.
   */
  private readonly picks: Record<Choice, string[]> = { agent: [], model: [], effort: [], approval: [] };

  constructor(post: (message: ViewMessage) => void) {
    this.agent = picker(t('Agent'), 'person', (value) => this.pick(post, 'agent', value));
    this.model = picker(t('Model'), 'sparkle', (value) => {
      if (value === OTHER) {
        // Shown as it was until the host says what was chosen.
        if (this.current) this.model.select.value = this.current.model;
        this.refocusModel = true;
        post({ type: 'choose', choice: 'model' });
      } else this.pick(post, 'model', value);
    });
    this.effort = picker(t('Reasoning effort'), 'lightbulb', (value) => this.pick(post, 'effort', value));
    this.approval = picker(t('Approvals'), 'shield', (value) => this.pick(post, 'approval', value));
    this.element = h(
      'div',
      { class: 'composer-pickers hidden', attrs: { role: 'group', 'aria-label': t('Request settings') } },
      this.model.element,
      this.effort.element,
      this.approval.element,
    );
  }

  private pick(post: (message: ViewMessage) => void, choice: Choice, value: string): void {
    this.picks[choice].push(value);
    post({ type: 'choose', choice, value });
  }

  /** What a picker shows for the host's `echoed` value: the latest pick while `echoed` is an older one's echo. */
  private settled(choice: Choice, echoed: string): string {
    const picks = this.picks[choice];
    const latest = picks.at(-1);
    if (latest !== undefined && latest !== echoed && picks.includes(echoed)) return latest;
    picks.length = 0;
    return echoed;
  }

  /**
   * No OS sandbox on this machine: Auto would confine nothing, so it cannot be picked; it stays in the list,
   * saying why in its label and title (selected still, where it is the mode in force: it then asks as Ask).
   */
  private autoUnavailable(why: string): void {
    const auto = [...this.approval.select.options].find((option) => option.value === 'auto');
    if (!auto) return;
    auto.disabled = true;
    auto.textContent = t('Auto (no sandbox here)');
    auto.title = why;
  }

  /** The agent picker: Loopwire, then each custom agent (its description and file as its title); none: hidden. */
  private showAgents(echoed: ComposerChoices): void {
    const agents = echoed.agents ?? [];
    // In the group only where there is a custom agent to pick: otherwise the composer is as it was.
    if (agents.length === 0) return this.agent.element.remove();
    if (this.agent.element.parentElement !== this.element) this.element.prepend(this.agent.element);
    fill(
      this.agent.select,
      [
        [LOOPWIRE, LOOPWIRE, t("Loopwire's own instructions and tools")],
        ...agents.map(
          (agent) =>
            [agent.name, agent.name, agent.description ? `${agent.description} (${agent.file})` : agent.file] as const,
        ),
      ],
      this.settled('agent', echoed.agent ?? LOOPWIRE),
    );
  }

  show(echoed: ComposerChoices): void {
    const choices: ComposerChoices = {
      ...echoed,
      model: this.settled('model', echoed.model),
      effort: this.settled('effort', echoed.effort),
      approval: this.settled('approval', echoed.approval) as ApprovalChoice, // a pick is one of the picker's modes
    };
    this.current = choices;
    this.element.classList.remove('hidden');
    this.showAgents(echoed);
    const models = choices.models.includes(choices.model) ? choices.models : [choices.model, ...choices.models];
    fill(
      this.model.select,
      [...models.map((name) => [name, name] as const), [OTHER, t('Other…'), t('Name another model')]],
      choices.model,
    );
    fill(
      this.effort.select,
      choices.efforts.map((effort) => [effort, effortLabel(effort, choices.defaultEffort)] as const),
      choices.effort,
    );
    fill(
      this.approval.select,
      (Object.keys(APPROVAL_LABELS) as ApprovalChoice[]).map(
        (mode) => [mode, APPROVAL_LABELS[mode].label, APPROVAL_LABELS[mode].title] as const,
      ),
      choices.approval,
    );
    if (choices.noSandbox !== undefined) this.autoUnavailable(choices.noSandbox);
    // The mode in force, and why where it is not the user's pick (a workspace's stricter setting).
    if (choices.approvalNote !== undefined) this.approval.select.title += ` (${choices.approvalNote})`;
    this.approval.element.classList.toggle('picker-noted', choices.approvalNote !== undefined);
    if (this.refocusModel) {
      this.refocusModel = false;
      const select = this.model.select;
      select.focus();
      // The host gives the panel the focus back on its own time, and the page's focus then starts at its body:
      // the picker takes it again when the window has it.
      if (!document.hasFocus()) window.addEventListener('focus', () => select.focus(), { once: true });
    }
  }
}
