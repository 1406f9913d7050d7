import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as prettier from 'prettier';
import { execCommand } from '../../../src/cli/exec/execMain';
import type { ExecHost } from '../../../src/cli/exec/execSandbox';
import { BUILTIN_TOOLS } from '../../../src/tools';
import { type GitRepo, gitRepo } from '../agent/review/gitRepo';

// What a model is sent for `/review`, pinned as firstRequest.test.ts pins the others: the first request
// `loopwire exec --dump-request "/review"` prints on a real repository with a change (its commits dated and
// signed alike, so its hashes are the same on every machine), against snapshots/first-request-review.json:
// the review's prompt with the diff, the read-only mode, and tools that only read (no tool that writes).
// To accept a change: UPDATE_SNAPSHOTS=1 npx mocha test/unit/cli/firstRequestReview.test.ts, then read the diff.

const SNAPSHOT = path.join(__dirname, 'snapshots', 'first-request-review.json');
const HOST: ExecHost = {
  stdinTerminal: false,
  stderrTerminal: false,
  support: () => ({ available: false, reason: 'No sandbox in this test.' }),
};
const FIXED_DATE = { GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z', GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z' };

function normalized(text: string, workspace: string): Record<string, unknown> {
  const stable = text
    .split(JSON.stringify(workspace).slice(1, -1))
    .join('/WORKSPACE')
    .replace(/<current_date>\d{4}-\d{2}-\d{2}</g, '<current_date>YYYY-MM-DD<')
    .replace(/<timezone>[^<]*</g, '<timezone>ZONE<')
    .replace(/<shell>[^<]*</g, '<shell>SHELL<')
    .replace(/<os>[^<]*</g, '<os>OS<');
  return { ...(JSON.parse(stable) as Record<string, unknown>), prompt_cache_key: 'SESSION' };
}

describe('cli: the first request of a review (snapshot)', function () {
  this.timeout(20_000);
  const saved = { ...process.env };
  let repo: GitRepo;
  let home: string;
  before(() => {
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'loopwire-first-review-home-'));
    Object.assign(process.env, FIXED_DATE, { HOME: home });
    repo = gitRepo('first-review');
    repo.write('src/cart.js', 'function total(a, b) {\n  return a + b;\n}\n');
    repo.commit('total');
    repo.write('src/cart.js', 'function total(a, b) {\n  return a - b;\n}\n');
  });
  after(() => {
    for (const key of [...Object.keys(FIXED_DATE), 'HOME']) delete process.env[key];
    Object.assign(process.env, saved);
    repo.remove();
    fs.rmSync(home, { recursive: true, force: true });
  });

  it('gpt-5.2-codex: the review prompt with the diff, read-only, tools that only read, as pinned', async () => {
    let stdout = '';
    let stderr = '';
    const io = {
      stdout: (text: string) => void (stdout += text),
      stderr: (text: string) => void (stderr += text),
      readStdin: () => Promise.resolve(''),
    };
    const args = ['--dump-request', '--workspace', repo.dir, '--model', 'gpt-5.2-codex', '--approve', 'all', '/review'];
    const code = await execCommand(args, io, { host: HOST });
    assert.equal(code, 0, stderr);
    const body = normalized(stdout, repo.dir);
    const tools = (body.tools as { name: string }[]).map((tool) => tool.name);
    assert.deepEqual(
      tools.filter((name) => BUILTIN_TOOLS.effect(name) === 'write'),
      [],
      'no tool that writes',
    );
    assert.match(JSON.stringify(body), /<approval_mode>read-only<\/approval_mode>/, '--approve all notwithstanding');
    assert.match(JSON.stringify(body), /- {2}return a \+ b;\\n\+ {2}return a - b;/);
    if (process.env.UPDATE_SNAPSHOTS === '1')
      fs.writeFileSync(SNAPSHOT, await prettier.format(JSON.stringify(body), { parser: 'json', printWidth: 120 }));
    const pinned = JSON.parse(fs.readFileSync(SNAPSHOT, 'utf8')) as unknown;
    assert.deepEqual(body, pinned, `${path.basename(SNAPSHOT)} differs: UPDATE_SNAPSHOTS=1 to accept, then review`);
  });
});
