import { readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { type CommandRules, joinRules, rulesIn } from '../agent';

// The CLI's command rules (src/agent/approvals/commandApproval.ts), in the user's own config folder, never in the
// workspace: a repository cannot allow its own commands. The file has the shape of the extension's
// `loopwire.commandRules` setting: { "allow": [...], "deny": [...], "folders": { "/abs/path": {...} } }.

/** `$XDG_CONFIG_HOME/loopwire/command-rules.json`, `~/.config/…` where that is unset. */
export function commandRulesPath(env: NodeJS.ProcessEnv = process.env): string {
  const config = env['XDG_CONFIG_HOME'] || path.join(os.homedir(), '.config');
  return path.join(config, 'loopwire', 'command-rules.json');
}

/**
 * The rules of the user's file, read once, for each workspace folder: none where there is no file. A file
 * that is not JSON is an error naming it, rather than rules silently not applied.
 */
export function cliCommandRules(file: string = commandRulesPath()): (root: string) => CommandRules {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return () => ({ allow: [], deny: [] });
    throw error;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`${file} is not JSON (${(error as Error).message}): fix or remove it`);
  }
  return (root) => rulesIn(value, root);
}

/** The rules of a run: the file's, and the allow rules the user gave while it ran. */
export interface RunCommandRules {
  rules: (root: string) => CommandRules;
  /** Keeps `rule` as an allow rule until the run ends. */
  allow: (rule: string) => void;
}

/**
 * The file's rules with the allow rules given on the terminal during the run ("Always allow `npm install`"):
 * read by the gate at each call, so a later command they name runs without asking. Kept for the run only:
 * the file is the user's to edit, and exec never writes it.
 */
export function runCommandRules(file: (root: string) => CommandRules): RunCommandRules {
  const allowed: string[] = [];
  return {
    rules: (root) => (allowed.length === 0 ? file(root) : joinRules(file(root), { allow: allowed, deny: [] })),
    allow: (rule) => {
      if (!allowed.includes(rule)) allowed.push(rule);
    },
  };
}
