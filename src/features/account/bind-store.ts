/**
 * The linked-accounts page (account centre `bind`): the phone number, changed
 * with the account's code (to the current number, or the e-mail without one)
 * and one to the new number (an account with neither binds one with the new
 * one's alone), saying how many other devices were signed out; the e-mail
 * address, whose link goes out once the account's code (and, with a phone, one
 * to the current address) proves the change, and which is bound when the link
 * is opened; and the quick-login identities, linked through the provider's
 * sign-in (the outcome comes back in the page's address) and unlinked once
 * confirmed. The user is read afresh when the page opens: an e-mail may have
 * been confirmed in another browser meanwhile.
 */
import { atom } from 'nanostores';
import { accountCalls, type QuickLoginProvider } from '#contract/account.ts';
import type { ExternalProvider } from '#contract/external-login.ts';
import { identity } from '#contract/identity.ts';
import { createAction, outcomeOf } from '@/stores/action.ts';
import { createCodeChallenge } from '@/stores/code-challenge.ts';
import type { CenterEnvironment } from './center-environment.ts';
import { showLinkOutcome, type LinkOutcome, type LinkOutcomeKey } from './link-outcome.ts';
import { ownChannel, sendOwnCode, type OwnChannel, type OwnCodeKey } from './own-code.ts';

export type BindKey = 'messages.smsSent' | 'account.bind.phoneSaved' | 'account.bind.unbound' | LinkOutcomeKey | OwnCodeKey;

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
  /** The account's code for the phone change (sent to the current number, or the e-mail without one). */
  oldCode: string;
  phone: string;
  /** The code sent to the new number. */
  code: string;
  email: string;
  /** The account's code for the e-mail change (sent to the phone, or the current address without one)… */
  emailCode: string;
  /** …and, with a phone, the code sent to the current address. */
  oldEmailCode: string;
};

const emptyForm: BindForm = { oldCode: '', phone: '', code: '', email: '', emailCode: '', oldEmailCode: '' };

/** A code as the request carries it: only when one was typed, so the server can say what is missing. */
const typed = <K extends string>(name: K, code: string) => (code ? { [name]: code } : {}) as Partial<Record<K, string>>;

export function createBinding(env: BindEnvironment, options: BindOptions) {
  const phone = createAction<BindKey>();
  const email = createAction<BindKey>();
  const identities = createAction<BindKey>();
  /** The quick-login providers this server offers: only these can be linked. */
  const $offered = atom<QuickLoginProvider[]>([]);
  const $form = atom<BindForm>(emptyForm);
  /** A code to a new number that costs the shop waits here for the browser's proof of work. */
  const challenge = createCodeChallenge(env.call);

  /** Reads the user afresh and the providers on offer, and says how a linking this page came back from went. */
  function load(): void {
    void env.refreshUser().catch(() => {});
    void env.quick.providers().then(
      (providers) => $offered.set(providers.map((provider) => provider.Provider)),
      () => {},
    );
    showLinkOutcome(identities, env.quick.takeLinkOutcome);
  }

  /** Sends the account's code for the phone change (to the current number, or the e-mail without one); true once it is on its way. */
  const sendOldCode = () => sendOwnCode(env, phone, ownChannel(env.$user.get()));

  /** Sends a code for the e-mail change: the account's own (`ownChannel`), or one to the current address; true once it is on its way. */
  const sendEmailCode = (channel: OwnChannel) => sendOwnCode(env, email, channel);

  /** Sends a code to the new number typed; true once it is on its way. */
  async function sendNewCode(): Promise<boolean> {
    const Phone = $form.get().phone;
    const send = (ProofOfWork?: string) => env.call(identity.sendSmsCode, { body: ProofOfWork ? { Phone, ProofOfWork } : { Phone } });
    const sent = await phone.run(() => challenge.withProof(send), 'messages.smsSent');
    return sent !== undefined;
  }

  /** Changes the phone number (with the account's code too, when it has a phone or an e-mail), or binds one; then says how many other devices were signed out. */
  async function changePhone(): Promise<void> {
    const user = env.$user.get();
    if (!user) return;
    const form = $form.get();
    const body = { Phone: form.phone, Code: form.code, ...(ownChannel(user) ? typed('OldCode', form.oldCode) : {}) };
    const changed = await phone.run(() => env.call(accountCalls.changePhone, { body }));
    if (!changed) return;
    phone.say('ok', 'account.bind.phoneSaved', { count: changed.Revoked });
    env.updateUser(changed.User);
    $form.set({ ...$form.get(), oldCode: '', phone: '', code: '' });
  }

  /** Sends the confirmation link to the address typed, with the codes that prove the change, then shows the "check your inbox" screen. */
  async function bindEmail(): Promise<void> {
    const user = env.$user.get();
    if (!user) return;
    const form = $form.get();
    const body = { Email: form.email, ...typed('Code', form.emailCode), ...(user.Phone && user.Email ? typed('OldEmailCode', form.oldEmailCode) : {}) };
    const sent = await email.run(() => env.call(accountCalls.bindEmail, { body }));
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
    challenge: { $challenge: challenge.$challenge, solved: challenge.solved },
    sendEmailCode,
    changePhone,
    bindEmail,
    link,
    unbind,
  };
}
