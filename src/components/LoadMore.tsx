/**
 * The end of a list read by scrolling: a button that loads more,
 * pressed by itself once it comes within `loadMore.thresholdPx` of the bottom
 * of the screen — and again after each load while it is still that close.
 */
import { useEffect, useRef } from 'react';
import { loadMore } from '#contract/paging.ts';
import './LoadMore.css';

interface Props {
  label: string;
  load: () => void;
  /** How many items are shown: a change looks again whether the end is near. */
  shown: number;
}

export function LoadMore({ label, load, shown }: Props) {
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const end = button.current;
    if (!end || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => entries.some((entry) => entry.isIntersecting) && load(), {
      rootMargin: `0px 0px ${loadMore.thresholdPx}px 0px`,
    });
    observer.observe(end);
    return () => observer.disconnect();
  }, [load, shown]);
  return (
    <button ref={button} type="button" className="button load-more" onClick={load} data-load-more>
      {label}
    </button>
  );
}
