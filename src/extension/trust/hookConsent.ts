import { createHash } from 'node:crypto';
import { type HookSpec, parseHooks, readHookFileText } from '../../agent';

// The user's yes to a workspace's hook files (src/agent/hooks; docs/customize.md, Hooks): a repository's
// `.claude/settings.json` and `.github/hooks/*.json` are a stranger's input naming programs to run at each
// tool call, so they run only after a yes to that file as it is now, as `.vscode/mcp.json` servers do
// (mcpConsentPrompt.ts). The yes is kept per file with a digest of its text: a changed file is asked about
// again, since a command the user allowed could rewrite it. The hooks run are parsed from the very text the
// user was shown, never read again after the question. An untrusted workspace's hooks are neither asked about
// nor run. A no holds for this window. Plain Node (the window's modal is given as `ask`): tested without VS Code.

/** Where the yeses are kept, in the workspace's state: hook file (absolute) → the digest allowed. */
export const HOOKS_ALLOWED_KEY = 'loopwire.hooks.allowedFiles';

/** The workspace state as the consent reads and writes it (VS Code's Memento). */
export interface ConsentState {
  get(key: string): unknown;
  update(key: string, value: unknown): PromiseLike<void>;
}

/** What the user is asked about: a file, as the user knows it, and the hooks it would run. */
export interface HookFileQuestion {
  file: string;
  label: string;
  specs: readonly HookSpec[];
}

export interface HookConsentParts {
  state: ConsentState;
  /** The question (one at a time); true only for the user's yes. */
  ask(question: HookFileQuestion): Promise<boolean>;
  /** Whether the workspace is trusted now. */
  trusted(): boolean;
  log(line: string): void;
}

/** The digest a yes is kept against: the file's text, byte for byte. */
export function hookFileDigest(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

export class HookConsent {
  /** `file\0digest` of each file the user said no to in this window. */
  private readonly declined = new Set<string>();
  /** Lines already logged: each is said once a window. */
  private readonly said = new Set<string>();
  /** One question at a time, however many agents start together. */
  private turn: Promise<unknown> = Promise.resolve();

  constructor(private readonly parts: HookConsentParts) {}

  /** The hooks of `files` (in order) the user allows now, each file not yet answered asked about in turn. */
  allowed(files: readonly { file: string; label: string }[]): Promise<HookSpec[]> {
    const next = this.turn.then(async () => {
      const specs: HookSpec[] = [];
      for (const file of files) specs.push(...(await this.allowedOf(file.file, file.label)));
      return specs;
    });
    this.turn = next.catch(() => undefined);
    return next;
  }

  private async allowedOf(file: string, label: string): Promise<HookSpec[]> {
    const text = readText(file, (line) => this.say(line));
    if (text === undefined) return [];
    const parsed = parseHooks(text, file, (count) =>
      this.say(`${count === 1 ? 'a hook' : `${count} hooks`} of ${label} not run: only type "command" is`),
    );
    if ('problem' in parsed) {
      this.say(`hooks not used: ${label}: ${parsed.problem}`);
      return [];
    }
    if (parsed.length === 0) return [];
    if (!this.parts.trusted()) {
      this.say(`hooks of ${label} not run: the workspace is not trusted`);
      return [];
    }
    const digest = hookFileDigest(text);
    if (this.stored()[file] === digest) return parsed;
    const key = `${file}\0${digest}`;
    if (!this.declined.has(key)) {
      if (await this.parts.ask({ file, label, specs: parsed })) {
        await this.parts.state.update(HOOKS_ALLOWED_KEY, { ...this.stored(), [file]: digest });
        return parsed;
      }
      this.declined.add(key);
    }
    this.say(`hooks of ${label} not run: you did not allow them in this window (a change to the file asks again)`);
    return [];
  }

  /** The yeses kept for this workspace; anything else found under the key counts as none. */
  private stored(): Record<string, string> {
    const value = this.parts.state.get(HOOKS_ALLOWED_KEY);
    if (typeof value !== 'object' || value === null) return {};
    return Object.fromEntries(
      Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
    );
  }

  private say(line: string): void {
    if (this.said.has(line)) return;
    this.said.add(line);
    this.parts.log(line);
  }
}

/** `file`'s text; undefined (and a line where it exists but cannot be read) otherwise. */
function readText(file: string, say: (line: string) => void): string | undefined {
  try {
    return readHookFileText(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
      say(`hooks not used: ${file}: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
}
