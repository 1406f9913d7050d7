import { type Transcript, forkTranscript, newSessionId } from '../../agent';
import { sessionFile } from './sessionHistory';

// Edit and resend forks a chat at a prompt: a new session in the chats' folder holding the transcript's
// items before it (the same objects, so its first request chains from the response that ended there while
// the socket holds it). The chat being left keeps its own transcript, snapshot and checkpoints: a past chat
// of its own in History, reopened and continued like any other.

/** The fork of `transcript` at item `at`, kept in `dir` beside the other chats. */
export function forkChat(transcript: Transcript, at: number, dir: string): Transcript {
  const id = newSessionId();
  return forkTranscript(transcript, at, id, sessionFile(dir, id));
}
