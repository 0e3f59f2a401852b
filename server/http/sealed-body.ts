import type { FastifyRequest } from 'fastify';
import { encryption } from '#contract/crypto.ts';
import { ErrorCode } from '#contract/errors.ts';
import type { Keyring } from '../crypto/keyring.ts';
import { open, SealError } from '../crypto/sealed.ts';
import { ApiError } from './api-error.ts';

const uniformError = () => new ApiError(ErrorCode.EncryptionInvalid, 'encryptionInvalid');

/**
 * Unwraps the request's AES key (kept on the request so the answer is sealed
 * with it) and opens the body. An empty body is allowed (GET/DELETE calls still
 * send the key to get a sealed answer). The key may be wrapped for the current
 * key pair or one retired within the rotation window (crypto/keyring.ts).
 * Every way the caller's envelope can be wrong is the same error; the server
 * failing to read its own keys is a server error.
 */
export async function openSealedBody(request: FastifyRequest, keyring: Keyring): Promise<unknown> {
  try {
    request.sealKey = await keyring.unwrapKey(request.headers[encryption.keyHeader] as string | undefined);
  } catch (error) {
    throw error instanceof SealError ? uniformError() : error;
  }
  try {
    const body = request.body;
    if (body === undefined || body === null || body === '') return undefined;
    if (typeof body !== 'string' || !request.headers['content-type']?.startsWith(encryption.contentType)) throw new SealError();
    return JSON.parse(open(request.sealKey, body));
  } catch {
    throw uniformError();
  }
}
