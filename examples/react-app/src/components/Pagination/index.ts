export { Pagination, getPageItems, default } from './Pagination';
