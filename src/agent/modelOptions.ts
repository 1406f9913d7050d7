import * as z from 'zod';

// How hard the model thinks, whether it says so, and how much it writes: the `reasoning` and `text`
// request fields, from the CLI's flags and the extension's settings alike (docs/endpoints.md).

/** `default` sends nothing: the model's own default (which is `none` for some, hence the setting). */
export const ReasoningEffort = z.enum(['default', 'none', 'minimal', 'low', 'medium', 'high', 'xhigh']);
/** `auto` asks for reasoning summaries, which stream into the CLI and the panel's Thinking section. */
export const ReasoningSummary = z.enum(['auto', 'off']);
export const Verbosity = z.enum(['default', 'low', 'medium', 'high']);

export const ModelOptions = z.object({
  reasoningEffort: ReasoningEffort.default('default'),
  reasoningSummary: ReasoningSummary.default('auto'),
  verbosity: Verbosity.default('default'),
});

export type ReasoningEffort = z.infer<typeof ReasoningEffort>;
export type ReasoningSummary = z.infer<typeof ReasoningSummary>;
export type Verbosity = z.infer<typeof Verbosity>;
export type ModelOptions = z.infer<typeof ModelOptions>;

/** Options as a user set them (VS Code settings): each field that is not one of its values is its default. */
export function modelOptionsFrom(raw: Record<keyof ModelOptions, unknown>): ModelOptions {
  return {
    reasoningEffort: ReasoningEffort.catch('default').parse(raw.reasoningEffort),
    reasoningSummary: ReasoningSummary.catch('auto').parse(raw.reasoningSummary),
    verbosity: Verbosity.catch('default').parse(raw.verbosity),
  };
}

/**
 * Models that reason (GPT-5 and later, the o-series, Codex models). The API refuses `reasoning` settings
 * for the others, so for them only an effort the user chose is sent.
 */
export const reasons = (model: string): boolean => /^(gpt-[5-9]|gpt-\d{2,}|o\d|codex|gpt-oss)/i.test(model);

/** The request fields for `options` on `model`: `reasoning` and `text`, each only when it says something. */
export function modelFields(model: string, options: Partial<ModelOptions> = {}): Record<string, unknown> {
  const { reasoningEffort, reasoningSummary, verbosity } = ModelOptions.parse(options);
  const reasoning: Record<string, string> = {};
  if (reasoningEffort !== 'default') reasoning.effort = reasoningEffort;
  if (reasoningSummary === 'auto' && reasons(model) && reasoningEffort !== 'none') reasoning.summary = 'auto';
  return {
    ...(Object.keys(reasoning).length > 0 ? { reasoning } : {}),
    ...(verbosity === 'default' ? {} : { text: { verbosity } }),
  };
}
