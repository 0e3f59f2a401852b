/**
 * A rating as stars: the icon set's star, outlined, with a filled copy on top
 * cut to the rating's share. One image with one name for assistive technology.
 * Rendered on prebuilt pages too, where a script sets the fill's width later.
 */
import { pluginRules } from '#contract/plugins.ts';
import './StarMeter.css';

export interface StarIcons {
  star: string;
}

export function StarMeter({ value, icons, label }: { value: number; icons: StarIcons; label?: string }) {
  const stars = icons.star.repeat(pluginRules.ratingMax);
  return (
    <span className="stars" role="img" aria-label={label}>
      <span className="stars-empty" dangerouslySetInnerHTML={{ __html: stars }} />
      <span className="stars-fill" style={{ inlineSize: `${(value / pluginRules.ratingMax) * 100}%` }} dangerouslySetInnerHTML={{ __html: stars }} />
    </span>
  );
}
