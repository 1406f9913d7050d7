import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { findPromptFiles } from '../../../src/agent/prompts/promptDiscovery';
import { parsePromptFile } from '../../../src/agent/prompts/promptFile';
import { fillPrompt, promptArguments, promptInputs } from '../../../src/agent/prompts/promptInputs';
import { parseSlash, slashCommands } from '../../../src/agent/prompts/slashCommands';
import type { Skill } from '../../../src/agent/skills/skillDiscovery';

// Prompt files (`.github/prompts/*.prompt.md`, VS Code's format), their `${input:…}` placeholders filled from
// what follows `/name`, and the slash commands' list and parsing (src/agent/prompts): no VS Code, real files.

describe('prompt files: parsing', () => {
  it('reads the front matter’s fields, the name defaulting to the file’s', () => {
    const text =
      "---\ndescription: Fix one\n  failing test\nargument-hint: TEST\nagent: agent\nmodel: GPT-4o\ntools: ['codebase', 'editFiles']\n---\n\nFix ${input:test}.\n";
    assert.deepEqual(parsePromptFile(text, 'fix-test.prompt.md'), {
      name: 'fix-test',
      description: 'Fix one failing test',
      argumentHint: 'TEST',
      agent: 'agent',
      model: 'GPT-4o',
      tools: ['codebase', 'editFiles'],
      body: 'Fix ${input:test}.',
    });
    const other = parsePromptFile('---\nname: other\n---\nGo.', 'x.prompt.md');
    assert.equal('name' in other ? other.name : other.problem, 'other');
  });

  it('takes a file without front matter whole, as the prompt', () => {
    assert.deepEqual(parsePromptFile('Explain this repository.\n', 'explain.prompt.md'), {
      name: 'explain',
      description: '',
      body: 'Explain this repository.',
    });
  });

  it('says what is wrong, never throws: bad YAML, a field of the wrong type, a bad name, an empty body', () => {
    assert.match(problem('---\ndescription: [\n---\nGo.'), /^the front matter is not valid YAML: /);
    assert.equal(problem('---\ntools: 3\n---\nGo.'), 'the field `tools` is not a list of tool names');
    assert.equal(problem('---\nmodel: [a]\n---\nGo.'), 'the field `model` is not text');
    assert.equal(problem('---\n- a\n---\nGo.'), 'the front matter is not a mapping of fields');
    assert.match(problem('---\nname: "a b"\n---\nGo.'), /^the name 'a b' cannot follow a \//);
    assert.equal(problem('---\nname: ok\n---\n\n'), 'the prompt (the text after the front matter) is empty');
  });
});

function problem(text: string): string {
  const parsed = parsePromptFile(text, 'p.prompt.md');
  return 'problem' in parsed ? parsed.problem : 'no problem';
}

describe('prompt files: found in .github/prompts', () => {
  let dir: string;
  before(() => {
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'h-slash-prompts-')));
    const prompts = path.join(dir, '.github/prompts');
    fs.mkdirSync(prompts, { recursive: true });
    fs.writeFileSync(path.join(prompts, 'b.prompt.md'), '---\ndescription: B\n---\nDo b.');
    fs.writeFileSync(path.join(prompts, 'a.prompt.md'), '---\nname: b\ndescription: A named b\n---\nDo a.');
    fs.writeFileSync(path.join(prompts, 'bad.prompt.md'), '---\ntools: 3\n---\nDo.');
    fs.writeFileSync(path.join(prompts, 'notes.md'), 'Not a prompt file.');
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('reads *.prompt.md in name order; a taken name and a bad file are problems naming the file', async () => {
    const found = await findPromptFiles([dir]);
    assert.deepEqual(
      found.prompts.map((prompt) => [prompt.name, prompt.label, prompt.body]),
      [['b', '.github/prompts/a.prompt.md', 'Do a.']],
    );
    assert.deepEqual(found.problems, [
      {
        file: '.github/prompts/b.prompt.md',
        problem: "the name 'b' is already .github/prompts/a.prompt.md's: not used",
      },
      { file: '.github/prompts/bad.prompt.md', problem: 'the field `tools` is not a list of tool names' },
    ]);
  });

  it('finds nothing, and says nothing, where there is no folder', async () => {
    assert.deepEqual(await findPromptFiles([path.join(dir, 'none')]), { prompts: [], problems: [] });
  });
});

