import type { CDPSession } from 'playwright-core';

// `npm run bench -- --panel --trace`: the browser's performance trace of each run (what DevTools' Performance
// panel records), and for every long task of the renderer's main thread what it spent its time on — script,
// style, layout, paint, garbage collection — where a CPU profile shows only "(program)" for all but script.

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { data?: { url?: string; functionName?: string } };
}

/** The categories DevTools' Performance panel records: the timeline's tasks and what runs inside them. */
const CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'v8',
  'toplevel',
  'blink.user_timing',
];

export async function startTrace(session: CDPSession): Promise<void> {
  await session.send('Tracing.start', { categories: CATEGORIES.join(','), transferMode: 'ReturnAsStream' });
}

/** Ends the trace and returns its events. */
export async function stopTrace(session: CDPSession): Promise<TraceEvent[]> {
  const complete = new Promise<string>((resolve) =>
    session.once('Tracing.tracingComplete', (event) => resolve(event.stream ?? '')),
  );
  await session.send('Tracing.end');
  const handle = await complete;
  let text = '';
  for (;;) {
    const chunk = await session.send('IO.read', { handle, size: 1 << 20 });
    text += chunk.base64Encoded ? Buffer.from(chunk.data, 'base64').toString('utf8') : chunk.data;
    if (chunk.eof) break;
  }
  await session.send('IO.close', { handle });
  const parsed = JSON.parse(text) as { traceEvents?: TraceEvent[] } | TraceEvent[];
  return Array.isArray(parsed) ? parsed : (parsed.traceEvents ?? []);
}

/** What one long task of a renderer's main thread did: its length, and its time by kind of work. */
export interface LongTaskBreakdown {
  /** From the trace's first event, in ms. */
  atMs: number;
  durationMs: number;
  /** Milliseconds of each kind of work inside it (nested work counted once, in the innermost kind). */
  work: Record<string, number>;
  /** The script it ran, by function and file, most first. */
  scripts: string[];
}

const threadName = (event: TraceEvent) => (event.args as { name?: unknown } | undefined)?.name;

/** The kinds DevTools' summary groups a task's events into. */
const KIND: Record<string, string> = {
  FunctionCall: 'script',
  EvaluateScript: 'script',
  EventDispatch: 'script',
  TimerFire: 'script',
  FireAnimationFrame: 'script',
  'v8.compile': 'script',
  UpdateLayoutTree: 'style',
  ParseAuthorStyleSheet: 'style',
  Layout: 'layout',
  PrePaint: 'paint',
  Paint: 'paint',
  Layerize: 'paint',
  UpdateLayer: 'paint',
  Commit: 'paint',
  MinorGC: 'gc',
  MajorGC: 'gc',
  'V8.GC_SCAVENGER': 'gc',
  'V8.GC_MARK_COMPACTOR': 'gc',
  ParseHTML: 'parse',
};

/** Every task of `minMs` or more on a renderer's main thread, with what it spent its time on. */
export function longTasks(events: readonly TraceEvent[], minMs = 50): LongTaskBreakdown[] {
  const origin = events.reduce((first, e) => (e.ts > 0 && e.ts < first ? e.ts : first), Infinity);
  const complete = events.filter((e) => e.ph === 'X' && e.dur !== undefined);
  // Renderers' main threads only (the trace is the whole browser's: its GPU and network threads too).
  const mainThreads = new Set(
    events
      .filter((e) => e.ph === 'M' && e.name === 'thread_name' && threadName(e) === 'CrRendererMain')
      .map((e) => `${e.pid}:${e.tid}`),
  );
  const tasks = complete.filter(
    (e) => e.name === 'RunTask' && (e.dur ?? 0) >= minMs * 1000 && mainThreads.has(`${e.pid}:${e.tid}`),
  );
  return tasks.map((task) => {
    const end = task.ts + (task.dur ?? 0);
    const inside = complete.filter(
      (e) => e !== task && e.pid === task.pid && e.tid === task.tid && e.ts >= task.ts && e.ts + (e.dur ?? 0) <= end,
    );
    // Each event's own time: its length less that of the known events directly inside it.
    const work: Record<string, number> = {};
    const scripts = new Map<string, number>();
    for (const event of inside) {
      const kind = KIND[event.name];
      if (!kind) continue;
      const eventEnd = event.ts + (event.dur ?? 0);
      const nested = inside.filter(
        (other) =>
          other !== event && KIND[other.name] && other.ts >= event.ts && other.ts + (other.dur ?? 0) <= eventEnd,
      );
      const outermostNested = nested.filter(
        (other) =>
          !nested.some(
            (outer) =>
              outer !== other &&
              outer.ts <= other.ts &&
              outer.ts + (outer.dur ?? 0) >= other.ts + (other.dur ?? 0) &&
              (outer.ts !== other.ts || (outer.dur ?? 0) !== (other.dur ?? 0)),
          ),
      );
      const own = (event.dur ?? 0) - outermostNested.reduce((sum, other) => sum + (other.dur ?? 0), 0);
      work[kind] = (work[kind] ?? 0) + Math.max(0, own) / 1000;
      if (kind === 'script' && event.args?.data?.functionName !== undefined) {
        const data = event.args.data;
        const name = `${data.functionName || '(anonymous)'} ${(data.url ?? '').split('/').pop() ?? ''}`;
        scripts.set(name, (scripts.get(name) ?? 0) + (event.dur ?? 0) / 1000);
      }
    }
    const accounted = Object.values(work).reduce((sum, ms) => sum + ms, 0);
    work['other'] = Math.max(0, (task.dur ?? 0) / 1000 - accounted);
    return {
      atMs: (task.ts - origin) / 1000,
      durationMs: (task.dur ?? 0) / 1000,
      work,
      scripts: [...scripts]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 5)
        .map(([name, ms]) => `${name} ${ms.toFixed(1)} ms`),
    };
  });
}

/** One line a long task: `8467 ms: 52 ms — layout 30.1, script 12.0 (flush webview.js 11.2 ms), …`. */
export function describeLongTask(task: LongTaskBreakdown): string {
  const work = Object.entries(task.work)
    .filter(([, ms]) => ms >= 0.5)
    .sort((a, b) => b[1] - a[1])
    .map(([kind, ms]) => `${kind} ${ms.toFixed(1)}`)
    .join(', ');
  return `${task.atMs.toFixed(0)} ms: ${task.durationMs.toFixed(0)} ms — ${work}${task.scripts.length ? ` (${task.scripts.join('; ')})` : ''}`;
}
