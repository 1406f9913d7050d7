// What the panel bench measures inside the chat panel's page (the webview's frame), from the page's own
// clock: long tasks (PerformanceObserver 'longtask'), every frame's time (requestAnimationFrame deltas)
// with the entries shown at that frame, and from the Send (Enter in the prompt, or the Send button) to the
// first model text of that prompt painted. It is a script string, not a function: nothing a compiler adds
// to a function (helpers, renamed names) can break it in the page.

/**
 * One frame as the page saw it: when it started (ms since Send), how long since the last, entries shown, and
 * the lines of a live diff on show (a card whose call the model is still writing).
 */
export interface FrameSample {
  t: number;
  dt: number;
  entries: number;
  live: number;
}

export interface ProbeReport {
  /**
   * Long tasks (each ≥ 50 ms by definition) since the probe was armed: start (since Send), duration, and
   * whose they were (`self`: the panel's page; `same-origin-ancestor`: the workbench around it, whose
   * event loop a code-server webview shares).
   */
  longTasks: { start: number; duration: number; name: string }[];
  frames: FrameSample[];
  /** Send → the frame after the first model text of this prompt was in the page. */
  sendToFirstTokenMs: number | null;
  /** Send → the prompt's own entry in the page (the host's echo): the round trip through the workbench. */
  sendToEchoMs: number | null;
  entries: number;
}

/** Installs the probe once (idempotent); `arm` starts a recording at the next Send. */
export const INSTALL_PROBE = `(() => {
  if (window.__panelBench) return;
  const state = {
    armed: false, sendAt: null, firstTokenAt: null, echoAt: null, assistantsBefore: 0, usersBefore: 0,
    longTasks: [], frames: [], last: performance.now(),
  };
  window.__panelBench = state;
  // Counted once a frame, while recording: the probe's own work stays out of what it measures.
  const entries = () => document.querySelectorAll('.transcript > .entry').length;
  const live = () => document.querySelectorAll('.tool-card.status-streaming .hunk-body .line').length;
  new PerformanceObserver((list) => {
    for (const task of list.getEntries())
      if (state.sendAt !== null)
        state.longTasks.push({ start: task.startTime - state.sendAt, duration: task.duration, name: task.name });
  }).observe({ type: 'longtask' });
  const tick = (now) => {
    if (state.sendAt !== null) state.frames.push({ t: now - state.sendAt, dt: now - state.last, entries: entries(), live: live() });
    state.last = now;
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  const assistants = () => [...document.querySelectorAll('.transcript .entry.assistant')];
  const users = () => document.querySelectorAll('.transcript .entry.user').length;
  const sent = () => {
    if (!state.armed || state.sendAt !== null) return;
    state.sendAt = performance.now();
    state.assistantsBefore = assistants().length;
    state.usersBefore = users();
    // The first model text of this prompt: an assistant entry beyond those there were, with text in it.
    const watch = new MutationObserver(() => {
      if (state.echoAt === null && users() > state.usersBefore) state.echoAt = performance.now();
      const fresh = assistants().slice(state.assistantsBefore).find((el) => (el.textContent || '').trim() !== '');
      if (!fresh) return;
      watch.disconnect();
      // The rendering step that paints it runs next; a message posted from its animation frame callback is
      // handled once that frame's paint is done.
      requestAnimationFrame(() => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => { state.firstTokenAt = performance.now(); };
        channel.port2.postMessage(null);
      });
    });
    watch.observe(document.body, { childList: true, subtree: true, characterData: true });
  };
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.shiftKey && event.target instanceof HTMLTextAreaElement) sent();
  }, true);
  document.addEventListener('click', (event) => {
    if (event.target instanceof Element && event.target.closest('button[aria-label="Send"]')) sent();
  }, true);
})()`;

/** Starts a new recording at the next Send. */
export const ARM_PROBE = `(() => {
  const state = window.__panelBench;
  Object.assign(state, { armed: true, sendAt: null, firstTokenAt: null, echoAt: null, longTasks: [], frames: [] });
})()`;

/** The recording since the last Send, and the probe disarmed. */
export const READ_PROBE = `(() => {
  const state = window.__panelBench;
  state.armed = false;
  const report = {
    longTasks: state.longTasks,
    frames: state.frames,
    sendToFirstTokenMs: state.firstTokenAt === null || state.sendAt === null ? null : state.firstTokenAt - state.sendAt,
    sendToEchoMs: state.echoAt === null || state.sendAt === null ? null : state.echoAt - state.sendAt,
    entries: document.querySelectorAll('.transcript .entry').length,
  };
  state.sendAt = null;
  return report;
})()`;
