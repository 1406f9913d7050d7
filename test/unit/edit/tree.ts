import * as fs from 'node:fs';
import * as path from 'node:path';

/** Every file under `dir` (relative paths with `/`, sorted) and its bytes; empty if `dir` does not exist. */
export function readTree(dir: string): Map<string, Buffer> {
  const tree = new Map<string, Buffer>();
  if (!fs.existsSync(dir)) return tree;
  const walk = (sub: string) => {
    for (const entry of fs.readdirSync(path.join(dir, sub), { withFileTypes: true })) {
      const relative = sub ? `${sub}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(relative);
      else tree.set(relative, fs.readFileSync(path.join(dir, relative)));
    }
  };
  walk('');
  return new Map([...tree].sort(([a], [b]) => a.localeCompare(b)));
}

/** UTF-8 text exactly as stored: a BOM stays U+FEFF. */
export function decode(bytes: Buffer): string {
  return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
}