describe('prompt files: placeholders', () => {
  const body =
    'Fix ${input:test:the test} in ${input:file}; again ${input:test}. In ${workspaceFolderBasename}: ${file}.';

  it('lists the inputs once each, with their placeholders', () => {
    assert.deepEqual(promptInputs(body), [{ name: 'test', placeholder: 'the test' }, { name: 'file' }]);
  });

  it('fills by name, and the bare words fill the first input left', () => {
    assert.deepEqual(fillPrompt(body, 'file=src/a.js cart total', '/w/shop'), {
      text: 'Fix cart total in src/a.js; again cart total. In shop: ${file}.',
    });
    assert.deepEqual(fillPrompt(body, 'test="the cart" file=\'b c.js\'', '/w/shop'), {
      text: 'Fix the cart in b c.js; again the cart. In shop: ${file}.',
    });
  });

  it('says which inputs nothing filled', () => {
    assert.deepEqual(fillPrompt(body, 'cart', '/w'), { missing: [{ name: 'file' }] });
    assert.deepEqual(fillPrompt(body, '', '/w'), {
      missing: [{ name: 'test', placeholder: 'the test' }, { name: 'file' }],
    });
  });

  it('adds the words no input takes after the prompt, as VS Code adds what follows a prompt’s name', () => {
    assert.deepEqual(fillPrompt('Review ${workspaceFolder}.', 'formName=MyForm only the API', '/w/$&x'), {
      text: 'Review /w/$&x.\n\nformName=MyForm only the API',
    });
    assert.deepEqual(promptArguments('a=1 "b c" d'), { named: new Map([['a', '1']]), bare: ['b c', 'd'] });
  });

  it('keeps a quote inside a word: only a word that starts with one is quoted', () => {
    assert.deepEqual(fillPrompt('Fix ${input:what}.', "the user's cart", '/w'), { text: "Fix the user's cart." });
    assert.deepEqual(promptArguments(`t='a b' "open x=`), {
      named: new Map([
        ['t', 'a b'],
        ['x', ''],
      ]),
      bare: ['"open'],
    });
  });
});

describe('slash commands', () => {
  it('parses /name args, //text and plain text', () => {
    assert.deepEqual(parseSlash('/fix-test  cart  total '), { name: 'fix-test', args: 'cart  total' });
    assert.deepEqual(parseSlash('/init'), { name: 'init', args: '' });
    assert.deepEqual(parseSlash('//init the repo'), { literal: '/init the repo' });
    assert.equal(parseSlash('/usr/bin/node crashes'), undefined);
    assert.equal(parseSlash('fix /init'), undefined);
  });

  it('lists the built-ins, then the prompt files, then the skills, each name once', () => {
    const prompt = (name: string) => ({ name, description: `p ${name}`, body: 'x', label: `${name}.prompt.md` });
    const skill = (name: string) => ({ name, description: `s ${name}` }) as Skill;
    const commands = slashCommands([prompt('plan'), prompt('fix')], [skill('fix'), skill('notes')]);
    assert.deepEqual(commands.map((command) => `${command.kind} /${command.name}: ${command.description}`).slice(6), [
      'builtin /help: List the slash commands',
      'prompt /fix: p fix',
      'skill /notes: s notes',
    ]);
    assert.deepEqual(
      commands.slice(0, 6).map((command) => command.name),
      ['new', 'compact', 'plan', 'review', 'init', 'skills'],
    );
  });
});
