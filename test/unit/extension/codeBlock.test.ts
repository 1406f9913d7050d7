import * as assert from 'node:assert/strict';
import { codeBlock } from '../../../src/extension/commands/codeBlock';

// The code blocks of Explain Selection's and Fix with Loopwire's prompts.

describe('extension: code in a prompt', () => {
  it('is fenced by three backticks, tagged with its language', () => {
    assert.equal(codeBlock('let a = 1;', 'javascript'), '```javascript\nlet a = 1;\n```');
    assert.equal(codeBlock('   3 | "a": 1,,'), '```\n   3 | "a": 1,,\n```');
  });

  it('by more backticks than any run inside it, so the code cannot close it early', () => {
    const text = 'const md = `\n```js\nx\n```\n`;';
    assert.equal(codeBlock(text, 'js'), `\`\`\`\`js\n${text}\n\`\`\`\``);
  });
});
