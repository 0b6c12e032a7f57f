import { shallow, ShallowWrapper } from 'enzyme';
import { Counter, CounterProps, CounterState } from './Counter';

describe('<Counter />', () => {
  let wrapper: ShallowWrapper<CounterProps, CounterState, Counter>;
  const onChange = jest.fn();

  beforeEach(() => {
    wrapper = shallow<Counter>(<Counter initialCount={5} label="Tickets" onChange={onChange} />);
  });

  it('matches the snapshot', () => {
    expect(wrapper).toMatchSnapshot();
  });

  it('starts from the initial count', () => {
    expect(wrapper.state('count')).toBe(5);
    expect(wrapper.find('[data-testid="counter-value"]').text()).toBe('5');
    expect(wrapper.find('.counter__label').text()).toBe('Tickets');
  });

  it('increments and decrements when the buttons are clicked', () => {
    wrapper.find('.counter__increment').simulate('click');
    wrapper.find('.counter__increment').simulate('click');
    expect(wrapper.state().count).toBe(7);

    wrapper.find('.counter__decrement').simulate('click');
    expect(wrapper.find('output').text()).toBe('6');
    expect(onChange).toHaveBeenLastCalledWith(6);
    expect(onChange).toHaveBeenCalledTimes(3);
  });

  it('respects step, min and max', () => {
    wrapper.setProps({ step: 5, min: 0, max: 10 });

    wrapper.instance().increment();
    expect(wrapper.state('count')).toBe(10);
    expect(wrapper.find('.counter__increment').prop('disabled')).toBe(true);

    wrapper.instance().decrement();
    wrapper.instance().decrement();
    expect(wrapper.state('count')).toBe(0);
    expect(wrapper.find('.counter__decrement').props().disabled).toBe(true);
  });

  it('undoes the last change', () => {
    wrapper.setState({ count: 9, history: [5, 7] });
    expect(wrapper.find('#counter-undo').prop('disabled')).toBe(false);

    wrapper.find('#counter-undo').simulate('click');
    expect(wrapper.state()).toEqual({ count: 7, history: [5] });
  });

  it('resets to the initial count and clears history', () => {
    wrapper.instance().increment();
    wrapper.find('#counter-reset').simulate('click');

    expect(wrapper.state('count')).toBe(5);
    expect(wrapper.state('history')).toHaveLength(0);
    expect(wrapper.find('#counter-undo').prop('disabled')).toBe(true);
  });

  it('resets when the initialCount prop changes', () => {
    wrapper.instance().increment();
    wrapper.setProps({ initialCount: 42 });

    expect(wrapper.state('count')).toBe(42);
  });
});
