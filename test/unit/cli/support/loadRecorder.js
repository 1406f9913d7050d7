// Preloaded into a bin (`--require`) by test/unit/cli/startup.test.ts: at exit it writes, as one JSON object
// to the file $LOOPWIRE_LOAD_RECORD, every module the process required and every file it read with
// readFileSync — what a start cost in files.
'use strict';
const fs = require('node:fs');

const read = [];
const readFileSync = fs.readFileSync;
fs.readFileSync = function (file, ...rest) {
  if (typeof file === 'string') read.push(file);
  return readFileSync.call(this, file, ...rest);
};
process.on('exit', () => {
  const record = process.env.LOOPWIRE_LOAD_RECORD;
  if (record) fs.writeFileSync(record, JSON.stringify({ required: Object.keys(require.cache), read }));
});
