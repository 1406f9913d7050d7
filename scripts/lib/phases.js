// The phases of `npm start`, `npm test`, `npm run package` and CI, run as child processes that say what they
// do: one line when a phase ends, with its time, and a line whenever the console has been quiet for 5 s, so
// no step looks hung. A phase either streams its output or keeps it in a log file and shows it on failure.
'use strict';
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { clearInterval, setInterval } = require('node:timers');

/** The longest the console stays quiet while something runs. */
const QUIET_MS = 5_000;
/** What a phase keeps of its output in memory, for its summary and its failure report. */
const KEEP_CHARS = 4 * 1024 * 1024;

/** `15.2 s` below a minute, `1 m 40 s` above. */
function formatDuration(ms) {
  const seconds = ms / 1000;
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  const whole = Math.round(seconds);
  return `${Math.floor(whole / 60)} m ${String(whole % 60).padStart(2, '0')} s`;
}

const running = new Set();
let lastSaid = Date.now();
let ticker;

/** Prints one line and resets the quiet clock. */
function say(line) {
  process.stdout.write(`${line}\n`);
  lastSaid = Date.now();
}

function tick() {
  if (Date.now() - lastSaid < QUIET_MS) return;
  const parts = [...running].map((phase) => {
    const note = phase.note?.();
    return `${phase.name} ${formatDuration(Date.now() - phase.started)}${note ? ` (${note})` : ''}`;
  });
  say(`  … ${parts.join(', ')}`);
}

function track(phase) {
  running.add(phase);
  ticker ??= setInterval(tick, 500);
}

function untrack(phase) {
  running.delete(phase);
  if (running.size === 0 && ticker) {
    clearInterval(ticker);
    ticker = undefined;
  }
}

/**
 * Runs `fn` (async) as a phase named `name` with the same quiet-clock lines as a process phase: for work
 * done in this process, such as waiting on an install. Resolves to what `fn` resolves to.
 */
async function inPhase(name, fn, note) {
  const phase = { name, started: Date.now(), note };
  track(phase);
  try {
    return await fn();
  } finally {
    untrack(phase);
  }
}

/**
 * Runs one phase: `command args` in `cwd` with `env`. With `log` (a file), its output goes there only and
 * the console gets its end line (and, on failure, `failureText(output)` or the output's tail); without, its
 * output streams to the console as it comes. `progress(line)` sees each output line (to count tests);
 * `note()` adds to the quiet-clock line; `done(output, ms)` makes the end line of a phase that passed.
 * Resolves to `{ ok, code, output, ms }`; never rejects (a process that cannot start is a failed phase).
 */
function runPhase({ name, command, args = [], cwd, env, log, progress, note, done, failureText }) {
  const phase = { name, started: Date.now(), note };
  track(phase);
  let kept = '';
  let pending = '';
  let logFd;
  if (log) {
    fs.mkdirSync(path.dirname(log), { recursive: true });
    logFd = fs.openSync(log, 'w');
  }
  const onData = (chunk) => {
    const text = chunk.toString('utf8');
    kept = (kept + text).slice(-KEEP_CHARS);
    if (logFd !== undefined) fs.writeSync(logFd, text);
    else {
      process.stdout.write(text);
      lastSaid = Date.now();
    }
    if (progress) {
      const lines = (pending + text).split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) progress(line);
    }
  };
  return new Promise((resolve) => {
    let child;
    let finished = false;
    const finish = (code, why) => {
      if (finished) return;
      finished = true;
      if (pending && progress) progress(pending);
      if (logFd !== undefined) fs.closeSync(logFd);
      untrack(phase);
      const ms = Date.now() - phase.started;
      const ok = code === 0;
      if (ok) say(done ? done(kept, ms) : `${name} ${formatDuration(ms)}`);
      else {
        if (logFd !== undefined) {
          const shown = failureText ? failureText(kept) : tail(kept, 60);
          if (shown.trim()) process.stdout.write(`${shown.trimEnd()}\n`);
        }
        say(`${name} failed after ${formatDuration(ms)} (${why})${log ? `; its whole output: ${log}` : ''}`);
      }
      resolve({ ok, code, output: kept, ms });
    };
    try {
      child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (error) {
      finish(1, error.message);
      return;
    }
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('error', (error) => finish(1, `could not start ${command}: ${error.message}`));
    child.on('close', (code, signal) => finish(code ?? 1, signal ? `killed by ${signal}` : `exit ${code}`));
  });
}

/** The last `count` lines of `text`. */
function tail(text, count) {
  const lines = text.trimEnd().split('\n');
  return lines.slice(-count).join('\n');
}

/** Runs a script's async `main` and exits with the code it resolves to; a crash is printed and exits 1. */
function runScript(main) {
  main().then(
    (code) => {
      process.exitCode = code;
    },
    (error) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}

/** Runs `node` with `args`, as a phase. */
const nodePhase = (options) => runPhase({ ...options, command: process.execPath });

module.exports = { QUIET_MS, formatDuration, inPhase, nodePhase, runPhase, runScript, say, tail };
