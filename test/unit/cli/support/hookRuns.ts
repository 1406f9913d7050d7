import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import { repoRoot, runProcess } from '../../support/runProcess';
import type { TempWorkspace } from '../../support/tempWorkspace';

// Running `loopwire exec` with hooks (execHooks*.test.ts): the built bin against the embedded backend's
// scripted model, hook scripts (`node FILE`) written into the workspace, hooks files beside it, the user's
// home and config folders empty and outside the workspace (a workspace holding a home folder is made read-only
// in the sandbox).

const bin = path.join(repoRoot, 'dist/cli/loopwire.js');
export const node = process.execPath;

export interface Event {
  type: string;
  callId?: string;
  name?: string;
  ok?: boolean;
  declined?: boolean;
  output?: string;
  code?: string;
  message?: string;
  reason?: string;
  text?: string;
  hook?: { event: string; decision?: string; reason?: string };
}

export type Step = { output: unknown[] };
export const command = (cmd: string): Step => ({
  output: [{ type: 'function_call', name: 'exec_command', arguments: { cmd } }],
});
export const answer = (text: string): Step => ({ output: [{ type: 'message', text }] });

/** A hook script: reads the event's JSON, keeps it in `seen-NAME.json`, then runs `body` (with `input` bound). */
const script = (name: string, body: string) =>
  `let s='';process.stdin.on('data',(d)=>(s+=d)).on('end',()=>{const input=JSON.parse(s);` +
  `require('fs').writeFileSync('seen-${name}.json',s);${body}});`;

/** A matcher group of one command. */
export const group = (matcher: string | undefined, commandLine: string, timeout?: number) => ({
  ...(matcher === undefined ? {} : { matcher }),
  hooks: [{ type: 'command', command: commandLine, ...(timeout ? { timeout } : {}) }],
});

/** The runs of one test file: its workspace, and its user's folders (removed by `remove`). */
export class HookRuns {
  readonly user = fs.mkdtempSync(path.join(os.tmpdir(), 'h-hook-user-'));
  readonly home = path.join(this.user, 'home');
  readonly config = path.join(this.user, 'config');

  constructor(private readonly temp: TempWorkspace) {}

  remove(): void {
    fs.rmSync(this.user, { recursive: true, force: true });
  }

  /** Writes the hook script `name` into the workspace and returns its command. */
  hookScript(name: string, body: string): string {
    fs.mkdirSync(this.temp.path('hooks'), { recursive: true });
    fs.writeFileSync(this.temp.path(`hooks/${name}.js`), script(name, body));
    return `${node} hooks/${name}.js`;
  }

  /** A hooks file (outside the workspace) with `hooks` as its `hooks`; its path. */
  hooksFile(hooks: Record<string, unknown>): string {
    const file = path.join(this.user, `hooks-${randomBytes(4).toString('hex')}.json`);
    fs.writeFileSync(file, JSON.stringify({ hooks }));
    return file;
  }

  /** What hook `name` was given on stdin. */
  seen(name: string): Record<string, unknown> {
    return JSON.parse(fs.readFileSync(this.temp.path(`seen-${name}.json`), 'utf8')) as Record<string, unknown>;
  }

  /** The bin on the workspace with `scenarios` and `args`, prompt `run it`, --json: its events and transcript. */
  async exec(scenarios: { match: string; steps: Step[] }[], args: string[], env: NodeJS.ProcessEnv = {}) {
    const scenario = this.temp.path(`scenario-${randomBytes(3).toString('hex')}.json`);
    const named = scenarios.map((s, i) => ({ name: `s${i}`, ...s }));
    fs.writeFileSync(scenario, JSON.stringify({ scenarios: named }));
    const sessions = this.temp.path(`sessions-${randomBytes(3).toString('hex')}`);
    const argv = [bin, 'exec', '--workspace', this.temp.dir, '--sessions-dir', sessions, '--scenario', scenario];
    const runEnv: NodeJS.ProcessEnv = { ...process.env, HOME: this.home, XDG_CONFIG_HOME: this.config, ...env };
    delete runEnv.LOOPWIRE_SANDBOX;
    const result = await runProcess(node, [...argv, ...args, '--json', 'run it'], '', runEnv);
    const events = result.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Event);
    const [session] = fs.existsSync(sessions) ? fs.readdirSync(sessions).map((name) => path.join(sessions, name)) : [];
    const transcript = session ? fs.readFileSync(session, 'utf8') : '';
    return { ...result, events, transcript };
  }
}

export const finished = (events: Event[]) => events.filter((e) => e.type === 'tool_finished');
export const hookNotices = (events: Event[]) => events.filter((e) => e.type === 'notice' && e.hook);
