import * as crypto from 'node:crypto';

/** A fresh API-style id such as `resp_0f09a2…`: unique across restarts, since stored ids outlive a process. */
export function newId(prefix: string): string {
  return `${prefix}_${crypto.randomBytes(12).toString('hex')}`;
}
