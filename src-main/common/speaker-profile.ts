/** A profile of the account's speaker library as the API shows it (GET /v1/speakers, docs/speakers.md). */
export interface SpeakerProfile {
  id: string;
  object: 'speaker';
  name: string;
  created_at: string;
  updated_at: string;
  /** Voice samples (recordings' speakers named so) the profile is made of. */
  samples: number;
  /** Voices it was told are not this speaker ("not X"). */
  not_samples: number;
}
