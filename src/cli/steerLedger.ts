// What `loopwire validate` checks across the frames of one recorded socket, beyond each frame's shape: that
// its steering events tell one consistent story (docs/protocol.md §13.2). Frames are read as given: a frame
// whose shape is wrong is reported by its own check, and here only its fields that are there count.

/** A frame of the recording, with where it came from (`file:line`). */
export interface LedgerFrame {
  source: string;
  value: unknown;
}

/** A frame the story contradicts, and why. */
export interface LedgerFinding {
  source: string;
  message: string;
}

interface Fields {
  type?: unknown;
  steer?: { id?: unknown; previous_response_id?: unknown };
  response?: { id?: unknown; status?: unknown; previous_response_id?: unknown; incomplete_details?: unknown };
}

/**
 * The steering story of one recording: a steer id accepted once; `pending` and `failed` naming a steer by id
 * only after it was accepted, for the same response; `pending` only after its response completed; and a
 * response that ended `steered` followed by its successor's `response.created` or by its steers' failures.
 */
export function steeringFindings(frames: readonly LedgerFrame[]): LedgerFinding[] {
  const findings: LedgerFinding[] = [];
  const accepted = new Map<string, string>();
  const completed = new Set<string>();
  /** Steered responses still waiting for their successor, with where they ended. */
  const steered = new Map<string, string>();
  for (const { source, value } of frames) {
    const frame = (typeof value === 'object' && value !== null ? value : {}) as Fields;
    const say = (message: string) => findings.push({ source, message });
    const steerId = typeof frame.steer?.id === 'string' ? frame.steer.id : undefined;
    const target = String(frame.steer?.previous_response_id);
    const responseId = String(frame.response?.id);
    switch (frame.type) {
      case 'response.steer.accepted':
        if (steerId !== undefined && accepted.has(steerId)) say(`steer ${steerId} was accepted twice`);
        if (steerId !== undefined) accepted.set(steerId, target);
        break;
      case 'response.steer.pending':
      case 'response.steer.failed':
        if (steerId !== undefined && accepted.get(steerId) !== target)
          say(`names steer ${steerId} of ${target}, which no response.steer.accepted before it did`);
        if (frame.type === 'response.steer.pending' && !completed.has(target))
          say(`pending before response ${target} completed`);
        if (frame.type === 'response.steer.failed') steered.delete(target);
        break;
      case 'response.completed':
        completed.add(responseId);
        break;
      case 'response.incomplete':
        if ((frame.response?.incomplete_details as { reason?: unknown } | null)?.reason === 'steered')
          steered.set(responseId, source);
        break;
      case 'response.created':
        steered.delete(String(frame.response?.previous_response_id));
        break;
    }
  }
  for (const [id, source] of steered)
    findings.push({
      source,
      message: `response ${id} ended steered, but no successor was created and no steer failed`,
    });
  return findings;
}
