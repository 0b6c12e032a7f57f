import { useCallback, useState } from 'react';
import { fetchUsers } from '@/api/users';
import { useAsync } from '@/hooks/useAsync';
import type { Role, User } from '@/types/models';
import { UserListItem } from './UserListItem';
import './UserList.css';

export interface UserListProps {
  role?: Role;
  onSelect?: (user: User) => void;
}

export function UserList({ role, onSelect }: UserListProps) {
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const load = useCallback(() => fetchUsers({ role }), [role]);
  const { status, data: users, error, retry } = useAsync(load);

  const handleSelect = (user: User) => {
    setSelectedId(user.id);
    onSelect?.(user);
  };

  if (status === 'pending') {
    return (
      <p className="user-list__loading" role="status">
        Loading users…
      </p>
    );
  }

  if (status === 'rejected') {
    return (
      <div className="user-list__error" role="alert">
        <p>Could not load users: {error?.message}</p>
        <button type="button" className="user-list__retry" onClick={retry}>
          Try again
        </button>
      </div>
    );
  }

  if (!users || users.length === 0) {
    return <p className="user-list__empty">No users found.</p>;
  }

  return (
    <ul className="user-list" aria-label="Users">
      {users.map((user) => (
        <UserListItem key={user.id} user={user} selected={user.id === selectedId} onSelect={handleSelect} />
      ))}
    </ul>
  );
}

export default UserList;
