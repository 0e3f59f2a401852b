/**
 * What a cdkey looks like, shared by the site (which catches a typo before
 * asking the server) and the server (which makes and checks keys): 20
 * characters from an alphabet without look-alikes (no 0, O, 1 or I), written
 * in four groups of five, the last character a Luhn mod 32 check character.
 * The check catches any one mistyped character and any two neighbours swapped
 * but 2 and Z (Luhn's blind spot: the first and last of the alphabet).
 */
export const cdkeyAlphabet = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
export const cdkeyLength = 20;
const groupLength = 5;
const base = cdkeyAlphabet.length;

/** The key as typed, without spaces or dashes, in capitals. */
export function normalizeCdkey(typed: string): string {
  return typed.replace(/[\s-]/g, '').toUpperCase();
}

/** The Luhn mod N check character of `body` (the key without its last character). */
export function checkCharacter(body: string): string {
  let sum = 0;
  // From the right, every second code point is doubled, as in Luhn's algorithm over base N.
  for (let i = body.length - 1, double = true; i >= 0; i--, double = !double) {
    let value = cdkeyAlphabet.indexOf(body[i]);
    if (double) value = Math.floor((value * 2) / base) + ((value * 2) % base);
    sum += value;
  }
  return cdkeyAlphabet[(base - (sum % base)) % base];
}

export type CdkeyShape = 'ok' | 'length' | 'characters' | 'checksum';

/** Whether a typed key can be a key at all, and if not, why. */
export function cdkeyShape(typed: string): CdkeyShape {
  const key = normalizeCdkey(typed);
  if (key.length !== cdkeyLength) return 'length';
  if ([...key].some((character) => !cdkeyAlphabet.includes(character))) return 'characters';
  return checkCharacter(key.slice(0, -1)) === key.at(-1) ? 'ok' : 'checksum';
}

/** `ABCDE-FGHJK-LMNPQ-RSTUV`: a key in its groups. */
export function formatCdkey(key: string): string {
  return (
    normalizeCdkey(key)
      .match(new RegExp(`.{1,${groupLength}}`, 'g'))
      ?.join('-') ?? ''
  );
}

/** A key as a history shows it: its first group and its last four characters. */
export function maskCdkey(key: string): string {
  const normal = normalizeCdkey(key);
  return `${normal.slice(0, groupLength)}-•••••-•••••-•${normal.slice(-4)}`;
}
