/** The name a meeting capture's job gets: "Meeting 2026-11-23 14:00 UTC" (when it started), as dictations get theirs. */
export function meetingJobName(startedAt: Date): string {
  return `Meeting ${startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}
