/**
 * The wire format of encrypted calls (AES-256-CBC bodies, RSA-OAEP-SHA256 keys).
 *
 * Request: a fresh 32-byte AES key and 16-byte IV per request. The body is
 * base64(iv ‖ AES-256-CBC(key, iv, JSON)) sent as `contentType`; the AES key,
 * wrapped with RSA-OAEP-SHA256 under the server's public key, travels hex-encoded
 * in the `keyHeader` header. The answer uses the same key with a fresh IV and
 * the same body format.
 */
export const encryption = {
  keyHeader: 'x-encrypt-key',
  contentType: 'application/x-beacon-sealed',
  aesKeyBytes: 32,
  ivBytes: 16,
  /** Largest accepted request body in bytes (after base64). */
  maxBodyBytes: 64 * 1024,
} as const;
