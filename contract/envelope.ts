import { z } from 'zod';

/** `code` of every successful envelope. */
export const SUCCESS = 200;

/** Every envelope call answers `{ code, message, data }`; success is `code === SUCCESS`. */
export interface Envelope<T> {
  code: number;
  message: string;
  data: T;
}

export function envelopeOf<T extends z.ZodType>(data: T) {
  return z.object({ code: z.number().int(), message: z.string(), data });
}
