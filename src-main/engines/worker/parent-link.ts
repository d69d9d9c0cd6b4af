/**
 * The child's side of process-launcher.ts: how a worker or voice process talks to the process that started it.
 * Started by `child_process.fork` it has `process.send` and an IPC channel; started by Electron's
 * `utilityProcess.fork` it has `process.parentPort` instead (messages arrive wrapped in `{ data }`). Typed here
 * structurally: the engines never import electron.
 */

interface ElectronParentPort {
  on(event: 'message', listener: (event: { data: unknown }) => void): unknown;
  postMessage(message: unknown): void;
}

export interface ParentLink {
  send(message: unknown): void;
  onMessage(listener: (message: unknown) => void): void;
  /**
   * Called when the parent is gone (a forked child's IPC channel closed, even after kill -9 of the parent). A
   * utility process needs no such hook: Electron ends it with the app.
   */
  onParentGone(listener: () => void): void;
}

export function parentLink(): ParentLink {
  const port = (process as { parentPort?: ElectronParentPort }).parentPort;
  if (port) {
    return {
      send: (message) => port.postMessage(message),
      onMessage: (listener) => void port.on('message', (event) => listener(event.data)),
      onParentGone: () => {},
    };
  }
  return {
    send: (message) => void process.send?.(message),
    onMessage: (listener) => void process.on('message', listener),
    onParentGone: (listener) => void process.on('disconnect', listener),
  };
}
