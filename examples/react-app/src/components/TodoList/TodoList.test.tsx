import { mount, ReactWrapper, shallow } from 'enzyme';
import type { Todo } from '@/types/models';
import { TodoItem } from './TodoItem';
import { TodoList } from './TodoList';

const initialTodos: Todo[] = [
  { id: 1, text: 'Write migration plan', completed: true },
  { id: 2, text: 'Migrate Counter tests', completed: false },
  { id: 3, text: 'Delete enzyme', completed: false },
];

describe('TodoList', () => {
  let wrapper: ReactWrapper;

  beforeEach(() => {
    wrapper = mount(<TodoList initialTodos={initialTodos} title="Migration" />);
  });

  afterEach(() => {
    wrapper.unmount();
  });

  it('matches the snapshot', () => {
    expect(shallow(<TodoList initialTodos={initialTodos} />)).toMatchSnapshot();
  });

  it('renders a TodoItem for each todo', () => {
    expect(wrapper.find('h2').text()).toBe('Migration');
    expect(wrapper.find(TodoItem)).toHaveLength(3);
    expect(wrapper.find(TodoItem).first().prop('todo')).toEqual(initialTodos[0]);
    expect(wrapper.find('[data-testid="todo-item"]').first().hasClass('completed')).toBe(true);
    expect(wrapper.find('.count').text()).toBe('2 items left');
  });

  it('adds a todo from the form', () => {
    wrapper.find('input#new-todo').simulate('change', { target: { value: '  Celebrate  ' } });
    wrapper.find('form').simulate('submit');

    expect(wrapper.find(TodoItem)).toHaveLength(4);
    expect(wrapper.find(TodoItem).last().props().todo).toEqual({
      id: 4,
      text: 'Celebrate',
      completed: false,
    });
    expect(wrapper.find('input#new-todo').prop('value')).toBe('');
  });

  it('ignores blank todos', () => {
    wrapper.find('#new-todo').simulate('change', { target: { value: '   ' } });
    expect(wrapper.find('button[type="submit"]').prop('disabled')).toBe(true);

    wrapper.find('form').simulate('submit');
    expect(wrapper.find(TodoItem)).toHaveLength(3);
  });

  it('toggles a todo when its checkbox changes', () => {
    wrapper.find('input[type="checkbox"]').at(1).simulate('change');

    expect(wrapper.find(TodoItem).at(1).prop('todo').completed).toBe(true);
    expect(wrapper.find('li').at(1).hasClass('completed')).toBe(true);
    expect(wrapper.find('.count').text()).toBe('1 item left');
  });

  it('removes a todo', () => {
    wrapper.find('button.remove').first().simulate('click');

    expect(wrapper.find(TodoItem)).toHaveLength(2);
    expect(wrapper.find('label.text').map((label) => label.text())).toEqual([
      'Migrate Counter tests',
      'Delete enzyme',
    ]);
  });

  it('filters and clears completed todos', () => {
    wrapper.find('button.filter').at(2).simulate('click');
    expect(wrapper.find(TodoItem)).toHaveLength(1);
    expect(wrapper.find('button.filter').at(2).hasClass('selected')).toBe(true);

    wrapper.find('#clear-completed').simulate('click');
    expect(wrapper.find(TodoItem).exists()).toBe(false);
    expect(wrapper.find('.empty').text()).toBe('Nothing to do!');
  });
});
