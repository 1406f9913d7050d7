import type { ApprovalMode } from '../agent/activation';

/**
 * What `activate()` returns: the automation surface that tests and other extensions use instead of
 * clicking. A contract (the VS Code adapter issue): members may be added, existing ones never change shape.
 */
export interface LoopwireApi {
  /** The extension's version, from its manifest. */
  version: string;
  tools: {
    /** The tools this window's workspace can run (write and task tools are absent when it is not trusted). */
    list(): string[];
    /** Runs one tool directly, with JSON-able arguments (apply_patch: `{input}`): no approval is asked. */
    run(name: string, args: unknown): Promise<{ ok: boolean; output: string }>;
  };
  agent: {
    /**
     * Runs one task in the window's runtime (its socket and backend, shared with the chat) and
     * resolves when it ends. `turns` counts model responses.
     */
    run(
      prompt: string,
      options?: { approve?: Exclude<ApprovalMode, 'ask'> },
    ): Promise<{ ok: boolean; text: string; turns: number; transport: 'ws' | 'http' }>;
  };
  chat: {
    /** Sends a prompt to the chat panel's conversation (revealing the panel) and resolves when it ends. */
    ask(prompt: string): Promise<{ ok: boolean; text: string }>;
    /** Starts a new conversation in the panel. */
    newChat(): Promise<void>;
    /** What the panel's page last reported showing; undefined until it has loaded. */
    view(): { entries: number; sessionId: string } | undefined;
  };
}
