import type { ViewMessage } from '../protocol/chatView';
import type { RunningCommand } from '../protocol/runningCommands';
import { formatRunning, runningFor, setCommandClocks, tickCardClocks } from './commandClock';
import { button, h } from './dom';
import { t } from './l10n';

// The commands the chat left running in the background (exec_command past its yield time: a dev server, a
// watcher), above the composer: one compact row each with the command, how long it has run, and Stop, which
// ends its whole process group. The host sends the whole list at each change; the times tick here, counted
// from what the host said on the page's own clock (commandClock.ts), as do the cards of the calls that left
// them running. Hidden while none runs, and no timer runs then.

export class CommandList {
  readonly element = h('div', {
    class: 'command-list hidden',
    attrs: {
      role: 'list',
      'aria-label': t('Commands running in the background'),
      title: t('Commands running in the background'),
    },
  });
  /** Each row's time, by its command's id. */
  private clocks: { label: HTMLElement; id: number }[] = [];
  private timer: ReturnType<typeof setInterval> | undefined;
  /** Stop clicked for these: their rows say so until the host's list drops them. */
  private readonly stopping = new Set<number>();

  constructor(private readonly post: (message: ViewMessage) => void) {}

  show(commands: readonly RunningCommand[]): void {
    setCommandClocks(commands, performance.now());
    for (const id of this.stopping) if (!commands.some((command) => command.id === id)) this.stopping.delete(id);
    this.clocks = [];
    this.element.replaceChildren(...commands.map((command) => this.row(command)));
    this.element.classList.toggle('hidden', commands.length === 0);
    this.tick();
    if (commands.length === 0 && this.timer !== undefined) {
      clearInterval(this.timer);
      this.timer = undefined;
    } else if (commands.length > 0) this.timer ??= setInterval(() => this.tick(), 1000);
  }

  private row(command: RunningCommand): HTMLElement {
    const label = h('span', { class: 'command-time' });
    this.clocks.push({ label, id: command.id });
    const stopping = this.stopping.has(command.id);
    const stop = button(t('Stop command'), () => this.stop(command.id, stop), {
      icon: 'debug-stop',
      showLabel: false,
      kind: 'icon',
      title: t('Stop this command and what it started'),
    });
    stop.disabled = stopping;
    return h(
      'div',
      {
        class: `command-row${stopping ? ' stopping' : ''}`,
        attrs: { role: 'listitem', 'data-id': String(command.id) },
      },
      h('span', { class: 'codicon codicon-terminal', attrs: { 'aria-hidden': 'true' } }),
      h('code', { class: 'command-line', attrs: { title: command.command } }, command.command),
      label,
      stop,
    );
  }

  private stop(id: number, stop: HTMLButtonElement): void {
    this.stopping.add(id);
    stop.disabled = true;
    stop.closest('.command-row')?.classList.add('stopping');
    this.post({ type: 'stopCommand', id });
  }

  private tick(): void {
    for (const clock of this.clocks) clock.label.textContent = formatRunning(runningFor(clock.id) ?? 0);
    tickCardClocks();
  }
}
