import type { RunningCommand } from '../protocol/runningCommands';

// How long each command running in the background has run, counted on the page's clock from what the host last
// said (its list of them): the list above the composer and the card of the call that left each running show
// the same time, and tick together.

/** Each command's time as the host said it, and when (performance.now()) it was said. */
const clocks = new Map<number, { runningMs: number; at: number }>();

/** The host's list, received at `at`: the commands not in it have ended. */
export function setCommandClocks(commands: readonly RunningCommand[], at: number): void {
  clocks.clear();
  for (const command of commands) clocks.set(command.id, { runningMs: command.runningMs, at });
}

/** How long session `id` has run, now; undefined once it has ended (or before the host listed it). */
export function runningFor(id: number): number | undefined {
  const clock = clocks.get(id);
  return clock && clock.runningMs + performance.now() - clock.at;
}

/** `12 s`, `3 min 05 s`, `1 h 02 min`: short, and the width steady while it ticks. */
export function formatRunning(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  const pad = (value: number) => String(value).padStart(2, '0');
  if (minutes < 60) return `${minutes} min ${pad(seconds % 60)} s`;
  return `${Math.floor(minutes / 60)} h ${pad(minutes % 60)} min`;
}

/** A card's clock of session `id`: its time now, kept ticking by `tickCardClocks`. */
export function cardClock(id: number, element: HTMLElement): HTMLElement {
  element.dataset.session = String(id);
  const ms = runningFor(id);
  if (ms !== undefined) element.textContent = formatRunning(ms);
  return element;
}

/** Every card's clock in the page, now (a clock whose command has ended keeps its last time). */
export function tickCardClocks(): void {
  for (const element of document.querySelectorAll<HTMLElement>('[data-session]')) {
    const ms = runningFor(Number(element.dataset.session));
    if (ms !== undefined) element.textContent = formatRunning(ms);
  }
}
