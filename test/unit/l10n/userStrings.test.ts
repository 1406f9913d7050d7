import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { repoRoot } from '../support/runProcess';
import { untranslatedIn } from './userFacing';

// Every string the user reads in the editor or the panel goes through l10n (vscode.l10n.t in the extension,
// t() in the page and in the extension's vscode-free files): a literal where VS Code or the page shows text
// fails here, unless it is one of the few below, each with its reason. Text for the model, log lines and
// command ids stand where no text is shown, and are not looked at.

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { tsFiles } = require('../../../scripts/lib/l10nKeys.js') as { tsFiles: (dir: string) => string[] };

/** Literals that stay as written, by file and text (`…` for each `${}`), with why. */
const ALLOWED: { file: string; text: string; why: string }[] = [
  { file: 'src/extension/notifications/statusItem.ts', text: '$(plug) Loopwire', why: 'the product name and an icon' },
  {
    file: 'src/extension/notifications/statusItem.ts',
    text: '$(plug) Loopwire: …',
    why: 'the name before a translated state',
  },
  {
    file: 'src/extension/notifications/statusItem.ts',
    text: '$(plug) Loopwire: … · … ms',
    why: 'name, transport, a figure',
  },
  { file: 'src/extension/notifications/statusItem.ts', text: 'WebSocket', why: 'a protocol’s name' },
  { file: 'src/extension/notifications/statusItem.ts', text: 'HTTP', why: 'a protocol’s name' },
  { file: 'src/extension/endpoint/selectEndpoint.ts', text: 'OpenAI', why: 'a company’s name' },
  { file: 'src/extension/endpoint/setApiKey.ts', text: 'sk-…', why: 'the shape of an OpenAI key' },
  {
    file: 'src/extension/endpoint/endpointCommands.ts',
    text: 'Loopwire: …',
    why: 'the name before the check’s sentence',
  },
  { file: 'src/extension/inline/inlineController.ts', text: 'Loopwire: …', why: 'the name before a message' },
];

describe('l10n: no user-facing literal skips l10n in src/extension and src/webview', () => {
  const files = ['src/extension', 'src/webview'].flatMap((root) => tsFiles(path.join(repoRoot, root)));
  const findings = files.flatMap((file) => untranslatedIn(file, repoRoot));
  const fileOf = (where: string) => where.replace(/:\d+$/, '');

  it('finds none outside the allowed few', () => {
    const allowed = (finding: { where: string; text: string }) =>
      ALLOWED.some((entry) => entry.file === fileOf(finding.where) && entry.text === finding.text);
    assert.deepEqual(
      findings
        .filter((finding) => !allowed(finding))
        .map((finding) => `${finding.where} ${JSON.stringify(finding.text)}`),
      [],
    );
  });

  it('each allowed literal is still there (the list does not outlive its reason)', () => {
    for (const entry of ALLOWED)
      assert.ok(
        findings.some((finding) => fileOf(finding.where) === entry.file && finding.text === entry.text),
        `${entry.file}: ${JSON.stringify(entry.text)} is gone; drop it from ALLOWED`,
      );
  });

  it('catches what it is for: a message, a button, a title, a label table, a text node', () => {
    const probe = path.join(repoRoot, 'test/fixtures/l10n/src/webview/untranslated.ts');
    const texts = untranslatedIn(probe, path.join(repoRoot, 'test/fixtures/l10n')).map((finding) => finding.text);
    assert.deepEqual(texts.sort(), [
      'Close',
      'Deleted',
      'Open the file',
      'Saved … files',
      'Something went wrong',
      'Stopped.',
    ]);
  });
});
