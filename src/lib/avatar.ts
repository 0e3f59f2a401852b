import type { UserInfo } from '#contract/identity.ts';

export const placeholderAvatar = '/images/avatar-placeholder.svg';

/** Spec §3: the first image of AvatarUrl is the one shown (H5AvatarUrl); none → the placeholder. */
export function h5AvatarUrl(user: Pick<UserInfo, 'AvatarUrl'>): string {
  return Object.values(user.AvatarUrl ?? {}).find(Boolean) ?? placeholderAvatar;
}
