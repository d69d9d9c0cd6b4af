/**
 * What the Transcribe tab offers for telling speakers apart, read from the chosen model's params schema (issue
 * 29.5): "Separate speakers" whenever its `speaker_diarization` can be true — the speaker models are installed —
 * and the number of speakers when it takes `num_speakers`. Until the speaker models are installed the schema still
 * lists speaker_diarization, as `enum: [false]` with the reason, and then nothing is offered.
 */
interface ParamSchema {
  enum?: readonly unknown[];
}

export interface SpeakerOptions {
  separate: boolean;
  count: boolean;
}

export function speakerOptions(schema: { properties?: unknown } | undefined): SpeakerOptions {
  const properties = (schema?.properties ?? {}) as Record<string, ParamSchema | undefined>;
  const diarization = properties.speaker_diarization;
  const separate = diarization !== undefined && (!diarization.enum || diarization.enum.includes(true));
  return { separate, count: separate && properties.num_speakers !== undefined };
}
