import * as os from 'node:os';
import * as vscode from 'vscode';
import {
  type CustomAgent,
  DEFAULT_AGENT_NAME,
  type FrontChoices,
  customAgentNamed,
  findCustomAgents,
} from '../../agent';
import type { ComposerChoices } from '../../protocol/composerChoices';

// The composer's agent picker (src/agent/customAgents): Loopwire, then the window's custom agents — the user's
// (~/.claude/agents), and the workspace folders' (.github/agents, .claude/agents) where the workspace's
// instruction files may be sent: a trusted workspace, or an untrusted one the user allowed (windowComposer.ts),
// as for its AGENTS.md and skills — an agent's body is instructions a repository wrote. The pick is kept for
// the workspace and goes with the chat's next requests (its instructions, its tools, its model unless the model
// picker names one); a file that cannot be used is said once a window in the Loopwire output log.

/** Workspace state: the custom agent picked, by name (absent: Loopwire's own). */
const AGENT_KEY = 'loopwire.customAgent';

export class WindowAgents implements vscode.Disposable {
  private found: readonly CustomAgent[] = [];
  private readonly said = new Set<string>();
  private readonly disposables: vscode.Disposable[] = [];
  /** The last choices made over a base, kept so that an unchanged answer is the same object. */
  private made: { base: FrontChoices; agent: CustomAgent | null; choices: FrontChoices } | undefined;

  constructor(
    private readonly context: vscode.ExtensionContext,
    /** Whether the workspace's instruction files may be sent now. */
    private readonly allowed: () => boolean,
    /** Called when the list or the pick changed (the picker is sent again). */
    private readonly changed: () => void,
    private readonly log: ((line: string) => void) | undefined,
  ) {
    const watcher = vscode.workspace.createFileSystemWatcher('**/{.github/agents/*.agent.md,.claude/agents/*.md}');
    const again = () => void this.reload();
    this.disposables.push(
      watcher,
      watcher.onDidCreate(again),
      watcher.onDidChange(again),
      watcher.onDidDelete(again),
      vscode.workspace.onDidGrantWorkspaceTrust(again),
      vscode.workspace.onDidChangeWorkspaceFolders(again),
    );
    void this.reload();
  }

  /** Reads the agents again (a file changed, trust or the allowance given), each new problem logged. */
  async reload(): Promise<void> {
    const folders = this.allowed()
      ? (vscode.workspace.workspaceFolders ?? [])
          .filter((folder) => folder.uri.scheme === 'file')
          .map((folder) => folder.uri.fsPath)
      : [];
    const found = await findCustomAgents(folders, os.homedir());
    for (const { file, problem, kept } of found.problems) {
      const line = `custom agent ${kept ? '' : 'not used: '}${file}: ${problem}`;
      if (this.said.has(line)) continue;
      this.said.add(line);
      this.log?.(line);
    }
    this.found = found.agents;
    this.changed();
  }

  /** The agent picked, where it is still found (a file removed, or no longer allowed: Loopwire's own). */
  current(): CustomAgent | null {
    const name = this.context.workspaceState.get<unknown>(AGENT_KEY);
    return (typeof name === 'string' && customAgentNamed(this.found, name)) || null;
  }

  /** The picker's pick: a listed agent's name, or Loopwire's. */
  async choose(name: string): Promise<void> {
    if (name !== DEFAULT_AGENT_NAME && customAgentNamed(this.found, name) === undefined)
      throw new Error(`${name} is not one of this workspace's custom agents.`);
    await this.context.workspaceState.update(AGENT_KEY, name === DEFAULT_AGENT_NAME ? undefined : name);
    this.changed();
  }

  /** The picker's part of the composer's choices. */
  choices(): Pick<ComposerChoices, 'agent' | 'agents'> {
    const agent = this.current();
    return {
      ...(agent ? { agent: agent.name } : {}),
      agents: this.found.map((each) => ({ name: each.name, description: each.description, file: each.label })),
    };
  }

  /** `base` with the agent picked; the same object while neither changes (the agent rebuilds on a new one). */
  over(base: FrontChoices): FrontChoices {
    const agent = this.current();
    if (this.made?.base === base && this.made.agent === agent) return this.made.choices;
    const choices: FrontChoices = { ...base, agent };
    this.made = { base, agent, choices };
    return choices;
  }

  /** The chat agent's choices: `read`'s (the window's model and options) with the pick, then a prompt's `over` them. */
  reader(read: () => FrontChoices, over?: (base: FrontChoices) => FrontChoices): () => FrontChoices {
    return () => {
      const base = this.over(read());
      return over ? over(base) : base;
    };
  }

  dispose(): void {
    for (const disposable of this.disposables) disposable.dispose();
  }
}
