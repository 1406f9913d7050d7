import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

// What the model was sent, for a workbench suite: the embedded backend appends its wire log, each request's
// body included, where LOOPWIRE_WIRE_LOG says (src/extension/endpoint/windowBackend.ts). The variable is set when the
// suite runs, before its workbench starts (code-server's extension host inherits the harness's environment),
// and removed after it, so that no other suite's workbench writes there.

/** A generating request as the embedded backend received it (the fields the suites read). */
export interface SentRequest {
  model?: string;
  reasoning?: { effort?: string };
  previous_response_id?: string | null;
  generate?: boolean;
  input: { role?: string; content?: unknown }[];
  /** The tools offered (function tools by `name`). */
  tools?: { type?: string; name?: string }[];
}

/** Call in a `describe`, before `useWorkbench`: returns the generating requests received so far (warm-ups left out). */
export function useWireLog(): () => SentRequest[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loopwire-wire-'));
  const file = path.join(dir, 'wire.jsonl');
  before(() => {
    process.env['LOOPWIRE_WIRE_LOG'] = file;
  });
  after(() => {
    delete process.env['LOOPWIRE_WIRE_LOG'];
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return () =>
    (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as { type: string; dir?: string; body?: SentRequest })
      .filter((line) => line.dir === 'in' && line.type === 'response.create' && line.body?.generate !== false)
      .flatMap((line) => (line.body ? [withoutEnvironment(line.body)] : []));
}

/**
 * The request without its `<environment_context>` items (where the agent works: the suites check what the
 * user attached and the project's instructions, not the date and folder, which the unit suites pin).
 */
function withoutEnvironment(body: SentRequest): SentRequest {
  return { ...body, input: body.input.filter((item) => !textOf(item.content).startsWith('<environment_context>')) };
}

/** An input item's text: a string's, or its parts' joined. */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  return Array.isArray(content) ? content.map(partText).join('') : '';
}

function partText(part: unknown): string {
  const text = (part as { text?: unknown } | null)?.text;
  return typeof text === 'string' ? text : '';
}
