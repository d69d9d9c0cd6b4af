/**
 * `voxdesk models list|pull ID|add URL|cancel ID|import PATH|remove ID|test ID [--data-dir DIR]`: the model manager
 * on the data dir's database directly (no running service needed; a running service sees the result on its next
 * catalogue read); `test` runs an in-process service (model-test-command.ts).
 * Tables and results on stdout; the download progress bar on stderr. Ctrl-C during a pull keeps the partial file:
 * the next `pull` (or the service's next start) resumes it.
 */
import cliProgress from 'cli-progress';
import type { Command } from 'commander';
import { join, resolve } from 'node:path';
import { ApiError } from '../common/errors.js';
import { builtInModels, builtInModelsWanted } from '../models/packages/built-in-models.js';
import { normaliseMirror } from '../models/downloads/download-source.js';
import { MODEL_FAMILIES } from '../common/model-families.js';
import { ModelManager } from '../models/model-manager.js';
import { integerOption } from './options.js';
import { runModelTest, type ModelTestOptions } from './model-test-command.js';
import type { PackageStatus } from '../models/packages/package-status.js';
import { defaultDataDir } from '../service/config.js';
import { openDatabase } from '../store/database.js';
import { createSqliteStore } from '../store/sqlite-store.js';
import { createLog } from '../common/log.js';
import { textSink } from '../common/log-sinks.js';
import { personStream } from './output.js';

interface DataDirOption {
  dataDir?: string;
  /** This run only (not stored): where curated files come from, and extra CAs (see download-source.ts). */
  modelMirror?: string;
  caFile?: string;
}

function withManager<T>(opts: DataDirOption, fn: (manager: ModelManager) => Promise<T>): Promise<T> {
  const dataDir = opts.dataDir ?? defaultDataDir();
  const source = {
    ...(opts.modelMirror ? { mirror: normaliseMirror(opts.modelMirror) } : {}),
    ...(opts.caFile ? { caFile: resolve(opts.caFile) } : {}),
  };
  const file = join(dataDir, 'voxdesk.db');
  const store = createSqliteStore(openDatabase(file), file);
  const opened = ModelManager.open({ dataDir, store, log: createLog(textSink()), ...(builtInModelsWanted() ? { builtIn: builtInModels() } : {}), ...source });
  return opened
    .then((manager) => fn(manager).finally(() => manager.stop()))
    .finally(() => store.close());
}

export function formatSize(bytes: number): string {
  if (bytes >= 1e9) return `${(bytes / 1e9).toFixed(1)} GB`;
  if (bytes >= 1e6) return `${(bytes / 1e6).toFixed(1)} MB`;
  if (bytes >= 1e3) return `${(bytes / 1e3).toFixed(0)} kB`;
  return `${bytes} B`;
}

function stateLabel(p: PackageStatus): string {
  if (p.state === 'downloading' || p.state === 'installing' || p.state === 'importing') return `${p.state} ${Math.round((p.progress ?? 0) * 100)}%`;
  if (p.state === 'failed') return p.source === 'imported' ? `failed (${p.error_code})` : `failed (${p.error_code}); pull again to resume`;
  if (p.built_in) return 'installed (built in)';
  if (p.state === 'installed') return p.verified ? 'installed' : p.source === 'imported' ? 'installed (imported)' : 'installed (unverified)';
  return p.progress !== null ? `paused ${Math.round(p.progress * 100)}%` : 'not installed';
}

