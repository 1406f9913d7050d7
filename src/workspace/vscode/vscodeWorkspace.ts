import * as vscode from 'vscode';
import { type EditPlan, hashText } from '../../edit';
import { globMatcher } from '../glob';
import { SEARCH_COUNT_LIMIT, byPathThenLine } from '../searchLine';
import { type ConfinementExtras, DiskFolder } from '../shared/diskFolder';
import { type Located, locateReal } from '../shared/diskPaths';
import { matchLines, searchPattern } from '../shared/javascriptSearch';
import { readDiskText } from '../shared/textFiles';
import type * as Port from '../workspace';
import { WorkspaceError } from '../workspaceError';
import { findBundledRipgrep } from './bundledRipgrep';
import { type CommandTerminalOptions, commandTerminalRunner } from './commandTerminal';
import { backgroundTerminalStarter } from './backgroundTerminal';
import { documentText, engineText, minimalReplacement, openDocument } from './documentText';
import { terminalTaskRunner } from './terminalTaskRunner';
import { newErrorsAfter, toDiagnostic } from './workspaceDiagnostics';

// The Workspace port in VS Code. Reads see what the user sees (an open document's unsaved text); edits go
// through one WorkspaceEdit per call, so one undo reverts exactly the agent's change and dirty buffers keep
// the user's text; files that were clean are saved after, so tasks see them. Nothing here shows an editor
// or moves focus. Paths, listing, searching and task discovery are the DiskFolder both adapters share
// (../shared: .gitignore rules) with files.exclude on top, the ripgrep VS Code ships, and tasks and shell
// commands run in terminals the user can watch (commandTerminal.ts: shell integration where VS Code has it).

export interface VscodeWorkspaceOptions {
  /** Save files that were clean before an edit (`loopwire.saveAfterEdit`). */
  saveAfterEdit?: boolean;
  /** How long to wait for language services after an edit before reporting new errors. */
  diagnosticsSettleMs?: number;
  /** Whether VS Code trusts the workspace (injected by tests: the test host runs with trust disabled). */
  trusted?: boolean;
  /** How shell commands run (tests force the pseudoterminal with `{ shellIntegration: false }`). */
  commandTerminal?: CommandTerminalOptions;
  /** What the sandbox of this folder's commands adds to the policy's (a Loopwire worktree's own git folder). */
  confinement?: ConfinementExtras;
}

