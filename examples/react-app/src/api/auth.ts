import type { User } from '@/types/models';
import { request } from './client';

export interface Credentials {
  email: string;
  password: string;
}

export function login(credentials: Credentials): Promise<User> {
  return request<User>('/session', {
    method: 'POST',
    body: JSON.stringify(credentials),
  });
}

export function logout(): Promise<void> {
  return request<void>('/session', { method: 'DELETE' });
}
