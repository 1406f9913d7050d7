import type { SessionEvent } from '../../tools';

/** A command that went on in the background, or ended, as the window's log says it. */
export function commandLine(event: SessionEvent): string {
  return event.kind === 'background'
    ? `command session ${event.id} runs on in the background: ${event.command}`
    : `command session ${event.id} ended (exit code ${event.end.exitCode ?? 'none'}): ${event.command}`;
}
