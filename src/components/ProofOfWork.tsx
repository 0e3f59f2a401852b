/**
 * The proof of work a code request was asked for: ALTCHA's widget solving
 * the challenge on its own, in the page's words, then handing its payload on
 * (stores/code-challenge.ts). The widget, its styles and its PBKDF2 worker are
 * bundled with the site and loaded from it only when a challenge is shown:
 * no outside service, and nothing the page's CSP would refuse (no inline
 * worker, which the widget's default build makes from a blob).
 */
import { Fragment, useEffect, useRef, useState } from 'react';
import type { ProofOfWorkChallenge } from '#contract/identity.ts';
import type { Translate, UiKey } from '@/i18n/strings.ts';
// The widget's element in JSX (`<altcha-widget>`), typed by the package.
import type {} from 'altcha/types/react';
import 'altcha/altcha.css';
import './ProofOfWork.css';

/** The `proofOfWork.*` keys an island must be handed to show the widget. */
export type ProofOfWorkKey = Extract<UiKey, `proofOfWork.${string}`>;

/** The widget's texts our challenges can show; the others are for image and audio challenges, which they never carry. */
const widgetTexts = ['label', 'verifying', 'verified', 'error', 'expired', 'loading', 'reload', 'verify', 'verificationRequired', 'waitAlert'] as const;

/** The name our texts go by in the widget's registry of languages, whatever the page's. */
const language = 'site';

let widgetLoaded: Promise<void> | undefined;

/** Defines the widget's element and gives it our PBKDF2 worker (an asset of this site), once per page. */
function loadWidget(): Promise<void> {
  widgetLoaded ??= (async () => {
    await import('altcha/external');
    const { default: Pbkdf2Worker } = await import('altcha/workers/pbkdf2?worker');
    globalThis.$altcha.algorithms.set('PBKDF2/SHA-256', () => new Pbkdf2Worker());
  })();
  return widgetLoaded;
}

interface Props {
  challenge: ProofOfWorkChallenge;
  t: Translate<ProofOfWorkKey>;
  /** The solution, as the widget's payload for the code request's `ProofOfWork`. */
  onSolved(payload: string): void;
}

export default function ProofOfWork({ challenge, t, onSolved }: Props) {
  const widget = useRef<HTMLElement>(null);
  const [ready, setReady] = useState(false);

  useEffect(() => {
    let shown = true;
    void loadWidget().then(() => {
      const texts = Object.fromEntries(widgetTexts.map((name) => [name, t(`proofOfWork.${name}`)]));
      globalThis.$altcha.i18n.set(language, { ...globalThis.$altcha.i18n.get(language), ...texts });
      if (shown) setReady(true);
    });
    return () => {
      shown = false;
    };
  }, [t]);

  useEffect(() => {
    const element = widget.current;
    if (!element) return;
    const verified = (event: Event) => onSolved((event as CustomEvent<{ payload: string }>).detail.payload);
    element.addEventListener('verified', verified);
    return () => element.removeEventListener('verified', verified);
  }, [ready, onSolved, challenge]);

  // It starts at once and needs nothing from the visitor; after a failure, ticking its box tries again.
  const configuration = JSON.stringify({
    challenge,
    auto: 'onload',
    type: 'checkbox',
    language,
    hideLogo: true,
    hideFooter: true,
    humanInteractionSignature: false,
  });
  return (
    <div className="proof-of-work" data-proof-of-work>
      <p className="muted">{t('proofOfWork.intro')}</p>
      {/* A new challenge gets a new widget: the widget reads its configuration once. */}
      {ready && (
        <Fragment key={challenge.signature}>
          <altcha-widget ref={widget} configuration={configuration} />
        </Fragment>
      )}
    </div>
  );
}
