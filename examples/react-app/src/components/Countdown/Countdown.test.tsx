import { mount } from 'enzyme';
import { act } from 'react-dom/test-utils';
import { Countdown, formatTime } from './Countdown';

function advanceSeconds(seconds: number) {
  act(() => {
    jest.advanceTimersByTime(seconds * 1000);
  });
}

describe('Countdown', () => {
  beforeEach(() => {
    jest.useFakeTimers();
  });

  afterEach(() => {
    jest.useRealTimers();
  });

  describe('formatTime', () => {
    it('pads minutes and seconds', () => {
      expect(formatTime(0)).toBe('00:00');
      expect(formatTime(75)).toBe('01:15');
      expect(formatTime(600)).toBe('10:00');
    });
  });

  it('counts down once per second', () => {
    const wrapper = mount(<Countdown seconds={90} />);
    expect(wrapper.find('[data-testid="countdown-time"]').text()).toBe('01:30');

    advanceSeconds(1);
    wrapper.update();
    expect(wrapper.find('[data-testid="countdown-time"]').text()).toBe('01:29');

    advanceSeconds(30);
    wrapper.update();
    expect(wrapper.find('time').text()).toBe('00:59');
  });

  it('calls onComplete once and shows a message when time is up', () => {
    const onComplete = jest.fn();
    const wrapper = mount(<Countdown seconds={3} onComplete={onComplete} />);

    advanceSeconds(3);
    wrapper.update();

    expect(onComplete).toHaveBeenCalledTimes(1);
    expect(wrapper.find('.countdown').hasClass('countdown--done')).toBe(true);
    expect(wrapper.find('.countdown__message').text()).toBe("Time's up!");
    expect(wrapper.find('#countdown-toggle').exists()).toBe(false);

    advanceSeconds(5);
    expect(onComplete).toHaveBeenCalledTimes(1);
  });

  it('can be paused and resumed', () => {
    const wrapper = mount(<Countdown seconds={10} />);

    advanceSeconds(2);
    wrapper.find('#countdown-toggle').simulate('click');
    expect(wrapper.find('#countdown-toggle').text()).toBe('Start');

    advanceSeconds(5);
    wrapper.update();
    expect(wrapper.find('.countdown__time').text()).toBe('00:08');

    wrapper.find('#countdown-toggle').simulate('click');
    advanceSeconds(1);
    wrapper.update();
    expect(wrapper.find('.countdown__time').text()).toBe('00:07');
  });

  it('does not start until asked when autoStart is false', () => {
    const wrapper = mount(<Countdown seconds={5} autoStart={false} label="Break" />);

    advanceSeconds(3);
    wrapper.update();

    expect(wrapper.find('.countdown__label').text()).toBe('Break');
    expect(wrapper.find('.countdown__time').text()).toBe('00:05');
    expect(wrapper.find('button').first().text()).toBe('Start');
  });

  it('restarts when the seconds prop changes', () => {
    const wrapper = mount(<Countdown seconds={5} />);

    advanceSeconds(4);
    wrapper.setProps({ seconds: 20 });
    expect(wrapper.find('.countdown__time').text()).toBe('00:20');

    advanceSeconds(1);
    wrapper.update();
    expect(wrapper.find('.countdown__time').text()).toBe('00:19');
  });

  it('resets to the full duration and stops', () => {
    const wrapper = mount(<Countdown seconds={30} />);

    advanceSeconds(10);
    wrapper.find('button.countdown__reset').simulate('click');
    advanceSeconds(10);
    wrapper.update();

    expect(wrapper.find('.countdown__time').text()).toBe('00:30');
    expect(wrapper.find('#countdown-toggle').text()).toBe('Start');
  });
});
