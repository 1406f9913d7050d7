// The o200k_base tokenizer, built the first time a text is counted or split. Building it (parsing 200,000
// ranks and filling its maps) costs more than the rest of a server's start, and a bin that never tokenizes
// (`loopwire-server` until its first request, every `loopwire` command but exec) should not pay for it.
import type * as O200k from './o200k';

let loaded: typeof O200k | undefined;

function o200k(): typeof O200k {
  // A require, not an import: esbuild keeps the module in the bundle but runs it only when first called.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (loaded ??= require('./o200k') as typeof O200k);
}

/** The number of tokens in `text`. */
export const countTokens = (text: string): number => o200k().countTokens(text);

/** The tokens of `text`. */
export const encode = (text: string): number[] => o200k().encode(text);

/** The text of each token in `ids`, one piece per token (a piece may hold part of a character's bytes). */
export const decodeGenerator = (ids: Iterable<number>): Generator<string, void> => o200k().decodeGenerator(ids);

/** Builds the tokenizer now, ahead of the first count (the extension's embedded backend, while a prompt is typed). */
export const prepareTokenizer = (): void => void o200k();
