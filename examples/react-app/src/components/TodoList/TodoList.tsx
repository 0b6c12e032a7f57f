import { FormEvent, useReducer, useState } from 'react';
import type { Todo } from '@/types/models';
import { TodoItem } from './TodoItem';
import { createInitialState, TodoFilter, todoReducer, visibleTodos } from './todoReducer';
import styles from './TodoList.module.css';

export interface TodoListProps {
  initialTodos?: Todo[];
  title?: string;
}

const FILTERS: TodoFilter[] = ['all', 'active', 'completed'];

export function TodoList({ initialTodos = [], title = 'Todos' }: TodoListProps) {
  const [state, dispatch] = useReducer(todoReducer, initialTodos, createInitialState);
  const [draft, setDraft] = useState('');

  const remaining = state.todos.filter((todo) => !todo.completed).length;
  const todos = visibleTodos(state);

  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const text = draft.trim();
    if (!text) return;
    dispatch({ type: 'add', text });
    setDraft('');
  };

  return (
    <section className={styles.todoList} aria-labelledby="todo-title">
      <h2 id="todo-title">{title}</h2>

      <form className={styles.addForm} onSubmit={handleSubmit}>
        <label htmlFor="new-todo" className="visually-hidden">
          New todo
        </label>
        <input
          id="new-todo"
          placeholder="What needs to be done?"
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
        />
        <button type="submit" disabled={!draft.trim()}>
          Add
        </button>
      </form>

      {todos.length === 0 ? (
        <p className={styles.empty}>Nothing to do!</p>
      ) : (
        <ul className={styles.items}>
          {todos.map((todo) => (
            <TodoItem
              key={todo.id}
              todo={todo}
              onToggle={(id) => dispatch({ type: 'toggle', id })}
              onRemove={(id) => dispatch({ type: 'remove', id })}
            />
          ))}
        </ul>
      )}

      <footer className={styles.footer}>
        <span className={styles.count}>
          {remaining} {remaining === 1 ? 'item' : 'items'} left
        </span>
        <div role="group" aria-label="Filter todos">
          {FILTERS.map((filter) => (
            <button
              key={filter}
              type="button"
              className={filter === state.filter ? `${styles.filter} ${styles.selected}` : styles.filter}
              aria-pressed={filter === state.filter}
              onClick={() => dispatch({ type: 'setFilter', filter })}
            >
              {filter[0].toUpperCase() + filter.slice(1)}
            </button>
          ))}
        </div>
        <button
          type="button"
          id="clear-completed"
          onClick={() => dispatch({ type: 'clearCompleted' })}
          disabled={remaining === state.todos.length}
        >
          Clear completed
        </button>
      </footer>
    </section>
  );
}

export default TodoList;
