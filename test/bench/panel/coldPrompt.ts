import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Frame } from 'playwright-core';
import { startWorkbench, until } from '../../workbench/workbench';
import { ARM_PROBE, INSTALL_PROBE, type ProbeReport, READ_PROBE } from './pageProbe';
import { PANEL_USER_SETTINGS, WARM_UP_PROMPT, writePanelWorkspace } from './panelWorkload';

// The cold case of `npm run bench -- --panel`: a new window, Loopwire's view opened, and the first prompt sent
// the moment its composer shows (a user who types at once: nothing had time to start while they typed). Send
// → first token painted then holds what a first prompt pays: the backend's start (the embedded server, as a
// new user has it), the workspace adapter, the socket's handshake, the warm-up and the first turn. Activation
// and loading the session bundle come before the composer shows, and are taken from the extension's log
// with the rest of the parts.

/** Where a cold first prompt's time goes, each from the extension's log but the page's own figures. */
export interface ColdPrompt {
  /** Send (Enter, the moment the composer showed) → the first model text painted in the page. */
  send_to_first_token_ms: number;
  /** The page → host → page round trip of the prompt's echo, and the first text's arrival, from Send. */
  send_to_echo_message_ms: number;
  send_to_first_text_message_ms: number;
  /** The extension's `activate()`. */
  activation_ms: number;
  /** dist/runtime.js required and the window's runtime made (when the panel first asked). */
  session_load_ms: number;
  /** The embedded server's start (its scenarios, its listening socket). */
  backend_start_ms: number;
  /** Begun when the panel showed: the adapter, backend, tools and socket ready (the first task waits for what
   * of it is still under way at Send). */
  prepared_ms: number;
  /** The first agent, from the task's start: each part it waited for, then the socket and its warm-up. */
  first_agent_ms: number;
  first_agent_backend_ms: number;
  first_agent_socket_and_warm_up_ms: number;
  /** The first request on the wire → the first event of its response. */
  first_event_ms: number;
}

const number = (log: string, pattern: RegExp): number => {
  const found = pattern.exec(log)?.[1];
  return found === undefined ? Number.NaN : Number(found);
};

/** A new window on a workspace of the embedded backend with `scenarioFile`; its first prompt, timed. */
export async function coldFirstPrompt(options: {
  scenarioFile: string;
  artifacts: string;
  hostLog: (userData: string) => string;
  ask: (panel: Frame, prompt: string, done: string) => Promise<number>;
}): Promise<ColdPrompt> {
  const workbench = await startWorkbench({
    workspace: (folder) =>
      writePanelWorkspace(folder, 'embedded', { 'loopwire.scenarioFiles': [options.scenarioFile] }),
    userSettings: PANEL_USER_SETTINGS,
    artifacts: path.join(options.artifacts, 'cold'),
  });
  try {
    const panel = await workbench.panel();
    await panel.evaluate(INSTALL_PROBE);
    await panel.evaluate(ARM_PROBE);
    await options.ask(panel, WARM_UP_PROMPT, 'Ready.');
    await new Promise((resolve) => setTimeout(resolve, 250));
    const report = await panel.evaluate<ProbeReport>(READ_PROBE);
    await workbench.screenshot('cold-first-prompt', { sidebar: true });
    // The host writes its lines a moment after the turn.
    const log = await until(
      'the first turn in the extension’s log',
      () => {
        const text = options.hostLog(workbench.userData);
        return /turn 1 over/.test(text) ? text : undefined;
      },
      10_000,
    );
    fs.writeFileSync(path.join(options.artifacts, 'cold-host.log'), log);
    return {
      send_to_first_token_ms: report.sendToFirstTokenMs ?? Number.NaN,
      send_to_echo_message_ms: report.sendToEchoMessageMs ?? Number.NaN,
      send_to_first_text_message_ms: report.sendToFirstTextMessageMs ?? Number.NaN,
      activation_ms: number(log, /activated in ([\d.]+) ms/),
      session_load_ms: number(log, /session loaded in ([\d.]+) ms/),
      backend_start_ms: number(log, /embedded backend at \S+ \(started in ([\d.]+) ms\)/),
      prepared_ms: number(log, /ready for a first prompt in ([\d.]+) ms/),
      first_agent_ms: number(log, /first agent ready in ([\d.]+) ms/),
      first_agent_backend_ms: number(log, /first agent ready in [\d.]+ ms: .*?backend ([\d.]+) ms/),
      first_agent_socket_and_warm_up_ms: number(log, /socket and warm-up ([\d.]+) ms/),
      first_event_ms: number(log, /turn 1 over \w+[^:]*: .*?first event ([\d.]+) ms/),
    };
  } catch (error) {
    await workbench.screenshot('cold-failed').catch(() => undefined);
    throw error;
  } finally {
    await workbench.close();
  }
}
