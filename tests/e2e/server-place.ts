/** Where the browser tests' server listens and keeps its keys and `admin.json`, for the Playwright config and the tests that run operators' commands against it. */
import { tmpdir } from 'node:os';
import path from 'node:path';

export const e2ePort = Number(process.env.E2E_PORT ?? 4399);

/** One folder per port, so a developer's own server (data/) and the tests' never meet. */
export const e2eDataDir = path.join(tmpdir(), `beacon-e2e-${e2ePort}`);
