/**
 * Uploads in an S3-compatible bucket (Amazon S3, Aliyun OSS, Tencent COS, MinIO, …)
 * through the official `@aws-sdk/client-s3`: the `FileStore` of file-store.ts, a key
 * prefix per kind (`avatars/<name>`). Every call has one deadline, from connecting to
 * the last byte, so a slow bucket cannot hold a request; a bucket that is full or over
 * its quota, or that cannot be reached, throws `StorageError`.
 */
import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import type { Readable } from 'node:stream';
import { checkedName, contentTypeOf, StorageError, type FileStore, type StoredFile, type UploadKind, type Uploads } from './file-store.ts';

/** Where the bucket is and how to reach it (the S3_* settings). */
export interface BucketSettings {
  bucket: string;
  region: string;
  /** The service's address; unset, Amazon S3's own for the region. */
  endpoint?: string;
  /** `https://endpoint/bucket/key` instead of `https://bucket.endpoint/key` (MinIO and most servers of one's own). */
  forcePathStyle: boolean;
  accessKeyId: string;
  secretAccessKey: string;
  /** How long one call may take, from connecting to the last byte, retries included. */
  timeoutMs: number;
}

/**
 * The bucket's answers that mean "no room": MinIO's full disks (507 XMinioStorageFull) and
 * bucket quota, and the QuotaExceeded of Ceph and others.
 */
const noRoom = new Set(['XMinioStorageFull', 'XMinioAdminBucketQuotaExceeded', 'QuotaExceeded', 'InsufficientStorage']);

function storageError(error: unknown): StorageError {
  const full = error instanceof S3ServiceException && (error.$metadata.httpStatusCode === 507 || noRoom.has(error.name));
  return new StorageError(full ? 'full' : 'unavailable', { cause: error });
}

const isMissing = (error: unknown) =>
  error instanceof S3ServiceException && (error.$metadata.httpStatusCode === 404 || error.name === 'NoSuchKey' || error.name === 'NotFound');

class BucketStore implements FileStore {
  readonly #client: S3Client;
  readonly #bucket: string;
  readonly #prefix: string;
  readonly #timeoutMs: number;

  constructor(client: S3Client, settings: BucketSettings, kind: UploadKind) {
    this.#client = client;
    this.#bucket = settings.bucket;
    this.#prefix = `${kind}/`;
    this.#timeoutMs = settings.timeoutMs;
  }

  #keyOf(name: string): string {
    return this.#prefix + checkedName(name);
  }

  /** The whole call's deadline: the SDK's own timeouts bound each try, this bounds the tries together. */
  #deadline() {
    return { abortSignal: AbortSignal.timeout(this.#timeoutMs) };
  }

  /** A put replaces the object in one step, so a reader never sees half of it; the same name is the same content. */
  async put(name: string, bytes: Uint8Array): Promise<void> {
    const command = new PutObjectCommand({ Bucket: this.#bucket, Key: this.#keyOf(name), Body: bytes, ContentType: contentTypeOf(name) });
    await this.#client.send(command, this.#deadline()).catch((error: unknown) => {
      throw storageError(error);
    });
  }

  async remove(name: string): Promise<void> {
    await this.#client.send(new DeleteObjectCommand({ Bucket: this.#bucket, Key: this.#keyOf(name) }), this.#deadline()).catch((error: unknown) => {
      throw storageError(error);
    });
  }

  async read(name: string): Promise<StoredFile | null> {
    try {
      const object = await this.#client.send(new GetObjectCommand({ Bucket: this.#bucket, Key: this.#keyOf(name) }), this.#deadline());
      return { body: object.Body as Readable, length: object.ContentLength };
    } catch (error) {
      if (isMissing(error)) return null;
      throw storageError(error);
    }
  }
}

/** Uploads in the bucket, one client for every kind; `close` ends its kept-alive connections. */
export function bucketUploads(settings: BucketSettings): Uploads {
  const timeout = settings.timeoutMs;
  const client = new S3Client({
    region: settings.region,
    endpoint: settings.endpoint,
    forcePathStyle: settings.forcePathStyle,
    // The keys of the settings, never the SDK's search of the environment, files and instance metadata for others.
    credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
    requestHandler: { connectionTimeout: timeout, requestTimeout: timeout, throwOnRequestTimeout: true, socketTimeout: timeout },
    // Checksums only where the API requires them: services that speak S3 (OSS, COS, older MinIO) refuse the newer checksum headers.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  return {
    store: (kind) => new BucketStore(client, settings, kind),
    location: { bucket: settings.bucket },
    close: () => client.destroy(),
  };
}
