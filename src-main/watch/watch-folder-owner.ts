/**
 * Who watches the folders. On the desktop and a plain `voxdesk serve` (SQLite) that is the service itself, from the
 * start. In a cluster every API node runs a WatchService, but only the node holding the store's `watch-folders` role
 * (store.claimRole: one node at a time) watches — two nodes watching one shared folder would both queue its files.
 * The owner reads the saved folder list again every `followMs`, so a list saved through another node applies; when
 * the owner dies or loses the database, another node takes the role over and starts watching, picking up where the
 * records say the folders stand (files seen before are not queued again).
 */
import type { RoleClaim, Store } from '../store/store.js';
import type { WatchService } from './watch-service.js';
import type { Log } from '../common/log.js';

export const WATCH_FOLDERS_ROLE = 'watch-folders';

export interface WatchFolderOwnership {
  /** Resolves once this node's first claim settled: watching if it took the role. */
  ready: Promise<void>;
  /** Stops following the settings and gives the role up; the caller stops the WatchService. */
  release(): Promise<void>;
}

export function ownWatchFolders(store: Store, watch: WatchService, options: { followMs: number | null; log: Log }): WatchFolderOwnership {
  let follow: NodeJS.Timeout | null = null;
  let settle!: () => void;
  let fail!: (error: unknown) => void;
  let settled = false;
  const ready = new Promise<void>((resolve, reject) => {
    settle = () => {
      settled = true;
      resolve();
    };
    fail = (error) => {
      settled = true;
      reject(error as Error);
    };
  });
  const claim: RoleClaim = store.claimRole(WATCH_FOLDERS_ROLE, {
    gained: async () => {
      if (options.followMs !== null) options.log.info('this node now watches the watch folders');
      try {
        await watch.start();
      } catch (error) {
        // At start (SQLite: the role is this process's at once) the service's start fails with it, as it always did;
        // a node that took the role over later keeps serving and says why it does not watch.
        if (settled) options.log.info(`watch folders could not be started: ${(error as Error).message}`);
        fail(error);
        return;
      }
      settle();
      if (options.followMs !== null) {
        follow = setInterval(() => void watch.refresh().catch((error: Error) => options.log.info(`watch folders: the saved list could not be read: ${error.message}`)), options.followMs);
        follow.unref();
      }
    },
    lost: async () => {
      options.log.info('this node lost the database connection that made it the watch folders’ owner: it stops watching them');
      if (follow) clearInterval(follow);
      follow = null;
      await watch.stop();
    },
  });
  // A node that does not get the role at once starts without waiting for it.
  if (store.dialect !== 'sqlite') setTimeout(() => settled || settle(), 0);
  return {
    ready,
    async release() {
      if (follow) clearInterval(follow);
      follow = null;
      await claim.release();
    },
  };
}
