import type { EditPlan, FilePlan } from '../../edit';
import { ToolRegistry } from '../../tools';
import {
  type AppliedPlan,
  type CommandOptions,
  type Diagnostic,
  type FoundFiles,
  type TaskList,
  type TaskRun,
  type TextMatches,
  type TextQuery,
  type Workspace,
  type WorkspaceCapabilities,
  WorkspaceError,
  type WorkspaceFile,
  type WorkspaceLocation,
} from '../../workspace';

// The workspace an inline request's tools see (plain: tested without VS Code): every file reads as usual but
// the one being edited, which reads as the model must see it (without the preview of a call still being
// written), and only that file may be written — through the inline edit, into the editor's buffer, unsaved —
// so the model may look around first and its edit is the one the user keeps or undoes. Tasks and commands
// are not offered to it (the inline agent's tools leave them out) and are refused here as well.

/**
 * The tools of an inline request: those that only read, and the edit tools whose input streams as a diff (the
 * model's own way of editing). Commands, tasks and whole-file writes are the chat's.
 */
export function inlineTools(registry: ToolRegistry): ToolRegistry {
  return new ToolRegistry(registry.tools.filter((tool) => tool.effect === 'read' || tool.liveDiff !== undefined));
}

/** The file an inline request edits. */
export interface InlineFile {
  /** Its workspace path, as `locate` names it. */
  readonly path: string;
  /** Its text as the model must read it now. */
  read(): Promise<WorkspaceFile>;
  /** Writes the tool's plan for it into the editor; resolves to the document's version after. */
  write(plan: FilePlan): Promise<string | number>;
}

export class InlineWorkspace implements Workspace {
  readonly capabilities: WorkspaceCapabilities;

  constructor(
    private readonly inner: Workspace,
    private readonly file: InlineFile,
  ) {
    this.capabilities = { ...inner.capabilities, tasks: false, commands: false };
  }

  get name(): string {
    return this.inner.name;
  }

  locate(path: string): WorkspaceLocation {
    return this.inner.locate(path);
  }

  readFile(path: string): Promise<WorkspaceFile> {
    return this.isFile(path) ? this.file.read() : this.inner.readFile(path);
  }

  tryReadFile(path: string): Promise<WorkspaceFile | undefined> {
    return this.isFile(path) ? this.file.read() : this.inner.tryReadFile(path);
  }

  async applyPlan(plan: EditPlan): Promise<AppliedPlan> {
    const other = plan.files.find((file) => file.op !== 'update' || !this.isFile(file.path));
    if (other)
      throw new WorkspaceError(
        'invalid_path',
        `This inline edit may change ${this.file.path} only (not ${other.moveTo ?? other.path}): edit that file, or ask in the chat for wider changes.`,
        other.path,
      );
    const versions: Record<string, string | number> = {};
    for (const file of plan.files) if (!file.noop) versions[this.file.path] = await this.file.write(file);
    const diagnostics = await this.inner.diagnostics(this.file.path).catch(() => []);
    return { changed: Object.keys(versions), versions, diagnostics };
  }

  findFiles(glob: string, maxResults: number): Promise<FoundFiles> {
    return this.inner.findFiles(glob, maxResults);
  }

  searchText(query: TextQuery): Promise<TextMatches> {
    return this.inner.searchText(query);
  }

  diagnostics(path?: string): Promise<Diagnostic[]> {
    return this.inner.diagnostics(path);
  }

  listTasks(): Promise<TaskList> {
    return Promise.resolve({ tasks: [], problems: [] });
  }

  runTask(label: string): Promise<TaskRun> {
    return Promise.reject(new WorkspaceError('untrusted', `An inline edit runs no task (${label}): ask in the chat.`));
  }

  runCommand(command: string, _options: CommandOptions): Promise<TaskRun> {
    return Promise.reject(
      new WorkspaceError('untrusted', `An inline edit runs no command (${command}): ask in the chat.`),
    );
  }

  private isFile(path: string): boolean {
    try {
      return this.inner.locate(path).path === this.file.path;
    } catch {
      return false;
    }
  }
}
