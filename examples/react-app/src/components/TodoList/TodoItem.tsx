import type { Todo } from '@/types/models';
import styles from './TodoList.module.css';

export interface TodoItemProps {
  todo: Todo;
  onToggle: (id: number) => void;
  onRemove: (id: number) => void;
}

export function TodoItem({ todo, onToggle, onRemove }: TodoItemProps) {
  const checkboxId = `todo-${todo.id}`;

  return (
    <li className={todo.completed ? `${styles.item} ${styles.completed}` : styles.item} data-testid="todo-item">
      <input
        id={checkboxId}
        type="checkbox"
        checked={todo.completed}
        onChange={() => onToggle(todo.id)}
      />
      <label htmlFor={checkboxId} className={styles.text}>
        {todo.text}
      </label>
      <button
        type="button"
        className={styles.remove}
        aria-label={`Remove ${todo.text}`}
        onClick={() => onRemove(todo.id)}
      >
        ×
      </button>
    </li>
  );
}
