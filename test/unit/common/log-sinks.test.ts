import { describe, expect, it } from 'vitest';
import { createLog } from '../../../src-main/common/log.js';
import { atLeast, jsonSink, textSink } from '../../../src-main/common/log-sinks.js';

describe('log sinks', () => {
  it('text: the message as it is, with the time and the scope only when asked', () => {
    const written: string[] = [];
    createLog(textSink({ write: (line) => written.push(line) })).child('watch').info('folder added');
    createLog(textSink({ write: (line) => written.push(line), scopes: true, timestamps: true })).child('watch').warn('folder gone');
    expect(written[0]).toBe('folder added\n');
    expect(written[1]).toMatch(/^\[\d{4}-\d\d-\d\dT[^\]]+\] watch: folder gone\n$/);
  });

  it('json: one object a line with the level, the process fields, the scope and the line fields', () => {
    const written: string[] = [];
    createLog(jsonSink({ role: 'worker', node: 'n1' }, (line) => written.push(line))).child('jobs').error('failed', { job: 'job_1' });
    expect(JSON.parse(written[0]!)).toMatchObject({ level: 'error', role: 'worker', node: 'n1', scope: 'jobs', msg: 'failed', job: 'job_1' });
  });

  it('atLeast: a command says what went wrong and nothing of its routine', () => {
    const written: string[] = [];
    const log = createLog(atLeast('warn', textSink({ write: (line) => written.push(line) })));
    log.info('worker 0: started pid 1');
    log.warn('a model could not be loaded');
    log.error('the database is locked');
    expect(written).toEqual(['a model could not be loaded\n', 'the database is locked\n']);
  });
});
