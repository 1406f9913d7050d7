// The token meter's words, the same in the panel's header and the status bar's tooltip: how full the model's
// context is after the last turn. No imports: the status bar is part of activation, which loads no zod.

/** Past this share of the window the meter turns to the warning colour (the default compaction threshold). */
export const METER_WARN_AT = 0.8;
/** Past this share it turns to the error colour: the next turns may no longer fit. */
export const METER_FULL_AT = 0.95;

/** A count of tokens in a few characters: `950`, `1.2k`, `38k`, `272k`, `1.2M`. */
export function compactTokens(tokens: number): string {
  const n = Math.max(0, Math.round(tokens));
  if (n < 1_000) return String(n);
  const [value, unit] = n < 999_500 ? [n / 1_000, 'k'] : [n / 1_000_000, 'M'];
  // One decimal while it says something (1.2k, 1.2M), none past ten (38k, not 38.4k).
  const text = value < 9.95 ? value.toFixed(1).replace(/\.0$/, '') : String(Math.round(value));
  return `${text}${unit}`;
}

/** A whole number with thousands separators, whatever the locale: `38,412`. */
export function groupedTokens(tokens: number): string {
  return String(Math.max(0, Math.round(tokens))).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** The share of the window in use, in whole percent (rounded down: 100 % only when it is full). */
export function meterPercent(meter: { tokens: number; window: number }): number {
  return Math.floor((meter.tokens / meter.window) * 100);
}

/** What the header shows: `38k / 272k`. */
export function meterText(meter: { tokens: number; window: number }): string {
  return `${compactTokens(meter.tokens)} / ${compactTokens(meter.window)}`;
}

/** How a meter's line is worded from its figures (grouped tokens, grouped window, percent): each front end's l10n. */
export type MeterWords = (tokens: string, window: string, percent: number) => string;

const englishWords: MeterWords = (tokens, window, percent) => `Context: ${tokens} of ${window} tokens (${percent}%)`;

/**
 * The meter's tooltip, and the status bar's line: `Context: 38,412 of 272,000 tokens (14%)`. The front end
 * passes its translation as `words` (src/protocol imports nothing that could translate).
 */
export function meterLine(meter: { tokens: number; window: number }, words: MeterWords = englishWords): string {
  return words(groupedTokens(meter.tokens), groupedTokens(meter.window), meterPercent(meter));
}
