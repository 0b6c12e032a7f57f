import { mount } from 'enzyme';
import { ThemeProvider, useTheme } from '@/context/ThemeContext';
import { mountWithProviders } from '@/enzyme-test-utils';
import { ThemeToggle } from './ThemeToggle';

function ThemeName() {
  const { theme } = useTheme();
  return <span id="theme-name">{theme}</span>;
}

describe('ThemeToggle', () => {
  it('renders the light theme by default', () => {
    const wrapper = mountWithProviders(<ThemeToggle />);

    const button = wrapper.find('button');
    expect(button.hasClass('theme-toggle--light')).toBe(true);
    expect(button.prop('aria-pressed')).toBe(false);
    expect(wrapper.find('.theme-toggle__label').text()).toBe('Switch to dark mode');
  });

  it('starts from the theme given to the provider', () => {
    const wrapper = mountWithProviders(<ThemeToggle />, { theme: 'dark' });

    expect(wrapper.find('button').hasClass('theme-toggle--dark')).toBe(true);
    expect(wrapper.find('.theme-toggle__icon').text()).toBe('☀️');
  });

  it('toggles the theme for every consumer', () => {
    const wrapper = mount(
      <ThemeProvider>
        <ThemeToggle />
        <ThemeName />
      </ThemeProvider>,
    );
    expect(wrapper.find('#theme-name').text()).toBe('light');

    wrapper.find(ThemeToggle).find('button').simulate('click');
    expect(wrapper.find('#theme-name').text()).toBe('dark');
    expect(wrapper.find('.theme-toggle').hasClass('theme-toggle--dark')).toBe(true);

    wrapper.find('button.theme-toggle').simulate('click');
    expect(wrapper.find('#theme-name').text()).toBe('light');
  });

  it('uses an aria-label instead of visible text when showLabel is false', () => {
    const wrapper = mountWithProviders(<ThemeToggle showLabel={false} />);

    expect(wrapper.find('.theme-toggle__label').exists()).toBe(false);
    expect(wrapper.find('button').props()).toEqual(
      expect.objectContaining({ 'aria-label': 'Switch to dark mode', title: 'Switch to dark mode' }),
    );

    wrapper.setProps({ showLabel: true });
    expect(wrapper.find('.theme-toggle__label').length).toBe(1);
  });
});
