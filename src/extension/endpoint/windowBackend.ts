import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import {
  type AgentEventSink,
  type AgentSession,
  DEFAULT_MODEL,
  contextWindowFor,
  createAgentSession,
} from '../../agent';
import { DEFAULT_SCENARIOS, type LoopwireServer, loadScenarioFile, prepareTokenizer, startServer } from '../../server';
import type { EndpointAccess, ResolvedEndpoint } from './endpointAccess';
import { ignorePortForwarding } from './ports';
import { PROXY_SETTINGS } from './proxySettings';
import type { LoopwireSettings } from '../settings/settings';
import type { TaskQueue } from '../runtime/taskQueue';

// The window's backend: the bundled server in-process when the endpoint is `embedded`, else the endpoint
// itself, and the agent session — one socket — on it, shared by every task of the window. Started on first
// use, and replaced once the running task is over when a setting it depends on changes or a task fails.

interface Backend {
  server: LoopwireServer | undefined;
  session: AgentSession;
  /** The embedded server's port marked as not to be forwarded (ports.ts), while it listens. */
  unforwarded?: vscode.Disposable | undefined;
}

/**
 * The settings the backend is built from (the model, the approval mode and compaction are read per task; the
 * embedded backend's window is that of the model it started with unless `contextWindow` sets one).
 */
const BACKEND_SETTINGS = ['endpoint', 'transport', 'scenarioFiles', 'headers', 'contextWindow'];

/** Where the embedded backend appends its wire log, requests' bodies included, when set (docs/backend.md). */
export const WIRE_LOG_ENV = 'LOOPWIRE_WIRE_LOG';

export class WindowBackend implements vscode.Disposable {
  private current: Promise<Backend> | undefined;
  private readonly configWatch: vscode.Disposable;

  constructor(
    private readonly access: EndpointAccess,
    private readonly log: vscode.LogOutputChannel,
    private readonly queue: TaskQueue,
    private readonly emit: AgentEventSink,
  ) {
    // A new endpoint, transport, scenario list or context window takes effect with the next task.
    this.configWatch = vscode.workspace.onDidChangeConfiguration((event) => {
      if (
        BACKEND_SETTINGS.some((key) => event.affectsConfiguration(`loopwire.${key}`)) ||
        PROXY_SETTINGS.some((key) => event.affectsConfiguration(key))
      )
        this.replace();
    });
  }

  /**
   * The agent session on the backend that `settings` name, started on first use. A workspace's endpoint
   * waiting for the user's yes is asked about first; with `ask: false` (ahead of a first prompt) it is not,
   * and undefined comes back instead of a session.
   */
  async session(settings: LoopwireSettings, ask = true): Promise<AgentSession | undefined> {
    if (!this.current) {
      const endpoint = await this.access.resolve(ask);
      if (!endpoint) return undefined;
      // Another caller may have started one while this one was asking.
      this.current ??= this.start(settings, endpoint);
      this.current.catch(() => (this.current = undefined));
    }
    return (await this.current).session;
  }

  /**
   * The backend and its socket go once the running task (if any) is over; the next task starts new ones,
   * and picks up a key or setting fixed meanwhile.
   */
  replace(): void {
    const old = this.current;
    this.current = undefined;
    if (!old) return;
    this.queue
      .run(async () => {
        // Chats on lanes of their own may still be mid-task on this socket.
        await this.queue.besideDone();
        const { server, session, unforwarded } = await old.catch(() => ({
          server: undefined,
          session: undefined,
          unforwarded: undefined,
        }));
        session?.close(false);
        await server?.close();
        unforwarded?.dispose();
      })
      // A backend that fails to close is logged; the tasks queued after it go on.
      .catch((error: unknown) => this.log.warn(`closing the previous backend: ${String(error)}`));
  }

  dispose(): void {
    this.configWatch.dispose();
    void this.current?.then(({ server, session, unforwarded }) => {
      session.close(false);
      unforwarded?.dispose();
      return server?.close();
    });
  }

  private async start(settings: LoopwireSettings, endpoint: ResolvedEndpoint): Promise<Backend> {
    const { transport } = settings;
    if (endpoint.endpoint === 'embedded') {
      const started = performance.now();
      const token = randomBytes(24).toString('hex');
      const scenarios = [...settings.scenarioFiles.map((file) => loadScenarioFile(file)), DEFAULT_SCENARIOS];
      const server = await startServer({
        scenarios,
        token,
        // How a user of the extension adds a scenario: the end of the answer to a prompt none matches.
        scenarioHint: 'add it to the `loopwire.scenarioFiles` setting',
        // The window the agent manages (agentFor): the backend refuses past it, as the API does.
        contextWindow: contextWindowFor(settings.model ?? DEFAULT_MODEL, settings.contextWindow),
        log: (line) => this.log.debug(line),
        // What the model is sent, for a bug report or a test: the wire log with each request's body.
        ...(process.env[WIRE_LOG_ENV] ? { logFile: process.env[WIRE_LOG_ENV], logBodies: true } : {}),
      });
      this.log.info(`embedded backend at ${server.url} (started in ${(performance.now() - started).toFixed(1)} ms)`);
      // It counts the tokens of every request, the warm-up's too: its tokenizer is built on the next turn of the
      // event loop (while a first prompt is typed, when the panel's showing started the backend), not on the
      // warm-up that the prompt waits for.
      setImmediate(() => {
        const building = performance.now();
        prepareTokenizer();
        this.log.info(`embedded backend's tokenizer built in ${(performance.now() - building).toFixed(1)} ms`);
      });
      return {
        server,
        unforwarded: ignorePortForwarding(server.port, (line) => this.log.info(line)),
        // In-process: never through a proxy, whatever the environment or http.proxy say.
        session: createAgentSession({
          endpoint: server.url,
          apiKey: token,
          transport,
          proxy: { off: true },
          emit: this.emit,
        }),
      };
    }
    this.log.info(
      `endpoint ${endpoint.endpoint}${endpoint.apiKey || Object.keys(endpoint.headers).length > 0 ? '' : ' (no key for it)'}`,
    );
    const session = createAgentSession({
      endpoint: endpoint.endpoint,
      transport,
      emit: this.emit,
      headers: endpoint.headers,
      apiKey: endpoint.apiKey,
      proxy: endpoint.proxy,
    });
    return { server: undefined, session };
  }
}
