import * as z from 'zod';
import { readHookFileText } from './hookFiles';

// Hooks as Claude Code writes them (docs/customize.md, Hooks): a settings file's `hooks` maps an event name to
// matcher groups, each with the commands to run. VS Code's `.github/hooks/*.json` take the same shape, and
// VS Code also lets an event list the commands alone (no matcher group): both are read. Other keys of a
// settings file are Claude Code's, not ours: kept out of the check (a loose object). A file that breaks the
// shape is reported once, with its path and what is wrong, and none of its hooks run; nothing stops the task.

/** The events Loopwire runs hooks at, in Claude Code's names. */
export const HOOK_EVENTS = ['PreToolUse', 'PostToolUse', 'UserPromptSubmit', 'SessionStart', 'Stop'] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

/** One command hook: a shell command line, and how long it may run (seconds). */
export const HookCommand = z.object({
  type: z.literal('command'),
  command: z.string().min(1),
  timeout: z.number().positive().optional(),
});

/** A matcher group: which tools (PreToolUse, PostToolUse; ignored elsewhere) and the commands to run. */
export const HookMatcherGroup = z.object({
  matcher: z.string().optional(),
  hooks: z.array(HookCommand),
});

const HookEntry = z.union([HookMatcherGroup, HookCommand]);

/** One event's entries: matcher groups, or commands alone (VS Code's form). */
const EventHooks = z.array(HookEntry);

/**
 * A hooks file: `{"hooks": {"PreToolUse": [...], …}}`, other keys allowed (a Claude Code settings file). Only
 * the events Loopwire runs are checked (parseHooks): another tool's events (Copilot's `preToolUse`) are not ours.
 */
export const HooksFile = z.looseObject({
  hooks: z.record(z.string(), z.unknown()).optional(),
});

/** A hook of a type other than `command` (Claude Code's `prompt`, `http`…): left out, said, the rest kept. */
const isOtherType = (hook: unknown): boolean =>
  typeof hook === 'object' && hook !== null && 'type' in hook && hook.type !== 'command';

/** `entries` with the hooks of other types taken out, and how many were. */
function commandHooksOnly(entries: unknown): { entries: unknown; skipped: number } {
  if (!Array.isArray(entries)) return { entries, skipped: 0 };
  let skipped = 0;
  const kept = entries.flatMap((entry: unknown) => {
    if (isOtherType(entry)) {
      skipped++;
      return [];
    }
    const hooks = (entry as { hooks?: unknown } | null)?.hooks;
    if (!Array.isArray(hooks)) return [entry];
    const commands = hooks.filter((hook) => !isOtherType(hook));
    skipped += hooks.length - commands.length;
    return commands.length === 0 ? [] : [{ ...(entry as object), hooks: commands }];
  });
  return { entries: kept, skipped };
}

export type HookCommand = z.infer<typeof HookCommand>;

/** A command to run at an event, where it came from, and the matcher of its group. */
export interface HookSpec {
  event: HookEvent;
  matcher: string | undefined;
  command: string;
  /** Seconds; the default (60) when not given. */
  timeout: number | undefined;
  /** The file it was read from. */
  source: string;
}

/** Claude Code's events this version does not run: named in the report, never an error. */
const isHookEvent = (name: string): name is HookEvent => (HOOK_EVENTS as readonly string[]).includes(name);

/** The hooks of `text` (read from `source`), or why it is not a hooks file; `skipped` counts hooks of other types. */
export function parseHooks(
  text: string,
  source: string,
  skipped?: (count: number) => void,
): HookSpec[] | { problem: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { problem: `not JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
  const parsed = HooksFile.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { problem: `${issue?.path.join('.') || '(top)'}: ${issue?.message ?? 'not a hooks file'}` };
  }
  const specs: HookSpec[] = [];
  for (const [event, raw] of Object.entries(parsed.data.hooks ?? {})) {
    if (!isHookEvent(event)) continue;
    const commands = commandHooksOnly(raw);
    if (commands.skipped > 0) skipped?.(commands.skipped);
    const checked = EventHooks.safeParse(commands.entries);
    if (!checked.success) {
      const issue = checked.error.issues[0];
      return { problem: `hooks.${[event, ...(issue?.path ?? [])].join('.')}: ${issue?.message ?? 'not a hook'}` };
    }
    for (const entry of checked.data) {
      const group = 'hooks' in entry ? entry : { matcher: undefined, hooks: [entry] };
      for (const hook of group.hooks)
        specs.push({ event, matcher: group.matcher, command: hook.command, timeout: hook.timeout, source });
    }
  }
  return specs;
}

/**
 * The hooks of the files in `files`, in order; a file that does not exist gives none, one that cannot be
 * read or parsed gives none and a line on `report` naming it.
 */
export function readHookFiles(files: readonly string[], report: (line: string) => void): HookSpec[] {
  const specs: HookSpec[] = [];
  for (const file of files) {
    let text: string;
    try {
      text = readHookFileText(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
        report(`hooks not used: ${file}: ${error instanceof Error ? error.message : String(error)}`);
      continue;
    }
    const other = (count: number) =>
      report(`${count === 1 ? 'a hook' : `${count} hooks`} of ${file} not run: only type "command" is`);
    const parsed = parseHooks(text, file, other);
    if ('problem' in parsed) report(`hooks not used: ${file}: ${parsed.problem}`);
    else specs.push(...parsed);
  }
  return specs;
}
