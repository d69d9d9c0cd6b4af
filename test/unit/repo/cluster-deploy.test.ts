/**
 * deploy/compose.yaml and deploy/Dockerfile (docs/cluster.md) cannot be run on the build machines (no Docker, no
 * registry), so they are checked for what makes a cluster work: PostgreSQL 15 or newer, two API nodes and two
 * workers on one database, the same storage volume at the same path on every node (rows store absolute paths), a
 * data volume of each node's own, every command line accepted by the voxdesk CLI itself, a stop grace longer than
 * the drain, and an image that runs the compiled build as a user without root.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../../../', import.meta.url).pathname;
// js-yaml: electron-builder's own YAML reader (a dependency of app-builder-lib); it applies `<<` merge keys.
const yaml = createRequire(import.meta.url)('js-yaml') as { load(text: string): unknown };

interface Service {
  image?: string;
  build?: { context: string; dockerfile: string };
  command?: string[];
  environment?: Record<string, string>;
  volumes?: string[];
  ports?: string[];
  depends_on?: Record<string, { condition: string }>;
  stop_grace_period?: string;
}
const compose = yaml.load(readFileSync(join(ROOT, 'deploy', 'compose.yaml'), 'utf8')) as { services: Record<string, Service>; volumes: Record<string, unknown> };
const dockerfile = readFileSync(join(ROOT, 'deploy', 'Dockerfile'), 'utf8');
const nodes = Object.entries(compose.services).filter(([, s]) => s.command?.[0] === 'serve' || s.command?.[0] === 'worker');

/** The long options `voxdesk <role> --help` lists. */
function cliOptions(role: string): Set<string> {
  const help = execFileSync(process.execPath, [join(ROOT, 'bin', 'voxdesk.js'), role, '--help'], { encoding: 'utf8' });
  return new Set([...help.matchAll(/--[a-z][a-z-]*/g)].map((m) => m[0]));
}

describe('the cluster compose file', () => {
  it('runs PostgreSQL 15 or newer, two API nodes and two workers from the image built from this checkout', () => {
    const postgres = compose.services.postgres!;
    expect(Number(/^postgres:(\d+)/.exec(postgres.image!)?.[1])).toBeGreaterThanOrEqual(15);
    expect(nodes.filter(([, s]) => s.command![0] === 'serve')).toHaveLength(2);
    expect(nodes.filter(([, s]) => s.command![0] === 'worker')).toHaveLength(2);
    for (const [name, service] of nodes) {
      expect(service.build, name).toEqual({ context: '..', dockerfile: 'deploy/Dockerfile' });
      expect(service.depends_on, name).toEqual({ postgres: { condition: 'service_healthy' } });
    }
  });

  it('points every node at the database and the same storage, each with a data volume of its own', () => {
    const pgEnv = compose.services.postgres!.environment!;
    const dataVolumes = new Set<string>();
    for (const [name, service] of nodes) {
      const env = service.environment!;
      const url = new URL(env.VOXDESK_DATABASE_URL!);
      expect({ host: url.hostname, user: url.username, password: url.password, db: url.pathname.slice(1) }, name).toEqual({
        host: 'postgres', user: pgEnv.POSTGRES_USER, password: pgEnv.POSTGRES_PASSWORD, db: pgEnv.POSTGRES_DB,
      });
      expect(env.VOXDESK_API_KEY, name).toMatch(/^\$\{VOXDESK_API_KEY:\?/);
      // Every node the same sealing key for a hosted service's key (docs/cluster.md, Hosted forwarding).
      expect(env.VOXDESK_SECRETS_KEY, name).toBe('${VOXDESK_SECRETS_KEY:-}');
      expect(service.volumes, name).toContain(`storage:${env.VOXDESK_STORAGE}`);
      const data = service.volumes!.find((v) => v.endsWith(':/var/lib/voxdesk'))!;
      expect(data, name).toBeDefined();
      dataVolumes.add(data.split(':')[0]!);
      for (const volume of service.volumes!) expect(Object.keys(compose.volumes), name).toContain(volume.split(':')[0]);
    }
    expect(dataVolumes.size).toBe(nodes.length);
  });

  it('gives every node a command line the voxdesk CLI accepts, and more stop grace than its drain', () => {
    const known = { serve: cliOptions('serve'), worker: cliOptions('worker') };
    for (const [name, service] of nodes) {
      const [role, ...args] = service.command!;
      for (const option of args.filter((a) => a.startsWith('--'))) expect(known[role as 'serve' | 'worker'].has(option), `${name}: ${option}`).toBe(true);
      const drain = Number(args[args.indexOf('--shutdown-grace') + 1]);
      expect(parseInt(service.stop_grace_period!, 10), name).toBeGreaterThan(drain);
    }
    // The API nodes listen on every interface inside their container, on the port they publish.
    for (const [name, service] of nodes.filter(([, s]) => s.command![0] === 'serve')) {
      const args = service.command!;
      expect(args[args.indexOf('--host') + 1], name).toBe('0.0.0.0');
      expect(service.ports![0]!.split(':')[1], name).toBe(args[args.indexOf('--port') + 1]);
    }
  });
});

describe('the node image', () => {
  it('builds the compiled service and runs it as a user without root, through tini so SIGTERM drains', () => {
    expect(dockerfile).toMatch(/^FROM node:20-bookworm-slim AS build$/m);
    expect(dockerfile).toMatch(/ENV ELECTRON_SKIP_BINARY_DOWNLOAD=1/);
    expect(dockerfile).toMatch(/RUN npm run build && npm prune --omit=dev/);
    for (const copied of ['package.json', 'bin', 'dist', 'resources', 'node_modules']) expect(dockerfile).toContain(`COPY --from=build /src/${copied} ./`);
    for (const path of ['package.json', 'bin/voxdesk.js', 'resources']) expect(existsSync(join(ROOT, path)), path).toBe(true);
    // bin/voxdesk.js runs dist/ when the TypeScript sources are absent, as in the image.
    expect(readFileSync(join(ROOT, 'bin', 'voxdesk.js'), 'utf8')).toContain("join(root, 'dist', 'src-main', 'cli', 'main.js')");
    expect(JSON.parse(readFileSync(join(ROOT, 'tsconfig.build.json'), 'utf8')).extends).toBe('./tsconfig.json');
    expect(readFileSync(join(ROOT, 'tsconfig.json'), 'utf8')).toMatch(/"outDir": "dist"/);
    expect(dockerfile).toMatch(/^USER voxdesk$/m);
    expect(dockerfile).toMatch(/ENTRYPOINT \["\/usr\/bin\/tini", "--", "node", "\/opt\/voxdesk\/bin\/voxdesk.js"\]/);
    for (const pkg of ['libpocketsphinx3', 'pocketsphinx-en-us', 'ffmpeg', 'libasound2', 'tini']) expect(dockerfile).toMatch(new RegExp(`install -y --no-install-recommends [^\\n]*\\b${pkg}\\b`));
    expect(readFileSync(join(ROOT, 'deploy', 'Dockerfile.dockerignore'), 'utf8').split('\n')).toEqual(expect.arrayContaining(['node_modules', 'dist', '.git']));
  });
});
