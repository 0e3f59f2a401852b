/**
 * Approving a desktop sign-in (contract/device-login.ts), on the login page
 * of a logged-in visitor: the request of a code — the one the page came with,
 * looked up at once, or one typed, whose form is checked before any call —
 * and then approving or refusing it, after which it is decided.
 */
import { atom, onMount } from 'nanostores';
import { deviceCalls, type DeviceRequest } from '#contract/device-login.ts';
import type { Call } from '@/lib/api/client.ts';
import { createAction } from '@/stores/action.ts';

export type DeviceKey = 'login.device.codeInvalid' | 'login.device.approved' | 'login.device.refused';

export interface DeviceApprovalEnvironment {
  /** The plain client (the login page's): each call is handed the login's token (environment.ts says why). */
  call: Call;
  /** The logged-in visitor's access token, as it is when the call is made. */
  token(): string | undefined;
}

export interface DeviceApprovalOptions {
  /** The code from the address; empty when the visitor is to type it. */
  code: string;
}

/** A user code as the desktop app shows it: eight letters, with or without the dash. */
const codeForm = /^[a-z]{4}-?[a-z]{4}$/i;

export function createDeviceApproval(env: DeviceApprovalEnvironment, options: DeviceApprovalOptions) {
  const action = createAction<DeviceKey>();
  /** The code in the field. */
  const $code = atom(options.code);
  /** The request of the code; null until found. */
  const $request = atom<DeviceRequest | null>(null);
  /** Whether the request has been approved or refused. */
  const $decided = atom(false);

  /** Looks up the request of the code in the field. */
  async function find(): Promise<void> {
    if (action.$busy.get()) return;
    const userCode = $code.get().trim();
    if (!codeForm.test(userCode)) {
      action.refuse('login.device.codeInvalid');
      return;
    }
    const request = await action.run(() => env.call(deviceCalls.describe, { params: { userCode }, token: env.token() }));
    if (request) $request.set(request);
  }

  onMount($request, () => {
    if (options.code) void find();
  });

  async function decide(approve: boolean): Promise<void> {
    const request = $request.get();
    if (!request || action.$busy.get() || $decided.get()) return;
    const body = { UserCode: request.UserCode, Approve: approve };
    const answered = await action.run(
      () => env.call(deviceCalls.decide, { body, token: env.token() }),
      approve ? 'login.device.approved' : 'login.device.refused',
    );
    if (answered) $decided.set(true);
  }

  return { $code, $request, $decided, $busy: action.$busy, $notice: action.$notice, find, decide };
}
