// How long a session's first agent took to start, lap by lap, for the log (windowRuntime.ts).

/** Milliseconds since it was made (`total`) and since the previous lap (`lap`). */
export function stopwatch(): { lap: () => number; total: () => number } {
  const started = performance.now();
  let last = started;
  return {
    lap: () => {
      const now = performance.now();
      const ms = now - last;
      last = now;
      return ms;
    },
    total: () => performance.now() - started,
  };
}
