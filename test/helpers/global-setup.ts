/**
 * Runs once before the suite: tests must never write into a user's real data dir, nor into the OS keyring of the
 * developer running them (secrets seal with each temp data dir's key file; the keyring test starts its own keyring).
 */
export default function setup(): void {
  process.env.VOXDESK_DATA_DIR ??= '/nonexistent-voxdesk-data-dir-tests-must-pass-their-own';
  process.env.VOXDESK_SECRET_STORE ??= 'key-file';
}
