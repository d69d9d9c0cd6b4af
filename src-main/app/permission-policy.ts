/**
 * Which web permissions the app's window gets (docs/design.md §6.2: grant only what the app needs, to its own page).
 * The page copies transcripts to the clipboard and records from the microphone for live dictation: those two,
 * audio only, to the app's own origin; and, for a few seconds after a meeting capture armed it, the screen share that
 * carries the computer's sound. Everything else (camera, screen capture, notifications from the page,
 * geolocation, MIDI, HID, USB, serial, file system, …) is refused, and so is any other origin. Pure, so it is
 * unit-tested without Electron; main.ts feeds it from both the permission check and the permission request handler.
 */

/** One permission question as Electron asks it, reduced to what the policy decides on. */
export interface PermissionQuery {
  permission: string;
  /** The origin or URL that asks (a check handler gives an origin, a request handler a URL). */
  requester: string | undefined;
  /** For `media`: the kinds asked for. A check names one (`audio`, `video` or `unknown`), a request a list. */
  mediaTypes: readonly string[];
}

/** `scheme://host[:port]` of a URL or origin, or null. Not `URL.origin`: that is "null" for a custom scheme (app://). */
export function originOf(value: string | undefined): string | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.host ? `${url.protocol}//${url.host}` : null;
  } catch {
    return null;
  }
}

/**
 * `systemAudioArmed`: the person just started a meeting capture whose computer sound the page records with
 * getDisplayMedia (system-audio-capture.ts); for those few seconds the page may also ask for video — a screen share
 * is video and sound, and Electron asks for it as `media` — and the display-media handler decides what it gets.
 */
export function permissionAllowed(query: PermissionQuery, appOrigin: string, systemAudioArmed = false): boolean {
  if (originOf(query.requester) !== appOrigin) return false;
  switch (query.permission) {
    case 'clipboard-sanitized-write':
      return true;
    case 'media':
      return query.mediaTypes.length > 0 && query.mediaTypes.every((type) => type === 'audio' || (systemAudioArmed && type === 'video'));
    case 'display-capture':
      return systemAudioArmed;
    default:
      return false;
  }
}
