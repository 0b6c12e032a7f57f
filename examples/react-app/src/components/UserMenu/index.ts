export { UserMenu, default } from './UserMenu';
