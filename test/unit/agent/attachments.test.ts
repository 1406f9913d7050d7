import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import {
  ATTACHMENT_MAX_BYTES,
  AttachmentError,
  attachmentOfPart,
  attachmentParts,
  gitChanges,
} from '../../../src/agent';
import type { Attachment } from '../../../src/protocol';
import { NodeWorkspace } from '../../../src/workspace/node/nodeWorkspace';
import { type TempWorkspace, tempWorkspace } from '../support/tempWorkspace';

// What the user attaches to a prompt, as the model gets it: one labelled part each, read through the
// Workspace port, capped with the cut said; and read back from a transcript as the chip it was.

describe('agent: attachments', () => {
  let temp: TempWorkspace;
  let workspace: NodeWorkspace;
  beforeEach(async () => {
    temp = await tempWorkspace({
      'src/cart.js': 'line 1\nline 2\nline 3\nline 4\n',
      'src/lib/tax.js': 'export const rate = 0.2;\n',
      'src/ignored.log': 'noise\n',
      '.gitignore': '*.log\n',
      'notes/a"b.md': 'quoted\n',
    });
    workspace = await NodeWorkspace.open(temp.dir);
  });
  afterEach(() => temp.remove());

  const texts = async (attachments: Attachment[], options = {}) =>
    (await attachmentParts(attachments, { workspace }, options)).map((part) => part.text);

  it('labels a file with its path, and a selection with its exact line range', async () => {
    assert.deepEqual(
      await texts([
        { kind: 'file', path: 'src/cart.js' },
        { kind: 'file', path: 'src/cart.js', lines: { start: 2, end: 3 } },
      ]),
      [
        '<attachment kind="file" path="src/cart.js">\nline 1\nline 2\nline 3\nline 4\n</attachment>',
        '<attachment kind="file" path="src/cart.js" lines="2-3">\nline 2\nline 3\n</attachment>',
      ],
    );
  });

  it('lists a folder’s files as .gitignore leaves them, capped', async () => {
    const [listing] = await texts([{ kind: 'folder', path: 'src' }]);
    assert.equal(
      listing,
      '<attachment kind="folder" path="src">\nThe folder\'s files (2):\nsrc/cart.js\nsrc/lib/tax.js\n</attachment>',
    );
    const [capped] = await texts([{ kind: 'file', path: 'src' }], { caps: { folderFiles: 1 } });
    assert.match(
      capped ?? '',
      /^<attachment kind="file" path="src">\nThe folder's files \(2\):\nsrc\/cart\.js\n… 1 of 2 files listed\n/,
    );
  });

  it('cuts a large file at 32 KiB, on a line’s end, and says the cut', async () => {
    const line = `${'x'.repeat(99)}\n`;
    await temp.write('big.txt', line.repeat(1229)); // 122,900 bytes
    const [text] = await texts([{ kind: 'file', path: 'big.txt' }]);
    const body = (text ?? '').split('\n').slice(1, -2).join('\n');
    assert.ok(body.length <= ATTACHMENT_MAX_BYTES && body.length > ATTACHMENT_MAX_BYTES - 200, String(body.length));
    assert.match(
      text ?? '',
      /\n… cut at 31\.9 KiB of 120 KiB: an attachment is capped at 32 KiB; read the rest with the tools if needed\n<\/attachment>$/,
    );
  });

  it('caps all of a prompt’s attachments together: the later ones are cut, then left out', async () => {
    await temp.write('a.txt', 'a'.repeat(3000));
    await temp.write('b.txt', 'b'.repeat(3000));
    await temp.write('c.txt', 'c'.repeat(3000));
    const [a, b, c] = await texts(
      [
        { kind: 'file', path: 'a.txt' },
        { kind: 'file', path: 'b.txt' },
        { kind: 'file', path: 'c.txt' },
      ],
      { caps: { each: 2048, total: 3072 } },
    );
    assert.equal(
      a,
      `<attachment kind="file" path="a.txt">\n${'a'.repeat(2048)}\n… cut at 2 KiB of 2.9 KiB: an attachment is capped at 2 KiB; read the rest with the tools if needed\n</attachment>`,
    );
    assert.match(
      b ?? '',
      /^<attachment kind="file" path="b\.txt">\nb{1024}\n… cut at 1 KiB of 2\.9 KiB: a prompt's attachments are capped at 3 KiB in all;/,
    );
    assert.equal(
      c,
      `<attachment kind="file" path="c.txt">\n… left out (2.9 KiB): a prompt's attachments are capped at 3 KiB in all\n</attachment>`,
    );
  });

  it('never cuts a character in two', async () => {
    await temp.write('wide.txt', 'é'.repeat(2000)); // 4,000 bytes, no newline
    const [text] = await texts([{ kind: 'file', path: 'wide.txt' }], { caps: { each: 1001 } });
    assert.match(text ?? '', /^<attachment kind="file" path="wide\.txt">\né{500}\n… cut at 1000 bytes of 3\.9 KiB/);
  });

  it('refuses a path outside the workspace when strict, and says why in the part when not', async () => {
    await assert.rejects(
      attachmentParts([{ kind: 'file', path: '../secret.txt' }], { workspace }, { strict: true }),
      (error: unknown) =>
        error instanceof AttachmentError && error.code === 'outside_workspace' && error.label === '../secret.txt',
    );
    const [missing] = await texts([{ kind: 'file', path: 'gone.js' }]);
    assert.match(
      missing ?? '',
      /^<attachment kind="file" path="gone\.js">\n\(not attached: .*gone\.js.*\)\n<\/attachment>$/,
    );
  });

  it('says what the terminal, problems and changes sources hold, or that there are none', async () => {
    const parts = await attachmentParts([{ kind: 'terminal' }, { kind: 'problems' }, { kind: 'changes' }], {
      workspace,
      terminal: () => Promise.resolve(undefined),
      changes: () => Promise.resolve(undefined),
    });
    assert.deepEqual(
      parts.map((part) => part.text),
      [
        '<attachment kind="terminal">\nNo command has run in the Loopwire terminal yet.\n</attachment>',
        '<attachment kind="problems">\nNo language services here report problems.\n</attachment>',
        '<attachment kind="changes">\nThe workspace is not in a git repository: there are no changes to show.\n</attachment>',
      ],
    );
    const [terminal] = await attachmentParts([{ kind: 'terminal' }], {
      workspace,
      terminal: () => Promise.resolve({ command: 'npm test', output: '1 failing\n', exitCode: 1 }),
    });
    assert.equal(terminal?.text, '<attachment kind="terminal">\n$ npm test (exit code 1)\n1 failing\n</attachment>');
  });

  it('lists the workspace’s problems, errors first, each with where it is', async () => {
    const withProblems = Object.create(workspace) as NodeWorkspace;
    Object.defineProperty(withProblems, 'capabilities', { value: { diagnostics: true, tasks: false } });
    withProblems.diagnostics = () =>
      Promise.resolve([
        { path: 'src/cart.js', line: 3, column: 1, severity: 'warning', message: 'Unused variable.' },
        {
          path: 'config/shipping.json',
          line: 3,
          column: 28,
          severity: 'error',
          source: 'json',
          message: 'Value expected',
        },
      ]);
    const [problems] = await attachmentParts([{ kind: 'problems' }], { workspace: withProblems });
    assert.equal(
      problems?.text,
      '<attachment kind="problems">\nconfig/shipping.json:3:28 error [json]: Value expected\nsrc/cart.js:3:1 warning: Unused variable.\n</attachment>',
    );
    withProblems.diagnostics = () => Promise.resolve([]);
    const [none] = await attachmentParts([{ kind: 'problems' }], { workspace: withProblems });
    assert.equal(none?.text, '<attachment kind="problems">\nNo problems in the workspace.\n</attachment>');
  });

  it('reads git’s changes of the working tree, untracked files included', async function () {
    this.timeout(10_000);
    const git = (...args: string[]) => execFileSync('git', args, { cwd: temp.dir, stdio: 'pipe' });
    git('init', '-q');
    git('-c', 'user.name=t', '-c', 'user.email=t@t', 'add', 'src/cart.js');
    git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'first');
    await temp.write('src/cart.js', 'line 1\nline two\nline 3\nline 4\n');
    const diff = (await gitChanges(temp.dir)) ?? '';
    assert.match(diff, /^\$ git status --short\n M src\/cart\.js\n\?\? \.gitignore\n/);
    assert.match(diff, /\n\$ git diff HEAD\ndiff --git a\/src\/cart\.js b\/src\/cart\.js\n[^]*\n-line 2\n\+line two\n/);
  });

  it('reads git’s changes of a hostile repository without running the programs its config names', async function () {
    this.timeout(10_000);
    const git = (...args: string[]) => execFileSync('git', args, { cwd: temp.dir, stdio: 'pipe' });
    git('init', '-q');
    git('-c', 'user.name=t', '-c', 'user.email=t@t', 'add', 'src/cart.js');
    git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'first');
    await temp.write('src/cart.js', 'line 1\nline two\nline 3\nline 4\n');
    const ran = temp.path('ran');
    // Plain `git status` would start the fsmonitor hook, plain `git diff` the textconv filter.
    git('config', 'core.fsmonitor', `touch ${ran}-fsmonitor; false`);
    git('config', 'diff.x.textconv', `sh -c 'touch ${ran}-textconv; cat "$0"'`);
    await temp.write('.gitattributes', 'src/* diff=x\n');
    const diff = (await gitChanges(temp.dir)) ?? '';
    assert.match(diff, /\n-line 2\n\+line two\n/);
    assert.ok(!fs.existsSync(`${ran}-fsmonitor`), 'the fsmonitor hook ran');
    assert.ok(!fs.existsSync(`${ran}-textconv`), 'the textconv filter ran');
    // A clean filter has no off switch: the config is not read with at all, and the attachment says why.
    git('config', 'filter.y.clean', `sh -c 'touch ${ran}-clean; cat'`);
    await temp.write('.gitattributes', 'src/* filter=y\n');
    const refused = (await gitChanges(temp.dir)) ?? '';
    assert.match(refused, /^\(git's changes were not read: /);
    assert.ok(!fs.existsSync(`${ran}-clean`), 'the clean filter ran');
  });

  it('reads each part back as the attachment it carries, quotes and all', async () => {
    const attachments: Attachment[] = [
      { kind: 'file', path: 'notes/a"b.md' },
      { kind: 'file', path: 'src/cart.js', lines: { start: 2, end: 3 } },
      { kind: 'folder', path: 'src' },
      { kind: 'problems' },
      { kind: 'terminal' },
      { kind: 'changes' },
    ];
    const parts = await attachmentParts(attachments, { workspace });
    assert.deepEqual(
      parts.map((part) => attachmentOfPart(part.text)),
      attachments,
    );
    assert.equal(attachmentOfPart('<attachment of my own making>\n'), undefined);
    assert.equal(attachmentOfPart('Fix the failing test.'), undefined);
  });
});
