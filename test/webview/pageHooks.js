/* global window, document, requestAnimationFrame, performance, MessageEvent, structuredClone */
// Installed in the panel's page before its own script runs (Playwright's addInitScript), where VS Code's
// webview host would be: `acquireVsCodeApi()` records what the page posts, and every Content Security
// Policy violation is kept for the tests to read. `window.__loopwire` is how the tests reach these.
// Plain browser JavaScript on purpose: it runs in the page as written, with nothing compiled in.
'use strict';
(() => {
  const posted = [];
  const violations = [];
  let state;
  let acquired = false;

  // Like VS Code's: one call per page, messages structured-cloned as they leave.
  window.acquireVsCodeApi = () => {
    if (acquired) throw new Error('An instance of the VS Code API has already been acquired');
    acquired = true;
    return Object.freeze({
      postMessage: (message) => void posted.push(structuredClone(message)),
      getState: () => state,
      setState: (value) => {
        state = structuredClone(value);
        return value;
      },
    });
  };

  document.addEventListener(
    'securitypolicyviolation',
    (event) =>
      void violations.push({
        directive: event.effectiveDirective,
        blocked: event.blockedURI,
        sample: event.sample,
        source: event.sourceFile,
        line: event.lineNumber,
      }),
    true,
  );

  // VS Code marks the theme's kind on the body; this page's path names its theme.
  document.addEventListener('DOMContentLoaded', () => {
    const theme = window.location.pathname.split('/').pop();
    const kind = theme === 'hc-black' ? 'vscode-high-contrast' : theme === 'dark' ? 'vscode-dark' : 'vscode-light';
    document.body.classList.add(kind);
    document.body.dataset.vscodeThemeKind = kind;
  });

  const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve()));

  window.__loopwire = {
    posted: () => posted.slice(),
    clearPosted: () => void posted.splice(0),
    violations: () => violations.slice(),
    getState: () => state,
    /** A host message, delivered as VS Code's webview host delivers one. */
    deliver: (message) => window.postMessage(message, '*'),
    /** Several at once, as a burst from the host: still one message event each. */
    deliverAll: (messages) => messages.forEach((message) => window.postMessage(message, '*')),
    /** Resolves after `count` animation frames: the page has rendered what it was sent. */
    frames: async (count) => {
      for (let i = 0; i < count; i++) await frame();
    },
    /**
     * Streams `deltas` into the assistant entry `id`, one per frame, and measures per token the page's own
     * work: handling the message, then the frame's re-render of the grown entry (and the layout it forces).
     */
    timeTokens: async (id, deltas) => {
      const times = [];
      for (const delta of deltas) {
        let start = 0;
        let handled = 0;
        let rendered = 0;
        await new Promise((resolve) => {
          // Animation-frame callbacks run in the order asked: this one, the page's render (asked for while
          // it handles the message), then the last one.
          requestAnimationFrame(() => (start = performance.now()));
          const before = performance.now();
          window.dispatchEvent(new MessageEvent('message', { data: { type: 'text', id, delta } }));
          handled = performance.now() - before;
          requestAnimationFrame(() => {
            rendered = performance.now() - start;
            resolve();
          });
        });
        times.push(handled + rendered);
      }
      return times;
    },
  };
})();
