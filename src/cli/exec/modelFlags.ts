import { type ModelOptions, ReasoningEffort, ReasoningSummary, Verbosity } from '../../agent';
import { t } from '../cliL10n';

// The flags of `loopwire exec` that shape each request for a real endpoint: how hard the model reasons,
// whether it sends summaries of it, how long its answers are, and extra headers for gateways
// (docs/endpoints.md). Parsed into what the session sends, or a usage error naming the flag.

export const modelFlagsUsage = `  --reasoning-effort E   ${t(
  "default (the model catalogue's: medium for GPT-5 and Codex models, none sent for\n                         models it does not know), none, minimal, low, medium, high, xhigh",
)}
  --reasoning-summary S  ${t('auto (default: reasoning summaries stream, dimmed) or off')}
  --verbosity V          ${t("default (the catalogue's: low for GPT-5, medium for Codex), low, medium or high")}
  --header 'K: V'        ${t("an extra header on every request and upgrade (repeatable), e.g. 'api-key: …'")}
`;

export const modelFlagOptions = {
  'reasoning-effort': { type: 'string' },
  'reasoning-summary': { type: 'string' },
  verbosity: { type: 'string' },
  header: { type: 'string', multiple: true },
} as const;

interface ModelFlagValues {
  'reasoning-effort'?: string | undefined;
  'reasoning-summary'?: string | undefined;
  verbosity?: string | undefined;
  header?: string[] | undefined;
}

export interface ModelRequest {
  /** Reasoning effort, summaries and verbosity: the agent sends them as `reasoning` and `text` with every turn. */
  modelOptions: ModelOptions;
  headers: Record<string, string>;
}

const oneOf = (flag: string, options: readonly string[], value: string) =>
  `--${flag} must be ${options.slice(0, -1).join(', ')} or ${options.at(-1) ?? ''}, not '${value}'`;

/** What the flags ask for, or the usage error's message. */
export function parseModelFlags(flags: ModelFlagValues): ModelRequest | string {
  const effort = ReasoningEffort.safeParse(flags['reasoning-effort'] ?? 'default');
  if (!effort.success) return oneOf('reasoning-effort', ReasoningEffort.options, flags['reasoning-effort'] ?? '');
  const summary = ReasoningSummary.safeParse(flags['reasoning-summary'] ?? 'auto');
  if (!summary.success) return oneOf('reasoning-summary', ReasoningSummary.options, flags['reasoning-summary'] ?? '');
  const verbosity = Verbosity.safeParse(flags.verbosity ?? 'default');
  if (!verbosity.success) return oneOf('verbosity', Verbosity.options, flags.verbosity ?? '');
  const headers: Record<string, string> = {};
  for (const header of flags.header ?? []) {
    const match = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):\s*(.*)$/.exec(header);
    if (!match?.[1] || match[2] === undefined || /[\r\n]/.test(match[2]))
      return `--header must be 'Name: value' (one line), not '${header}'`;
    headers[match[1].toLowerCase()] = match[2].trim();
  }
  return {
    modelOptions: { reasoningEffort: effort.data, reasoningSummary: summary.data, verbosity: verbosity.data },
    headers,
  };
}
