import * as fs from 'node:fs';
import type { AnyInputItem } from '../../protocol';
import type { Workspace } from '../../workspace';
import type { Transcript } from '../conversation/transcript';
import { WORKSPACE_SKILL_DIRS, findNestedSkills } from './skillDiscovery';
import { isNestedSkillsItem, nestedSkillsScope, nestedSkillsText, userMessage } from './skillsItem';

// Skills of a folder below the workspace folder (`packages/api/.agents/skills/…`) are found as a nested
// AGENTS.md is (nestedInstructions.ts): when the agent first works in that folder or below it, once per
// conversation, as their own message naming the folder, before the next request. A folder whose skill folders
// hold nothing usable is not walked again in this conversation.

/** The folders of each conversation already looked at (by its transcript): walked once. */
const looked = new WeakMap<Transcript, Set<string>>();
/**
 * The conversations whose task start read the workspace's skills (skillsHook.ts): only theirs look below it.
 * Not an agent without skills (an inline edit), nor an untrusted window's, which reads the user's alone.
 */
const enabled = new WeakSet<Transcript>();

/** Whether the conversation of `transcript` finds the skills of folders below the workspace folder. */
export function allowNestedSkills(transcript: Transcript, allowed: boolean): void {
  if (allowed) enabled.add(transcript);
  else enabled.delete(transcript);
}

/**
 * The messages listing the skills of `folders` (workspace-relative, where the turn's calls worked) and the
 * folders above them below the workspace folder, new to this conversation; empty on most turns, at the cost
 * of a synchronous stat per folder.
 */
export function nestedSkillScopes(folders: readonly string[], transcript: Transcript, workspace: Workspace): string[] {
  if (!enabled.has(transcript)) return [];
  const done = looked.get(transcript) ?? new Set(transcript.items.filter(isNestedSkillsItem).map(nestedSkillsScope));
  looked.set(transcript, done);
  const scopes = [...new Set(folders.flatMap(ancestors))].filter((scope) => !done.has(scope));
  return scopes.filter((scope) => WORKSPACE_SKILL_DIRS.some((dir) => isFolder(workspace, `${scope}/${dir}`)));
}

/** The messages of the skills of `scopes` (nestedSkillScopes'), outermost first; each scope marked as looked at. */
export async function nestedSkillItems(
  scopes: readonly string[],
  transcript: Transcript,
  workspace: Workspace,
): Promise<AnyInputItem[]> {
  const done = looked.get(transcript) ?? new Set<string>();
  looked.set(transcript, done);
  const items: AnyInputItem[] = [];
  for (const scope of [...scopes].sort((a, b) => a.split('/').length - b.split('/').length)) {
    done.add(scope);
    const found = await findNestedSkills(workspace.locate(scope));
    if (found.skills.length > 0) items.push(userMessage(nestedSkillsText(scope, found.skills)));
  }
  return items;
}

/** Whether workspace path `path` is a folder on disk (a path the port refuses is not). */
function isFolder(workspace: Workspace, path: string): boolean {
  try {
    return fs.statSync(workspace.locate(path).absolute, { throwIfNoEntry: false })?.isDirectory() === true;
  } catch {
    return false;
  }
}

/** Every folder from the top down to `folder` (`a/b` → `a`, `a/b`); the workspace folder itself is not one. */
function ancestors(folder: string): string[] {
  const parts = folder.split('/').filter((part) => part !== '' && part !== '.');
  if (parts.includes('..') || folder.startsWith('/')) return [];
  // A skill folder's own files are not a folder of the project's: `.agents/skills/x` holds no skills of its own.
  const hidden = parts.findIndex((part) => part.startsWith('.'));
  const kept = hidden < 0 ? parts : parts.slice(0, hidden);
  return kept.map((_, i) => kept.slice(0, i + 1).join('/'));
}
