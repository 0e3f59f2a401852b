import { atom } from 'nanostores';
import type { UaState } from './platform.ts';
import type { PlatformName } from '@/lib/releases.ts';

/** Global site state: the visitor's system and the platform tab in view. */
export const $ua = atom<UaState>({ name: 'unknown', cpu: 'unknown' });
export const $selectPlatform = atom<PlatformName>('windows');
