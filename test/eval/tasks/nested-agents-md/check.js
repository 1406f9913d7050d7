// Done when getItem answers an unknown id as packages/api/AGENTS.md says an error answer is (its status, its
// code, a message), a known id as before, and the error has its own test.
'use strict';
const { check, countTests } = require('../checkLib');

check(__dirname, ({ load, expect, read, original, succeeds }) => {
  const { getItem } = load('packages/api/src/items.js');
  const store = { items: new Map([['x1', { id: 'x1', name: 'Kettle', priceCents: 4000 }]]) };
  const found = getItem(store, { id: 'x1' });
  expect(found.status === 200 && found.body.name === 'Kettle', 'getItem no longer finds an item');
  let missing;
  try {
    missing = getItem(store, { id: 'nope' });
  } catch (error) {
    expect(false, `getItem throws for an unknown id: ${error}`);
  }
  const said = JSON.stringify(missing);
  expect(missing && missing.status === 404, `an unknown id answers ${said}, not status 404`);
  const error = missing.body && missing.body.error;
  expect(error && error.code === 'API_NOT_FOUND', `an unknown id answers ${said}, not the code API_NOT_FOUND`);
  const message = typeof error.message === 'string' ? error.message : '';
  expect(/nope|item/i.test(message), `the message does not say what was not found: ${said}`);
  expect(Object.keys(missing.body).length === 1, `the body holds more than its error: ${said}`);
  const tests = read('packages/api/test/items.test.js');
  expect(countTests(tests) > countTests(original('packages/api/test/items.test.js')), 'the error has no test');
  expect(tests.includes('API_NOT_FOUND'), 'no test of packages/api checks API_NOT_FOUND');
  succeeds(process.execPath, ['--test'], "the api's tests fail", { cwd: 'packages/api' });
});
