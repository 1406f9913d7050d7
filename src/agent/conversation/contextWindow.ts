import { UNKNOWN_MODEL, modelProfile } from '../model/modelCatalogue';

// How much context a model reads, and when the client asks the server to compact it (docs/agent-loop.md,
// "Long sessions"). The windows are input tokens, by family in the model catalogue (modelCatalogue.ts): a
// model's whole window less what it reserves for output (GPT-5: 400k in all, up to 128k of it output, so
// 272k of input — the bundled backend's default too).

/** For a model the catalogue does not know: the window of the default model's family. */
export const FALLBACK_WINDOW = UNKNOWN_MODEL.contextWindow;

/** Compact when the context passes this share of the window (the `loopwire.compactAt` default). */
export const DEFAULT_COMPACT_AT = 0.8;

/** The input window of `model`; `override` (a setting, a flag) wins when it is a positive number. */
export function contextWindowFor(model: string, override?: number): number {
  if (override !== undefined && Number.isFinite(override) && override > 0) return Math.floor(override);
  return modelProfile(model).contextWindow;
}

/** The context a session manages: its window, and where it asks for compaction (undefined: never). */
export interface ContextPlan {
  window: number;
  /** Tokens past which the server compacts in the response (`context_management`); undefined: off. */
  compactThreshold: number | undefined;
}

/** `compactAt` is a share of the window (0.8) or a percentage (80); 0 turns compaction off. */
export function contextPlan(model: string, options: { window?: number; compactAt?: number } = {}): ContextPlan {
  const window = contextWindowFor(model, options.window);
  const raw = options.compactAt ?? DEFAULT_COMPACT_AT;
  const share = raw > 1 ? raw / 100 : raw;
  const compactThreshold = share > 0 && share < 1 ? Math.floor(window * share) : undefined;
  return { window, compactThreshold };
}
