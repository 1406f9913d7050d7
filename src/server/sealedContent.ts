import * as crypto from 'node:crypto';
import type { z } from 'zod';

// The sealing behind every `encrypted_content` this server issues (reasoning items, compactions): opaque,
// refused when it is not what this server wrote, and deterministic. `PREFIX` + base64url(nonce ‖
// AES-256-GCM(JSON) ‖ tag), the nonce derived from the plaintext (a synthetic IV), so the same payload always
// gets the same text.
//
// The keys are fixed, not per-process secrets: a client may resend a `store: false` transcript to a server
// restarted since (a reloaded VS Code window, `loopwire exec` resuming a session, `--store-dir`), and the API
// accepts its own content wherever it comes back. What the check catches is client bugs — content made up,
// cut, re-encoded, or replayed under another item's id — not forgery, which a local emulator has no reason to
// resist (docs/backend.md, "What it refuses").

const NONCE_BYTES = 12;
const TAG_BYTES = 16;

/** One kind of sealed content: its text prefix and its keys. */
export interface Sealer {
  readonly prefix: string;
  readonly key: Buffer;
  readonly nonceKey: Buffer;
}

/** A sealer whose keys are derived from `label` (one label per kind, so one kind never opens as another). */
export function sealer(prefix: string, label: string): Sealer {
  const derive = (use: string) => crypto.createHash('sha256').update(`${label} ${use}`).digest();
  return { prefix, key: derive('key v1'), nonceKey: derive('nonce v1') };
}

/** `value` as JSON, sealed: the same value, the same text. */
export function sealJson(kind: Sealer, value: unknown): string {
  const plain = Buffer.from(JSON.stringify(value), 'utf8');
  const nonce = crypto.createHmac('sha256', kind.nonceKey).update(plain).digest().subarray(0, NONCE_BYTES);
  const cipher = crypto.createCipheriv('aes-256-gcm', kind.key, nonce);
  const sealed = Buffer.concat([cipher.update(plain), cipher.final()]);
  return kind.prefix + Buffer.concat([nonce, sealed, cipher.getAuthTag()]).toString('base64url');
}

/** The JSON value `content` carries; undefined when it is not what `sealJson` wrote for this kind. */
function openJson(kind: Sealer, content: string): unknown {
  if (!content.startsWith(kind.prefix)) return undefined;
  const body = content.slice(kind.prefix.length);
  // Strict base64url: Buffer.from would silently skip stray characters, so a mangled text could still open.
  if (!/^[A-Za-z0-9_-]+$/.test(body)) return undefined;
  const bytes = Buffer.from(body, 'base64url');
  if (bytes.toString('base64url') !== body || bytes.length <= NONCE_BYTES + TAG_BYTES) return undefined;
  const nonce = bytes.subarray(0, NONCE_BYTES);
  const tag = bytes.subarray(bytes.length - TAG_BYTES);
  let plain: Buffer;
  try {
    const decipher = crypto.createDecipheriv('aes-256-gcm', kind.key, nonce);
    decipher.setAuthTag(tag);
    plain = Buffer.concat([decipher.update(bytes.subarray(NONCE_BYTES, bytes.length - TAG_BYTES)), decipher.final()]);
  } catch {
    return undefined;
  }
  try {
    return JSON.parse(plain.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/** What `content` stands for, checked against `schema`; undefined when this server did not issue it (malformed, altered, foreign). */
export function openSealed<T>(kind: Sealer, schema: z.ZodType<T>, content: string): T | undefined {
  const parsed = schema.safeParse(openJson(kind, content));
  return parsed.success ? parsed.data : undefined;
}
