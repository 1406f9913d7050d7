import * as assert from 'node:assert/strict';
import type * as z from 'zod';
import { parseWire } from '../../../src/protocol';

/** Asserts that `value` is valid for `schema` (showing the reason when not) and returns the parsed value. */
export function parses<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = parseWire(schema, value);
  if (!result.ok) assert.fail(`expected it to parse, got: ${result.error.message}`);
  return result.value;
}
