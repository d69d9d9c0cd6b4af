// Preloaded (--import) into children of the fake utilityProcess (fake-utility-process.ts): gives the child
// `process.parentPort` as Electron's utility processes have it, over the fork IPC channel underneath. Like
// Electron's, the port queues messages until a 'message' listener is registered, and wraps each in `{ data }`.
import { EventEmitter } from 'node:events';
import process from 'node:process';

const port = new EventEmitter();
const queued = [];
let listening = false;
port.postMessage = (message) => process.send(message);
port.on('newListener', (event) => {
  if (event !== 'message' || listening) return;
  listening = true;
  process.nextTick(() => {
    for (const message of queued.splice(0)) port.emit('message', { data: message });
  });
});
process.on('message', (message) => {
  if (listening) port.emit('message', { data: message });
  else queued.push(message);
});
process.parentPort = port;
