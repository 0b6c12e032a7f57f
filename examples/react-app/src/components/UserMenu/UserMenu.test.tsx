import { ReactWrapper } from 'enzyme';
import { act } from 'react-dom/test-utils';
import * as authApi from '@/api/auth';
import { mountWithProviders } from '@/enzyme-test-utils';
import type { User } from '@/types/models';
import { UserMenu, UserMenuProps } from './UserMenu';

jest.mock('@/api/auth');

const user: User = { id: 7, name: 'Katherine Johnson', email: 'katherine@example.com', role: 'editor' };

describe('UserMenu', () => {
  let wrapper: ReactWrapper<UserMenuProps>;
  const onSignIn = jest.fn();
  const onOpenSettings = jest.fn();

  beforeEach(() => {
    jest.mocked(authApi.logout).mockResolvedValue(undefined);
    wrapper = mountWithProviders(<UserMenu onSignIn={onSignIn} onOpenSettings={onOpenSettings} />, { user });
  });

  afterEach(() => {
    wrapper.unmount();
  });

  it('shows the signed in user with their initials', () => {
    expect(wrapper.find('.user-menu__name').text()).toBe('Katherine Johnson');
    expect(wrapper.find('.user-menu__avatar--initials').text()).toBe('KJ');
    expect(wrapper.find('img').exists()).toBe(false);
    expect(wrapper.find('.user-menu__dropdown').exists()).toBe(false);
  });

  it('opens and closes the dropdown from the trigger', () => {
    wrapper.find('#user-menu-button').simulate('click');
    expect(wrapper.find('.user-menu__dropdown').exists()).toBe(true);
    expect(wrapper.find('#user-menu-button').prop('aria-expanded')).toBe(true);
    expect(wrapper.find('.user-menu__email').text()).toBe('katherine@example.com');

    wrapper.find('#user-menu-button').simulate('click');
    expect(wrapper.find('.user-menu__dropdown').exists()).toBe(false);
  });

  it('closes the dropdown when clicking outside of it', () => {
    wrapper.find('#user-menu-button').simulate('click');

    act(() => {
      document.body.dispatchEvent(new MouseEvent('mousedown', { bubbles: true }));
    });
    wrapper.update();

    expect(wrapper.find('[role="menu"]').exists()).toBe(false);
  });

  it('opens the settings and closes the menu', () => {
    wrapper.find('#user-menu-button').simulate('click');
    wrapper.find('button.user-menu__settings').simulate('click');

    expect(onOpenSettings).toHaveBeenCalledTimes(1);
    expect(wrapper.find('.user-menu__dropdown').length).toBe(0);
  });

  it('hides the settings entry when no handler is given', () => {
    wrapper.setProps({ onOpenSettings: undefined });
    wrapper.find('#user-menu-button').simulate('click');

    expect(wrapper.find('[role="menuitem"]')).toHaveLength(1);
    expect(wrapper.find('[role="menuitem"]').first().text()).toBe('Sign out');
  });

  it('signs the user out', () => {
    wrapper.find('#user-menu-button').simulate('click');
    wrapper.find('.user-menu__logout').simulate('click');

    expect(authApi.logout).toHaveBeenCalledTimes(1);
    expect(wrapper.find('.user-menu').exists()).toBe(false);
    expect(wrapper.find('button.user-menu__sign-in').text()).toBe('Sign in');
  });

  it('asks the user to sign in when nobody is signed in', () => {
    const anonymous = mountWithProviders(<UserMenu onSignIn={onSignIn} />, { user: null });

    anonymous.find('button').simulate('click');

    expect(onSignIn).toHaveBeenCalled();
    expect(anonymous.find('.user-menu__sign-in').exists()).toBe(true);
    anonymous.unmount();
  });
});
