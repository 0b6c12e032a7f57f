import { useEffect, useRef, useState } from 'react';
import { useAuth } from '@/context/AuthContext';
import './UserMenu.css';

export interface UserMenuProps {
  onSignIn: () => void;
  onOpenSettings?: () => void;
}

function initials(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0].toUpperCase())
    .join('');
}

export function UserMenu({ onSignIn, onOpenSettings }: UserMenuProps) {
  const { user, logout } = useAuth();
  const [open, setOpen] = useState(false);
  const containerRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return undefined;
    const handleClick = (event: MouseEvent) => {
      if (containerRef.current && !containerRef.current.contains(event.target as Node)) {
        setOpen(false);
      }
    };
    document.addEventListener('mousedown', handleClick);
    return () => document.removeEventListener('mousedown', handleClick);
  }, [open]);

  if (!user) {
    return (
      <button type="button" className="user-menu__sign-in" onClick={onSignIn}>
        Sign in
      </button>
    );
  }

  return (
    <div className="user-menu" ref={containerRef}>
      <button
        type="button"
        id="user-menu-button"
        className="user-menu__trigger"
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={() => setOpen((value) => !value)}
      >
        {user.avatarUrl ? (
          <img className="user-menu__avatar" src={user.avatarUrl} alt="" />
        ) : (
          <span className="user-menu__avatar user-menu__avatar--initials" aria-hidden="true">
            {initials(user.name)}
          </span>
        )}
        <span className="user-menu__name">{user.name}</span>
      </button>
      {open && (
        <ul className="user-menu__dropdown" role="menu" aria-labelledby="user-menu-button">
          <li role="none" className="user-menu__email">
            {user.email}
          </li>
          {onOpenSettings && (
            <li role="none">
              <button
                type="button"
                role="menuitem"
                className="user-menu__settings"
                onClick={() => {
                  setOpen(false);
                  onOpenSettings();
                }}
              >
                Settings
              </button>
            </li>
          )}
          <li role="none">
            <button type="button" role="menuitem" className="user-menu__logout" onClick={logout}>
              Sign out
            </button>
          </li>
        </ul>
      )}
    </div>
  );
}

export default UserMenu;
