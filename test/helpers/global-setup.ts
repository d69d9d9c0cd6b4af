/**
 * Runs once before the suite: tests must never write into a user's real data dir, nor into the OS keyring of the
 * developer running them (secrets seal with each temp data dir's key file; the keyring test starts its own keyring).
 * It also names the run (VOXDESK_TEST_RUN, inherited by the worker processes) so the private PostgreSQL clusters the
 * workers start (postgres.ts) are stopped and removed when it ends, with any a dead run left behind.
 */
import { removeClusters } from './postgres.js';

export default function setup(): () => void {
  process.env.VOXDESK_DATA_DIR ??= '/nonexistent-voxdesk-data-dir-tests-must-pass-their-own';
  process.env.VOXDESK_SECRET_STORE ??= 'key-file';
  process.env.VOXDESK_TEST_RUN = String(process.pid);
  removeClusters(String(process.pid));
  return () => removeClusters(String(process.pid));
}
