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

export const WATCH_FOLDERS_ROLE = 'watch-folders';

export interface WatchFolderOwnership {
  /** Resolves once this node's first claim settled: watching if it took the role. */
  ready: Promise<void>;
  /** Stops following the settings and gives the role up; the caller stops the WatchService. */
  release(): Promise<void>;
}

export function ownWatchFolders(store: Store, watch: WatchService, options: { followMs: number | null; log: (message: string) => void }): WatchFolderOwnership {
  let follow: NodeJS.Timeout | null = null;
  let settle!: () => void;
  const ready = new Promise<void>((resolve) => (settle = resolve));
  const claim: RoleClaim = store.claimRole(WATCH_FOLDERS_ROLE, {
    gained: async () => {
      if (options.followMs !== null) options.log('this node now watches the watch folders');
      try {
        await watch.start();
      } finally {
        settle();
      }
      if (options.followMs !== null) {
        follow = setInterval(() => void watch.refresh().catch((error: Error) => options.log(`watch folders: the saved list could not be read: ${error.message}`)), options.followMs);
        follow.unref();
      }
    },
    lost: async () => {
      options.log('this node lost the database connection that made it the watch folders’ owner: it stops watching them');
      if (follow) clearInterval(follow);
      follow = null;
      await watch.stop();
    },
  });
  // A node that does not get the role at once starts without waiting for it.
  if (store.dialect !== 'sqlite') setTimeout(settle, 0);
  return {
    ready,
    async release() {
      if (follow) clearInterval(follow);
      follow = null;
      await claim.release();
    },
  };
}
