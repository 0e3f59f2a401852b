/**
 * Searching text by its start, as the console's lists do: the pattern for LIKE
 * with LIKE's own characters (`%`, `_`, `\`) escaped, so typed words mean
 * themselves, lowercased to match an index on `lower(column) text_pattern_ops`
 * (a search by a column's start walks such an index; one by any part of it
 * would read the whole table).
 */
export const startingWith = (words: string): string => `${words.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
