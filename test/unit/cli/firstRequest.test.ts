import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as prettier from 'prettier';
import { execCommand } from '../../../src/cli/exec/execMain';
import type { ExecHost } from '../../../src/cli/exec/execSandbox';

// What a real model is told, pinned: the first request `loopwire exec --dump-request` prints — instructions,
// tools, context items and fields — for a Codex model, a GPT-5.x model and a model the catalogue does not
// know, against committed snapshots (snapshots/first-request-MODEL.json). A change to any of it fails here
// and shows up as a reviewed diff of the snapshot. What differs by machine and day (the folder, the date,
// the zone, the shell, the OS, the session id) is replaced by a placeholder first.
//
// The machine's sandbox is given, not probed, so that the snapshots are the same everywhere: the three
// models' requests where commands cannot be confined (no escalation parameters, no <sandbox_mode>), and
// a Codex model's in `auto` where they can (first-request-gpt-5.2-codex-auto.json).
//
// A workspace holding a skill adds the skills message and the instructions' Skills section
// (first-request-gpt-5.2-codex-skills.json); the others have none, and the home folder is an empty one of the
// test's, so that the user's own skills never reach a snapshot.
//
// A custom agent chosen with --agent adds its body at the end of the instructions and narrows the tools
// (first-request-gpt-5.2-codex-agent.json); without one the instructions are as before.
//
// To accept a change: UPDATE_SNAPSHOTS=1 npx mocha test/unit/cli/firstRequest.test.ts, then read the diff.

const SNAPSHOTS = path.join(__dirname, 'snapshots');
const MODELS = ['gpt-5.2-codex', 'gpt-5.2', 'some-model'];

const NO_SANDBOX: ExecHost = {
  stdinTerminal: false,
  stderrTerminal: false,
  support: () => ({ available: false, reason: 'No sandbox in this test.' }),
};
const BWRAP: ExecHost = {
  ...NO_SANDBOX,
  support: () => ({ available: true, mechanism: 'bwrap', program: '/usr/bin/bwrap' }),
};

/** `--dump-request`'s stdout for `model` on `workspace`, with the exit code and stderr. */
async function dump(
  model: string,
  workspace: string,
  extra: string[] = [],
  host: ExecHost = NO_SANDBOX,
): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io = {
    stdout: (text: string) => void (stdout += text),
    stderr: (text: string) => void (stderr += text),
    readStdin: () => Promise.resolve(''),
  };
  const args = ['--dump-request', '--workspace', workspace, '--model', model];
  const approve = extra.includes('--approve') ? [] : ['--approve', 'ask'];
  const code = await execCommand([...args, ...approve, ...extra, 'Fix the failing test.'], io, { host });
  return { code, stdout, stderr };
}

/** The body with what varies by machine, day and run replaced by placeholders. */
function normalized(text: string, workspace: string): unknown {
  const stable = text
    .split(JSON.stringify(workspace).slice(1, -1))
    .join('/WORKSPACE')
    .replace(/<current_date>\d{4}-\d{2}-\d{2}</g, '<current_date>YYYY-MM-DD<')
    .replace(/<timezone>[^<]*</g, '<timezone>ZONE<')
    .replace(/<shell>[^<]*</g, '<shell>SHELL<')
    .replace(/<os>[^<]*</g, '<os>OS<');
  const body = JSON.parse(stable) as Record<string, unknown>;
  return { ...body, prompt_cache_key: 'SESSION' };
}

