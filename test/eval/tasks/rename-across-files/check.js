// Done when fetchUsr is called fetchUser everywhere (code, tests, README), and everything works as before.
'use strict';
const { check } = require('../checkLib');

const count = (text, word) => (text.match(new RegExp(`\\b${word}\\b`, 'g')) ?? []).length;

check(__dirname, ({ files, read, original, load, expect, succeeds }) => {
  let renamed = 0;
  let before = 0;
  for (const file of files()) {
    const text = read(file);
    expect(count(text, 'fetchUsr') === 0, `${file} still says fetchUsr`);
    renamed += count(text, 'fetchUser');
  }
  for (const file of ['README.md', 'src/users.js', 'src/profile.js', 'src/admin.js', 'test/users.test.js'])
    before += count(original(file), 'fetchUsr');
  expect(renamed >= before, `fetchUser appears ${renamed} times where fetchUsr appeared ${before} times`);
  const users = load('src/users.js');
  expect(typeof users.fetchUser === 'function', 'src/users.js exports no fetchUser');
  expect(users.fetchUsr === undefined, 'src/users.js still exports fetchUsr');
  succeeds(process.execPath, ['--test'], 'the tests fail');
});
