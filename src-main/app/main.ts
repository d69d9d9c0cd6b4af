/**
 * Electron main process entry: hands the real Electron API and electron-updater's updater to desktop-app.ts, where
 * everything the main process does lives (written against electron-api.ts, so it is tested under Node). The compiler
 * checks here that Electron's API has the shape desktop-app.ts is written against.
 */
import * as electron from 'electron';
import updater from 'electron-updater';
import { installLastResortHandlers } from '../service/last-resort.js';
import { runDesktopApp } from './desktop-app.js';
import type { ElectronApi } from './electron-api.js';
import { createLog } from '../common/log.js';
import { textSink } from '../common/log-sinks.js';

// The service runs in this process: an error nothing caught is logged and survived (last-resort.ts), not a dialog
// over a dead app with every running job and live session gone.
installLastResortHandlers({ log: createLog(textSink({ timestamps: true })) });

const api: ElectronApi<electron.BrowserWindow> = electron;
// A failed start has shown its dialog and exits with code 1 (desktop-app.ts).
runDesktopApp({ electron: api, updater: updater.autoUpdater }).ready.catch(() => {});
