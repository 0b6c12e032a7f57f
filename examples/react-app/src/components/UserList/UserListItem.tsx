import type { User } from '@/types/models';

export interface UserListItemProps {
  user: User;
  selected: boolean;
  onSelect?: (user: User) => void;
}

export function UserListItem({ user, selected, onSelect }: UserListItemProps) {
  return (
    <li className={selected ? 'user-list__item user-list__item--selected' : 'user-list__item'} data-testid="user-item">
      <button type="button" className="user-list__select" onClick={() => onSelect?.(user)} aria-pressed={selected}>
        <span className="user-list__name">{user.name}</span>
        <span className="user-list__email">{user.email}</span>
        <span className={`role-badge role-badge--${user.role}`}>{user.role}</span>
      </button>
    </li>
  );
}