describe('cli: the first request a model is sent (snapshots)', function () {
  this.timeout(20_000);
  let workspace: string;
  let home: string;
  const savedHome = process.env.HOME;
  before(() => {
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'loopwire-first-request-home-'));
    process.env.HOME = home;
    workspace = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'loopwire-first-request-')));
    fs.mkdirSync(path.join(workspace, '.git'));
    fs.writeFileSync(path.join(workspace, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    fs.writeFileSync(path.join(workspace, 'AGENTS.md'), 'Run the tests with npm test.\n');
    fs.writeFileSync(path.join(workspace, 'package.json'), '{ "scripts": { "test": "node --test" } }\n');
  });
  after(() => {
    process.env.HOME = savedHome;
    fs.rmSync(workspace, { recursive: true, force: true });
    fs.rmSync(home, { recursive: true, force: true });
  });

  /** The dump of `model` against its snapshot `name` (written first with UPDATE_SNAPSHOTS=1). */
  async function assertPinned(name: string, model: string, extra: string[] = [], host?: ExecHost) {
    const result = await dump(model, workspace, extra, host);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout.split('\n').length, 2, 'one line of JSON on stdout, nothing else');
    const body = normalized(result.stdout, workspace);
    const file = path.join(SNAPSHOTS, `first-request-${name}.json`);
    if (process.env.UPDATE_SNAPSHOTS === '1') {
      fs.mkdirSync(SNAPSHOTS, { recursive: true });
      fs.writeFileSync(file, await prettier.format(JSON.stringify(body), { parser: 'json', printWidth: 120 }));
    }
    const pinned = JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;
    assert.deepEqual(body, pinned, `${path.basename(file)} differs: UPDATE_SNAPSHOTS=1 to accept, then review`);
  }

  for (const model of MODELS)
    it(`${model}: instructions, tools, context items and fields as pinned`, () => assertPinned(model, model));

  it('gpt-5.2-codex in auto where commands are confined: the sandbox, its way out and its instructions, as pinned', () =>
    assertPinned('gpt-5.2-codex-auto', 'gpt-5.2-codex', ['--approve', 'auto'], BWRAP));

  it('gpt-5.2-codex with a skill in the workspace: the skills message after the project instructions, the Skills section, as pinned', async () => {
    const skill = path.join(workspace, '.agents', 'skills', 'fix-tests');
    fs.mkdirSync(skill, { recursive: true });
    fs.writeFileSync(
      path.join(skill, 'SKILL.md'),
      '---\nname: fix-tests\ndescription: Finds and fixes a failing test, smallest change first.\n---\n\n1. Run the one test.\n',
    );
    try {
      await assertPinned('gpt-5.2-codex-skills', 'gpt-5.2-codex');
    } finally {
      fs.rmSync(path.join(workspace, '.agents'), { recursive: true, force: true });
    }
  });

  it('gpt-5.2-codex as a custom agent (--agent): its body after the standing instructions, its tools, as pinned', async () => {
    const agents = path.join(workspace, '.github', 'agents');
    fs.mkdirSync(agents, { recursive: true });
    fs.writeFileSync(
      path.join(agents, 'reviewer.agent.md'),
      "---\ndescription: Reviews the change\ntools: ['search', 'read', 'runCommands']\n---\n\nReview only: report findings by file and line.\n",
    );
    try {
      await assertPinned('gpt-5.2-codex-agent', 'gpt-5.2-codex', ['--agent', 'reviewer']);
    } finally {
      fs.rmSync(path.join(workspace, '.github'), { recursive: true, force: true });
    }
  });

  it('contacts no endpoint and needs no key: --endpoint names one where nothing listens', async () => {
    const key = process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_API_KEY;
    try {
      const result = await dump('gpt-5.2', workspace, ['--endpoint', 'http://127.0.0.1:9/v1', '--transport', 'ws']);
      assert.equal(result.code, 0, result.stderr);
      assert.deepEqual(
        normalized(result.stdout, workspace),
        JSON.parse(fs.readFileSync(path.join(SNAPSHOTS, 'first-request-gpt-5.2.json'), 'utf8')),
        'the same body as on the embedded backend',
      );
    } finally {
      if (key !== undefined) process.env.OPENAI_API_KEY = key;
    }
  });

  it('names each model’s own output budget in max_output_tokens: 5000 for gpt-4o (a 128k window), 10000 for gpt-5.2', async () => {
    /** `max_output_tokens`' description in each tool that takes it, by tool name. */
    const budgets = async (model: string) => {
      const result = await dump(model, workspace);
      assert.equal(result.code, 0, result.stderr);
      const body = JSON.parse(result.stdout) as {
        tools: { name: string; parameters?: { properties?: Record<string, { description?: string }> } }[];
      };
      return Object.fromEntries(
        body.tools.flatMap((tool) => {
          const described = tool.parameters?.properties?.max_output_tokens?.description;
          return described === undefined ? [] : [[tool.name, described]];
        }),
      );
    };
    assert.deepEqual(await budgets('gpt-4o'), {
      exec_command: 'Tokens of output kept (default 5000).',
      write_stdin: 'Tokens of output kept (default 5000).',
    });
    assert.deepEqual(await budgets('gpt-5.2'), {
      exec_command: 'Tokens of output kept (default 10000).',
      write_stdin: 'Tokens of output kept (default 10000).',
    });
  });

  it('is what Done means for issue 36: effort medium, the environment item, only offered tools named', () => {
    const body = JSON.parse(fs.readFileSync(path.join(SNAPSHOTS, 'first-request-gpt-5.2-codex.json'), 'utf8')) as {
      reasoning: { effort: string };
      tools: { name: string }[];
      input: { role: string; content: { text: string }[] }[];
    };
    assert.equal(body.reasoning.effort, 'medium');
    const texts = body.input.map((item) => item.content[0]?.text ?? '');
    assert.ok(texts.some((text) => text.startsWith('<environment_context>')));
    const offered = new Set(body.tools.map((tool) => tool.name));
    for (const name of ['edit_file', 'write_file', 'get_diagnostics']) {
      assert.ok(!offered.has(name), name);
      assert.ok(!texts[0]?.includes(name), `the instructions name ${name}, which is not offered`);
    }
  });
});