export function formatTable(packages: PackageStatus[]): string {
  const rows = [
    ['ID', 'CAPABILITY', 'LANGUAGES', 'SIZE', 'STATE'],
    ...packages.map((p) => {
      const langs = p.languages.length > 4 ? `${p.languages.slice(0, 3).join(',')},+${p.languages.length - 3}` : p.languages.join(',') || '-';
      return [p.id, p.capability ?? 'unknown', langs, formatSize(p.size_bytes), stateLabel(p)];
    }),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ')).join('\n') + '\n';
}

async function pull(manager: ModelManager, id: string, acceptUnconfirmed: boolean): Promise<void> {
  const initial = manager.pull(id, { acceptUnconfirmed });
  if (initial.installed) {
    process.stdout.write(`${id} is already installed in ${initial.dir}\n`);
    return;
  }
  const bar = new cliProgress.SingleBar(
    { stream: personStream, format: `${id} [{bar}] {percentage}% {done}/{total} {state}`, hideCursor: true, clearOnComplete: false },
    cliProgress.Presets.shades_classic,
  );
  const total = initial.size_bytes;
  bar.start(total, initial.downloaded_bytes ?? 0, { done: formatSize(initial.downloaded_bytes ?? 0), total: formatSize(total), state: initial.state });
  const onProgress = (p: PackageStatus) => {
    if (p.id !== id) return;
    const done = p.downloaded_bytes ?? 0;
    bar.update(Math.min(done, total), { done: formatSize(done), state: p.state });
  };
  manager.on('progress', onProgress);
  let interrupted = false;
  const onSigint = () => {
    interrupted = true;
    void manager.stop();
  };
  process.once('SIGINT', onSigint);
  let failure: { code: string; message: string } | null = null;
  const onFailed = (f: { id: string; code: string; message: string }) => {
    if (f.id === id) failure = f;
  };
  manager.on('failed', onFailed);
  try {
    const model = await manager.whenDone(id);
    if (model) {
      bar.update(total, { done: formatSize(total), state: 'installed' });
      bar.stop();
      process.stdout.write(`${id} installed in ${model.dir}${model.verified ? '' : ' (unverified: no published sha256)'}\n`);
      return;
    }
    bar.stop();
    if (interrupted) throw new Error(`${id}: download paused; run voxdesk models pull ${id} again to resume`);
    const f = failure as { code: string; message: string } | null;
    throw new Error(f ? `${id}: ${f.code}: ${f.message}` : `${id}: the download did not finish`);
  } finally {
    bar.stop();
    process.off('SIGINT', onSigint);
    manager.off('progress', onProgress);
    manager.off('failed', onFailed);
  }
}

function cliError(err: unknown): never {
  if (err instanceof ApiError) throw new Error(`${err.code}: ${err.message}`);
  throw err;
}

export function registerModelsCommand(program: Command): void {
  const models = program.command('models').description('download, import and remove on-device models');
  const dataDirFlag = ['--data-dir <dir>', 'data dir (default $VOXDESK_DATA_DIR or the OS app-data dir)'] as const;
  const mirrorFlag = ['--model-mirror <url>', 'this run: fetch curated files from this mirror (default the models.mirror setting, else $VOXDESK_MODEL_MIRROR)'] as const;
  const caFileFlag = ['--ca-file <file>', 'this run: PEM file of extra CAs to trust (default the models.ca_file setting, else $VOXDESK_CA_FILE)'] as const;

  models
    .command('list')
    .description('list curated and imported models with their install state')
    .option(...dataDirFlag)
    .option('--json', 'print JSON instead of a table')
    .action((opts: DataDirOption & { json?: boolean }) =>
      withManager(opts, async (manager) => {
        const list = manager.list();
        process.stdout.write(opts.json ? `${JSON.stringify(list, null, 2)}\n` : formatTable(list));
      }),
    );

  models
    .command('pull')
    .description('download, verify and install a curated model (resumes an interrupted download)')
    .argument('<id>', 'model id (see voxdesk models list)')
    .option(...dataDirFlag)
    .option(...mirrorFlag)
    .option(...caFileFlag)
    .option('--accept-unconfirmed', 'install a curated model whose checksum no published source confirms (unverified; the sha256 of what arrived is recorded)')
    .action((id: string, opts: DataDirOption & { acceptUnconfirmed?: boolean }) =>
      withManager(opts, (manager) => pull(manager, id, opts.acceptUnconfirmed === true).catch(cliError)));

  models
    .command('add')
    .description('add a model from any URL (a .tar.bz2/.tar.gz sherpa-onnx archive or an .onnx file) and download it like a curated one')
    .argument('<url>', 'where the file is downloaded from')
    .requiredOption('--sha256 <hex>', 'sha256 of the file (sha256sum FILE): a different download is refused and deleted')
    .option('--id <id>', 'model id (default: the file name without its extensions)')
    .option('--name <name>', 'display name (default: the id)')
    .option('--family <family>', `skip detection: ${MODEL_FAMILIES.join(', ')}`)
    .option('--size <bytes>', 'size of the file when known (progress before the server says)', integerOption(1, Number.MAX_SAFE_INTEGER))
    .option('--language <code...>', 'language codes the model speaks')
    .option(...dataDirFlag)
    .option(...caFileFlag)
    .action((url: string, opts: DataDirOption & { sha256: string; id?: string; name?: string; family?: string; size?: number; language?: string[] }) =>
      withManager(opts, async (manager) => {
        try {
          const added = await manager.addFromUrl({
            url,
            sha256: opts.sha256,
            ...(opts.id ? { id: opts.id } : {}),
            ...(opts.name ? { name: opts.name } : {}),
            ...(opts.family ? { family: opts.family } : {}),
            ...(opts.size ? { size_bytes: opts.size } : {}),
            ...(opts.language ? { languages: opts.language } : {}),
          });
          await pull(manager, added.id, false);
        } catch (err) {
          cliError(err);
        }
      }),
    );

  models
    .command('cancel')
    .description('cancel a download and delete its partial files')
    .argument('<id>', 'model id')
    .option(...dataDirFlag)
    .action((id: string, opts: DataDirOption) =>
      withManager(opts, async (manager) => {
        try {
          await manager.cancel(id);
          process.stdout.write(`${id}: download cancelled\n`);
        } catch (err) {
          cliError(err);
        }
      }),
    );

  models
    .command('import')
    .description('import a sherpa-onnx model folder (or .onnx file) from disk; the family is detected from its files')
    .argument('<path>', 'model folder or .onnx file')
    .option('--id <id>', 'model id (default: the folder name)')
    .option('--family <family>', `skip detection: ${MODEL_FAMILIES.join(', ')}`)
    .option('--name <name>', 'display name (default: the id)')
    .option('--language <code...>', 'language codes the model speaks')
    .option(...dataDirFlag)
    .action((path: string, opts: DataDirOption & { id?: string; family?: string; name?: string; language?: string[] }) =>
      withManager(opts, async (manager) => {
        try {
          const model = await manager.importPath(path, {
            ...(opts.id ? { id: opts.id } : {}),
            ...(opts.family ? { family: opts.family } : {}),
            ...(opts.name ? { name: opts.name } : {}),
            ...(opts.language ? { languages: opts.language } : {}),
          });
          process.stdout.write(`${model.id}: imported ${model.family} model into ${model.dir}\n`);
        } catch (err) {
          cliError(err);
        }
      }),
    );

  models
    .command('test')
    .description('check a model: transcribe the built-in sample recording, or speak the built-in sentence; prints the result and the real-time factor')
    .argument('<id>', 'model id (an installed one, or any available catalogue model)')
    .option('--out <file>', 'voices and denoisers: save the audio made here')
    .option('--json', 'print the report as JSON')
    .option(...dataDirFlag)
    .action((id: string, opts: ModelTestOptions) => runModelTest(id, opts));

  models
    .command('remove')
    .description('delete an installed model (queued jobs for it then fail with model_unavailable)')
    .argument('<id>', 'model id')
    .option(...dataDirFlag)
    .action((id: string, opts: DataDirOption) =>
      withManager(opts, async (manager) => {
        try {
          await manager.remove(id);
          process.stdout.write(`${id}: removed\n`);
        } catch (err) {
          cliError(err);
        }
      }),
    );
}
