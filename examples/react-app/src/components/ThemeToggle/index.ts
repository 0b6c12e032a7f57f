export { ThemeToggle, default } from './ThemeToggle';
