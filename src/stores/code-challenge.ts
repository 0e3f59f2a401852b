/**
 * The proof-of-work step of a code request, for every form that asks for a
 * login code (docs/security.md): when the server refuses the code with
 * `ProofOfWorkRequired`, the step fetches a challenge and holds it in
 * `$challenge`, which the island hands to the widget (components/ProofOfWork.tsx);
 * once the widget has solved it (`solved`), the request is made again with the
 * solution. The widget retries by itself when it fails, so the step waits for
 * a solution only.
 */
import { atom } from 'nanostores';
import { ErrorCode } from '#contract/errors.ts';
import { identity, type ProofOfWorkChallenge } from '#contract/identity.ts';
import type { Call } from '@/lib/api/client.ts';
import { ApiFailure } from '@/lib/api/errors.ts';

export function createCodeChallenge(call: Call) {
  const $challenge = atom<ProofOfWorkChallenge | null>(null);
  let settle: ((payload: string) => void) | null = null;

  /** Runs `send` without a proof of work, and once more with one when the server asks for it. */
  async function withProof<T>(send: (proofOfWork?: string) => Promise<T>): Promise<T> {
    try {
      return await send();
    } catch (error) {
      if (!(error instanceof ApiFailure && error.code === ErrorCode.ProofOfWorkRequired)) throw error;
    }
    const challenge = await call(identity.codeChallenge);
    const solution = new Promise<string>((resolve) => (settle = resolve));
    $challenge.set(challenge);
    try {
      return await send(await solution);
    } finally {
      settle = null;
      $challenge.set(null);
    }
  }

  /** The widget's solution (its payload) of the challenge shown; nothing when none is shown. */
  const solved = (payload: string): void => settle?.(payload);

  return { $challenge, withProof, solved };
}

export type CodeChallenge = ReturnType<typeof createCodeChallenge>;
