/**
 * The site's one icon set: Lucide for interface icons, Simple Icons for the
 * platform and store marks. Each icon is imported by name, so only the ones
 * listed here reach the build. Icons are decoration: the text beside them, or
 * an accessible name on their control, says what they mean.
 */
import arrowRight from 'lucide-static/icons/arrow-right.svg?raw';
import badgeCheck from 'lucide-static/icons/badge-check.svg?raw';
import check from 'lucide-static/icons/check.svg?raw';
import chevronDown from 'lucide-static/icons/chevron-down.svg?raw';
import circleAlert from 'lucide-static/icons/circle-alert.svg?raw';
import circleCheck from 'lucide-static/icons/circle-check.svg?raw';
import circleHelp from 'lucide-static/icons/circle-help.svg?raw';
import circleX from 'lucide-static/icons/circle-x.svg?raw';
import cloud from 'lucide-static/icons/cloud.svg?raw';
import copy from 'lucide-static/icons/copy.svg?raw';
import creditCard from 'lucide-static/icons/credit-card.svg?raw';
import download from 'lucide-static/icons/download.svg?raw';
import externalLink from 'lucide-static/icons/external-link.svg?raw';
import flag from 'lucide-static/icons/flag.svg?raw';
import gamepad from 'lucide-static/icons/gamepad-2.svg?raw';
import gift from 'lucide-static/icons/gift.svg?raw';
import globe from 'lucide-static/icons/globe.svg?raw';
import imageUp from 'lucide-static/icons/image-up.svg?raw';
import keyRound from 'lucide-static/icons/key-round.svg?raw';
import list from 'lucide-static/icons/list.svg?raw';
import lock from 'lucide-static/icons/lock.svg?raw';
import logOut from 'lucide-static/icons/log-out.svg?raw';
import menu from 'lucide-static/icons/menu.svg?raw';
import monitor from 'lucide-static/icons/monitor.svg?raw';
import moon from 'lucide-static/icons/moon.svg?raw';
import puzzle from 'lucide-static/icons/puzzle.svg?raw';
import rss from 'lucide-static/icons/rss.svg?raw';
import search from 'lucide-static/icons/search.svg?raw';
import shieldCheck from 'lucide-static/icons/shield-check.svg?raw';
import star from 'lucide-static/icons/star.svg?raw';
import sun from 'lucide-static/icons/sun.svg?raw';
import thumbsUp from 'lucide-static/icons/thumbs-up.svg?raw';
import triangleAlert from 'lucide-static/icons/triangle-alert.svg?raw';
import user from 'lucide-static/icons/user.svg?raw';
import users from 'lucide-static/icons/users.svg?raw';
import x from 'lucide-static/icons/x.svg?raw';
import zap from 'lucide-static/icons/zap.svg?raw';
import android from 'simple-icons/icons/android.svg?raw';
import apple from 'simple-icons/icons/apple.svg?raw';
import appStore from 'simple-icons/icons/appstore.svg?raw';
import linux from 'simple-icons/icons/linux.svg?raw';
import qq from 'simple-icons/icons/qq.svg?raw';
import steam from 'simple-icons/icons/steam.svg?raw';

/** Microsoft's marks are not in Simple Icons; the four-pane window is drawn here. */
const windows =
  '<svg viewBox="0 0 24 24" xmlns="http://www.w3.org/2000/svg"><path fill="currentColor" d="M0 3.45 9.8 2.1v9.45H0Zm10.95-1.5L24 0v11.4H10.95ZM0 12.6h9.8v9.45L0 20.7Zm10.95 0H24V24l-13.05-1.8Z"/></svg>';

const interfaceIcons = {
  arrowRight,
  badgeCheck,
  check,
  chevronDown,
  circleAlert,
  circleCheck,
  circleHelp,
  circleX,
  cloud,
  copy,
  creditCard,
  download,
  externalLink,
  flag,
  gamepad,
  gift,
  globe,
  imageUp,
  keyRound,
  list,
  lock,
  logOut,
  menu,
  monitor,
  moon,
  puzzle,
  rss,
  search,
  shieldCheck,
  star,
  sun,
  thumbsUp,
  triangleAlert,
  user,
  users,
  x,
  zap,
};
const marks = { android, apple, appStore, linux, qq, steam, windows };

export type IconName = keyof typeof interfaceIcons | keyof typeof marks;

/** An icon's SVG at a size, hidden from assistive technology, with no comment, title or class of its source. */
export function iconSvg(name: IconName, size = 20): string {
  const source = (interfaceIcons as Record<string, string>)[name] ?? (marks as Record<string, string>)[name];
  const filled = name in marks;
  return source
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<title>[\s\S]*?<\/title>/, '')
    .replace(/<svg[^>]*?(viewBox="[^"]*")[^>]*>/, (_, viewBox: string) => {
      const paint = filled ? 'fill="currentColor"' : 'fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"';
      return `<svg xmlns="http://www.w3.org/2000/svg" ${viewBox} width="${size}" height="${size}" ${paint} aria-hidden="true" focusable="false" class="icon">`;
    })
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * Icons the stylesheet draws (a notice's mark), as CSS custom properties
 * `--icon-<name>` holding each SVG as a data URL, for `mask-image`: the
 * stylesheet paints them in a colour token, and no script carries them.
 */
export function iconProperties(names: IconName[]): string {
  const kebab = (name: string) => name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
  return names.map((name) => `--icon-${kebab(name)}:url("data:image/svg+xml,${encodeURIComponent(iconSvg(name))}");`).join('');
}
