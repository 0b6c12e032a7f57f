import { mount, ReactWrapper } from 'enzyme';
import { act } from 'react-dom/test-utils';
import { Modal, ModalProps } from './Modal';

describe('<Modal />', () => {
  let wrapper: ReactWrapper<ModalProps>;
  let onClose: jest.Mock;

  beforeEach(() => {
    onClose = jest.fn();
    wrapper = mount(
      <Modal isOpen title="Delete project" onClose={onClose} footer={<button className="confirm">Delete</button>}>
        <p className="modal-message">This cannot be undone.</p>
      </Modal>,
    );
  });

  afterEach(() => {
    wrapper.unmount();
  });

  it('renders the dialog into document.body', () => {
    expect(wrapper.find('[role="dialog"]').exists()).toBe(true);
    expect(wrapper.find('#modal-title').text()).toBe('Delete project');
    expect(wrapper.find('.modal-message').text()).toBe('This cannot be undone.');
    expect(wrapper.find('.footer').find('button.confirm').length).toBe(1);
    expect(document.body.textContent).toContain('This cannot be undone.');
    expect(document.body.classList.contains('modal-open')).toBe(true);
  });

  it('calls onClose when the close button is clicked', () => {
    wrapper.find('button.close').simulate('click');

    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('closes when clicking the overlay but not the dialog itself', () => {
    wrapper.find('.dialog').simulate('click');
    expect(onClose).not.toHaveBeenCalled();

    wrapper.find('[data-testid="modal-overlay"]').simulate('click');
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('closes on Escape', () => {
    act(() => {
      document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape' }));
    });

    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('renders nothing and cleans up once isOpen becomes false', () => {
    wrapper.setProps({ isOpen: false });

    expect(wrapper.find('.overlay').exists()).toBe(false);
    expect(wrapper.html()).toBeNull();
    expect(document.body.textContent).not.toContain('This cannot be undone.');
    expect(document.body.classList.contains('modal-open')).toBe(false);
  });

  it('does not render a footer when none is given', () => {
    wrapper.setProps({ footer: undefined });

    expect(wrapper.find('footer').exists()).toBe(false);
    expect(wrapper.props().title).toBe('Delete project');
  });
});
