/**
 * An S3-compatible server on loopback for the object-storage tests: s3rver (a fake S3 for Node), the one fake of
 * those tests, standing where a remote S3 service would (the nodes speak the S3 protocol to it over HTTP through the
 * AWS SDK, exactly as they would to AWS or MinIO). It keeps its objects in a temporary folder and refuses any access
 * key but its own (S3RVER), with 403 as a real service refuses wrong credentials; it does not check the secret.
 */
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';

/** The access key s3rver accepts. */
export const S3_CREDENTIALS = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER', AWS_REGION: 'us-east-1' };

export interface TestS3 {
  /** http://127.0.0.1:PORT */
  endpoint: string;
  bucket: string;
  /** The keys in the bucket under `prefix`, sorted. */
  keys(prefix?: string): Promise<string[]>;
  close(): Promise<void>;
}

export async function startS3Server(bucket: string): Promise<TestS3> {
  const directory = mkdtempSync(join(tmpdir(), 'voxdesk-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({
    endpoint,
    forcePathStyle: true,
    region: S3_CREDENTIALS.AWS_REGION,
    credentials: { accessKeyId: S3_CREDENTIALS.AWS_ACCESS_KEY_ID, secretAccessKey: S3_CREDENTIALS.AWS_SECRET_ACCESS_KEY },
  });
  return {
    endpoint,
    bucket,
    async keys(prefix = '') {
      const keys: string[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ...(token ? { ContinuationToken: token } : {}) }));
        for (const object of page.Contents ?? []) if (object.Key) keys.push(object.Key);
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return keys.sort();
    },
    async close() {
      client.destroy();
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
