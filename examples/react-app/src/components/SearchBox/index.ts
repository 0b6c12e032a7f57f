export { SearchBox, default } from './SearchBox';
