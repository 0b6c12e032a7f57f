import { useCountdown } from '@/hooks/useCountdown';
import './Countdown.css';

export interface CountdownProps {
  seconds: number;
  label?: string;
  autoStart?: boolean;
  onComplete?: () => void;
}

export function formatTime(totalSeconds: number): string {
  const minutes = Math.floor(totalSeconds / 60);
  const seconds = totalSeconds % 60;
  return `${String(minutes).padStart(2, '0')}:${String(seconds).padStart(2, '0')}`;
}

export function Countdown({ seconds, label = 'Time remaining', autoStart = true, onComplete }: CountdownProps) {
  const { remaining, isRunning, isDone, start, pause, reset } = useCountdown(seconds, {
    autoStart,
    onComplete,
  });

  return (
    <div className={isDone ? 'countdown countdown--done' : 'countdown'}>
      <span className="countdown__label">{label}</span>
      <time className="countdown__time" data-testid="countdown-time" aria-live="off">
        {formatTime(remaining)}
      </time>
      {isDone ? (
        <p className="countdown__message" role="alert">
          Time&apos;s up!
        </p>
      ) : (
        <button type="button" id="countdown-toggle" onClick={isRunning ? pause : start}>
          {isRunning ? 'Pause' : 'Start'}
        </button>
      )}
      <button type="button" className="countdown__reset" onClick={reset}>
        Reset
      </button>
    </div>
  );
}

export default Countdown;
