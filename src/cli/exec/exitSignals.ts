// The signals that end `loopwire exec` from outside: Ctrl+C (SIGINT), a `kill` or a supervisor (SIGTERM), a
// closed terminal (SIGHUP). Node's default for SIGTERM and SIGHUP ends the process at once, and the commands
// left running in the background, each in a process group of its own, would outlive it; so each of these
// signals stops the task as Stop does instead, and exec's own way out stops every command's group.

export const EXIT_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

export type ExitSignal = (typeof EXIT_SIGNALS)[number];

/**
 * Calls `stop` at each of SIGINT, SIGTERM and SIGHUP until the returned function is called (`stop` must bear
 * being called twice: a second Ctrl+C while the commands are stopping changes nothing, they are gone within
 * their grace time). Returns the function that gives the signals their default back.
 */
export function onExitSignals(stop: (signal: ExitSignal) => void): () => void {
  const handlers = EXIT_SIGNALS.map((signal) => {
    const handler = () => stop(signal);
    process.on(signal, handler);
    return () => process.removeListener(signal, handler);
  });
  return () => {
    for (const remove of handlers) remove();
  };
}
