// What the eval's check scripts share (test/eval/README.md). A check runs with the task's workspace as its
// current directory and exits 0 when the task is done; otherwise it prints why on stderr and exits 1. The
// task's untouched fixture is beside the check (fixture/), so a check can tell what the agent changed.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

class CheckFailure extends Error {}

/** Runs `body` with the helpers below on the workspace (the current directory); exits 0, or 1 saying why. */
function check(taskDir, body) {
  const workspace = process.cwd();
  const fixture = path.join(taskDir, 'fixture');
  const helpers = {
    workspace,
    /** Stops the check: the task is not done. */
    fail(reason) {
      throw new CheckFailure(reason);
    },
    /** Fails with `reason` unless `condition` holds. */
    expect(condition, reason) {
      if (!condition) throw new CheckFailure(reason);
    },
    /** The workspace's text of `file` (fails when it is missing). */
    read(file) {
      const full = path.join(workspace, file);
      if (!fs.existsSync(full)) throw new CheckFailure(`${file} is missing`);
      return fs.readFileSync(full, 'utf8');
    },
    /** The fixture's text of `file`, as the task began. */
    original(file) {
      return fs.readFileSync(path.join(fixture, file), 'utf8');
    },
    /** Fails when the agent changed `file` (a test it was told to keep, say). */
    unchanged(file) {
      if (helpers.read(file) !== helpers.original(file)) throw new CheckFailure(`${file} was changed`);
    },
    /** Runs a command in the workspace (or `cwd` under it); returns its exit code and output. */
    run(command, args, options = {}) {
      const result = spawnSync(command, args, {
        cwd: path.join(workspace, options.cwd ?? '.'),
        encoding: 'utf8',
        timeout: (options.timeoutS ?? 60) * 1000,
        env: { ...process.env, NODE_TEST_CONTEXT: undefined, NO_COLOR: '1', ...options.env },
      });
      const output = `${result.stdout ?? ''}${result.stderr ?? ''}`;
      return { code: result.status ?? -1, output };
    },
    /** Runs a command and fails with `reason` (and the end of its output) unless it exits 0. */
    succeeds(command, args, reason, options) {
      const { code, output } = helpers.run(command, args, options);
      if (code !== 0) throw new CheckFailure(`${reason} (exit ${code}): ${lastLines(output)}`);
      return output;
    },
    /** The workspace's module `file`, loaded fresh. */
    load(file) {
      const full = path.join(workspace, file);
      if (!fs.existsSync(full)) throw new CheckFailure(`${file} is missing`);
      delete require.cache[require.resolve(full)];
      return require(full);
    },
    /** Every file of the workspace but .git's, relative, with '/'. */
    files(dir = '.') {
      return fs
        .readdirSync(path.join(workspace, dir), { withFileTypes: true })
        .filter((entry) => entry.name !== '.git' && entry.name !== 'node_modules' && entry.name !== '__pycache__')
        .flatMap((entry) => {
          const relative = path.posix.join(dir, entry.name);
          return entry.isDirectory() ? helpers.files(relative) : [relative];
        });
    },
  };
  try {
    body(helpers);
  } catch (error) {
    const reason = error instanceof CheckFailure ? error.message : `the check threw: ${error && error.stack}`;
    console.error(`check: ${reason}`);
    process.exitCode = 1;
    return;
  }
  process.exitCode = 0;
}

/** What a failed command said, on one line, for a failure's reason: its failures, else its last lines. */
function lastLines(output, count = 4) {
  const lines = output.trim().split('\n');
  const failures = lines.filter((line) => /^\s*(not ok|FAIL|AssertionError|Error|\w+Error:)/.test(line));
  return (failures.length > 0 ? failures : lines.slice(-count))
    .slice(0, count)
    .map((line) => line.trim())
    .join(' ⏎ ');
}

/** How many `test(` / `it(` calls a JavaScript test file makes. */
function countTests(text) {
  return (text.match(/^\s*(?:test|it)\(/gm) ?? []).length;
}

module.exports = { check, countTests };
