// A fresh copy of demo/workspace for VS Code to open (`npm start`, and F5's pre-launch task), so that the
// agent's fixes land in the copy and the repository's demo stays broken for the next run.
// Usage: node scripts/demoCopy.js DIR   (DIR is emptied first)
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const demo = path.resolve(__dirname, '..', 'demo', 'workspace');

/**
 * Replaces `target` with a copy of the demo workspace that pins the embedded backend, so a user setting
 * naming another endpoint cannot send the demo to a network (the setting applies once the folder is trusted).
 */
function copyDemo(target) {
  fs.rmSync(target, { recursive: true, force: true });
  fs.cpSync(demo, target, { recursive: true });
  const settings = path.join(target, '.vscode', 'settings.json');
  fs.mkdirSync(path.dirname(settings), { recursive: true });
  fs.writeFileSync(settings, `${JSON.stringify({ 'loopwire.endpoint': 'embedded' }, null, 2)}\n`);
  return target;
}

if (require.main === module) {
  const target = process.argv[2];
  if (!target) {
    console.error('usage: node scripts/demoCopy.js DIR');
    process.exitCode = 2;
  } else {
    console.log(`demo workspace copied to ${copyDemo(path.resolve(target))}`);
  }
}

module.exports = { copyDemo };
