// The tokenizer's functions the server uses, as ES imports so that the bundle keeps only what they need;
// required by tokenizer.ts when a text is first counted, never imported by anything else.
export { countTokens, decodeGenerator, encode } from 'gpt-tokenizer/encoding/o200k_base';
