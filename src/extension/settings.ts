import * as path from 'node:path';
import * as vscode from 'vscode';
import { type ModelOptions, ReasoningEffort, ReasoningSummary, type TransportMode, Verbosity } from '../agent';

// Loopwire's settings (package.json `contributes.configuration`), read when they are used, so a change
// applies to the next session without a reload.

/** Where the API key of a real endpoint is kept in SecretStorage (never in settings or logs). */
export const SECRET_KEY = 'loopwire.apiKey';

export interface LoopwireSettings {
  /** `embedded` (the bundled backend, in-process) or a base URL such as https://api.openai.com/v1. */
  endpoint: string;
  model: string;
  transport: TransportMode;
  /** Extra scenario files for the embedded backend, resolved to absolute paths, loaded before the defaults. */
  scenarioFiles: string[];
  approval: 'ask' | 'all' | 'read-only';
  saveAfterEdit: boolean;
  /** Reasoning effort, summaries and verbosity, as the request fields say them (docs/endpoints.md). */
  modelOptions: ModelOptions;
  /** Extra headers on every request and upgrade (a gateway's `api-key`). */
  headers: Record<string, string>;
}

const oneOf = <T extends string>(value: unknown, allowed: readonly T[], fallback: T): T =>
  typeof value === 'string' && (allowed as readonly string[]).includes(value) ? (value as T) : fallback;

export function readSettings(folder: vscode.WorkspaceFolder | undefined): LoopwireSettings {
  const config = vscode.workspace.getConfiguration('loopwire', folder);
  const endpoint = config.get<string>('endpoint', 'embedded').trim() || 'embedded';
  const files = config.get<unknown>('scenarioFiles', []);
  const base = folder?.uri.fsPath;
  return {
    endpoint,
    model: config.get<string>('model', 'gpt-5.5').trim() || 'gpt-5.5',
    transport: oneOf(config.get('transport'), ['ws', 'http', 'auto'] as const, 'auto'),
    scenarioFiles: (Array.isArray(files) ? files : [])
      .filter((file): file is string => typeof file === 'string' && file.trim() !== '')
      .map((file) => (path.isAbsolute(file) || base === undefined ? file : path.join(base, file))),
    approval: oneOf(config.get('approval'), ['ask', 'all', 'read-only'] as const, 'ask'),
    saveAfterEdit: config.get<boolean>('saveAfterEdit', true),
    modelOptions: {
      reasoningEffort: oneOf(config.get('reasoningEffort'), ReasoningEffort.options, 'default'),
      reasoningSummary: oneOf(config.get('reasoningSummary'), ReasoningSummary.options, 'auto'),
      verbosity: oneOf(config.get('verbosity'), Verbosity.options, 'default'),
    },
    headers: headersOf(config.get<unknown>('headers', {})),
  };
}

/** The `loopwire.headers` object's string values, names in lower case; anything else is left out. */
function headersOf(value: unknown): Record<string, string> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  const headers: Record<string, string> = {};
  for (const [name, text] of Object.entries(value))
    if (/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name) && typeof text === 'string' && !/[\r\n]/.test(text))
      headers[name.toLowerCase()] = text;
  return headers;
}
