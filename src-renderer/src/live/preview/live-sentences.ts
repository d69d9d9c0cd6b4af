/**
 * Speak-as-you-type: the part of the typed text that forms finished sentences (ending in . ! ? … or a line
 * break) and has not been sent yet. The rest waits for more typing or an explicit "Speak".
 */
export function finishedSentences(text: string, sentUpTo: number): { chunk: string; end: number } | null {
  const rest = text.slice(sentUpTo);
  const re = /[.!?…。！？]+["')\]]*\s|\n/g;
  let end = -1;
  for (let m = re.exec(rest); m; m = re.exec(rest)) end = m.index + m[0].length;
  if (end < 0) return null;
  const chunk = rest.slice(0, end).trim();
  return { chunk, end: sentUpTo + end };
}
