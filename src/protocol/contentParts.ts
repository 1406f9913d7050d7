import * as z from 'zod';
import { openUnion } from './openUnion';

// Content parts of messages, tool outputs and reasoning (docs/protocol.md §2.2-2.3).
// Every object is loose: fields this version does not model are kept, never a reason to refuse.

/** Text the user (or a tool) gives the model. */
export const InputText = z.looseObject({ type: z.literal('input_text'), text: z.string() });

/** An image by URL (or data URL) or by uploaded file id. Null fields as the SDK's type allows them. */
export const InputImage = z.looseObject({
  type: z.literal('input_image'),
  image_url: z.string().nullish(),
  file_id: z.string().nullish(),
  detail: z.string().nullish(),
});

/** A file by id, URL or inline data. Null fields as the SDK's type allows them. */
export const InputFile = z.looseObject({
  type: z.literal('input_file'),
  file_id: z.string().nullish(),
  file_url: z.string().nullish(),
  file_data: z.string().nullish(),
  filename: z.string().nullish(),
  detail: z.string().optional(),
});

/** Text the model wrote. `annotations` is always sent by the API, and often dropped by clients replaying history. */
export const OutputText = z.looseObject({
  type: z.literal('output_text'),
  text: z.string(),
  annotations: z.array(z.unknown()).optional(),
  logprobs: z.array(z.unknown()).optional(),
});

/** The model declined; the text says why. */
export const Refusal = z.looseObject({ type: z.literal('refusal'), refusal: z.string() });

/** One part of a reasoning summary. */
export const SummaryText = z.looseObject({ type: z.literal('summary_text'), text: z.string() });

/** Raw reasoning text (open-weight models). */
export const ReasoningText = z.looseObject({ type: z.literal('reasoning_text'), text: z.string() });

/** What a message in `input` may hold: the user's parts, or the model's own when history is replayed. */
export const MessageContentPart = z.discriminatedUnion('type', [InputText, InputImage, InputFile, OutputText, Refusal]);
export const AnyMessageContentPart = openUnion(MessageContentPart);

/** What a tool's output may hold when it is not a plain string. */
export const ToolOutputPart = z.discriminatedUnion('type', [InputText, InputImage, InputFile]);
export const AnyToolOutputPart = openUnion(ToolOutputPart);

/** What an output message holds. */
export const OutputContentPart = z.discriminatedUnion('type', [OutputText, Refusal]);
export const AnyOutputContentPart = openUnion(OutputContentPart);

/** The part a `response.content_part.*` event carries: message content, or raw reasoning text. */
export const StreamedContentPart = z.discriminatedUnion('type', [OutputText, Refusal, ReasoningText]);
export const AnyStreamedContentPart = openUnion(StreamedContentPart);

export type InputText = z.infer<typeof InputText>;
export type InputImage = z.infer<typeof InputImage>;
export type InputFile = z.infer<typeof InputFile>;
export type OutputText = z.infer<typeof OutputText>;
export type Refusal = z.infer<typeof Refusal>;
export type SummaryText = z.infer<typeof SummaryText>;
export type ReasoningText = z.infer<typeof ReasoningText>;
export type MessageContentPart = z.infer<typeof MessageContentPart>;
export type AnyMessageContentPart = z.infer<typeof AnyMessageContentPart>;
export type ToolOutputPart = z.infer<typeof ToolOutputPart>;
export type AnyToolOutputPart = z.infer<typeof AnyToolOutputPart>;
export type OutputContentPart = z.infer<typeof OutputContentPart>;
export type AnyOutputContentPart = z.infer<typeof AnyOutputContentPart>;
export type StreamedContentPart = z.infer<typeof StreamedContentPart>;
export type AnyStreamedContentPart = z.infer<typeof AnyStreamedContentPart>;
