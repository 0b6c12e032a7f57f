import { useCallback, useEffect, useRef } from 'react';
import './Toast.css';

export type ToastVariant = 'info' | 'success' | 'error';

export interface ToastProps {
  message: string;
  variant?: ToastVariant;
  /** Milliseconds before the toast dismisses itself; 0 keeps it open. */
  duration?: number;
  onDismiss: () => void;
}

export function Toast({ message, variant = 'info', duration = 5000, onDismiss }: ToastProps) {
  const timeoutRef = useRef<ReturnType<typeof setTimeout>>();

  const clearTimer = useCallback(() => {
    if (timeoutRef.current !== undefined) {
      clearTimeout(timeoutRef.current);
      timeoutRef.current = undefined;
    }
  }, []);

  const startTimer = useCallback(() => {
    clearTimer();
    if (duration > 0) {
      timeoutRef.current = setTimeout(onDismiss, duration);
    }
  }, [clearTimer, duration, onDismiss]);

  useEffect(() => {
    startTimer();
    return clearTimer;
  }, [startTimer, clearTimer, message]);

  return (
    <div
      className={`toast toast--${variant}`}
      role={variant === 'error' ? 'alert' : 'status'}
      onMouseEnter={clearTimer}
      onMouseLeave={startTimer}
    >
      <span className="toast__message">{message}</span>
      <button type="button" className="toast__close" aria-label="Dismiss notification" onClick={onDismiss}>
        ×
      </button>
    </div>
  );
}

export default Toast;
