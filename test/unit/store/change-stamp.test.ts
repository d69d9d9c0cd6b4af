import { describe, expect, it } from 'vitest';
import { createChangeStamp } from '../../../src-main/store/change-stamp.js';
import { useTwoConnections } from '../../helpers/two-connections.js';

const connections = useTwoConnections('CREATE TABLE IF NOT EXISTS t (a INTEGER)');

describe('change stamp', () => {
  it('stands still while nothing is written, reads included', () => {
    const changes = createChangeStamp(connections.db);
    const stamp = changes.take();
    connections.db.prepare('SELECT * FROM t').all();
    connections.other.prepare('SELECT * FROM t').all();
    expect(changes.unchanged(stamp)).toBe(true);
  });

  it('moves on a write of this connection, committed or not', () => {
    const changes = createChangeStamp(connections.db);
    let stamp = changes.take();
    connections.db.prepare('INSERT INTO t VALUES (1)').run();
    expect(changes.unchanged(stamp)).toBe(false);
    stamp = changes.take();
    connections.db.prepare('UPDATE t SET a = 2').run();
    expect(changes.unchanged(stamp)).toBe(false);
    stamp = changes.take();
    expect(() =>
      connections.db.transaction(() => {
        connections.db.prepare('DELETE FROM t').run();
        throw new Error('rolled back');
      })(),
    ).toThrow('rolled back');
    // A rolled-back write only costs a needless rebuild.
    expect(changes.unchanged(stamp)).toBe(false);
  });

  it('moves when another connection commits (a worker process, `voxdesk keys revoke`, a second instance)', () => {
    const changes = createChangeStamp(connections.db);
    const stamp = changes.take();
    connections.other.prepare('INSERT INTO t VALUES (1)').run();
    expect(changes.unchanged(stamp)).toBe(false);
  });

  it('does not move for a write that changed no row', () => {
    const changes = createChangeStamp(connections.db);
    const stamp = changes.take();
    connections.db.prepare('UPDATE t SET a = 3 WHERE a = 99').run();
    expect(changes.unchanged(stamp)).toBe(true);
  });
});
