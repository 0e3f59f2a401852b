/**
 * A throwaway S3-compatible server for tests: s3rver (an S3 implementation we did not
 * write), in this process, on a free loopback port (the system's pick, so no other
 * server can take it first), with one empty bucket kept in a temporary folder.
 * `settings` are what an instance needs to keep its uploads there
 * (server/config.ts, the S3_* settings); every instance given them shares the bucket, so
 * a file uploaded through one is served by another. stop() ends it and removes the folder.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';

export interface TestS3 {
  /** The S3_* settings of an instance that keeps its uploads in the bucket. */
  settings: Record<string, string>;
  stop(): Promise<void>;
}

/** s3rver's own key pair: it checks every request's signature against it. */
const credentials = { S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER' };

const bucket = 'beacon-uploads';

export async function startS3(): Promise<TestS3> {
  const directory = mkdtempSync(path.join(tmpdir(), 'beacon-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, directory, silent: true, configureBuckets: [{ name: bucket, configs: [] }] });
  const { port } = await server.run();
  return {
    settings: {
      S3_BUCKET: bucket,
      S3_REGION: 'us-east-1',
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_FORCE_PATH_STYLE: 'true',
      ...credentials,
    },
    stop: async () => {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
