/** unbzip2-stream ships no types: a factory of a classic duplex stream that decompresses bzip2. */
declare module 'unbzip2-stream' {
  import type { Duplex } from 'node:stream';
  export default function unbzip2Stream(): Duplex;
}
