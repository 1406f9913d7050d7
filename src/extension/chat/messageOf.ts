// What an error says, for a line of the log or the panel: its message, or whatever was thrown as text.

export const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));
