/** The sealed-body format checked against the openssl command line, with a fixed AES test vector. */
import { execFileSync } from 'node:child_process';
import { createSecretKey, generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { open, seal, SealError, unwrapKey } from '../../server/crypto/sealed.ts';

const keyBytes = Buffer.from('000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f', 'hex');
const key = createSecretKey(keyBytes);
const iv = Buffer.from('f0e0d0c0b0a090807060504030201000', 'hex');
const plaintext = '{"Phone":"13800000000"}';
/** base64(iv ‖ AES-256-CBC(key, iv, plaintext)), computed once with `openssl enc` and base64. */
const vector = '8ODQwLCgkIBwYFBAMCAQAKjCozzlDjjkPV8US/kiw+Y9Vo081ckluOaMfrgte70e';

const openssl = (args: string[], input?: Buffer | string) => execFileSync('openssl', args, { input });

describe('sealed bodies and openssl agree', () => {
  it('seals the fixed vector exactly as openssl enc does', () => {
    expect(seal(key, plaintext, iv)).toBe(vector);
    const fromOpenssl = openssl(['enc', '-aes-256-cbc', '-K', keyBytes.toString('hex'), '-iv', iv.toString('hex')], plaintext);
    expect(Buffer.concat([iv, fromOpenssl]).toString('base64')).toBe(vector);
    expect(open(key, vector)).toBe(plaintext);
  });

  it('unwraps an AES key that openssl wrapped with RSA-OAEP-SHA256', async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'beacon-openssl-'));
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const publicPem = path.join(folder, 'public.pem');
    writeFileSync(publicPem, publicKey.export({ type: 'spki', format: 'pem' }));
    const wrapped = openssl(
      [
        'pkeyutl',
        '-encrypt',
        '-pubin',
        '-inkey',
        publicPem,
        '-pkeyopt',
        'rsa_padding_mode:oaep',
        '-pkeyopt',
        'rsa_oaep_md:sha256',
        '-pkeyopt',
        'rsa_mgf1_md:sha256',
      ],
      keyBytes,
    );
    expect((await unwrapKey(privateKey, wrapped.toString('hex'))).export()).toEqual(keyBytes);

    // And the other way: what the server seals, openssl opens.
    const sealed = Buffer.from(seal(key, 'hello from the server'), 'base64');
    const sealedFile = path.join(folder, 'sealed.bin');
    writeFileSync(sealedFile, sealed.subarray(16));
    const opened = openssl(['enc', '-d', '-aes-256-cbc', '-K', keyBytes.toString('hex'), '-iv', sealed.subarray(0, 16).toString('hex'), '-in', sealedFile]);
    expect(opened.toString()).toBe('hello from the server');
    expect(readFileSync(sealedFile).length % 16).toBe(0);
  });

  it('fails the same way for a bad key, a bad header and a bad body', async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    await expect(unwrapKey(privateKey, undefined)).rejects.toThrow(SealError);
    await expect(unwrapKey(privateKey, 'xyz')).rejects.toThrow(SealError);
    await expect(unwrapKey(privateKey, 'ab'.repeat(256))).rejects.toThrow(SealError);
    expect(() => open(key, 'AAAA')).toThrow(SealError);
    expect(() => open(createSecretKey(Buffer.alloc(32)), vector)).toThrow(SealError);
  });
});
