import { mount, ReactWrapper } from 'enzyme';
import { act } from 'react-dom/test-utils';
import { fetchUsers } from '@/api/users';
import type { User } from '@/types/models';
import { UserList } from '../UserList';
import { UserListItem } from '../UserListItem';

jest.mock('@/api/users');

const mockFetchUsers = fetchUsers as jest.MockedFunction<typeof fetchUsers>;

const users: User[] = [
  { id: 1, name: 'Ada Lovelace', email: 'ada@example.com', role: 'admin' },
  { id: 2, name: 'Grace Hopper', email: 'grace@example.com', role: 'editor' },
  { id: 3, name: 'Alan Turing', email: 'alan@example.com', role: 'viewer' },
];

async function mountAndWait(element: JSX.Element): Promise<ReactWrapper> {
  let wrapper: ReactWrapper | undefined;
  await act(async () => {
    wrapper = mount(element);
  });
  wrapper!.update();
  return wrapper!;
}

describe('UserList', () => {
  it('shows a loading message while users are being fetched', () => {
    mockFetchUsers.mockReturnValue(new Promise(() => {}));

    const wrapper = mount(<UserList />);

    expect(wrapper.find('.user-list__loading').text()).toBe('Loading users…');
    expect(wrapper.find(UserListItem).exists()).toBe(false);
  });

  it('renders the fetched users', async () => {
    mockFetchUsers.mockResolvedValue(users);

    const wrapper = await mountAndWait(<UserList />);

    expect(mockFetchUsers).toHaveBeenCalledWith({ role: undefined });
    expect(wrapper.find('[data-testid="user-item"]')).toHaveLength(3);
    expect(wrapper.find(UserListItem).at(1).prop('user')).toEqual(users[1]);
    expect(wrapper.find('.user-list__name').first().text()).toBe('Ada Lovelace');
    expect(wrapper.find('.role-badge').last().hasClass('role-badge--viewer')).toBe(true);
  });

  it('shows an empty state when there are no users', async () => {
    mockFetchUsers.mockResolvedValue([]);

    const wrapper = await mountAndWait(<UserList />);

    expect(wrapper.find('.user-list__empty').text()).toBe('No users found.');
  });

  it('shows the error and retries on demand', async () => {
    mockFetchUsers.mockRejectedValueOnce(new Error('Network down')).mockResolvedValueOnce(users);

    const wrapper = await mountAndWait(<UserList />);
    expect(wrapper.find('.user-list__error p').text()).toBe('Could not load users: Network down');

    await act(async () => {
      wrapper.find('button.user-list__retry').simulate('click');
    });
    wrapper.update();

    expect(mockFetchUsers).toHaveBeenCalledTimes(2);
    expect(wrapper.find('.user-list__error').exists()).toBe(false);
    expect(wrapper.find(UserListItem)).toHaveLength(3);
  });

  it('refetches when the role prop changes', async () => {
    mockFetchUsers.mockResolvedValue(users);
    const wrapper = await mountAndWait(<UserList />);

    mockFetchUsers.mockResolvedValue([users[0]]);
    await act(async () => {
      wrapper.setProps({ role: 'admin' });
    });
    wrapper.update();

    expect(mockFetchUsers).toHaveBeenLastCalledWith({ role: 'admin' });
    expect(wrapper.find(UserListItem)).toHaveLength(1);
  });

  it('marks the clicked user as selected and reports it', async () => {
    mockFetchUsers.mockResolvedValue(users);
    const onSelect = jest.fn();
    const wrapper = await mountAndWait(<UserList onSelect={onSelect} />);

    wrapper.find('.user-list__select').at(2).simulate('click');

    expect(onSelect).toHaveBeenCalledWith(users[2]);
    expect(wrapper.find('li').at(2).hasClass('user-list__item--selected')).toBe(true);
    expect(wrapper.find(UserListItem).at(0).props().selected).toBe(false);
  });
});
