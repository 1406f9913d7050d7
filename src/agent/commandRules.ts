import * as path from 'node:path';
import type { ApprovalPolicy, CommandRules } from './approvals';

// The user's command rules as they are written: in the `loopwire.commandRules` setting and in the CLI's
// config file alike, `allow` and `deny` lists for every folder, and `folders` giving a folder's own by its
// absolute path:
//   { "allow": ["npm test"], "deny": ["git push"], "folders": { "/home/me/shop": { "allow": ["make check"] } } }
// Anything else in the value is ignored (a rule is a non-empty string), so a mistyped entry allows nothing.

/** The rules of `value` that apply to the folder `root`: the top lists, and those of `folders[root]`. */
export function rulesIn(value: unknown, root: string): CommandRules {
  if (!isObject(value)) return { allow: [], deny: [] };
  const own = isObject(value['folders'])
    ? Object.entries(value['folders']).filter(([folder]) => samePath(folder, root))
    : [];
  const lists = [value, ...own.map(([, rules]) => rules)].filter(isObject);
  return {
    allow: lists.flatMap((list) => strings(list['allow'])),
    deny: lists.flatMap((list) => strings(list['deny'])),
  };
}

/** Rules from several places, one after the other. */
export function joinRules(...rules: readonly CommandRules[]): CommandRules {
  return { allow: rules.flatMap((r) => r.allow), deny: rules.flatMap((r) => r.deny) };
}

/** `policy`, with its command rules read from `rules` at each call. */
export function withCommandRules(policy: ApprovalPolicy, rules: (root: string) => CommandRules): ApprovalPolicy {
  const mode = policy.mode?.bind(policy);
  return { approve: (request) => policy.approve(request), ...(mode ? { mode } : {}), commandRules: rules };
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((rule): rule is string => typeof rule === 'string' && rule.trim() !== '') : [];

const samePath = (a: string, b: string) => path.resolve(a) === path.resolve(b);
