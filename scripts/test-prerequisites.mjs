#!/usr/bin/env node
// Before `npm test`: the system programs the tests drive for real (Chromium, PocketSphinx, PulseAudio, ffmpeg,
// PostgreSQL).
// On Debian/Ubuntu a missing one is installed with .ci/system-packages.sh (as root, or through sudo); elsewhere
// the test run stops here and says what to install. Tests never skip for a missing program.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';

const needs = [
  { what: 'Chromium (browser tests)', ok: () => existsSync('/usr/bin/chromium') },
  { what: 'PocketSphinx and its US English model', ok: () => has('pocketsphinx_continuous') && existsSync('/usr/share/pocketsphinx/model/en-us') },
  { what: 'PulseAudio with parec (virtual sound device)', ok: () => has('pulseaudio') && has('parec') },
  { what: 'ffmpeg and ffprobe (decoding)', ok: () => has('ffmpeg') && has('ffprobe') },
  { what: 'sox (audio fixtures)', ok: () => has('sox') },
  { what: 'curl (the browser-login test calls the service as a script would)', ok: () => has('curl') },
  { what: 'GNOME Keyring and dbus-run-session (the OS-keyring secrets test)', ok: () => has('gnome-keyring-daemon') && has('dbus-run-session') },
  {
    what: 'Xvfb, xdpyinfo, xdotool, xclip and Tk (the dictate-anywhere test)',
    ok: () => has('Xvfb') && has('xdpyinfo') && has('xdotool') && has('xclip') && spawnSync('/usr/bin/python3', ['-c', 'import tkinter'], { stdio: 'ignore' }).status === 0,
  },
  {
    what: 'FUSE 3 and Debian\'s python3-pyfuse3 (the power-cut test)',
    ok: () => has('fusermount3') && spawnSync('/usr/bin/python3', ['-c', 'import pyfuse3'], { stdio: 'ignore' }).status === 0,
  },
  {
    what: 'PostgreSQL 15 or newer (the PostgreSQL store\'s tests start private servers with its initdb and pg_ctl)',
    ok: () => postgresVersions().length > 0,
  },
];

/** Debian's layout: /usr/lib/postgresql/N/bin/initdb (what test/helpers/postgres.ts runs). */
function postgresVersions() {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return [];
  return readdirSync(root).filter((v) => Number(v) >= 15 && existsSync(`${root}/${v}/bin/initdb`));
}

function has(command) {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

const missing = needs.filter((n) => !n.ok());
if (missing.length === 0) process.exit(0);

console.error(`Missing for the tests: ${missing.map((m) => m.what).join('; ')}.`);
if (!has('apt-get')) {
  console.error('Install them with your package manager (Debian package names are in .ci/system-packages.sh).');
  process.exit(1);
}
const root = typeof process.getuid === 'function' && process.getuid() === 0;
const command = root ? ['bash', ['.ci/system-packages.sh']] : ['sudo', ['bash', '.ci/system-packages.sh']];
if (!root && !has('sudo')) {
  console.error('Run as root: bash .ci/system-packages.sh');
  process.exit(1);
}
console.error(`Installing them: ${[command[0], ...command[1]].join(' ')}`);
try {
  execFileSync(command[0], command[1], { stdio: 'inherit' });
} catch {
  process.exit(1);
}
const still = needs.filter((n) => !n.ok());
if (still.length > 0) {
  console.error(`Still missing after the install: ${still.map((m) => m.what).join('; ')}.`);
  process.exit(1);
}
