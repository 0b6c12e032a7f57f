import { useCallback, useEffect, useReducer, useState } from 'react';

export type AsyncStatus = 'pending' | 'resolved' | 'rejected';

interface AsyncState<T> {
  status: AsyncStatus;
  data: T | undefined;
  error: Error | undefined;
}

type AsyncAction<T> =
  | { type: 'start' }
  | { type: 'resolve'; data: T }
  | { type: 'reject'; error: Error };

function asyncReducer<T>(state: AsyncState<T>, action: AsyncAction<T>): AsyncState<T> {
  switch (action.type) {
    case 'start':
      return { ...state, status: 'pending', error: undefined };
    case 'resolve':
      return { status: 'resolved', data: action.data, error: undefined };
    case 'reject':
      return { ...state, status: 'rejected', error: action.error };
    default:
      return state;
  }
}

export interface UseAsyncResult<T> extends AsyncState<T> {
  retry: () => void;
}

/**
 * Runs `load` on mount and whenever it changes (memoise it with useCallback)
 * and tracks its status. Results of stale calls are ignored.
 */
export function useAsync<T>(load: () => Promise<T>): UseAsyncResult<T> {
  const [state, dispatch] = useReducer(
    asyncReducer as (state: AsyncState<T>, action: AsyncAction<T>) => AsyncState<T>,
    { status: 'pending', data: undefined, error: undefined },
  );
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let cancelled = false;
    dispatch({ type: 'start' });
    load().then(
      (data) => {
        if (!cancelled) dispatch({ type: 'resolve', data });
      },
      (error: unknown) => {
        if (!cancelled) {
          dispatch({
            type: 'reject',
            error: error instanceof Error ? error : new Error(String(error)),
          });
        }
      },
    );
    return () => {
      cancelled = true;
    };
  }, [load, attempt]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);

  return { ...state, retry };
}
