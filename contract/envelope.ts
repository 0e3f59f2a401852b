/** `code` of every successful envelope. */
export const SUCCESS = 200;

/** Every envelope call answers `{ code, message, data }`; success is `code === SUCCESS`. */
export interface Envelope<T> {
  code: number;
  message: string;
  data: T;
}
