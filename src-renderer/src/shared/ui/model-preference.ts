/**
 * The model a person last chose for a kind of work (speech recognition, voices), remembered in this browser: a
 * picker opens on it while it is in the catalogue. The welcome screen sets the recognizer it downloaded.
 */
const KEY = 'voxdesk.preferredModel.';

export function preferredModel(kind: string): string | undefined {
  return globalThis.localStorage?.getItem(KEY + kind) ?? undefined;
}

export function preferModel(kind: string, id: string | undefined): void {
  if (id) globalThis.localStorage?.setItem(KEY + kind, id);
}
