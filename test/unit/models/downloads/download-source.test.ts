/** Mirror URLs (plain base or template), where settings come from, and the hints added to failed downloads. */
import { describe, expect, it } from 'vitest';
import { currentDownloadSource, downloadHint, mirroredUrl, normaliseMirror } from '../../../../src-main/models/downloads/download-source.js';
import { redactProxy } from '../../../../src-main/models/downloads/download-network.js';
import { PackageError } from '../../../../src-main/common/errors.js';

const UPSTREAM = 'https://github.com/k2-fsa/sherpa-onnx/releases/download/asr-models/sherpa-onnx-whisper-tiny.en.tar.bz2';

describe('model mirrors', () => {
  it('a plain base serves MIRROR/<package id>/<file name>', () => {
    expect(mirroredUrl(normaliseMirror(' https://models.example.com/voxdesk/ '), 'whisper-tiny-en', UPSTREAM)).toBe(
      'https://models.example.com/voxdesk/whisper-tiny-en/sherpa-onnx-whisper-tiny.en.tar.bz2',
    );
  });

  it('templates place the upstream path, host, URL, id and file where a repository manager expects them', () => {
    expect(mirroredUrl('https://artifacts.example.com/github/{path}', 'x', UPSTREAM)).toBe(
      'https://artifacts.example.com/github/k2-fsa/sherpa-onnx/releases/download/asr-models/sherpa-onnx-whisper-tiny.en.tar.bz2',
    );
    expect(mirroredUrl('https://cache.example.com/{host}/{path}', 'x', 'https://huggingface.co/a/b/resolve/main/model.int8.onnx')).toBe(
      'https://cache.example.com/huggingface.co/a/b/resolve/main/model.int8.onnx',
    );
    expect(mirroredUrl('https://proxy.example.com/{url}', 'x', UPSTREAM)).toBe(`https://proxy.example.com/${UPSTREAM}`);
    expect(mirroredUrl('http://10.0.0.5:8080/m/{id}--{file}', 'whisper-tiny-en', UPSTREAM)).toBe('http://10.0.0.5:8080/m/whisper-tiny-en--sherpa-onnx-whisper-tiny.en.tar.bz2');
  });

  it('refuses what is not an http(s) base', () => {
    expect(() => normaliseMirror('models.example.com')).toThrow(/must be an http\(s\) URL/);
    expect(() => normaliseMirror('file:///srv/models')).toThrow(/must be an http\(s\) URL, got file:/);
    expect(() => normaliseMirror('https://m.example.com/{name}')).toThrow(/unknown placeholder/);
    expect(() => normaliseMirror('https://m.example.com/x?token=1')).toThrow(/query or fragment/);
  });
});

describe('where the download source comes from', () => {
  const settings = (values: Record<string, unknown>) => ({ get: <T>(key: string) => Promise.resolve(values[key] as T | undefined) });
  it('a per-run option, then the setting, then the environment', async () => {
    const env = { VOXDESK_MODEL_MIRROR: 'https://env.example', VOXDESK_CA_FILE: '/etc/ca.pem' };
    expect(await currentDownloadSource(settings({}), {}, env)).toEqual({
      mirror: { value: 'https://env.example', from: 'environment' },
      caFile: { value: '/etc/ca.pem', from: 'environment' },
    });
    expect((await currentDownloadSource(settings({ 'models.mirror': 'https://set.example' }), {}, env)).mirror).toEqual({ value: 'https://set.example', from: 'setting' });
    expect((await currentDownloadSource(settings({ 'models.mirror': 'https://set.example' }), { mirror: 'https://flag.example' }, env)).mirror).toEqual({
      value: 'https://flag.example',
      from: 'option',
    });
    expect(await currentDownloadSource(settings({}), {}, {})).toEqual({ mirror: { value: null, from: null }, caFile: { value: null, from: null } });
  });
});

describe('hints on failed downloads', () => {
  const error = (problem: 'unreachable' | 'tls' | 'http' | 'other') => new PackageError('download_failed', 'x', { host: 'github.com', problem });
  it('suggests a mirror or proxy for an unreachable host, a CA file for TLS, and checking the mirror when it failed', () => {
    expect(downloadHint(error('unreachable'), null)).toMatch(/If github\.com is blocked or unreachable from this network, set a model mirror .*HTTPS_PROXY/);
    expect(downloadHint(error('http'), null)).toContain('set a model mirror');
    expect(downloadHint(error('tls'), null)).toMatch(/trust its CA certificate .*--ca-file FILE.*NODE_EXTRA_CA_CERTS/);
    expect(downloadHint(error('unreachable'), 'https://mirror.example')).toContain('The file came from the model mirror https://mirror.example');
    expect(downloadHint(error('other'), null)).toBe('');
  });

  it('proxy URLs are shown without credentials', () => {
    expect(redactProxy('http://user:secret@proxy.example:3128')).toBe('http://proxy.example:3128');
    expect(redactProxy('http://proxy.example:3128/')).toBe('http://proxy.example:3128');
  });
});
