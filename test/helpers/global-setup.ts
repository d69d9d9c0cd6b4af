/** Runs once before the suite: tests must never write into a user's real data dir. */
export default function setup(): void {
  process.env.VOXDESK_DATA_DIR ??= '/nonexistent-voxdesk-data-dir-tests-must-pass-their-own';
}
