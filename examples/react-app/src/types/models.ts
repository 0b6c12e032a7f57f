export type Role = 'admin' | 'editor' | 'viewer';

export interface User {
  id: number;
  name: string;
  email: string;
  role: Role;
  avatarUrl?: string;
}

export interface Product {
  id: string;
  name: string;
  price: number;
  inStock: boolean;
}

export interface Todo {
  id: number;
  text: string;
  completed: boolean;
}

export type Theme = 'light' | 'dark';
