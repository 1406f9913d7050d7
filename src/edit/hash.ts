// FNV-1a, 64 bits, over the UTF-8 encoding of a string: the same value a Node adapter gets from the bytes
// of a UTF-8 file. Pure JavaScript (this layer has no node:crypto). It runs on every read, between a tool's
// result and the next request, so the bytes come from the platform's encoder and the state is four 16-bit
// limbs in locals: every product stays a small integer, which V8 keeps out of floating point.

const encoder = new TextEncoder();

/**
 * A 16-hex-digit FNV-1a 64 hash of `text` encoded as UTF-8 (lone surrogates as U+FFFD, as `TextEncoder`
 * does). Used as the stale-read guard's "what the model last read" stamp; not cryptographic.
 */
export function hashText(text: string): string {
  return hashBytes(encoder.encode(text));
}

/** FNV-1a 64 of `bytes`. */
export function hashBytes(bytes: Uint8Array): string {
  // The offset basis 0xcbf29ce484222325, low limb first.
  let v0 = 0x2325;
  let v1 = 0x8422;
  let v2 = 0x9ce4;
  let v3 = 0xcbf2;
  for (let i = 0; i < bytes.length; i++) {
    v0 ^= bytes[i] as number;
    // × the prime 2^40 + 0x1b3 mod 2^64: each limb times 0x1b3, plus the limbs two below shifted by 8 (the
    // 2^40 term), carries passed up.
    const t0 = v0 * 0x1b3;
    const t1 = v1 * 0x1b3 + (t0 >>> 16);
    const t2 = v2 * 0x1b3 + (v0 << 8) + (t1 >>> 16);
    v3 = (v3 * 0x1b3 + (v1 << 8) + (t2 >>> 16)) & 0xffff;
    v0 = t0 & 0xffff;
    v1 = t1 & 0xffff;
    v2 = t2 & 0xffff;
  }
  const limb = (v: number) => v.toString(16).padStart(4, '0');
  return limb(v3) + limb(v2) + limb(v1) + limb(v0);
}
