/** electron-builder.yml is valid for electron-builder itself (its own JSON schema) and packs what the app needs. */
import { Ajv } from 'ajv';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../../../', import.meta.url).pathname;
const require = createRequire(import.meta.url);
// js-yaml is electron-builder's own YAML reader (a dependency of app-builder-lib).
const yaml = require('js-yaml') as { load(text: string): unknown };

const config = yaml.load(readFileSync(join(ROOT, 'electron-builder.yml'), 'utf8')) as Record<string, unknown>;

describe('electron-builder.yml', () => {
  it('validates against app-builder-lib/scheme.json', () => {
    const schema = JSON.parse(readFileSync(join(ROOT, 'node_modules', 'app-builder-lib', 'scheme.json'), 'utf8')) as object;
    const ajv = new Ajv({ allErrors: true, strict: false });
    const validate = ajv.compile(schema);
    const ok = validate(config);
    expect(validate.errors ?? [], JSON.stringify(validate.errors, null, 2)).toEqual([]);
    expect(ok).toBe(true);
    // The schema really is strict: a misspelt option fails.
    expect(validate({ ...config, asarUnpak: ['x'] })).toBe(false);
  });

  it('builds AppImage + deb, dmg and nsis', () => {
    expect((config.linux as { target: string[] }).target).toEqual(['AppImage', 'deb']);
    expect((config.mac as { target: string[] }).target).toEqual(['dmg']);
    expect((config.win as { target: string[] }).target).toEqual(['nsis']);
  });

  it('ships the Electron builds of natives/ unpacked, the Node-API modules as npm built them, and rebuilds nothing itself', () => {
    const unpack = config.asarUnpack as string[];
    expect(unpack).toContain('natives/**/*');
    for (const name of ['naudiodon', 'sherpa-onnx-*', 'koffi', '@napi-rs/keyring*']) {
      expect(unpack).toContain(`node_modules/${name}/**/*`);
    }
    const files = config.files as string[];
    expect(files).toContain('natives/**/*');
    // One mechanism (npm run natives:electron, which npm run dist runs first), not a second rebuild in node_modules.
    expect(config.npmRebuild).toBe(false);
    const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    expect(scripts.dist).toMatch(/^npm run natives:electron && /);
    expect(scripts.app).toMatch(/^npm run natives:electron && /);
  });

  it('publishes to GitHub releases, where electron-updater looks for updates', () => {
    expect(config.publish).toEqual([{ provider: 'github', releaseType: 'release' }]);
  });

  it('flips the security fuses and registers no URL scheme it does not handle', () => {
    expect(config.electronFuses).toEqual({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      onlyLoadAppFromAsar: true,
      enableEmbeddedAsarIntegrityValidation: true,
      grantFileProtocolExtraPrivileges: false,
      enableCookieEncryption: true,
    });
    expect(config.asar).toBe(true); // onlyLoadAppFromAsar needs it
    expect(config.protocols).toBeUndefined();
  });

  it('ships the compiled main process, the built renderer and resources', () => {
    const files = config.files as string[];
    expect(files).toEqual(expect.arrayContaining(['dist/**/*', 'src-renderer/dist/**/*', 'resources/**/*']));
    expect((config.extraMetadata as { main: string }).main).toBe('dist/src-main/app/main.js');
    const icon = (config.linux as { icon: string }).icon;
    expect(readFileSync(join(ROOT, icon)).subarray(1, 4).toString()).toBe('PNG');
  });
});
