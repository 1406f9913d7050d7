import { readFile } from 'node:fs/promises';
import type * as z from 'zod';
import {
  AnyInputItem,
  AnyServerEvent,
  ClientEvent,
  HttpErrorBody,
  ResponseObject,
  ResponseRequest,
  SERVER_EVENT_TYPES,
  decodeJson,
  discriminatorValues,
  parseWire,
} from '../protocol';
import { type CliIo, ExitCode, errorMessage, parseFlags } from './cliIo';
import { steeringFindings } from './steerLedger';
import { t } from './cliL10n';

/** What `--as` may name, and the schema each is checked against. */
const KINDS = {
  request: ResponseRequest,
  'client-event': ClientEvent,
  'server-event': AnyServerEvent,
  response: ResponseObject,
  item: AnyInputItem,
  'http-error': HttpErrorBody,
} satisfies Record<string, z.ZodType>;
type Kind = keyof typeof KINDS;

const CLIENT_EVENT_TYPES = new Set(discriminatorValues(ClientEvent));
const KNOWN_SERVER_EVENT_TYPES = new Set(SERVER_EVENT_TYPES);

export const validateUsage = `${t('usage: {0}', 'loopwire validate [--as KIND] [FILE|-]...')}

${t("Checks Responses API wire data against Loopwire's protocol schemas: a JSON document, a JSON array of\nframes, or JSON Lines (one frame per line, as a WebSocket capture or a list of SSE data lines). Reads\nstandard input when no FILE is given or FILE is '-'. Each input is also read as one recording whose\nsteering events must agree: a steer accepted once, pending or failed only after it was accepted, pending\nonly after its response completed, a steered response followed by its successor or its steers' failure.")}

  --as KIND   ${t("what every frame is: {0}\n              (default: told apart by 'type' and shape)", Object.keys(KINDS).join(', '))}

${t('Exit status: 0 when every frame is valid, 1 when one is not, 2 on bad usage.')}
`;

interface Frame {
  source: string;
  value: unknown;
}
/** A line that is not JSON at all. */
interface Unreadable {
  source: string;
  error: string;
}

const FLAGS = {
  allowPositionals: true,
  options: { as: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
} as const;

export async function validateCommand(argv: string[], io: CliIo): Promise<ExitCode> {
  const parsed = parseFlags(io, { name: 'loopwire validate', usage: validateUsage }, { args: argv, ...FLAGS });
  if (typeof parsed === 'number') return parsed;
  const forced = parsed.values.as;
  if (forced !== undefined && !isKind(forced)) {
    io.stderr(`loopwire validate: unknown --as '${forced}'; one of: ${Object.keys(KINDS).join(', ')}\n`);
    return ExitCode.usage;
  }

  // Every input is read before any is judged, so a missing file is a usage error with nothing half-printed.
  const inputs: { name: string; text: string }[] = [];
  for (const source of parsed.positionals.length > 0 ? parsed.positionals : ['-']) {
    try {
      const text = source === '-' ? await io.readStdin() : await readFile(source, 'utf8');
      inputs.push({ name: source === '-' ? 'stdin' : source, text });
    } catch (error) {
      io.stderr(`loopwire validate: cannot read ${source}: ${errorMessage(error)}\n`);
      return ExitCode.usage;
    }
  }
  let valid = 0;
  let invalid = 0;
  for (const { name, text } of inputs) {
    const frames: Frame[] = [];
    for (const frame of framesOf(text, name)) {
      const line = checkFrame(frame, forced);
      if (line.ok) valid++;
      else invalid++;
      io.stdout(`${line.text}\n`);
      if (!('error' in frame)) frames.push(frame);
    }
    // An input is one recording: its steering events must also agree with each other (steerLedger.ts).
    for (const finding of steeringFindings(frames)) {
      invalid++;
      io.stdout(`✗ ${finding.source}  steering: ${finding.message}\n`);
    }
  }
  io.stdout(`${valid} valid, ${invalid} invalid\n`);
  return invalid === 0 ? ExitCode.ok : ExitCode.failed;
}

function isKind(name: string): name is Kind {
  return Object.hasOwn(KINDS, name);
}

/** One JSON document (an array is a list of frames), else JSON Lines. */
function* framesOf(text: string, name: string): Generator<Frame | Unreadable> {
  const whole = decodeJson(text);
  if (whole.ok) {
    if (Array.isArray(whole.value)) {
      for (const [index, value] of whole.value.entries())
        yield { source: `${name}[${index}]`, value: value as unknown };
    } else {
      yield { source: name, value: whole.value };
    }
    return;
  }
  const lines = text.split('\n');
  for (const [index, raw] of lines.entries()) {
    const line = raw.trim();
    if (line === '') continue;
    const source = `${name}:${index + 1}`;
    const json = decodeJson(line);
    yield json.ok ? { source, value: json.value } : { source, error: json.error.message };
  }
}

function checkFrame(frame: Frame | Unreadable, forced: Kind | undefined) {
  if ('error' in frame) return { ok: false, text: `✗ ${frame.source}  ${frame.error}` };
  const kind = forced ?? classify(frame.value);
  if (!kind) {
    return { ok: false, text: `✗ ${frame.source}  cannot tell what this frame is; name it with --as` };
  }
  const result = parseWire(KINDS[kind], frame.value);
  const type = typeOf(frame.value);
  const label = type === undefined ? kind : `${kind} ${type}`;
  if (!result.ok) return { ok: false, text: `✗ ${frame.source}  ${label}: ${result.error.message}` };
  const passedOver = kind === 'server-event' && !KNOWN_SERVER_EVENT_TYPES.has(type ?? '');
  return { ok: true, text: `✓ ${frame.source}  ${label}${passedOver ? '  (type not modelled: passed over)' : ''}` };
}

function typeOf(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const type = (value as { type?: unknown }).type;
  return typeof type === 'string' ? type : undefined;
}

/** Tells frames apart the way a reader would: by `type`, then by shape. */
function classify(value: unknown): Kind | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const type = typeOf(value);
  if (type !== undefined) {
    if (CLIENT_EVENT_TYPES.has(type)) return 'client-event';
    if (KNOWN_SERVER_EVENT_TYPES.has(type) || type.startsWith('response.')) return 'server-event';
    return 'item';
  }
  if ('object' in value && value.object === 'response') return 'response';
  if ('error' in value) return 'http-error';
  if ('role' in value) return 'item';
  if ('model' in value || 'input' in value) return 'request';
  return undefined;
}
