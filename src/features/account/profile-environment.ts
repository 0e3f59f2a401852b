/** The edit-profile page's world in the browser: the account centre's, with the browser's file reader. */
import { centerEnvironment } from './center-environment.ts';
import type { ProfileEnvironment } from './profile-store.ts';

/** The file's bytes as base64, without the data-URL prefix. */
function base64Of(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsDataURL(file);
  });
}

const { call, $user, updateUser } = centerEnvironment;

export const profileEnvironment: ProfileEnvironment = { call, $user, updateUser, readBase64: base64Of };
