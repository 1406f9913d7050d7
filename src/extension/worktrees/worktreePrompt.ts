import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

// The prompt sent with the composer's "in a new worktree" on, handed from the window that made the worktree to
// the window it opens there: one file per worktree folder under Loopwire's state (`$XDG_STATE_HOME/loopwire`,
// hidden from every sandbox), written by us, read once and removed by the window whose folder it names. Never
// read from the repository or the worktree, which a task there writes. Plain Node, and light: the activation
// bundle asks whether one waits (worktreeActivation.ts).

/** How long a prompt waits for its window: a window opened much later is not running that task. */
const KEPT_MS = 10 * 60_000;

function promptsFolder(env: NodeJS.ProcessEnv): string {
  const given = env['XDG_STATE_HOME'];
  const state = given && path.isAbsolute(given) ? given : path.join(os.homedir(), '.local', 'state');
  return path.join(state, 'loopwire', 'worktree-prompts');
}

function fileFor(folder: string, env: NodeJS.ProcessEnv): string {
  let real = folder;
  try {
    real = fs.realpathSync(folder);
  } catch {
    // A folder not there (yet): its own name.
  }
  return path.join(promptsFolder(env), `${createHash('sha256').update(real).digest('hex').slice(0, 32)}.json`);
}

/** Keeps `text` for the window that opens `folder` (the worktree's). */
export function keepPrompt(folder: string, text: string, env: NodeJS.ProcessEnv = process.env): void {
  const file = fileFor(folder, env);
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  fs.writeFileSync(file, JSON.stringify({ folder, text, at: Date.now() }), { mode: 0o600 });
}

/** Whether a prompt waits for the window of `folder` (a stat: the activation bundle asks it at startup). */
export function promptWaits(folder: string, env: NodeJS.ProcessEnv = process.env): boolean {
  return fs.existsSync(fileFor(folder, env));
}

/** The prompt kept for `folder`, removed as it is read; undefined: none, or one too old or unreadable. */
export function takePrompt(folder: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const file = fileFor(folder, env);
  let raw: string;
  try {
    raw = fs.readFileSync(file, 'utf8');
    fs.rmSync(file, { force: true });
  } catch {
    return undefined;
  }
  try {
    const kept = JSON.parse(raw) as { text?: unknown; at?: unknown };
    const fresh = typeof kept.at === 'number' && Date.now() - kept.at < KEPT_MS;
    return fresh && typeof kept.text === 'string' && kept.text !== '' ? kept.text : undefined;
  } catch {
    return undefined;
  }
}
