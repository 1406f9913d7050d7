import * as path from 'node:path';
import * as vscode from 'vscode';
// The settings are read by the session bundle (dist/runtime.js), which holds the agent's index; what
// activation needs of the agent comes through src/agent/activation.ts.
import { DEFAULT_COMPACT_AT, type TransportMode } from '../../agent';
import { PLAN_TOOL_SETTINGS, type PlanToolSetting } from '../../agent/activation';
import { headersOf } from '../endpoint/endpointChoice';

// Loopwire's settings (package.json `contributes.configuration`), read when they are used, so a change
// applies to the next session without a reload. In a multi-root workspace the resource-scoped ones
// (settingScopes.ts) are read for the folder a task or file belongs to; the rest are the window's.

export interface LoopwireSettings {
  /**
   * `embedded` (the bundled backend, in-process) or a base URL such as https://api.openai.com/v1, as the
   * settings say, the workspace's included: where requests really go is EndpointAccess's to say.
   */
  endpoint: string;
  /** Unset or blank: Loopwire's default model (`DEFAULT_MODEL` in src/agent, read by the session bundle). */
  model: string | undefined;
  transport: TransportMode;
  /** Extra scenario files for the embedded backend, resolved to absolute paths, loaded before the defaults. */
  scenarioFiles: string[];
  saveAfterEdit: boolean;
  /**
   * Reasoning effort, summaries and verbosity as set (docs/endpoints.md), checked where they are used
   * (`modelOptionsFrom` in the session bundle): this file is part of activation, which must not load zod.
   */
  modelOptions: { reasoningEffort: unknown; reasoningSummary: unknown; verbosity: unknown };
  /** Extra headers on every request and upgrade (a gateway's `api-key`). */
  headers: Record<string, string>;
  /** The model's input window (`loopwire.contextWindow`); undefined (the setting's 0): the model's own. */
  contextWindow: number | undefined;
  /** Compact past this share of the window (`loopwire.compactAt`, 0.8); 0: never. */
  compactAt: number;
  /** Model responses one task may take before it stops (`loopwire.maxTurns`). */
  maxTurns: number;
  /**
   * `ask`: the editor's tools (`vscode.lm.tools`, where there are any) are offered too, each call approved as a
   * task. A workspace may turn them off, never on where the user turned them off (`externalToolsSetting`).
   */
  externalTools: 'off' | 'ask';
  /** `loopwire.planTool`: the plan tool offered as the model catalogue says (`auto`), to every model, or to none. */
  planTool: PlanToolSetting;
}

const oneOf = <T extends string>(value: unknown, allowed: readonly T[], fallback: T): T =>
  typeof value === 'string' && (allowed as readonly string[]).includes(value) ? (value as T) : fallback;

/**
 * A ceiling far above any real task (a task of many small reads takes hundreds of responses): what stops a
 * model that goes round in circles is the agent's no-progress rule (src/agent/progressWatch.ts).
 */
export const DEFAULT_MAX_TURNS = 500;

/** The workspace folder `uri` lies in; undefined for a file outside them all (or an untitled one). */
export const folderOf = (uri: vscode.Uri | undefined): vscode.WorkspaceFolder | undefined =>
  uri === undefined ? undefined : vscode.workspace.getWorkspaceFolder(uri);

/**
 * The folder a task belongs to (the chat's, the API's): the one of the file in the active editor, else of the
 * editor last visible (the chat panel may have the focus), else the window's first.
 */
export function taskFolder(): vscode.WorkspaceFolder | undefined {
  const editor = vscode.window.activeTextEditor ?? vscode.window.visibleTextEditors[0];
  return folderOf(editor?.document.uri) ?? vscode.workspace.workspaceFolders?.[0];
}

/**
 * The settings for `folder`: its own values of the resource-scoped settings, the window's of the rest. VS Code
 * keeps the rules on where each may come from: a folder of a multi-root workspace cannot set a window
 * setting (the endpoint, its headers), and an untrusted workspace's restricted ones are not read at all.
 */
export function readSettings(folder: vscode.WorkspaceFolder | undefined): LoopwireSettings {
  const config = vscode.workspace.getConfiguration('loopwire', folder);
  const endpoint = config.get<string>('endpoint', 'embedded').trim() || 'embedded';
  const files = config.get<unknown>('scenarioFiles', []);
  // The window's backend loads them, whichever folder asks: a relative path is the first folder's.
  const base = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? folder?.uri.fsPath;
  return {
    endpoint,
    model: config.get<string>('model', '').trim() || undefined,
    transport: oneOf(config.get('transport'), ['ws', 'http', 'auto'] as const, 'auto'),
    scenarioFiles: (Array.isArray(files) ? files : [])
      .filter((file): file is string => typeof file === 'string' && file.trim() !== '')
      .map((file) => (path.isAbsolute(file) || base === undefined ? file : path.join(base, file))),
    saveAfterEdit: config.get<boolean>('saveAfterEdit', true),
    modelOptions: {
      reasoningEffort: config.get('reasoningEffort'),
      reasoningSummary: config.get('reasoningSummary'),
      verbosity: config.get('verbosity'),
    },
    headers: headersOf(config.get<unknown>('headers', {})),
    contextWindow: positiveInteger(config.get<unknown>('contextWindow', 0)),
    compactAt: share(config.get<unknown>('compactAt', DEFAULT_COMPACT_AT)),
    externalTools: externalToolsSetting(config.inspect<unknown>('externalTools')),
    planTool: oneOf(config.get('planTool'), PLAN_TOOL_SETTINGS, 'auto'),
    maxTurns: positiveInteger(config.get<unknown>('maxTurns', DEFAULT_MAX_TURNS)) ?? DEFAULT_MAX_TURNS,
  };
}

/**
 * `loopwire.externalTools`: the user's value (`ask` unless set), which a workspace's `off` makes stricter. A
 * repository's settings cannot offer the user's other extensions' tools to the model where the user said off.
 * (The approval mode, which a repository may only make stricter too, is approvalChoice.ts'.)
 */
function externalToolsSetting(
  inspected: { globalValue?: unknown; workspaceValue?: unknown; workspaceFolderValue?: unknown } | undefined,
): 'off' | 'ask' {
  const user = oneOf(inspected?.globalValue, ['off', 'ask'] as const, 'ask');
  const workspace = [inspected?.workspaceValue, inspected?.workspaceFolderValue];
  return workspace.includes('off') ? 'off' : user;
}

/** A window in tokens; 0 or anything that is no positive number: undefined (the model's own). */
function positiveInteger(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 1 ? Math.floor(value) : undefined;
}

/** A share of the window; a percentage (80) is taken as one, as the agent does; nonsense: the default. */
function share(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : DEFAULT_COMPACT_AT;
}
