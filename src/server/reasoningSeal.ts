import * as crypto from 'node:crypto';

// The `encrypted_content` of the reasoning items this server emits, and its check when a client replays one
// (docs/backend.md, "What it refuses"). Like the API's, it is opaque, bound to its item's id, and refused
// when it is not what a server issued: `lw1.` + base64url(nonce ‖ AES-256-GCM(JSON {id, summary}) ‖ tag).
//
// The key is fixed, not a per-process secret: a client may resend a `store: false` transcript to a server
// restarted since (a reloaded VS Code window, `loopwire exec` resuming a session, `--store-dir`), and the API
// accepts its own content wherever it comes back. What the check catches is client bugs — content made up,
// cut, re-encoded, or replayed under another item's id — not forgery, which a local emulator has no reason to
// resist. The nonce is derived from the plaintext (a synthetic IV), so the same item always gets the same
// content: deterministic, like everything else the scripted model does.

const VERSION_PREFIX = 'lw1.';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const KEY = crypto.createHash('sha256').update('loopwire-server reasoning.encrypted_content key v1').digest();
const NONCE_KEY = crypto.createHash('sha256').update('loopwire-server reasoning.encrypted_content nonce v1').digest();

/** What an `encrypted_content` carries: the id and the summary texts of the item it was issued for. */
export interface SealedReasoning {
  id: string;
  summary: string[];
}

/** The `encrypted_content` of reasoning item `id` with these summary texts; the same input, the same text. */
export function sealReasoning(id: string, summary: readonly string[]): string {
  const plain = Buffer.from(JSON.stringify({ id, summary }), 'utf8');
  const nonce = crypto.createHmac('sha256', NONCE_KEY).update(plain).digest().subarray(0, NONCE_BYTES);
  const cipher = crypto.createCipheriv('aes-256-gcm', KEY, nonce);
  const sealed = Buffer.concat([cipher.update(plain), cipher.final()]);
  return VERSION_PREFIX + Buffer.concat([nonce, sealed, cipher.getAuthTag()]).toString('base64url');
}

/** The item `content` was issued for; undefined when this server did not issue it (malformed, altered, foreign). */
export function openReasoning(content: string): SealedReasoning | undefined {
  if (!content.startsWith(VERSION_PREFIX)) return undefined;
  const body = content.slice(VERSION_PREFIX.length);
  // Strict base64url: Buffer.from would silently skip stray characters, so a mangled text could still open.
  if (!/^[A-Za-z0-9_-]+$/.test(body)) return undefined;
  const bytes = Buffer.from(body, 'base64url');
  if (bytes.toString('base64url') !== body || bytes.length <= NONCE_BYTES + TAG_BYTES) return undefined;
  const nonce = bytes.subarray(0, NONCE_BYTES);
  const tag = bytes.subarray(bytes.length - TAG_BYTES);
  let plain: Buffer;
  try {
    const decipher = crypto.createDecipheriv('aes-256-gcm', KEY, nonce);
    decipher.setAuthTag(tag);
    plain = Buffer.concat([decipher.update(bytes.subarray(NONCE_BYTES, bytes.length - TAG_BYTES)), decipher.final()]);
  } catch {
    return undefined;
  }
  let value: unknown;
  try {
    value = JSON.parse(plain.toString('utf8'));
  } catch {
    return undefined;
  }
  const record = value as Partial<SealedReasoning> | null;
  if (
    typeof record !== 'object' ||
    record === null ||
    typeof record.id !== 'string' ||
    !Array.isArray(record.summary) ||
    !record.summary.every((text) => typeof text === 'string')
  )
    return undefined;
  return { id: record.id, summary: record.summary };
}
