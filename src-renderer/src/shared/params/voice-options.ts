/**
 * A model's voices as a person reads them. eSpeak NG names some voices with a comment or a web address after `//`
 * ("Cherokee //https://github.com/…") and ships test voices ("xextan-test"): the list shows "Cherokee" and leaves the
 * test voices out (a voice already chosen stays listed, so nothing changes under the person). Sorted by name in the
 * interface's language.
 */
import { language } from '../i18n/i18n.svelte.js';
import type { FormField } from './schema-form.js';

/** Params that name the voice of a speech model. */
export const VOICE_FIELDS = ['voice', 'speaker'];

/** The voice field of a model's params (a choice among named voices), if it has one. */
export function voiceFieldOf(fields: readonly FormField[]): FormField | undefined {
  return fields.find((f) => VOICE_FIELDS.includes(f.name) && f.kind === 'select');
}

export function readableVoiceName(name: string): string {
  return name.replace(/\s*\/\/.*$/, '').trim() || name;
}

export function isTestVoice(name: string): boolean {
  return /(^|[-_ ])test$/i.test(name.trim());
}

export function readableVoiceOptions(options: readonly { label: string; value: string }[], keep: string | null = null): { label: string; value: string }[] {
  const collator = new Intl.Collator(language());
  return options
    .filter((o) => o.value === keep || !isTestVoice(o.label))
    .map((o) => ({ value: o.value, label: readableVoiceName(o.label) }))
    .sort((a, b) => collator.compare(a.label, b.label));
}