const hasBom = (bytes: Buffer | undefined) => bytes?.[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;

export class VscodeWorkspace implements Port.Workspace {
  readonly name: string;
  readonly capabilities: Port.WorkspaceCapabilities;

  private constructor(
    readonly rootUri: vscode.Uri,
    /** The real path of the root: every path is checked against it. */
    readonly root: string,
    private readonly disk: DiskFolder,
    private readonly options: Required<Omit<VscodeWorkspaceOptions, 'commandTerminal' | 'confinement'>>,
  ) {
    this.name = disk.name;
    const trusted = options.trusted;
    this.capabilities = { diagnostics: true, tasks: trusted, writes: trusted, commands: trusted };
  }

  /** The adapter for one folder (a workspace folder, or any folder below one). */
  static async open(rootUri: vscode.Uri, options: VscodeWorkspaceOptions = {}): Promise<VscodeWorkspace> {
    if (rootUri.scheme !== 'file')
      throw new WorkspaceError('invalid_path', `${rootUri.toString()} is not on this machine's file system.`);
    const scope = vscode.workspace.getWorkspaceFolder(rootUri) ?? vscode.TaskScope.Workspace;
    const disk = await DiskFolder.open(rootUri.fsPath, {
      ripgrep: await findBundledRipgrep(vscode.env.appRoot),
      runTask: terminalTaskRunner(scope),
      runCommand: commandTerminalRunner(options.commandTerminal),
      startCommand: backgroundTerminalStarter(options.commandTerminal?.onFinished),
      // The shell of the user's terminals (terminal.integrated.defaultProfile, else as VS Code detects it).
      commandShell: () => vscode.env.shell || undefined,
      confinement: options.confinement,
    });
    return new VscodeWorkspace(rootUri, disk.root, disk, {
      saveAfterEdit: options.saveAfterEdit ?? true,
      diagnosticsSettleMs: options.diagnosticsSettleMs ?? 1500,
      trusted: options.trusted ?? vscode.workspace.isTrusted,
    });
  }

  /** Which search engine runs: VS Code's ripgrep when one was found. */
  get ripgrep(): string | undefined {
    return this.disk.ripgrep;
  }

  locate(given: string): Port.WorkspaceLocation {
    return this.disk.locate(given);
  }

  readFile(given: string): Promise<Port.WorkspaceFile> {
    return this.disk.readFile(given, currentText);
  }

  tryReadFile(given: string): Promise<Port.WorkspaceFile | undefined> {
    return this.disk.tryReadFile(given, currentText);
  }

  async applyPlan(plan: EditPlan): Promise<Port.AppliedPlan> {
    if (!this.capabilities.writes)
      throw new WorkspaceError('untrusted', 'This workspace is not trusted: Loopwire does not change its files.');
    const edit = new vscode.WorkspaceEdit();
    const changed: string[] = [];
    const versions: Record<string, string> = {};
    const toSave: vscode.TextDocument[] = [];
    const edited: vscode.Uri[] = [];
    const files = this.disk.planFiles(currentText);
    for (const file of plan.files) {
      if (file.noop) continue;
      const source = await files.source(file);
      const sourceUri = vscode.Uri.file(source.real);
      const contents = (text: string) => Buffer.from(text, 'utf8');
      if (file.op === 'create') {
        edit.createFile(sourceUri, { contents: contents(file.after ?? ''), ignoreIfExists: false });
        changed.push(source.path);
        versions[source.path] = hashText(file.after ?? '');
      } else if (file.op === 'delete') {
        edit.deleteFile(sourceUri, { ignoreIfNotExists: false });
        changed.push(source.path);
      } else if (file.op === 'move') {
        const target = await files.moveTarget(file);
        edit.createFile(vscode.Uri.file(target.real), { contents: contents(file.after ?? ''), ignoreIfExists: false });
        edit.deleteFile(sourceUri, { ignoreIfNotExists: false });
        changed.push(source.path, target.path);
        versions[target.path] = hashText(file.after ?? '');
      } else {
        const doc = await vscode.workspace.openTextDocument(sourceUri);
        if (!doc.isDirty && engineText(doc, file.format.bom) !== source.now?.text) {
          // A clean document that has not caught up with the disk yet: the disk is what the plan was made
          // on, so the file is rewritten (still one undoable step of this edit), not the stale buffer.
          edit.createFile(sourceUri, { overwrite: true, contents: contents(file.after ?? '') });
        } else {
          const { range, text } = minimalReplacement(doc, documentText(file.after ?? '', doc));
          edit.replace(sourceUri, range, text);
          if (!doc.isDirty && this.options.saveAfterEdit) toSave.push(doc);
        }
        edited.push(sourceUri);
        changed.push(source.path);
        versions[source.path] = hashText(file.after ?? '');
      }
    }
    if (changed.length === 0) return { changed, versions, diagnostics: [] };
    const before = new Map(edited.map((uri) => [uri.toString(), vscode.languages.getDiagnostics(uri)]));
    if (!(await vscode.workspace.applyEdit(edit)))
      throw new WorkspaceError('io_error', 'VS Code did not apply the edit; nothing was written.');
    // Saved only where the user had nothing unsaved: their own pending changes stay theirs to save.
    for (const doc of toSave) await doc.save();
    const errors = await newErrorsAfter(edited, before, this.options.diagnosticsSettleMs);
    const diagnostics = errors.map(({ uri, diagnostic }) => toDiagnostic(this.relative(uri), diagnostic));
    return { changed, versions, diagnostics };
  }

  async findFiles(glob: string, maxResults: number): Promise<Port.FoundFiles> {
    const all = await this.disk.findFiles(glob, Number.MAX_SAFE_INTEGER);
    const excluded = this.excluded('files.exclude');
    const files = all.files.filter((file) => !excluded(file));
    return { files: files.slice(0, maxResults), total: files.length };
  }

  /**
   * The disk search (ripgrep, or JavaScript), with files.exclude and search.exclude applied, and the files
   * the user has unsaved changes in searched as the user sees them instead of as saved.
   */
  async searchText(query: Port.TextQuery): Promise<Port.TextMatches> {
    const dirty = this.dirtyDocuments(query.include);
    const result = await this.disk.searchText(dirty.size > 0 ? { ...query, maxResults: SEARCH_COUNT_LIMIT } : query);
    const excluded = this.excluded('files.exclude', 'search.exclude');
    let matches = result.matches.filter((match) => !excluded(match.path));
    let total = result.total - (result.matches.length - matches.length);
    let files = result.files;
    if (dirty.size > 0) {
      const regex = searchPattern(query);
      const onDisk = matches.filter((match) => dirty.has(match.path));
      files -= new Set(onDisk.map((match) => match.path)).size;
      matches = matches.filter((match) => !dirty.has(match.path));
      let added = 0;
      for (const [rel, doc] of dirty) {
        if (excluded(rel)) continue;
        const found = matchLines(rel, doc.getText(), regex, SEARCH_COUNT_LIMIT);
        if (found.length > 0) files++;
        added += found.length;
        matches.push(...found);
      }
      total += added - onDisk.length;
      matches.sort(byPathThenLine);
    }
    return { ...result, matches: matches.slice(0, query.maxResults), total, files };
  }

  /** Open documents under the root with unsaved changes, by workspace path (filtered by `include`). */
  private dirtyDocuments(include: string | undefined): Map<string, vscode.TextDocument> {
    const matches = include === undefined ? undefined : globMatcher(include);
    const dirty = new Map<string, vscode.TextDocument>();
    for (const doc of vscode.workspace.textDocuments) {
      if (!doc.isDirty || doc.uri.scheme !== 'file' || !doc.uri.fsPath.startsWith(`${this.root}/`)) continue;
      const rel = this.relative(doc.uri);
      if (rel.split('/')[0] === '.git' || (matches && !matches(rel))) continue;
      dirty.set(rel, doc);
    }
    return dirty;
  }

  diagnostics(given?: string): Promise<Port.Diagnostic[]> {
    let entries: ReadonlyArray<readonly [vscode.Uri, readonly vscode.Diagnostic[]]>;
    if (given === undefined) entries = vscode.languages.getDiagnostics();
    else {
      const uri = vscode.Uri.file(locateReal(this.root, given, false).real);
      entries = [[uri, vscode.languages.getDiagnostics(uri)]];
    }
    const inRoot = (uri: vscode.Uri) =>
      uri.scheme === 'file' && (uri.fsPath === this.root || uri.fsPath.startsWith(`${this.root}/`));
    return Promise.resolve(
      entries
        .filter(([uri]) => inRoot(uri))
        .flatMap(([uri, list]) => list.map((diagnostic) => toDiagnostic(this.relative(uri), diagnostic))),
    );
  }

  listTasks(): Promise<Port.TaskList> {
    if (!this.capabilities.tasks)
      throw new WorkspaceError('untrusted', 'This workspace is not trusted: Loopwire does not run its tasks.');
    return this.disk.listTasks();
  }

  runTask(label: string, timeoutMs: number, options?: Port.TaskOptions): Promise<Port.TaskRun> {
    if (!this.capabilities.tasks)
      throw new WorkspaceError('untrusted', 'This workspace is not trusted: Loopwire does not run its tasks.');
    return this.disk.runTask(label, timeoutMs, options);
  }

  runCommand(command: string, options: Port.CommandOptions): Promise<Port.TaskRun> {
    if (!this.capabilities.commands)
      throw new WorkspaceError('untrusted', 'This workspace is not trusted: Loopwire does not run commands in it.');
    return this.disk.runCommand(command, options);
  }

  /** In a Loopwire pseudoterminal of its own, whose process this window owns (backgroundTerminal.ts). */
  startCommand(command: string, options: Port.CommandOptions): Promise<Port.CommandProcess> {
    if (!this.capabilities.commands)
      throw new WorkspaceError('untrusted', 'This workspace is not trusted: Loopwire does not run commands in it.');
    return this.disk.startCommand(command, options);
  }

  private relative(uri: vscode.Uri): string {
    return uri.fsPath === this.root
      ? ''
      : uri.fsPath
          .slice(this.root.length + 1)
          .split('\\')
          .join('/');
  }

  /** A matcher of the paths a setting's globs (files.exclude, search.exclude) hide. */
  private excluded(...settings: string[]): (path: string) => boolean {
    const globs: string[] = [];
    for (const name of settings) {
      const [section, key] = name.split('.') as [string, string];
      const value = vscode.workspace.getConfiguration(section, this.rootUri).get<Record<string, unknown>>(key) ?? {};
      for (const [glob, on] of Object.entries(value)) if (on === true) globs.push(glob);
    }
    const matchers = globs.map((glob) => globMatcher(glob));
    // A folder's glob hides what is under it too.
    return (path) =>
      matchers.some(
        (matches) => matches(path) || path.split('/').some((_, i, parts) => matches(parts.slice(0, i + 1).join('/'))),
      );
  }
}

/**
 * The engine's text of a file: a dirty document's (what the user sees, unsaved), else the disk's — a
 * clean document may not have caught up yet with a change made on disk, which is the truth then.
 */
async function currentText(where: Located): Promise<{ text: string } | undefined> {
  const doc = openDocument(where.real);
  const disk = await readDiskText(where.real, where.path).catch((error: unknown) => {
    if (doc?.isDirty) return undefined;
    throw error;
  });
  if (doc?.isDirty) return { text: engineText(doc, hasBom(disk?.bytes)) };
  return disk && { text: disk.text };
}
