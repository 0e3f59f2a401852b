/** The codes a test app sends, read from the development outbox, as a person reads their SMS or e-mail. */
import { solveChallenge, type Challenge, type Solution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { identity, type LoginResult } from '#contract/identity.ts';
import type { TestApp } from './harness.ts';

export async function outbox(t: TestApp, to: string): Promise<string[]> {
  const response = await t.app.inject({ url: `/api/dev/outbox?to=${encodeURIComponent(to)}` });
  return (response.json().data as Array<{ text: string }>).map((item) => item.text);
}

export const lastCode = async (t: TestApp, to: string): Promise<string> => /\d{6}/.exec((await outbox(t, to)).at(-1)!)![0];

/** Lets the next code to `target` be sent at once, as if the last send were long ago. */
export async function ageCodes(t: TestApp, target: string): Promise<void> {
  await t.app.db.execute(sql`update verification_codes set created_at = created_at - interval '2 minutes' where target = ${target}`);
}

/** Sends a login code to `phone` and reads it. */
export async function sendSms(t: TestApp, phone: string): Promise<string> {
  await ageCodes(t, phone);
  expect((await t.call(identity.sendSmsCode, { body: { Phone: phone } })).status).toBe(200);
  return lastCode(t, phone);
}

/** Logs in (or registers) `phone` with the code it was sent. */
export async function loginBySms(t: TestApp, phone: string, DeviceId: string): Promise<LoginResult> {
  const Code = await sendSms(t, phone);
  const response = await t.call(identity.loginOrRegister, { body: { Phone: phone, Code, DeviceId } });
  expect(response.body.code).toBe(200);
  return response.body.data;
}

/**
 * A proof of work for a code request, solved as the site's widget solves it but by altcha-lib's own solver
 * (an implementation we did not write): the widget's payload, base64 of the challenge and its solution.
 */
export async function solvedProof(t: TestApp): Promise<string> {
  const challenge = (await t.call(identity.codeChallenge)).body.data;
  const solution = await solveChallenge({ challenge, deriveKey });
  return proofPayload(challenge, solution);
}

/** The widget's payload for a challenge and a solution, right or wrong. */
export const proofPayload = (challenge: Challenge, solution: Solution | null): string =>
  Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
