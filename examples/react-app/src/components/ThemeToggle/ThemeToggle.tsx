import { useTheme } from '@/context/ThemeContext';
import './ThemeToggle.css';

export interface ThemeToggleProps {
  showLabel?: boolean;
}

export function ThemeToggle({ showLabel = true }: ThemeToggleProps) {
  const { theme, toggleTheme } = useTheme();
  const isDark = theme === 'dark';
  const label = isDark ? 'Switch to light mode' : 'Switch to dark mode';

  return (
    <button
      type="button"
      className={`theme-toggle theme-toggle--${theme}`}
      aria-pressed={isDark}
      aria-label={showLabel ? undefined : label}
      title={label}
      onClick={toggleTheme}
    >
      <span className="theme-toggle__icon" aria-hidden="true">
        {isDark ? '☀️' : '🌙'}
      </span>
      {showLabel && <span className="theme-toggle__label">{label}</span>}
    </button>
  );
}

export default ThemeToggle;
