import { useEffect, useState } from 'react';
import { searchProducts } from '@/api/products';
import { useDebounce } from '@/hooks/useDebounce';
import type { Product } from '@/types/models';
import './SearchBox.css';

export interface SearchBoxProps {
  onSelect: (product: Product) => void;
  debounceMs?: number;
  minLength?: number;
}

type SearchState =
  | { status: 'idle' }
  | { status: 'loading' }
  | { status: 'done'; results: Product[] }
  | { status: 'error' };

const priceFormatter = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

export function SearchBox({ onSelect, debounceMs = 250, minLength = 2 }: SearchBoxProps) {
  const [query, setQuery] = useState('');
  const [state, setState] = useState<SearchState>({ status: 'idle' });
  const debouncedQuery = useDebounce(query.trim(), debounceMs);

  useEffect(() => {
    if (debouncedQuery.length < minLength) {
      setState({ status: 'idle' });
      return undefined;
    }

    let cancelled = false;
    setState({ status: 'loading' });
    searchProducts(debouncedQuery).then(
      (results) => {
        if (!cancelled) setState({ status: 'done', results });
      },
      () => {
        if (!cancelled) setState({ status: 'error' });
      },
    );
    return () => {
      cancelled = true;
    };
  }, [debouncedQuery, minLength]);

  return (
    <div className="search-box" role="search">
      <label htmlFor="product-search">Search products</label>
      <input
        id="product-search"
        type="search"
        value={query}
        placeholder="e.g. keyboard"
        onChange={(event) => setQuery(event.target.value)}
      />
      {state.status === 'loading' && <p className="search-box__status">Searching…</p>}
      {state.status === 'error' && (
        <p className="search-box__status" role="alert">
          Search is unavailable right now.
        </p>
      )}
      {state.status === 'done' && state.results.length === 0 && (
        <p className="search-box__status">No products match “{debouncedQuery}”.</p>
      )}
      {state.status === 'done' && state.results.length > 0 && (
        <ul className="search-box__results" aria-label="Search results">
          {state.results.map((product) => (
            <li key={product.id}>
              <button type="button" onClick={() => onSelect(product)} disabled={!product.inStock}>
                {product.name} <span className="search-box__price">{priceFormatter.format(product.price)}</span>
                {!product.inStock && <span className="search-box__stock"> (out of stock)</span>}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export default SearchBox;
