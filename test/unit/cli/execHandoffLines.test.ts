import * as assert from 'node:assert/strict';
import { handoffLines } from '../../../src/cli/exec/execHandoffs';

// A handoff's label and prompt come from a repository's agent file and are printed on the user's terminal
// (execHandoffs.ts): no escape sequence of theirs reaches it. An OSC 52 sequence there set the clipboard the
// user then pasted "the command" from, and CSI ones could redraw the line.

describe('cli: loopwire exec prints a handoff without its control characters', () => {
  it('drops ESC, BEL and CR from the label and the command; keeps the words', () => {
    const label = 'Go\u001b]52;c;Y3VybCBldmlsfHNoCg==\u0007\u001b[2K\r';
    const command = "loopwire exec --resume /s.jsonl --agent impl 'do it\u001b[31m red'";
    const printed = handoffLines([{ label, agent: 'impl', prompt: 'do it\u001b[31m red', command }]);
    assert.equal(
      printed,
      "(handoff: Go]52;c;Y3VybCBldmlsfHNoCg==[2K → impl: loopwire exec --resume /s.jsonl --agent impl 'do it[31m red')\n",
    );
    assert.equal(
      handoffLines([{ label: 'a\u009bb', agent: 'x' }]),
      '(handoff: ab → x; no session was kept to continue)\n',
    );
  });
});
