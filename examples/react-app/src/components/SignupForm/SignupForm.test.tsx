import { mount, ReactWrapper, shallow } from 'enzyme';
import { act } from 'react-dom/test-utils';
import { SignupForm } from './SignupForm';

function fillIn(wrapper: ReactWrapper, selector: string, value: string) {
  wrapper.find(selector).simulate('change', { target: { value } });
}

function fillValidForm(wrapper: ReactWrapper) {
  fillIn(wrapper, 'input#signup-email', 'ada@example.com');
  fillIn(wrapper, 'input#signup-password', 'analytical1');
  fillIn(wrapper, 'input#signup-confirm-password', 'analytical1');
  wrapper.find('input[type="checkbox"]').simulate('change', { target: { checked: true } });
}

describe('SignupForm', () => {
  it('renders all fields and no errors initially', () => {
    const wrapper = shallow(<SignupForm onSubmit={jest.fn()} />);

    expect(wrapper.find('input')).toHaveLength(4);
    expect(wrapper.find('.field-error').exists()).toBe(false);
    expect(wrapper.find('button[type="submit"]').text()).toBe('Create account');
  });

  it('shows required errors when submitting an empty form', () => {
    const onSubmit = jest.fn();
    const wrapper = shallow(<SignupForm onSubmit={onSubmit} />);

    wrapper.find('form').simulate('submit', { preventDefault: jest.fn() });

    const errors = wrapper.find('.field-error');
    expect(errors).toHaveLength(3);
    expect(errors.at(0).text()).toBe('Email is required');
    expect(errors.at(1).text()).toBe('Password is required');
    expect(errors.last().text()).toBe('You must accept the terms');
    expect(onSubmit).not.toHaveBeenCalled();
  });

  describe('validation', () => {
    let wrapper: ReactWrapper;

    beforeEach(() => {
      wrapper = mount(<SignupForm onSubmit={jest.fn()} />);
    });

    afterEach(() => {
      wrapper.unmount();
    });

    it('rejects an invalid email address', () => {
      fillIn(wrapper, '#signup-email', 'not-an-email');
      wrapper.find('form').simulate('submit');

      expect(wrapper.find('#signup-email-error').text()).toBe('Enter a valid email address');
      expect(wrapper.find('#signup-email').prop('aria-invalid')).toBe(true);
    });

    it('enforces the password rules', () => {
      fillIn(wrapper, '#signup-password', 'short');
      wrapper.find('form').simulate('submit');
      expect(wrapper.find('#signup-password-error').text()).toBe('Password must be at least 8 characters');

      fillIn(wrapper, '#signup-password', 'longenoughbutnodigits');
      wrapper.find('form').simulate('submit');
      expect(wrapper.find('#signup-password-error').text()).toBe('Password must contain a number');
    });

    it('complains when the passwords do not match', () => {
      fillIn(wrapper, '#signup-password', 'password123');
      fillIn(wrapper, '#signup-confirm-password', 'password124');
      wrapper.find('form').simulate('submit');

      expect(wrapper.find('.field-error').map((node) => node.text())).toContain('Passwords do not match');
    });

    it('clears a field error as soon as the field changes', () => {
      wrapper.find('form').simulate('submit');
      expect(wrapper.find('#signup-email-error').exists()).toBe(true);

      fillIn(wrapper, '#signup-email', 'a');
      expect(wrapper.find('#signup-email-error').exists()).toBe(false);
    });
  });

  it('submits the trimmed values and shows a confirmation', async () => {
    const onSubmit = jest.fn().mockResolvedValue(undefined);
    const wrapper = mount(<SignupForm onSubmit={onSubmit} />);

    fillValidForm(wrapper);
    fillIn(wrapper, '#signup-email', '  ada@example.com ');

    await act(async () => {
      wrapper.find('form').simulate('submit');
    });
    wrapper.update();

    expect(onSubmit).toHaveBeenCalledWith({ email: 'ada@example.com', password: 'analytical1' });
    expect(wrapper.find('form').exists()).toBe(false);
    expect(wrapper.find('.signup-success').text()).toContain('ada@example.com');
  });
});
