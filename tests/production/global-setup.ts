/**
 * Before any worker starts: Debian's nginx, installed once when missing. Each file that runs nginx would otherwise
 * install it in its own worker at the same time, and the second apt-get finds dpkg locked by the first.
 */
import { installNginxIfMissing } from './deployment.ts';

export default function globalSetup(): void {
  installNginxIfMissing();
}
