import userEvent from '@testing-library/user-event';
import { searchProducts } from '@/api/products';
import { render, screen, within } from '@/test-utils';
import type { Product } from '@/types/models';
import { SearchBox } from './SearchBox';

jest.mock('@/api/products');

const mockSearchProducts = jest.mocked(searchProducts);

const products: Product[] = [
  { id: 'kb-1', name: 'Mechanical keyboard', price: 89.5, inStock: true },
  { id: 'kb-2', name: 'Keyboard cover', price: 12, inStock: false },
];

describe('SearchBox', () => {
  it('does not search until enough characters are typed', async () => {
    const user = userEvent.setup();
    render(<SearchBox onSelect={jest.fn()} />);

    await user.type(screen.getByLabelText('Search products'), 'k');

    expect(screen.getByRole('searchbox', { name: 'Search products' })).toHaveValue('k');
    expect(screen.queryByText('Searching…')).not.toBeInTheDocument();
    expect(mockSearchProducts).not.toHaveBeenCalled();
  });

  it('shows the matching products', async () => {
    mockSearchProducts.mockResolvedValue(products);
    const user = userEvent.setup();
    render(<SearchBox onSelect={jest.fn()} />);

    await user.type(screen.getByRole('searchbox', { name: 'Search products' }), 'keyboard');

    const results = await screen.findByRole('list', { name: 'Search results' });
    expect(within(results).getAllByRole('listitem')).toHaveLength(2);
    expect(within(results).getByRole('button', { name: /Mechanical keyboard/ })).toHaveTextContent('$89.50');
    expect(within(results).getByRole('button', { name: /Keyboard cover/ })).toBeDisabled();
    expect(mockSearchProducts).toHaveBeenCalledTimes(1);
    expect(mockSearchProducts).toHaveBeenCalledWith('keyboard');
  });

  it('tells the user when nothing matches', async () => {
    mockSearchProducts.mockResolvedValue([]);
    const user = userEvent.setup();
    render(<SearchBox onSelect={jest.fn()} />);

    await user.type(screen.getByLabelText('Search products'), 'teapot');

    expect(await screen.findByText('No products match “teapot”.')).toBeInTheDocument();
    expect(screen.queryByRole('list')).not.toBeInTheDocument();
  });

  it('reports search failures', async () => {
    mockSearchProducts.mockRejectedValue(new Error('503'));
    const user = userEvent.setup();
    render(<SearchBox onSelect={jest.fn()} />);

    await user.type(screen.getByLabelText('Search products'), 'mouse');

    expect(await screen.findByRole('alert')).toHaveTextContent('Search is unavailable right now.');
  });

  it('calls onSelect with the chosen product', async () => {
    mockSearchProducts.mockResolvedValue(products);
    const onSelect = jest.fn();
    const user = userEvent.setup();
    render(<SearchBox onSelect={onSelect} />);

    await user.type(screen.getByLabelText('Search products'), 'key');
    await user.click(await screen.findByRole('button', { name: /Mechanical keyboard/ }));

    expect(onSelect).toHaveBeenCalledWith(products[0]);
  });
});
