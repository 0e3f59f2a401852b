import type { UserInfo } from '#contract/identity.ts';
import placeholder from '@/assets/avatar-placeholder.svg?url&no-inline';

/** Under a content-hashed name the server lets browsers keep forever. */
export const placeholderAvatar: string = placeholder;

/** The first image of AvatarUrl is the one shown (H5AvatarUrl); none → the placeholder. */
export function h5AvatarUrl(user: Pick<UserInfo, 'AvatarUrl'>): string {
  return Object.values(user.AvatarUrl ?? {}).find(Boolean) ?? placeholderAvatar;
}
