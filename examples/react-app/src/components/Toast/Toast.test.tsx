import userEvent from '@testing-library/user-event';
import { act, render, screen } from '@/test-utils';
import { Toast } from './Toast';

describe('Toast', () => {
  beforeEach(() => {
    jest.useFakeTimers();
  });

  afterEach(() => {
    jest.useRealTimers();
  });

  it('announces the message politely by default', () => {
    render(<Toast message="Profile saved" onDismiss={jest.fn()} />);

    expect(screen.getByRole('status')).toHaveTextContent('Profile saved');
    expect(screen.getByRole('status')).toHaveClass('toast--info');
  });

  it('uses an alert for errors', () => {
    render(<Toast message="Could not save" variant="error" onDismiss={jest.fn()} />);

    expect(screen.getByRole('alert')).toHaveTextContent('Could not save');
  });

  it('dismisses itself after the duration', () => {
    const onDismiss = jest.fn();
    render(<Toast message="Saved" duration={3000} onDismiss={onDismiss} />);

    act(() => {
      jest.advanceTimersByTime(2999);
    });
    expect(onDismiss).not.toHaveBeenCalled();

    act(() => {
      jest.advanceTimersByTime(1);
    });
    expect(onDismiss).toHaveBeenCalledTimes(1);
  });

  it('stays open when duration is 0', () => {
    const onDismiss = jest.fn();
    render(<Toast message="Sticky" duration={0} onDismiss={onDismiss} />);

    act(() => {
      jest.runOnlyPendingTimers();
    });

    expect(onDismiss).not.toHaveBeenCalled();
  });

  it('can be dismissed with the close button', async () => {
    const onDismiss = jest.fn();
    const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
    render(<Toast message="Saved" onDismiss={onDismiss} />);

    await user.click(screen.getByRole('button', { name: 'Dismiss notification' }));

    expect(onDismiss).toHaveBeenCalledTimes(1);
  });

  it('pauses the timer while hovered', async () => {
    const onDismiss = jest.fn();
    const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
    render(<Toast message="Saved" duration={1000} onDismiss={onDismiss} />);

    await user.hover(screen.getByRole('status'));
    act(() => {
      jest.advanceTimersByTime(5000);
    });
    expect(onDismiss).not.toHaveBeenCalled();

    await user.unhover(screen.getByRole('status'));
    act(() => {
      jest.advanceTimersByTime(1000);
    });
    expect(onDismiss).toHaveBeenCalledTimes(1);
  });
});
