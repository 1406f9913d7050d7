import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { execCommand } from '../../../src/cli/exec/execMain';
import type { ExecHost } from '../../../src/cli/exec/execSandbox';

// `loopwire exec "/name args"` in-process, with --dump-request where a request is built: a prompt file's body,
// its inputs filled, is the prompt, its model the request's (unless --model), its tools narrow those offered;
// `/skill` names the skill; `/plan` plans; `//text` is the text; an unknown command, a missing input and a
// command exec cannot run are exit 2 with nothing on stdout; `/skills` and `/help` print and send nothing.

const HOST: ExecHost = {
  stdinTerminal: false,
  stderrTerminal: false,
  support: () => ({ available: false, reason: 'No sandbox in this test.' }),
};

interface Body {
  model: string;
  tools: { name?: string }[];
  input: { role: string; content: string | { text: string }[] }[];
}
const textOf = (item: Body['input'][number] | undefined) =>
  typeof item?.content === 'string' ? item.content : (item?.content[0]?.text ?? '');

function write(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

describe('cli: loopwire exec "/name args"', function () {
  this.timeout(10_000);
  let base: string;
  let workspace: string;
  const savedHome = process.env.HOME;
  before(() => {
    base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'h-slash-exec-')));
    workspace = path.join(base, 'shop');
    write(
      path.join(workspace, '.github/prompts/fix-test.prompt.md'),
      "---\ndescription: Fix one failing test\nargument-hint: TEST file=PATH\nmodel: GPT-4o (copilot)\ntools: ['codebase', 'editFiles', 'fetch', 'fetch']\n---\nFix ${input:test:the test's name} in ${input:file}, in ${workspaceFolderBasename}.\n",
    );
    write(path.join(workspace, '.github/prompts/broken.prompt.md'), '---\ntools: 3\n---\nGo.\n');
    write(
      path.join(workspace, '.agents/skills/fix-tests/SKILL.md'),
      '---\nname: fix-tests\ndescription: Finds and fixes a failing test.\n---\nRun the one test.\n',
    );
    fs.mkdirSync(path.join(base, 'home'));
    process.env.HOME = path.join(base, 'home');
  });
  after(() => {
    process.env.HOME = savedHome;
    fs.rmSync(base, { recursive: true, force: true });
  });

  async function exec(prompt: string, ...flags: string[]) {
    let stdout = '';
    let stderr = '';
    const io = {
      stdout: (text: string) => void (stdout += text),
      stderr: (text: string) => void (stderr += text),
      readStdin: () => Promise.resolve(''),
    };
    const args = ['--workspace', workspace, '--approve', 'read-only', ...flags, prompt];
    const code = await execCommand(args, io, { host: HOST });
    return { code, stdout, stderr };
  }
  const dump = async (prompt: string, ...flags: string[]) => {
    const result = await exec(prompt, '--dump-request', ...flags);
    assert.equal(result.code, 0, result.stderr);
    return { body: JSON.parse(result.stdout) as Body, stderr: result.stderr };
  };
  const lastText = (body: Body) => textOf(body.input[body.input.length - 1]);

  it('sends a prompt file’s body filled, with its model, and only its tools (the unknown said once)', async () => {
    const { body, stderr } = await dump('/fix-test cart total file=src/cart.js');
    assert.equal(lastText(body), 'Fix cart total in src/cart.js, in shop.');
    assert.equal(body.model, 'gpt-4o');
    assert.deepEqual(body.tools.map((tool) => tool.name).sort(), ['apply_patch', 'find_files', 'search_text']);
    assert.equal(
      stderr,
      '(prompt file not used: .github/prompts/broken.prompt.md: the field `tools` is not a list of tool names)\n' +
        "(prompt file tools: 'fetch' is no tool of Loopwire's: left out)\n",
    );
    assert.match(textOf(body.input[0]), /`search_text`/);
    assert.doesNotMatch(textOf(body.input[0]), /`exec_command`/, 'the instructions name only the tools offered');
  });

  it('an explicit --model wins over the prompt file’s', async () => {
    const { body } = await dump('/fix-test cart file=a.js', '--model', 'gpt-5.2-codex');
    assert.equal(body.model, 'gpt-5.2-codex');
  });

  it('a missing input is exit 2 naming it, and nothing is built or sent', async () => {
    const result = await exec('/fix-test file=a.js', '--dump-request');
    assert.equal(result.code, 2);
    assert.equal(result.stdout, '');
    assert.match(
      result.stderr,
      /loopwire exec: \/fix-test \(\.github\/prompts\/fix-test\.prompt\.md\) needs a value for test \(the test's name\): give it as test=VALUE/,
    );
  });

  it('an unknown command is exit 2 naming those that exist; //text sends /text', async () => {
    const unknown = await exec('/deploy now', '--dump-request');
    assert.equal(unknown.code, 2);
    assert.equal(unknown.stdout, '');
    assert.match(
      unknown.stderr,
      /unknown command \/deploy: the commands here are \/new, \/compact, \/plan, \/review, \/init, \/skills, \/help, \/fix-test, \/fix-tests \(/,
    );
    const { body } = await dump('//deploy now');
    assert.equal(lastText(body), '/deploy now');
  });

  it('/skill args names the skill as $skill does; /plan runs its prompt in plan mode', async () => {
    const skill = await dump('/fix-tests the cart');
    assert.equal(textOf(skill.body.input[skill.body.input.length - 2]), '$fix-tests the cart');
    assert.match(lastText(skill.body), /^<skill name="fix-tests"/);
    const plan = await dump('/plan add a --dry-run flag');
    assert.equal(lastText(plan.body), 'add a --dry-run flag');
    assert.ok(plan.body.input.some((item) => textOf(item).includes('<approval_mode>plan</approval_mode>')));
  });

  it('/skills and /help print, exit 0 and send nothing; /new, /compact without --resume are exit 2 here, /review where there is no repository', async () => {
    const skills = await exec('/skills');
    assert.equal(skills.code, 0, skills.stderr);
    assert.equal(skills.stdout, 'fix-tests: Finds and fixes a failing test. (.agents/skills/fix-tests/SKILL.md)\n');
    const help = await exec('/help');
    assert.equal(help.code, 0);
    assert.match(
      help.stdout,
      /\n {2}\/fix-test +Fix one failing test — TEST file=PATH \(\.github\/prompts\/fix-test\.prompt\.md\)\n/,
    );
    assert.match(help.stdout, /\n {2}\/review +Review the current changes and report findings by file and line\n/);
    assert.match(help.stdout, /\n {2}\/new +.* \(not in loopwire exec yet\)\n/);
    assert.doesNotMatch(help.stdout, /\/compact .*not in loopwire exec/);
    assert.equal((await exec('/prompts')).stdout, help.stdout);
    const fresh = await exec('/new');
    assert.equal(fresh.code, 2);
    assert.match(fresh.stderr, /\/new is not available in loopwire exec yet/);
    const compact = await exec('/compact');
    assert.equal(compact.code, 2);
    assert.match(compact.stderr, /\/compact compacts a kept session: give it with --resume FILE/);
    const review = await exec('/review');
    assert.equal(review.code, 2);
    assert.equal(review.stdout, '');
    assert.match(review.stderr, /\/review: .* is not in a git repository, so there are no changes to review/);
  });

  // A repository's text on the terminal: an escape sequence in a description or a folder's name (an OSC 52
  // one fills the clipboard) reached it as written.
  it('/help, /skills and the lines about files not used print no control character of the repository’s', async () => {
    const added = [
      path.join(workspace, '.github/prompts/esc.prompt.md'),
      path.join(workspace, '.agents/skills/esc-skill/SKILL.md'),
      path.join(workspace, '.agents/skills/e\u001b[31mx/SKILL.md'),
      path.join(workspace, '.github/agents/a\u001b[2Kb.agent.md'),
    ];
    const [prompt, skill, misnamed, agent] = added as [string, string, string, string];
    write(prompt, '---\ndescription: "Clip\\e]52;c;Zm9v\\a it"\nargument-hint: "H\\e[2K"\n---\nGo.\n');
    write(skill, '---\nname: esc-skill\ndescription: "Red\\e[31m text"\n---\nBody.\n');
    write(misnamed, '---\nname: bad\ndescription: d\n---\n');
    write(agent, '---\ntools: 3\n---\nBody.\n');
    try {
      const help = await exec('/help');
      const skills = await exec('/skills');
      const run = await exec('hello', '--dump-request');
      const printed = help.stdout + help.stderr + skills.stdout + skills.stderr + run.stderr;
      // eslint-disable-next-line no-control-regex
      assert.doesNotMatch(printed, /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
      assert.match(help.stdout, /\/esc +Clip\]52;c;Zm9v it — H\[2K/);
      assert.match(skills.stdout, /esc-skill: Red\[31m text/);
      assert.match(skills.stderr, /skill not used: \.agents\/skills\/e\[31mx\/SKILL\.md/);
      assert.match(run.stderr, /custom agent not used: .*a\[2Kb\.agent\.md/);
    } finally {
      for (const file of [prompt, agent]) fs.rmSync(file);
      for (const file of [skill, misnamed]) fs.rmSync(path.dirname(file), { recursive: true });
    }
  });
});
