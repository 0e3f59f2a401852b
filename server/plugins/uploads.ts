/**
 * `app.uploads`: where uploaded files are kept, chosen once from the settings — the
 * S3-compatible bucket S3_BUCKET names, else DATA_DIR/uploads — so the modules that
 * store and serve files, the operators' commands and backups never ask which.
 * Closing the app closes the bucket's connections.
 */
import fp from 'fastify-plugin';
import type { Config } from '../config.ts';
import { bucketUploads } from '../services/bucket-store.ts';
import { folderUploads, type Uploads } from '../services/file-store.ts';

declare module 'fastify' {
  interface FastifyInstance {
    uploads: Uploads;
  }
}

/** The uploads the settings describe (config.ts checks that a bucket's settings come together). */
function uploadsFrom(config: Config): Uploads {
  const { S3_BUCKET: bucket, S3_REGION: region, S3_ACCESS_KEY_ID: accessKeyId, S3_SECRET_ACCESS_KEY: secretAccessKey } = config;
  if (!bucket || !region || !accessKeyId || !secretAccessKey) return folderUploads(config.DATA_DIR);
  return bucketUploads({
    bucket,
    region,
    endpoint: config.S3_ENDPOINT,
    forcePathStyle: config.S3_FORCE_PATH_STYLE ?? false,
    accessKeyId,
    secretAccessKey,
    timeoutMs: config.S3_TIMEOUT_MS,
  });
}

export default fp(
  async (app) => {
    const uploads = uploadsFrom(app.config);
    app.decorate('uploads', uploads);
    app.addHook('onClose', () => uploads.close());
  },
  { name: 'uploads', dependencies: ['config'] },
);
