/**
 * The linked-accounts page (account centre `bind`): the phone number, changed
 * with a code to the current number and one to the new (or bound with the new
 * one's alone); the e-mail address, bound when the link we e-mail is opened;
 * and the quick-login identities, linked through the provider's sign-in (the
 * outcome comes back in the page's address) and unlinked once confirmed. The
 * user is read afresh when the page opens: an e-mail may have been confirmed
 * in another browser meanwhile.
 */
import { atom } from 'nanostores';
import { accountCalls, type QuickLoginProvider } from '#contract/account.ts';
import type { ExternalProvider } from '#contract/external-login.ts';
import { identity } from '#contract/identity.ts';
import { createAction, outcomeOf } from '@/stores/action.ts';
import type { CenterEnvironment } from './center-environment.ts';
import { showLinkOutcome, type LinkOutcome, type LinkOutcomeKey } from './link-outcome.ts';

export type BindKey = 'account.bind.codeSent' | 'account.bind.phoneSaved' | 'account.bind.unbound' | LinkOutcomeKey;

export interface BindEnvironment extends Pick<CenterEnvironment, 'call' | '$user' | 'refreshUser' | 'updateUser' | 'confirm'> {
  /** Quick login: the providers this server offers, the start of a linking, and the outcome this page came back with (once). */
  quick: {
    providers(): Promise<ExternalProvider[]>;
    startLinking(provider: QuickLoginProvider): Promise<void>;
    takeLinkOutcome(): LinkOutcome | null;
  };
  location: { assign(url: string): void };
}

export interface BindOptions {
  /** Where the "check your inbox" screen is, in this page's language. */
  emailSentPath: string;
}

/** The page's text inputs. */
export type BindForm = {
  /** The code sent to the current number. */
  oldCode: string;
  phone: string;
  /** The code sent to the new number. */
  code: string;
  email: string;
};

const emptyForm: BindForm = { oldCode: '', phone: '', code: '', email: '' };

export function createBinding(env: BindEnvironment, options: BindOptions) {
  const phone = createAction<BindKey>();
  const email = createAction<BindKey>();
  const identities = createAction<BindKey>();
  /** The quick-login providers this server offers: only these can be linked. */
  const $offered = atom<QuickLoginProvider[]>([]);
  const $form = atom<BindForm>(emptyForm);

  /** Reads the user afresh and the providers on offer, and says how a linking this page came back from went. */
  function load(): void {
    void env.refreshUser().catch(() => {});
    void env.quick.providers().then(
      (providers) => $offered.set(providers.map((provider) => provider.Provider)),
      () => {},
    );
    showLinkOutcome(identities, env.quick.takeLinkOutcome);
  }

  /** Sends a code to the current number; true once it is on its way. */
  async function sendOldCode(): Promise<boolean> {
    const sent = await phone.run(() => env.call(accountCalls.sendOwnCode, { body: { Channel: 'sms' } }), 'account.bind.codeSent');
    return sent !== undefined;
  }

  /** Sends a code to the new number typed; true once it is on its way. */
  async function sendNewCode(): Promise<boolean> {
    const sent = await phone.run(() => env.call(identity.sendSmsCode, { body: { Phone: $form.get().phone } }), 'account.bind.codeSent');
    return sent !== undefined;
  }

  /** Changes the phone number (with the current number's code too, when there is one), or binds one. */
  async function changePhone(): Promise<void> {
    const user = env.$user.get();
    if (!user) return;
    const form = $form.get();
    const body = { Phone: form.phone, Code: form.code, ...(user.Phone ? { OldCode: form.oldCode } : {}) };
    const updated = await phone.run(() => env.call(accountCalls.changePhone, { body }), 'account.bind.phoneSaved');
    if (!updated) return;
    env.updateUser(updated);
    $form.set({ ...$form.get(), oldCode: '', phone: '', code: '' });
  }

  /** Sends the confirmation link to the address typed, then shows the "check your inbox" screen. */
  async function bindEmail(): Promise<void> {
    const sent = await email.run(() => env.call(accountCalls.bindEmail, { body: { Email: $form.get().email } }));
    if (sent !== undefined) env.location.assign(options.emailSentPath);
  }

  /** Leaves for the provider's sign-in, which links the identity and comes back here. */
  const link = (provider: QuickLoginProvider) => identities.run(() => env.quick.startLinking(provider));

  /** Unlinks the identity `id` once the user agrees to `question`. */
  async function unbind(id: number, question: string): Promise<void> {
    if (!env.confirm(question)) return;
    const updated = await identities.run(() => env.call(identity.unbundleAccount, { params: { id } }), 'account.bind.unbound');
    if (updated) env.updateUser(updated);
  }

  return {
    $user: env.$user,
    $offered,
    $form,
    phone: outcomeOf(phone),
    email: outcomeOf(email),
    identities: outcomeOf(identities),
    load,
    sendOldCode,
    sendNewCode,
    changePhone,
    bindEmail,
    link,
    unbind,
  };
}
