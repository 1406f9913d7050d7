import type { SessionEvent } from '../../tools';

// What `loopwire exec` says of the commands that run on in the background (exec_command past its yield
// time): one line when one goes on, one when it ends, so a person reading the run knows what is running.

export function sessionLine(event: SessionEvent): string {
  if (event.kind === 'background') return `(session ${event.id} runs on in the background: ${event.command})\n`;
  const { end } = event;
  const how = end.timedOut ? 'stopped at its timeout' : end.exitCode === null ? 'stopped' : `exit code ${end.exitCode}`;
  return `(session ${event.id} ended, ${how}: ${event.command})\n`;
}
