import type { Product } from '@/types/models';
import { request } from './client';

export function searchProducts(query: string): Promise<Product[]> {
  return request<Product[]>(`/products?q=${encodeURIComponent(query)}`);
}
