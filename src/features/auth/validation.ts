/** The checks of the login form (phone, code, agreement), in the order the user meets them; each failure names its message key. */
import { codePattern, phonePattern } from '#contract/identity.ts';
import type { KeysUnder } from '@/i18n/t.ts';

type Problem = KeysUnder<'login'> | null;

export function checkSmsLogin(form: { agreed: boolean; phone: string; code?: string }): Problem {
  if (!form.agreed) return 'login.agreeFirst';
  if (!form.phone.trim()) return 'login.phoneRequired';
  if (!phonePattern.test(form.phone.trim())) return 'login.phoneInvalid';
  if (form.code !== undefined && !codePattern.test(form.code.trim())) return 'login.codeRequired';
  return null;
}

export function checkPasswordLogin(form: { agreed: boolean; account: string; password: string }): Problem {
  if (!form.agreed) return 'login.agreeFirst';
  if (!form.account.trim()) return 'login.accountRequired';
  if (!form.password) return 'login.passwordRequired';
  return null;
}
