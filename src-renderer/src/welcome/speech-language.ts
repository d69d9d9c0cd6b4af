/**
 * The language the welcome screen recommends a recognizer for: the one the person chose for the interface, else the
 * system's first, as a primary subtag (the service's GET /v1/local/welcome takes it). Pure.
 */
export function speechLanguage(chosen: string | null, systemLanguages: readonly string[]): string {
  const tag = chosen ?? systemLanguages[0] ?? 'en';
  return tag.toLowerCase().split(/[-_]/)[0] || 'en';
}
