import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

// npm run package refuses what the Marketplace would, offline: the project's own manifest passes, and each
// thing vsce publish refuses is named.

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { publishProblems } = require('../../scripts/publishChecks.js') as {
  publishProblems: (pkg: Record<string, unknown>, dir: string) => string[];
};

const root = path.resolve(__dirname, '..', '..');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as Record<string, unknown>;

describe('publish checks', () => {
  it('the manifest declares no API proposal and passes every check', () => {
    assert.equal(manifest.enabledApiProposals, undefined);
    assert.deepEqual(publishProblems(manifest, root), []);
  });

  it('names each thing the Marketplace refuses', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loopwire-publish-'));
    fs.writeFileSync(path.join(dir, 'README.md'), '# x\n\n![badge](https://example.com/b.svg)\n');
    const problems = publishProblems(
      { ...manifest, enabledApiProposals: ['portsAttributes'], icon: 'media/icon.svg', activationEvents: ['*'] },
      dir,
    );
    for (const expected of [/enabledApiProposals \(portsAttributes\)/, /not a PNG/, /'\*'/, /SVG image/, /LICENSE/])
      assert.ok(
        problems.some((problem) => expected.test(problem)),
        `${String(expected)} in ${problems.join('\n')}`,
      );
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
