/** Cache-Control for an answer kept `ms` long: public ones by any cache, a user's own only by their browser. */
const seconds = (ms: number) => Math.round(ms / 1000);

export const publicFor = (ms: number) => `public, max-age=${seconds(ms)}`;
export const privateFor = (ms: number) => `private, max-age=${seconds(ms)}`;
