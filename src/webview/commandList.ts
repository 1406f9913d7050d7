import type { ViewMessage } from '../protocol/chatView';
import type { RunningCommand } from '../protocol/runningCommands';
import { button, h } from './dom';
import { t } from './l10n';

// The commands the chat left running in the background (exec_command past its yield time: a dev server, a
// watcher), above the composer: one compact row each with the command, how long it has run, and Stop, which
// ends its whole process group. The host sends the whole list at each change; the times tick here, counted
// from what the host said on the page's own clock. Hidden while none runs, and no timer runs then.

/** `12 s`, `3 min 05 s`, `1 h 02 min`: short, and the width steady while it ticks. */
export function formatRunning(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  const pad = (value: number) => String(value).padStart(2, '0');
  if (minutes < 60) return `${minutes} min ${pad(seconds % 60)} s`;
  return `${Math.floor(minutes / 60)} h ${pad(minutes % 60)} min`;
}

export class CommandList {
  readonly element = h('div', {
    class: 'command-list hidden',
    attrs: {
      role: 'list',
      'aria-label': t('Commands running in the background'),
      title: t('Commands running in the background'),
    },
  });
  /** Each row's time and when (performance.now()) it had run the host's runningMs. */
  private clocks: { label: HTMLElement; runningMs: number; at: number }[] = [];
  private timer: ReturnType<typeof setInterval> | undefined;
  /** Stop clicked for these: their rows say so until the host's list drops them. */
  private readonly stopping = new Set<number>();

  constructor(private readonly post: (message: ViewMessage) => void) {}

  show(commands: readonly RunningCommand[]): void {
    const at = performance.now();
    for (const id of this.stopping) if (!commands.some((command) => command.id === id)) this.stopping.delete(id);
    this.clocks = [];
    this.element.replaceChildren(...commands.map((command) => this.row(command, at)));
    this.element.classList.toggle('hidden', commands.length === 0);
    this.tick();
    if (commands.length === 0 && this.timer !== undefined) {
      clearInterval(this.timer);
      this.timer = undefined;
    } else if (commands.length > 0) this.timer ??= setInterval(() => this.tick(), 1000);
  }

  private row(command: RunningCommand, at: number): HTMLElement {
    const label = h('span', { class: 'command-time' });
    this.clocks.push({ label, runningMs: command.runningMs, at });
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
    const now = performance.now();
    for (const clock of this.clocks) clock.label.textContent = formatRunning(clock.runningMs + now - clock.at);
  }
}
