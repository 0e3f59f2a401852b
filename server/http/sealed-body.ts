import type { KeyObject } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { encryption } from '#contract/crypto.ts';
import { ErrorCode } from '#contract/errors.ts';
import { open, SealError, unwrapKey } from '../crypto/sealed.ts';
import { ApiError } from './api-error.ts';

const uniformError = () => new ApiError(ErrorCode.EncryptionInvalid, 'encryptionInvalid');

/**
 * Unwraps the request's AES key (kept on the request so the answer is sealed
 * with it) and opens the body. An empty body is allowed (GET/DELETE calls still
 * send the key to get a sealed answer). Every failure is the same error.
 */
export function openSealedBody(request: FastifyRequest, privateKey: KeyObject): unknown {
  try {
    const key = unwrapKey(privateKey, request.headers[encryption.keyHeader] as string | undefined);
    request.sealKey = key;
    const body = request.body;
    if (body === undefined || body === null || body === '') return undefined;
    if (typeof body !== 'string' || !request.headers['content-type']?.startsWith(encryption.contentType)) throw new SealError();
    return JSON.parse(open(key, body));
  } catch {
    throw uniformError();
  }
}
