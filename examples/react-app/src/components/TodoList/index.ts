export { TodoList, default } from './TodoList';
export { TodoItem } from './TodoItem';
