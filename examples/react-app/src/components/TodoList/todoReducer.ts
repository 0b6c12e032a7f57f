import type { Todo } from '@/types/models';

export type TodoFilter = 'all' | 'active' | 'completed';

export interface TodoState {
  todos: Todo[];
  nextId: number;
  filter: TodoFilter;
}

export type TodoAction =
  | { type: 'add'; text: string }
  | { type: 'toggle'; id: number }
  | { type: 'remove'; id: number }
  | { type: 'clearCompleted' }
  | { type: 'setFilter'; filter: TodoFilter };

export function createInitialState(todos: Todo[] = []): TodoState {
  return {
    todos,
    nextId: todos.reduce((max, todo) => Math.max(max, todo.id), 0) + 1,
    filter: 'all',
  };
}

export function todoReducer(state: TodoState, action: TodoAction): TodoState {
  switch (action.type) {
    case 'add':
      return {
        ...state,
        todos: [...state.todos, { id: state.nextId, text: action.text, completed: false }],
        nextId: state.nextId + 1,
      };
    case 'toggle':
      return {
        ...state,
        todos: state.todos.map((todo) =>
          todo.id === action.id ? { ...todo, completed: !todo.completed } : todo,
        ),
      };
    case 'remove':
      return { ...state, todos: state.todos.filter((todo) => todo.id !== action.id) };
    case 'clearCompleted':
      return { ...state, todos: state.todos.filter((todo) => !todo.completed) };
    case 'setFilter':
      return { ...state, filter: action.filter };
    default:
      return state;
  }
}

export function visibleTodos({ todos, filter }: TodoState): Todo[] {
  if (filter === 'active') return todos.filter((todo) => !todo.completed);
  if (filter === 'completed') return todos.filter((todo) => todo.completed);
  return todos;
}
