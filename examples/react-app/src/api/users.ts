import type { Role, User } from '@/types/models';
import { request } from './client';

export interface FetchUsersOptions {
  role?: Role;
}

export function fetchUsers({ role }: FetchUsersOptions = {}): Promise<User[]> {
  const query = role ? `?role=${encodeURIComponent(role)}` : '';
  return request<User[]>(`/users${query}`);
}

export function fetchUser(id: number): Promise<User> {
  return request<User>(`/users/${id}`);
}
