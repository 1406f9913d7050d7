import * as fs from 'node:fs/promises';
import * as path from 'node:path';

// The workspace every adapter is tested on, written byte for byte (CRLF, a BOM, a binary file, a symlink
// that leads out), so that the same inputs must give the same outputs whichever adapter reads it.

export const CONTRACT_FILES: Readonly<Record<string, string | Buffer>> = {
  '.gitignore': 'dist/\n*.log\n',
  'package.json':
    JSON.stringify(
      { name: 'contract', scripts: { ok: 'node -e "console.log(42)"', fail: 'node -e "process.exit(3)"' } },
      null,
      2,
    ) + '\n',
  'src/app.ts':
    "import { greet } from './greet';\n\nexport function main(): void {\n  console.log(greet('world'));\n}\n",
  'src/greet.ts': 'export function greet(name: string): string {\n  return `Hello, ${name}!`;\n}\n',
  'src/crlf.txt': 'first line\r\nsecond line\r\nthird line\r\n',
  'src/bom.ts': '\uFEFFexport const withBom = true;\n',
  'src/nested/deep.ts': 'export const deep = 1; // TODO: greet deeper\n',
  'docs/readme.md': '# Contract\n\nGreet people politely.\n',
  'assets/logo.bin': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0x02, 0x67, 0x72, 0x65, 0x65, 0x74]),
  'dist/bundle.js': 'function greet(){}\n',
  'debug.log': 'greet failed\n',
};

/** Writes the contract workspace into `dir` (which must be empty or absent); `outside` receives the link's target. */
export async function writeContractFixture(dir: string, outside: string): Promise<void> {
  for (const [rel, content] of Object.entries(CONTRACT_FILES)) {
    const file = path.join(dir, ...rel.split('/'));
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, content);
  }
  await fs.mkdir(outside, { recursive: true });
  await fs.writeFile(path.join(outside, 'secret.txt'), 'outside the workspace\n');
  await fs.symlink(outside, path.join(dir, 'escape'), 'dir');
  await fs.mkdir(path.join(dir, '.git'), { recursive: true });
  await fs.writeFile(path.join(dir, '.git', 'HEAD'), 'ref: refs/heads/main\n');
}
