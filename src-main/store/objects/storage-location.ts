/**
 * Where a node keeps uploads, recordings, artifacts and models: a folder (the data dir, or a folder every node of a
 * cluster mounts at the same path) or an S3-compatible bucket (`--storage s3://bucket/prefix`, with
 * `--storage-endpoint URL` for a service other than AWS). Parsed once at start, so a bad value stops the start with
 * what is accepted instead of failing the first job.
 */
export type StorageLocation =
  | { kind: 'folder'; dir: string }
  | {
      kind: 's3';
      bucket: string;
      /** The objects' common key prefix, without a leading or trailing slash ('' for the bucket's root). */
      prefix: string;
      /** An S3-compatible service's URL (path-style addressing); null for AWS itself. */
      endpoint: string | null;
    };

/** A bucket location (`--storage s3://…`). */
export type S3Location = Extract<StorageLocation, { kind: 's3' }>;

const ACCEPTED = 'a folder path, or s3://BUCKET or s3://BUCKET/PREFIX (an S3 bucket name: 3-63 lowercase letters, digits, dots and hyphens)';

/** S3's bucket naming rules (the ones every S3-compatible service keeps). */
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/** Throws an Error naming the bad value and what is accepted. */
export function parseStorageLocation(value: string, endpoint?: string): StorageLocation {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(value);
  if (!scheme) {
    if (endpoint) throw new Error(`--storage-endpoint is for S3 storage only: give --storage s3://BUCKET/PREFIX with it, or leave it out (got --storage ${value})`);
    return { kind: 'folder', dir: value };
  }
  if (scheme[1]!.toLowerCase() !== 's3') throw new Error(`--storage: ${scheme[1]}:// is not supported; it takes ${ACCEPTED} (got ${value})`);
  const rest = value.slice(scheme[0].length);
  const slash = rest.indexOf('/');
  const bucket = slash === -1 ? rest : rest.slice(0, slash);
  const prefix = slash === -1 ? '' : rest.slice(slash + 1).replace(/\/+$/, '');
  if (!BUCKET.test(bucket) || bucket.includes('..')) throw new Error(`--storage: "${bucket}" is not a bucket name; it takes ${ACCEPTED} (got ${value})`);
  const segments = prefix === '' ? [] : prefix.split('/');
  if (segments.some((segment) => segment === '' || segment === '.' || segment === '..')) {
    throw new Error(`--storage: the prefix "${prefix}" has an empty, "." or ".." part; it takes ${ACCEPTED} (got ${value})`);
  }
  if (prefix.includes('\\') || [...prefix].some((ch) => ch.charCodeAt(0) < 0x20)) throw new Error(`--storage: the prefix may not hold backslashes or control characters; it takes ${ACCEPTED} (got ${value})`);
  return { kind: 's3', bucket, prefix, endpoint: endpoint ? parseEndpoint(endpoint) : null };
}

function parseEndpoint(endpoint: string): string {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new Error(`--storage-endpoint takes the URL of an S3-compatible service, e.g. http://127.0.0.1:9000 (got ${endpoint})`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`--storage-endpoint must be an http:// or https:// URL (got ${endpoint})`);
  if (url.search || url.hash) throw new Error(`--storage-endpoint takes no query or fragment (got ${endpoint})`);
  return url.toString().replace(/\/$/, '');
}

/** How a location reads in messages and logs (never a secret: credentials come from the AWS variables). */
export function describeLocation(location: StorageLocation): string {
  if (location.kind === 'folder') return location.dir;
  return `s3://${location.bucket}${location.prefix ? `/${location.prefix}` : ''}${location.endpoint ? ` at ${location.endpoint}` : ''}`;
}
