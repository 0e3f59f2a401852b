/**
 * The sponsor list's path on its own, free of schemas: the sponsor page's
 * script reads it without loading the validation library (a content page
 * ships almost no JavaScript).
 */
export const sponsorsPath = '/donation/v1/sponsors';
