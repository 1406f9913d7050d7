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
  /** Send → the first model text of this prompt painted (the end of the frame that put it in the page). */
  sendToFirstTokenMs: number | null;
  /** Send → the prompt's own entry in the page (the host's echo): the round trip through the workbench. */
  sendToEchoMs: number | null;
  /** Send → the host's echo of the prompt arrives in the page (a message): page → host → page, nothing drawn. */
  sendToEchoMessageMs: number | null;
  /** Send → the first message with model text arrives: the trips, the host's start of the task, the model. */
  sendToFirstTextMessageMs: number | null;
  /** Send → that text is in the page's DOM (the page applies messages at its next animation frame). */
  sendToFirstTextInPageMs: number | null;
  entries: number;
}

/** Installs the probe once (idempotent); `arm` starts a recording at the next Send. */
export const INSTALL_PROBE = `(() => {
  if (window.__panelBench) return;
  const state = {
    armed: false, sendAt: null, firstTokenAt: null, echoAt: null, echoMessageAt: null, textMessageAt: null,
    textInPageAt: null, assistantsBefore: 0, usersBefore: 0, longTasks: [], frames: [], last: performance.now(),
    inFrame: false,
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
  // Whether the page is inside a frame's animation frame callbacks: what it changes there is painted at the end
  // of that same frame. Cleared by a microtask queued after the callback, so a MutationObserver notified of
  // the callback's changes (an earlier microtask) still sees it set.
  const pageFrame = window.requestAnimationFrame.bind(window);
  window.requestAnimationFrame = (callback) => pageFrame((time) => {
    state.inFrame = true;
    try { callback(time); } finally { queueMicrotask(() => { state.inFrame = false; }); }
  });
  // Messages from the host, as they arrive (before the page draws them): the prompt's echo, the first text.
  window.addEventListener('message', (event) => {
    if (state.sendAt === null) return;
    const data = event.data || {};
    const now = performance.now();
    if (state.echoMessageAt === null && data.type === 'entry' && data.entry && data.entry.kind === 'user') state.echoMessageAt = now;
    const text = data.type === 'text' || (data.type === 'entry' && data.entry && data.entry.kind === 'assistant' && data.entry.text);
    if (state.textMessageAt === null && text) state.textMessageAt = now;
  }, true);
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
      state.textInPageAt = performance.now();
      // A message posted now is handled after the current task; posted inside a frame's callbacks, that is
      // once this frame is painted. Put in the page outside a frame, the text is painted by the next one: the
      // message is posted from that frame's callback.
      const painted = () => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => { state.firstTokenAt = performance.now(); };
        channel.port2.postMessage(null);
      };
      if (state.inFrame) painted();
      else pageFrame(painted);
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
  Object.assign(state, {
    armed: true, sendAt: null, firstTokenAt: null, echoAt: null, echoMessageAt: null, textMessageAt: null,
    textInPageAt: null, longTasks: [], frames: [],
  });
})()`;

/** The recording since the last Send, and the probe disarmed. */
export const READ_PROBE = `(() => {
  const state = window.__panelBench;
  state.armed = false;
  const since = (at) => (at === null || state.sendAt === null ? null : at - state.sendAt);
  const report = {
    longTasks: state.longTasks,
    frames: state.frames,
    sendToFirstTokenMs: since(state.firstTokenAt),
    sendToEchoMs: since(state.echoAt),
    sendToEchoMessageMs: since(state.echoMessageAt),
    sendToFirstTextMessageMs: since(state.textMessageAt),
    sendToFirstTextInPageMs: since(state.textInPageAt),
    entries: document.querySelectorAll('.transcript .entry').length,
  };
  state.sendAt = null;
  return report;
})()`;
