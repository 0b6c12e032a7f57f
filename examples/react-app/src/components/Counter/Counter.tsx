import { Component } from 'react';
import './Counter.css';

export interface CounterProps {
  initialCount?: number;
  step?: number;
  min?: number;
  max?: number;
  label?: string;
  onChange?: (count: number) => void;
}

export interface CounterState {
  count: number;
  history: number[];
}

export class Counter extends Component<CounterProps, CounterState> {
  state: CounterState = {
    count: this.props.initialCount ?? 0,
    history: [],
  };

  componentDidUpdate(prevProps: CounterProps) {
    if (prevProps.initialCount !== this.props.initialCount) {
      this.reset();
    }
  }

  get step(): number {
    return this.props.step ?? 1;
  }

  canIncrement(): boolean {
    const { max } = this.props;
    return max === undefined || this.state.count + this.step <= max;
  }

  canDecrement(): boolean {
    const { min } = this.props;
    return min === undefined || this.state.count - this.step >= min;
  }

  setCount(next: number) {
    this.setState(
      (state) => ({ count: next, history: [...state.history, state.count] }),
      () => this.props.onChange?.(this.state.count),
    );
  }

  increment = () => {
    if (this.canIncrement()) this.setCount(this.state.count + this.step);
  };

  decrement = () => {
    if (this.canDecrement()) this.setCount(this.state.count - this.step);
  };

  undo = () => {
    const { history } = this.state;
    if (history.length === 0) return;
    this.setState({ count: history[history.length - 1], history: history.slice(0, -1) });
  };

  reset = () => {
    this.setState({ count: this.props.initialCount ?? 0, history: [] });
  };

  render() {
    const { label = 'Count' } = this.props;
    const { count, history } = this.state;

    return (
      <div className="counter">
        <span className="counter__label">{label}</span>
        <button
          type="button"
          className="counter__button counter__decrement"
          aria-label={`Decrease ${label.toLowerCase()}`}
          onClick={this.decrement}
          disabled={!this.canDecrement()}
        >
          -
        </button>
        <output className="counter__value" data-testid="counter-value" aria-live="polite">
          {count}
        </output>
        <button
          type="button"
          className="counter__button counter__increment"
          aria-label={`Increase ${label.toLowerCase()}`}
          onClick={this.increment}
          disabled={!this.canIncrement()}
        >
          +
        </button>
        <button type="button" id="counter-undo" onClick={this.undo} disabled={history.length === 0}>
          Undo
        </button>
        <button type="button" id="counter-reset" onClick={this.reset}>
          Reset
        </button>
      </div>
    );
  }
}

export default Counter;
