import { t } from '../cliL10n';

// The flags of `loopwire exec` that shape the context a session manages (docs/agent-loop.md, "Long
// sessions"): the model's window (overriding the model table, and given to the embedded backend as well) and
// where the server is asked to compact, or not at all. Parsed into the agent's `context`, or a usage error.

export const contextFlagsUsage = `  --context-window N     ${t(
  "the model's context window in input tokens (default: the model's own, 272000 for\n                         gpt-5.5); the embedded backend refuses a request past it, as the API does",
)}
  --compact-at P         ${t('compact the context past this share of the window: 0.8 or 80 (default 80 %;\n                         0 never, as --no-compact)')}
  --no-compact           ${t('never compact: a task whose context no longer fits stops (context_length_exceeded)')}
`;

export const contextFlagOptions = {
  'context-window': { type: 'string' },
  'compact-at': { type: 'string' },
  'no-compact': { type: 'boolean' },
} as const;

interface ContextFlagValues {
  'context-window'?: string | undefined;
  'compact-at'?: string | undefined;
  'no-compact'?: boolean | undefined;
}

/** What the agent is given as `AgentSpec.context`: both fields absent when no flag says otherwise. */
export interface ContextRequest {
  /** Input tokens; absent: the model's own window. */
  window?: number;
  /** The share of the window past which the server compacts (0 < share < 1), or 0: never. */
  compactAt?: number;
}

/**
 * `--compact-at` as a share of the window: a share below 1 (`0.8`) or a percentage from 1 to below 100 (`80`,
 * `80%`), so that `1` reads as 1 % and nothing means "at the window's edge"; 0 is never, as the
 * `loopwire.compactAt` setting's 0. Undefined for anything else.
 */
export function parseCompactAt(text: string): number | undefined {
  const match = /^\s*(\d+(?:\.\d+)?|\.\d+)\s*(%?)\s*$/.exec(text);
  if (!match?.[1]) return undefined;
  const value = Number(match[1]);
  const percent = match[2] === '%' || value >= 1;
  const share = percent ? value / 100 : value;
  return share >= 0 && share < 1 ? share : undefined;
}

/** What the flags ask for, or the usage error's message. */
export function parseContextFlags(flags: ContextFlagValues): ContextRequest | string {
  const request: ContextRequest = {};
  const window = flags['context-window'];
  if (window !== undefined) {
    const tokens = /^\s*\d+\s*$/.test(window) ? Number(window) : NaN;
    if (!Number.isSafeInteger(tokens) || tokens < 1)
      return `--context-window must be a whole number of tokens above 0 (e.g. 40000), not '${window}'`;
    request.window = tokens;
  }
  const at = flags['compact-at'];
  if (flags['no-compact'] && at !== undefined)
    return '--no-compact and --compact-at contradict each other: give one of them';
  if (flags['no-compact']) request.compactAt = 0;
  else if (at !== undefined) {
    const share = parseCompactAt(at);
    if (share === undefined)
      return `--compact-at must be a share of the window between 0 and 1 (0.8) or a percentage between 1 and 100 (80), not '${at}'`;
    request.compactAt = share;
  }
  return request;
}
