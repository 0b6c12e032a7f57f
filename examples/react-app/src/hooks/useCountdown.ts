import { useCallback, useEffect, useRef, useState } from 'react';

export interface UseCountdownOptions {
  autoStart?: boolean;
  onComplete?: () => void;
}

export interface UseCountdownResult {
  remaining: number;
  isRunning: boolean;
  isDone: boolean;
  start: () => void;
  pause: () => void;
  reset: () => void;
}

export function useCountdown(
  seconds: number,
  { autoStart = true, onComplete }: UseCountdownOptions = {},
): UseCountdownResult {
  const [remaining, setRemaining] = useState(seconds);
  const [isRunning, setIsRunning] = useState(autoStart && seconds > 0);
  const onCompleteRef = useRef(onComplete);

  useEffect(() => {
    onCompleteRef.current = onComplete;
  }, [onComplete]);

  // Restart when the caller asks for a different duration.
  useEffect(() => {
    setRemaining(seconds);
    setIsRunning(autoStart && seconds > 0);
  }, [seconds, autoStart]);

  useEffect(() => {
    if (!isRunning) return undefined;
    const interval = setInterval(() => {
      setRemaining((current) => Math.max(current - 1, 0));
    }, 1000);
    return () => clearInterval(interval);
  }, [isRunning]);

  useEffect(() => {
    if (isRunning && remaining === 0) {
      setIsRunning(false);
      onCompleteRef.current?.();
    }
  }, [isRunning, remaining]);

  const start = useCallback(() => {
    setIsRunning(true);
  }, []);
  const pause = useCallback(() => setIsRunning(false), []);
  const reset = useCallback(() => {
    setRemaining(seconds);
    setIsRunning(false);
  }, [seconds]);

  return { remaining, isRunning, isDone: remaining === 0, start, pause, reset };
}
