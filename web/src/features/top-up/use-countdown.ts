import { useEffect, useState } from 'react';

/** Whole seconds left until `untilIso` (0 once it has passed), ticking once a second while any are left. */
export function useCountdown(untilIso: string): number {
  const untilMs = Date.parse(untilIso);
  const secondsLeft = () => Math.max(0, Math.ceil((untilMs - Date.now()) / 1000));
  const [left, setLeft] = useState(secondsLeft);
  useEffect(() => {
    setLeft(secondsLeft());
    const timer = window.setInterval(() => {
      const next = secondsLeft();
      setLeft(next);
      if (next === 0) window.clearInterval(timer);
    }, 1000);
    return () => window.clearInterval(timer);
    // `secondsLeft` reads only `untilMs`.
  }, [untilMs]);
  return left;
}

/** 3725 → "1:02:05", 65 → "1:05". */
export function formatCountdown(seconds: number): string {
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = String(seconds % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${rest}` : `${minutes}:${rest}`;
}
