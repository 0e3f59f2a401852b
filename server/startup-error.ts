/**
 * A start that cannot go on for a reason the operator must fix — a bad
 * setting, a database folder another process holds, a database that does not
 * answer. Its message names the step and what to change; `main.ts` prints it
 * instead of a stack.
 */
export class StartupError extends Error {}
