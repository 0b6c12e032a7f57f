import './Pagination.css';

export type PageItem = number | 'ellipsis';

/** Returns the page numbers to show, collapsing long ranges into ellipses. */
export function getPageItems(page: number, totalPages: number, siblingCount = 1): PageItem[] {
  const totalVisible = siblingCount * 2 + 5;
  if (totalPages <= totalVisible) {
    return Array.from({ length: totalPages }, (_, index) => index + 1);
  }

  const start = Math.max(page - siblingCount, 2);
  const end = Math.min(page + siblingCount, totalPages - 1);
  const items: PageItem[] = [1];

  if (start > 2) items.push('ellipsis');
  for (let current = start; current <= end; current += 1) items.push(current);
  if (end < totalPages - 1) items.push('ellipsis');
  items.push(totalPages);

  return items;
}

export interface PaginationProps {
  page: number;
  totalPages: number;
  onPageChange: (page: number) => void;
  siblingCount?: number;
}

export function Pagination({ page, totalPages, onPageChange, siblingCount = 1 }: PaginationProps) {
  if (totalPages <= 1) return null;

  const items = getPageItems(page, totalPages, siblingCount);

  return (
    <nav className="pagination" aria-label="Pagination">
      <button
        type="button"
        className="pagination__prev"
        onClick={() => onPageChange(page - 1)}
        disabled={page <= 1}
      >
        Previous
      </button>
      <ol className="pagination__pages">
        {items.map((item, index) =>
          item === 'ellipsis' ? (
            <li key={`ellipsis-${index}`} className="pagination__ellipsis" aria-hidden="true">
              …
            </li>
          ) : (
            <li key={item}>
              <button
                type="button"
                className={item === page ? 'pagination__page active' : 'pagination__page'}
                aria-current={item === page ? 'page' : undefined}
                aria-label={`Page ${item}`}
                onClick={() => onPageChange(item)}
              >
                {item}
              </button>
            </li>
          ),
        )}
      </ol>
      <button
        type="button"
        className="pagination__next"
        onClick={() => onPageChange(page + 1)}
        disabled={page >= totalPages}
      >
        Next
      </button>
    </nav>
  );
}

export default Pagination;
