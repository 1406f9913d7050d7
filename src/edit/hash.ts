// FNV-1a, 64 bits, over the UTF-8 encoding of a string: the same value a Node adapter gets from the bytes
// of a UTF-8 file. Pure JavaScript (this layer has no node:crypto); two 32-bit halves keep every
// intermediate product exact in a double.

const OFFSET_HI = 0xcbf29ce4;
const OFFSET_LO = 0x84222325;
/** The FNV 64-bit prime is 2^40 + 0x1b3. */
const PRIME_LOW = 0x1b3;
const TWO_32 = 0x1_0000_0000;

/**
 * A 16-hex-digit FNV-1a 64 hash of `text` encoded as UTF-8 (lone surrogates as U+FFFD, as `TextEncoder`
 * does). Used as the stale-read guard's "what the model last read" stamp; not cryptographic.
 */
export function hashText(text: string): string {
  const state = { hi: OFFSET_HI, lo: OFFSET_LO };
  for (let i = 0; i < text.length; i++) {
    let code = text.charCodeAt(i);
    if (code < 0x80) {
      mix(state, code);
      continue;
    }
    if (code >= 0xd800 && code <= 0xdfff) {
      const next = text.charCodeAt(i + 1);
      if (code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        code = 0x10000 + ((code - 0xd800) << 10) + (next - 0xdc00);
        i++;
      } else {
        code = 0xfffd;
      }
    }
    if (code < 0x800) {
      mix(state, 0xc0 | (code >> 6));
    } else if (code < 0x10000) {
      mix(state, 0xe0 | (code >> 12));
      mix(state, 0x80 | ((code >> 6) & 0x3f));
    } else {
      mix(state, 0xf0 | (code >> 18));
      mix(state, 0x80 | ((code >> 12) & 0x3f));
      mix(state, 0x80 | ((code >> 6) & 0x3f));
    }
    mix(state, 0x80 | (code & 0x3f));
  }
  return state.hi.toString(16).padStart(8, '0') + state.lo.toString(16).padStart(8, '0');
}

/** One FNV-1a step: xor the byte in, then multiply by the prime mod 2^64. `>>> 0` is mod 2^32 (exact below 2^53). */
function mix(state: { hi: number; lo: number }, byte: number): void {
  const lo = (state.lo ^ byte) >>> 0;
  const low = lo * PRIME_LOW;
  const carry = (low - (low >>> 0)) / TWO_32;
  state.hi = (state.hi * PRIME_LOW + carry + lo * 256) >>> 0;
  state.lo = low >>> 0;
}
