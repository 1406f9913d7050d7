import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { type WorktreeStatus, listWorktrees, worktreeBaseText, worktreeFiles } from '../../agent';
import { WORKTREE_CARD_FILES, type WorktreeAction, type WorktreeCard } from '../../protocol/worktreeCard';
import type { WorktreePort } from '../chat/chatPort';
import { BeforeDocuments } from '../review/beforeSide';
import {
  applyWorktreeCommand,
  discardWorktreeCommand,
  newChatInWorktree,
  openWorktreeCommand,
} from './worktreeActions';
import { promptWaits, takePrompt } from './worktreePrompt';

// The chat panel's worktree cards (docs/worktrees.md): in a worktree's own window, that worktree; in the
// repository's window, every worktree Loopwire made of it. Each with its changes against its base, file by
// file, and Apply / Open in New Window / Discard — the palette's commands (worktreeActions.ts), so that both
// ask and refuse alike. Cards are made again when the page asks, after each action and after each task's end.
// Names and paths come from our own records (src/agent/worktrees); the page's name is only a key into them.

type Show = Parameters<WorktreePort['watch']>[0];

export class WorktreeCards implements WorktreePort, vscode.Disposable {
  private show: Show | undefined;
  private cards: WorktreeCard[] = [];
  private records = new Map<string, WorktreeStatus['record']>();
  private busy: string | undefined;
  /** A refresh running, and whether another was asked for meanwhile. */
  private running: Promise<void> | undefined;
  private again = false;
  private readonly before = new BeforeDocuments();
  private prompted = false;

  /** `ask`: a prompt as the first task of this window's chat (the one "in a new worktree" carried here). */
  constructor(private readonly ask: (text: string) => void) {}

  watch(show: Show): void {
    this.show = show;
    this.send();
    void this.refresh();
    if (this.prompted) return;
    this.prompted = true;
    const folder = windowFolder();
    const text = folder === undefined ? undefined : takePrompt(folder);
    if (text !== undefined) this.ask(text);
  }

  /** Makes the cards again (at most one run at a time; one more after it when asked meanwhile). */
  refresh(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      do {
        this.again = false;
        await this.load();
      } while (this.again);
    })().finally(() => (this.running = undefined));
    return this.running;
  }

  async act(action: WorktreeAction): Promise<void> {
    const record = this.records.get(action.name);
    if (record === undefined || this.busy !== undefined) return;
    if (action.action === 'diff') return this.diff(record, action.path);
    this.busy = action.name;
    this.send();
    try {
      if (action.action === 'apply') await applyWorktreeCommand(record.name);
      else if (action.action === 'open') await openWorktreeCommand(record.name);
      else if ((await discardWorktreeCommand(record.name)) && samePath(record.path, windowFolder())) {
        this.cards = [];
        void vscode.window.showInformationMessage(
          vscode.l10n.t('Worktree {0} was discarded: this window’s folder has gone.', record.name),
        );
      }
    } finally {
      this.busy = undefined;
      await this.refresh();
    }
  }

  async sendInWorktree(text: string): Promise<boolean> {
    const made = await newChatInWorktree(undefined, text);
    // The repository's window lists the new worktree at once (its task then runs in the new window).
    void this.refresh();
    // Not kept where the user cancelled or the setup failed: the text goes back to the composer.
    return made !== undefined && promptWaits(made);
  }

  dispose(): void {
    this.before.dispose();
  }

  private send(): void {
    this.show?.({ type: 'worktrees', worktrees: this.cards, ...(this.busy ? { busy: this.busy } : {}) });
  }

  private async load(): Promise<void> {
    const folder = windowFolder();
    if (folder !== undefined && !fs.existsSync(folder)) {
      // This window's worktree folder has gone (removed by hand, or discarded here): said, not listed again.
      this.cards = this.cards.filter((card) => card.here).map((card) => ({ ...card, gone: true, files: [], more: 0 }));
      return this.send();
    }
    // Not a folder in a git repository (or no folder): no worktree, no card.
    const all = folder === undefined ? [] : await listWorktrees(folder).catch((): WorktreeStatus[] => []);
    const mine = all.filter((status) => samePath(status.record.path, folder));
    const shown = mine.length > 0 ? mine : all;
    this.records = new Map(shown.map((status) => [status.record.name, status.record]));
    this.cards = await Promise.all(shown.map((status) => cardOf(status, mine.length > 0)));
    this.send();
  }

  /** VS Code's diff editor: the file at the worktree's base against the worktree's file now. */
  private async diff(record: WorktreeStatus['record'], file: string | undefined): Promise<void> {
    const listed = this.cards.find((card) => card.name === record.name)?.files.find((f) => f.path === file);
    if (listed === undefined || file === undefined) return;
    try {
      const right = vscode.Uri.file(path.join(record.path, ...file.split('/')));
      if (listed.binary) return void (await vscode.commands.executeCommand('vscode.open', right));
      const left = await this.before.open(file, await worktreeBaseText(record, file));
      const now = listed.change === 'deleted' ? await this.before.open(file, '') : right;
      const title = vscode.l10n.t('{0} (worktree {1}: base ↔ now)', file, record.name);
      await vscode.commands.executeCommand('vscode.diff', left, now, title, { preview: true });
    } catch (error) {
      void vscode.window.showErrorMessage(error instanceof Error ? error.message : String(error));
    }
  }
}

async function cardOf(status: WorktreeStatus, here: boolean): Promise<WorktreeCard> {
  const { record, gone, unapplied, uncommitted } = status;
  const card: WorktreeCard = {
    name: record.name,
    branch: record.branch,
    here,
    gone,
    files: [],
    more: 0,
    unapplied,
    uncommitted,
  };
  if (gone) return card;
  try {
    // The tree the status measured: one snapshot of the worktree per card, not two.
    const files = await worktreeFiles(record, status.tree);
    return {
      ...card,
      files: files.slice(0, WORKTREE_CARD_FILES),
      more: Math.max(0, files.length - WORKTREE_CARD_FILES),
    };
  } catch (error) {
    return { ...card, problem: (error instanceof Error ? error.message : String(error)).slice(0, 2000) };
  }
}

function windowFolder(): string | undefined {
  const folder = vscode.workspace.workspaceFolders?.[0];
  return folder?.uri.scheme === 'file' ? folder.uri.fsPath : undefined;
}

function samePath(a: string, b: string | undefined): boolean {
  if (b === undefined) return false;
  const real = (p: string) => {
    try {
      return fs.realpathSync(p);
    } catch {
      return path.resolve(p);
    }
  };
  return real(a) === real(b);
}
