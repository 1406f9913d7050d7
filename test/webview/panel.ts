import * as path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { HostMessage, ViewMessage } from '../../src/protocol/chatView';
import type { PanelServer, Theme } from './panelServer';

// One chat panel page in Chromium, seen from the host's side: what the host sends goes through the
// HostMessage schema and then into the page as VS Code delivers it; what the page posts comes back checked
// against the ViewMessage schema. It also keeps everything that would mean the page is broken or unsafe:
// CSP violations, console errors and warnings, uncaught errors, failed requests.

/** What pageHooks.js puts on the page's window. */
export interface PageHooks {
  posted(): unknown[];
  clearPosted(): void;
  violations(): Violation[];
  getState(): unknown;
  deliver(message: unknown): void;
  deliverAll(messages: unknown[]): void;
  frames(count: number): Promise<void>;
  timeTokens(id: string, deltas: string[]): Promise<number[]>;
}
export interface HookedWindow {
  __loopwire: PageHooks;
}

export interface Violation {
  directive: string;
  blocked: string;
  sample: string;
  source: string;
  line: number;
}

const HOOKS = path.join(__dirname, 'pageHooks.js');

export class Panel {
  readonly consoleProblems: string[] = [];
  readonly pageErrors: string[] = [];
  readonly badRequests: string[] = [];
  /** Every message the host sent, in order. */
  readonly sent: HostMessage[] = [];
  /** Set by a test that provokes violations on purpose (the detector's negative control). */
  expectViolations = false;
  private delivering: Promise<void> = Promise.resolve();

  private constructor(
    readonly page: Page,
    readonly theme: Theme,
  ) {}

  static async open(context: BrowserContext, server: PanelServer, theme: Theme): Promise<Panel> {
    const page = await context.newPage();
    const panel = new Panel(page, theme);
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning')
        panel.consoleProblems.push(`${message.type()}: ${message.text()}`);
    });
    page.on('pageerror', (error) => panel.pageErrors.push(error.stack ?? error.message));
    page.on('requestfailed', (request) => panel.badRequests.push(`${request.url()}: ${request.failure()?.errorText}`));
    page.on('response', (response) => {
      if (response.status() >= 400) panel.badRequests.push(`${response.url()}: ${response.status()}`);
    });
    await page.addInitScript({ path: HOOKS });
    await page.goto(server.url(theme));
    await panel.waitForPosted((message) => message.type === 'ready');
    return panel;
  }

  /** The host's `post`: checked, recorded, and delivered in order (await `delivered()` to know it arrived). */
  readonly post = (message: HostMessage): void => {
    const checked = HostMessage.parse(message);
    this.sent.push(checked);
    this.delivering = this.delivering.then(() =>
      this.page.evaluate((m) => (globalThis as unknown as HookedWindow).__loopwire.deliver(m), checked),
    );
  };

  /** A burst of host messages in one round trip to the page (a long session's worth, say). */
  postAll(messages: readonly HostMessage[]): void {
    const checked = messages.map((message) => HostMessage.parse(message));
    this.sent.push(...checked);
    this.delivering = this.delivering.then(() =>
      this.page.evaluate((m) => (globalThis as unknown as HookedWindow).__loopwire.deliverAll(m), checked),
    );
  }

  /** Everything posted so far has reached the page, and the page has rendered it. */
  async delivered(frames = 2): Promise<void> {
    await this.delivering;
    await this.page.evaluate((n) => (globalThis as unknown as HookedWindow).__loopwire.frames(n), frames);
  }

  /** What the page posted, each checked against the ViewMessage schema (a bad one fails the test). */
  async posted(): Promise<ViewMessage[]> {
    const raw = await this.page.evaluate(() => (globalThis as unknown as HookedWindow).__loopwire.posted());
    return raw.map((message, i) => {
      const parsed = ViewMessage.safeParse(message);
      if (!parsed.success)
        throw new Error(`posted message ${i} is no ViewMessage: ${JSON.stringify(message)}: ${parsed.error.message}`);
      return parsed.data;
    });
  }

  async clearPosted(): Promise<void> {
    await this.page.evaluate(() => (globalThis as unknown as HookedWindow).__loopwire.clearPosted());
  }

  /** What the page posts because of `act`: nothing before it counts, and it is read once all has rendered. */
  async postedBy(act: () => Promise<void>): Promise<ViewMessage[]> {
    await this.clearPosted();
    await act();
    await this.delivered();
    return this.posted();
  }

  async waitForPosted(match: (message: ViewMessage) => boolean, timeoutMs = 5_000): Promise<ViewMessage> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = (await this.posted()).find(match);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`the page did not post the message awaited (${match.toString()})`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  violations(): Promise<Violation[]> {
    return this.page.evaluate(() => (globalThis as unknown as HookedWindow).__loopwire.violations());
  }

  /** Console lines that name the Content Security Policy (Chromium logs each refusal there too). */
  cspConsoleErrors(): string[] {
    return this.consoleProblems.filter((line) => /Content Security Policy/i.test(line));
  }

  /** Why this page is not clean: CSP violations, console problems, uncaught errors, failed requests. */
  async problems(): Promise<string[]> {
    const violations = this.page.isClosed() ? [] : await this.violations();
    return [
      ...violations.map(
        (v) => `CSP violation: ${v.directive} blocked ${v.blocked || v.sample} (${v.source}:${v.line})`,
      ),
      ...this.consoleProblems.map((line) => `console ${line}`),
      ...this.pageErrors.map((error) => `uncaught: ${error}`),
      ...this.badRequests.map((request) => `request: ${request}`),
    ];
  }
}
